"""What earlier rounds of an event did, as the pairing rules read it: who met whom, who sat where, who had a bye.

The pairings (``swiss``, ``round_robin``) avoid rematches, rotate byes and balance seats from this record alone;
the Django side builds it from the event's stored tables, so nothing here knows a database.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property


@dataclass(frozen=True)
class _Index:
    """The counts a pairing asks for again and again, built in one pass over the tables."""

    pairs: Counter[tuple[int, int]] = field(default_factory=Counter)
    seats: dict[int, Counter[int]] = field(default_factory=dict)
    byes: Counter[int] = field(default_factory=Counter)
    # The sum over a player's past tables of (seat index - the table's middle seat): below zero, they sat early
    # more than late. Tables of different sizes add up on one scale this way.
    lean: dict[int, float] = field(default_factory=dict)
    # The index in ``tables`` of the last table at which a player sat in seat 0 (-1: never), so that two players
    # otherwise equal take seat 0 in turn.
    last_first: dict[int, int] = field(default_factory=dict)


@dataclass(frozen=True)
class History:
    """What earlier rounds of an event did: each past table in seat order, and who had a bye.

    ``tables`` are in the order they were played (a table of a later round after those of an earlier one): the
    seat rules read who sat first most recently from that order. A player appears in ``byes`` once per bye.
    """

    tables: tuple[tuple[int, ...], ...] = ()
    byes: tuple[int, ...] = ()

    @classmethod
    def of(cls, tables: Iterable[Sequence[int]] = (), byes: Iterable[int] = ()) -> History:
        """Build a history from any sequences (lists from JSON, query results), frozen into tuples."""
        return cls(tuple(tuple(table) for table in tables), tuple(byes))

    def added(self, tables: Iterable[Sequence[int]] = (), byes: Iterable[int] = ()) -> History:
        """Return this history followed by one more round's tables and byes (the event's record as it grows)."""
        return History(self.tables + tuple(tuple(table) for table in tables), self.byes + tuple(byes))

    @cached_property
    def _index(self) -> _Index:
        # cached_property writes to the instance's __dict__ directly, which a frozen dataclass allows: the index
        # is built once, on the first question, and a history of 1,000 players over 10 rounds stays cheap to ask.
        index = _Index()
        for number, table in enumerate(self.tables):
            middle = (len(table) - 1) / 2
            for seat, player in enumerate(table):
                index.seats.setdefault(player, Counter())[seat] += 1
                index.lean[player] = index.lean.get(player, 0.0) + seat - middle
                if seat == 0:
                    index.last_first[player] = number
                for other in table[seat + 1:]:
                    index.pairs[(player, other) if player < other else (other, player)] += 1
        index.byes.update(self.byes)
        return index

    def met(self, a: int, b: int) -> int:
        """Return how many past tables had both ``a`` and ``b`` at them."""
        return self._index.pairs.get((a, b) if a < b else (b, a), 0)

    def byes_of(self, player: int) -> int:
        """Return how many byes ``player`` has had."""
        return self._index.byes.get(player, 0)

    def seat_counts(self, player: int) -> Counter[int]:
        """Return, for each seat index, how many times ``player`` sat there (a copy: the caller may change it)."""
        return Counter(self._index.seats.get(player, ()))

    def first_seats(self, player: int) -> int:
        """Return how many times ``player`` sat in seat 0, the seat that moves first in most games."""
        return self._index.seats.get(player, Counter())[0]

    def games(self, player: int) -> int:
        """Return how many past tables ``player`` sat at."""
        return sum(self._index.seats.get(player, Counter()).values())

    def seat_lean(self, player: int) -> float:
        """Return how far ``player``'s past seats lean late: the sum over their tables of seat index minus the
        table's middle seat. Negative: they sat early more often, so they are owed later seats."""
        return self._index.lean.get(player, 0.0)

    def last_first_seat(self, player: int) -> int:
        """Return the index in ``tables`` of the last table where ``player`` sat in seat 0, -1 if never."""
        return self._index.last_first.get(player, -1)
