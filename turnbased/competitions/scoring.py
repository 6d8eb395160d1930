"""Points and standings of a competition: place points, byes, tie-breaks, and standings kept game by game.

Pure Python, no Django and no database: the competitions app stores one row per entrant (``Row``'s columns)
and, when a game ends, adds the ``Change`` list this module gives it, instead of recomputing every row.
``from_scratch`` computes the same rows from the whole history: the reference the tests hold the increments
to, and the repair when a result is corrected.

Definitions (``p`` a player; a game's *opponents* of ``p`` are all the other players at its table, counted
again each time they meet; byes are not games and have no opponents):

- *place*: 1 is best; seats that tie share a place and the next place skips (1, 1, 3), as
  ``ratings.rules.places`` gives it.
- *place points*: from the table for the game's player count (``points_table``); seats tied on place ``q``
  spanning places ``q .. q+t-1`` each get the mean of those ``t`` entries, so a game always hands out
  exactly its table's sum. A game every player lost (``all_last``: each placed last, together) gives each
  the last place's points; against each other they count as level.
- *points*: the sum of ``p``'s place points and bye points.
- *buchholz*: over every game of ``p`` and every opponent in it, the sum of the opponent's points now.
- *sonneborn_berger*: the same sum, each term weighted by ``p``'s *factor* against that opponent in that
  game: 1 if ``p`` placed above, 0.5 if tied, 0 if below. With two players: a win counts the opponent's
  points, a draw half, a loss nothing (the classic definition).
- *head_to_head*: within a group tied on everything before it, the place points each scored in the games
  whose every seat is in the group; computed when ordering, never stored.
- *wins*, *second_places*, *third_places*: how many games ``p`` placed 1st (a shared first is a win),
  2nd, 3rd. Places skipped by a tie are nobody's (1, 1, 3 has no second).
- *score_ratio*: the mean, over the games with numeric scores, of ``p``'s score ÷ the winner's score (the
  highest score among the seats placed first), kept within 0..1: a seat that left may out-score the
  winner (it places below all who stayed) yet earned no more than the win, and a negative share would
  let one collapse outweigh several good games. When the winner's score is 0 or below no share exists:
  a seat with the winner's score gets 1, any other 0. A player with no such game has ratio 0.

Numbers come in as anything ``float()`` takes (a DecimalField's Decimal too) and go out as floats. Sums
of halves and thirds drift in the last bits, so ``ranked`` treats values within ``TOLERANCE`` as equal:
an absolute 1e-6, the resolution a six-place decimal column keeps, far below the 1/1680 by which two sums
of whole-point entries shared at tables of up to 8 (and halved for Sonneborn-Berger) can differ.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from enum import StrEnum
from fractions import Fraction

TOLERANCE = 1e-6


def _triangular(size: int) -> tuple[float, ...]:
    # Place i of n gets the triangular number T(n+1-i): the gaps between neighbouring places grow by one
    # toward the top (2, 3, 4, ...), as in the 3- and 4-player defaults, so passing one more player is worth
    # more the higher it lifts you; the last keeps the 4-player default's point for finishing. For 4 players
    # this is that default exactly (10, 6, 3, 1); for 5, (15, 10, 6, 3, 1).
    return tuple(float((k * (k + 1)) // 2) for k in range(size, 0, -1))


# The points per place for each table size, best place first. 2 to 4 players are the organisers' familiar
# values; larger tables follow ``_triangular`` (and so does any size beyond this dict, see ``points_table``).
DEFAULT_POINTS: dict[int, tuple[float, ...]] = {
    2: (1.0, 0.0),
    3: (5.0, 2.0, 0.0),
    4: (10.0, 6.0, 3.0, 1.0),
    **{size: _triangular(size) for size in range(5, 9)},
}


class TieBreak(StrEnum):
    """The tie-breaks' machine names; the Django side words them."""

    SONNEBORN_BERGER = "sonneborn_berger"
    BUCHHOLZ = "buchholz"
    HEAD_TO_HEAD = "head_to_head"
    WINS = "wins"
    SECOND_PLACES = "second_places"
    THIRD_PLACES = "third_places"
    SCORE_RATIO = "score_ratio"


class ByePolicy(StrEnum):
    """What a bye is worth: a fixed amount, or the mean of the table's place points (an average result)."""

    FIXED = "fixed"
    AVERAGE = "average"


def default_tiebreaks(table_size: int) -> list[TieBreak]:
    """Return the tie-breaks an event starts with, a new list each call (the caller may edit it).

    Two-player events use the chess order, as their players expect. At larger tables the opponents'
    strength is blurred by sharing every table with several players, so the default rewards one's own
    finishes first, then how close one came to the winners.
    """
    if table_size == 2:
        return [TieBreak.SONNEBORN_BERGER, TieBreak.BUCHHOLZ, TieBreak.HEAD_TO_HEAD]
    return [TieBreak.WINS, TieBreak.SECOND_PLACES, TieBreak.THIRD_PLACES, TieBreak.SCORE_RATIO]


def points_table(
    table_size: int, configured: Mapping[str | int, Sequence[float]] | None = None
) -> tuple[float, ...]:
    """Return the points per place, best first, for a game of ``table_size`` players.

    ``configured`` holds the organiser's tables by size; its keys may be strings (it comes from JSON). A
    size it lacks falls back to ``DEFAULT_POINTS``, then to ``_triangular``. A short table (a game with
    fewer players than the event seats) asks for its own size: the last place of a four-player table is
    not what the third of three earned. Raises ValueError for a size below 2 or a configured table that
    has the wrong length, a value that is not finite, or a lower place worth more than a higher one.
    """
    if table_size < 2:
        raise ValueError(f"a table has at least 2 players, not {table_size}")
    table = None
    if configured:
        table = configured.get(table_size, configured.get(str(table_size)))
    if table is None:
        return DEFAULT_POINTS.get(table_size) or _triangular(table_size)
    values = tuple(float(value) for value in table)
    if len(values) != table_size:
        raise ValueError(f"the table for {table_size} players has {len(values)} entries")
    if not all(math.isfinite(value) for value in values):
        raise ValueError(f"the table for {table_size} players has a value that is not a number")
    if any(lower > higher for higher, lower in zip(values, values[1:])):
        raise ValueError(f"the table for {table_size} players gives a lower place more points")
    return values


def all_last(places: Sequence[int]) -> bool:
    """Tell whether every seat shares the last place: a game every player lost (its round's deadline stopped it,
    and the organiser chose that nobody wins such a game)."""
    return len(places) > 1 and all(place == len(places) for place in places)


def check_places(places: Sequence[int]) -> None:
    """Raise ValueError unless ``places`` is a ranking with shared places that skip (1, 1, 3), or every seat
    sharing the last place (``all_last``)."""
    if all_last(places):
        return
    for place in places:
        # The definition itself: a seat's place is one more than the number of seats strictly above it.
        if place != 1 + sum(other < place for other in places):
            raise ValueError(f"places {list(places)} are not a ranking such as 1, 1, 3")


def place_points(places: Sequence[int], table: Sequence[float]) -> list[float]:
    """Return each seat's points for its place; seats that tie share the entries their places span equally.

    ``table`` is the one for this game's player count (``points_table(len(places))``); Fractions keep the
    shares exact until they become floats, so a game hands out its table's sum up to one rounding a seat.
    """
    check_places(places)
    if len(table) != len(places):
        raise ValueError(f"a table of {len(table)} entries for a game of {len(places)} players")
    if all_last(places):  # every player lost: each scores the last place's points, as a loser would
        return [float(table[-1])] * len(places)
    shares = []
    for place in places:
        tied = sum(other == place for other in places)
        spanned = table[place - 1 : place - 1 + tied]
        shares.append(float(sum(Fraction(float(value)) for value in spanned) / tied))
    return shares


def bye_points(policy: str, *, fixed: float, table: Sequence[float]) -> float:
    """Return what a bye is worth: ``fixed``, or under "average" the mean of the full ``table``."""
    if policy == ByePolicy.FIXED:
        return float(fixed)
    if policy == ByePolicy.AVERAGE:
        return float(sum(Fraction(float(value)) for value in table) / len(table))
    raise ValueError(f"unknown bye policy {policy!r}")


def sb_factor(own_place: int, other_place: int) -> float:
    """Return the Sonneborn–Berger factor of a seat against another: 1 placed above, 0.5 tied, 0 below."""
    return 1.0 if own_place < other_place else 0.5 if own_place == other_place else 0.0


@dataclass(frozen=True)
class GameOutcome:
    """A finished game as the standings see it; every tuple is in seat order."""

    players: tuple[int, ...]
    places: tuple[int, ...]
    points: tuple[float, ...]  # place points (``place_points``)
    scores: tuple[float, ...] | None = None  # the engine's scores, when they are numbers

    def __post_init__(self) -> None:
        # Refused here rather than mis-scored later: a row updated from a malformed game is wrong for good.
        if len(self.players) < 2 or len(set(self.players)) != len(self.players):
            raise ValueError(f"a game needs at least two different players, not {self.players}")
        if len(self.places) != len(self.players) or len(self.points) != len(self.players):
            raise ValueError("a game needs one place and one points value a seat")
        if self.scores is not None and len(self.scores) != len(self.players):
            raise ValueError("a game's scores need one value a seat")
        check_places(self.places)

    def score_ratios(self) -> list[float] | None:
        """Return each seat's score ratio (module docstring), or None when the game has no numeric scores."""
        if self.scores is None:
            return None
        scores = [float(score) for score in self.scores]
        best = max(score for score, place in zip(scores, self.places) if place == 1)
        if best <= 0:
            return [1.0 if score == best else 0.0 for score in scores]
        return [min(1.0, max(0.0, score / best)) for score in scores]


@dataclass(frozen=True)
class Bye:
    """A bye: ``points`` added to ``player``, who played no game that round."""

    player: int
    points: float


@dataclass(frozen=True)
class Change:
    """Add ``amount`` to ``column`` of ``player``'s row."""

    player: int
    column: str
    amount: float


@dataclass(frozen=True)
class Row:
    """One entrant's standing, as the competitions app stores it."""

    points: float = 0.0
    games: int = 0
    byes: int = 0
    wins: int = 0
    second_places: int = 0
    third_places: int = 0
    score_ratio_sum: float = 0.0
    score_ratio_games: int = 0
    buchholz: float = 0.0
    sonneborn_berger: float = 0.0

    @property
    def score_ratio(self) -> float:
        """Return the mean score ratio the tie-break compares (0 without a game of numeric scores)."""
        return self.score_ratio_sum / self.score_ratio_games if self.score_ratio_games else 0.0


COLUMNS: tuple[str, ...] = tuple(field.name for field in fields(Row))
_COUNTS = frozenset(field.name for field in fields(Row) if field.type == "int")
_PLACE_COLUMNS = {1: "wins", 2: "second_places", 3: "third_places"}


def _own(outcome: GameOutcome) -> list[Change]:
    # The columns a game changes of its own players, whatever else happened before: shared by the increments
    # and ``from_scratch``, which differ only in how they reach the opponents' columns.
    ratios = outcome.score_ratios()
    changes = []
    for seat, player in enumerate(outcome.players):
        changes += [Change(player, "points", float(outcome.points[seat])), Change(player, "games", 1)]
        if outcome.places[seat] in _PLACE_COLUMNS:
            changes.append(Change(player, _PLACE_COLUMNS[outcome.places[seat]], 1))
        if ratios is not None:
            changes += [Change(player, "score_ratio_sum", ratios[seat]), Change(player, "score_ratio_games", 1)]
    return changes


def _knock_on(
    player: int, rise: float, opponents_before: Mapping[int, Sequence[tuple[int, float]]]
) -> list[Change]:
    # ``player``'s points rose: every earlier opponent counted them in its buchholz, and in its
    # sonneborn_berger with its own factor against ``player``, which is 1 minus ``player``'s factor against it.
    changes = []
    for opponent, factor in opponents_before.get(player, ()):
        changes.append(Change(opponent, "buchholz", rise))
        changes.append(Change(opponent, "sonneborn_berger", (1.0 - float(factor)) * rise))
    return changes


def _merged(changes: Iterable[Change]) -> list[Change]:
    # One change per row and column: fewer updates for the database, in the order they first appear.
    totals: dict[tuple[int, str], float] = {}
    for change in changes:
        key = (change.player, change.column)
        totals[key] = totals.get(key, 0) + change.amount  # an int start keeps counts ints
    return [Change(player, column, amount) for (player, column), amount in totals.items() if amount != 0]


def changes_for_game(
    outcome: GameOutcome,
    opponents_before: Mapping[int, Sequence[tuple[int, float]]],
    points_before: Mapping[int, float],
) -> list[Change]:
    """Return what a finished game adds to the rows, without reading any other game.

    ``opponents_before[p]`` lists ``(opponent, factor)`` for each opponent of ``p`` in each earlier game,
    ``factor`` being ``p``'s (``sb_factor``) against that opponent; a player absent from it had no game.
    ``points_before`` holds every player at the table's points before this game.

    The order matters: earlier opponents of a seat held its old points, so they gain only its rise; the
    seats of this game count each other at their points after it, in full. Two seats that met before get
    both: the rise for the earlier meeting, the new total for this one.
    """
    after = {
        player: float(points_before[player]) + float(outcome.points[seat])
        for seat, player in enumerate(outcome.players)
    }
    changes = _own(outcome)
    for seat, player in enumerate(outcome.players):
        changes += _knock_on(player, float(outcome.points[seat]), opponents_before)
        for other_seat, other in enumerate(outcome.players):
            if other_seat != seat:
                factor = sb_factor(outcome.places[seat], outcome.places[other_seat])
                changes.append(Change(player, "buchholz", after[other]))
                changes.append(Change(player, "sonneborn_berger", factor * after[other]))
    return _merged(changes)


def changes_for_bye(
    player: int, amount: float, opponents_before: Mapping[int, Sequence[tuple[int, float]]]
) -> list[Change]:
    """Return what a bye adds: its points and a count of byes to ``player``, and the rise to earlier opponents.

    A bye is no game: the player's games, buchholz and sonneborn_berger stay as they were.
    """
    amount = float(amount)
    own = [Change(player, "points", amount), Change(player, "byes", 1)]
    return _merged([*own, *_knock_on(player, amount, opponents_before)])


def apply(rows: Mapping[int, Row], changes: Iterable[Change]) -> dict[int, Row]:
    """Return new rows with ``changes`` added (as the database would), leaving ``rows`` alone.

    A player without a row starts from zeros; an unknown column raises ValueError.
    """
    result = dict(rows)
    for change in changes:
        if change.column not in COLUMNS:
            raise ValueError(f"no column {change.column!r}")
        row = result.get(change.player, Row())
        value = getattr(row, change.column) + change.amount
        result[change.player] = replace(row, **{change.column: round(value) if change.column in _COUNTS else value})
    return result


def meetings(games: Iterable[GameOutcome]) -> dict[int, list[tuple[int, float]]]:
    """Return ``opponents_before`` for the games given: each player's (opponent, own factor) a meeting."""
    met: dict[int, list[tuple[int, float]]] = defaultdict(list)
    for game in games:
        for seat, player in enumerate(game.players):
            for other_seat, other in enumerate(game.players):
                if other_seat != seat:
                    met[player].append((other, sb_factor(game.places[seat], game.places[other_seat])))
    return dict(met)


def from_scratch(events: Sequence[GameOutcome | Bye], entrants: Iterable[int]) -> dict[int, Row]:
    """Return every row computed from the whole history (the definitions, read literally).

    Every entrant gets a row, and so does every player of an event. Sums are exact (``math.fsum``).
    """
    columns: dict[int, dict[str, list[float]]] = {player: defaultdict(list) for player in entrants}
    games = [event for event in events if isinstance(event, GameOutcome)]
    for event in events:
        changes = _own(event) if isinstance(event, GameOutcome) else [
            Change(event.player, "points", float(event.points)), Change(event.player, "byes", 1)
        ]
        for change in changes:
            columns.setdefault(change.player, defaultdict(list))[change.column].append(change.amount)
    points = {player: math.fsum(values["points"]) for player, values in columns.items()}
    for game in games:
        for seat, player in enumerate(game.players):
            for other_seat, other in enumerate(game.players):
                if other_seat != seat:
                    factor = sb_factor(game.places[seat], game.places[other_seat])
                    columns[player]["buchholz"].append(points[other])
                    columns[player]["sonneborn_berger"].append(factor * points[other])
    return {
        player: Row(**{
            column: round(math.fsum(values[column])) if column in _COUNTS else math.fsum(values[column])
            for column in COLUMNS
        })
        for player, values in columns.items()
    }


def _head_to_head(group: Sequence[int], games: Sequence[GameOutcome]) -> dict[int, float]:
    members = set(group)
    scored = {player: 0.0 for player in group}
    for game in games:
        if members.issuperset(game.players):
            for seat, player in enumerate(game.players):
                scored[player] += float(game.points[seat])
    return scored


def _value(row: Row, criterion: str) -> float:
    return float(getattr(row, criterion))  # each name but head_to_head is a column or Row.score_ratio


def _split(group: list[int], values: Mapping[int, float]) -> list[list[int]]:
    # Best first; neighbours within TOLERANCE stay together, so a sum that drifted in its last bits still
    # ties with the one it equals (a tolerance between neighbours, unlike rounding, has no edge to fall off).
    ordered = sorted(group, key=lambda player: (-values[player], player))
    parts = [[ordered[0]]]
    for previous, player in zip(ordered, ordered[1:]):
        if values[previous] - values[player] <= TOLERANCE:
            parts[-1].append(player)
        else:
            parts.append([player])
    return parts


def ranked(rows: Mapping[int, Row], tiebreaks: Sequence[str], games: Sequence[GameOutcome]) -> list[list[int]]:
    """Return the players in groups tied on everything, best first, each group in ascending player order.

    By points, then each tie-break in turn, each one only separating players every earlier one left tied;
    head_to_head reads ``games`` among the group it is separating. Raises ValueError for an unknown name.
    """
    criteria = ["points", *(TieBreak(name) for name in tiebreaks)]
    groups = [sorted(rows)] if rows else []
    for criterion in criteria:
        refined = []
        for group in groups:
            if len(group) == 1:
                refined.append(group)
                continue
            if criterion == TieBreak.HEAD_TO_HEAD:
                values = _head_to_head(group, games)
            else:
                values = {player: _value(rows[player], criterion) for player in group}
            refined += _split(group, values)
        groups = refined
    return [sorted(group) for group in groups]
