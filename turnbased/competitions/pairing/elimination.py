"""Elimination: single and double brackets as plain data, what they make playable as results come in, the final
places; and the rounds of multi-player elimination, where the best places of each table go through.

A bracket is a tuple of ``Match`` whose two ``Slot`` say where each player comes from (a seed, the winner or the
loser of another match, or nobody: a bye). It holds no players and no results, so the Django side stores it once
as JSON (``bracket_to_json``) and reads the state of the event from the seeds and the winners so far.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass

WINNERS, LOSERS, FINAL = "winners", "losers", "final"


@dataclass(frozen=True)
class Slot:
    """Where a match's player comes from: a seed (1-based), the winner or the loser of a match; none: nobody."""

    seed: int | None = None
    winner_of: str | None = None
    loser_of: str | None = None


@dataclass(frozen=True)
class Match:
    """One match of a bracket: ``id`` as "W1-1" (winners' round 1, match 1), "L2-3", "GF" or "GF2"."""

    id: str
    round: int
    bracket: str
    a: Slot
    b: Slot


class _Unknown:
    """A player or result not decided yet (``None`` is nobody: a bye)."""

    def __repr__(self) -> str:
        return "<unknown>"


_UNKNOWN = _Unknown()


def bracket_order(size: int) -> list[int]:
    """Return the seeds of a bracket of ``size`` (a power of two) in the order they stand down the bracket.

    Each doubling puts beside every seed s its opponent size + 1 - s, on alternate sides, so the first-round
    matches of 16 run (1, 16), (8, 9), (5, 12), (4, 13), (3, 14), (6, 11), (7, 10), (2, 15): seeds 1 and 2 are
    in different halves, 1 to 4 in different quarters, and each match's favourite meets the favourites in turn.
    """
    order = [1]
    while len(order) < size:
        doubled = 2 * len(order) + 1
        order = [seed for place, s in enumerate(order)
                 for seed in ((s, doubled - s) if place % 2 == 0 else (doubled - s, s))]
    return order


def single_elimination(entrants: int) -> tuple[Match, ...]:
    """Return a single-elimination bracket for ``entrants`` seeds; the last match is the final.

    The bracket is the next power of two; the missing seeds are the lowest, so the byes fall to the top seeds.
    """
    return tuple(_winners_bracket(entrants))


def double_elimination(entrants: int, *, reset: bool = True) -> tuple[Match, ...]:
    """Return a double-elimination bracket: a winners' bracket, a losers' bracket and the grand final "GF".

    The losers' bracket alternates: a round among its own survivors (the first: the losers of the winners' first
    round), then a round where they meet the losers of the next winners' round, who drop in the order that keeps
    rematches rarest (``_DROPS``). The grand final sets the winners' bracket winner (slot a) against the losers'
    bracket winner (slot b); with ``reset``, a "GF2" is played when b wins "GF", as until then a had lost no match.
    """
    winners = _winners_bracket(entrants)
    rounds = winners[-1].round
    size = 1 << rounds
    losers: list[Match] = []
    for i in range(size // 4):
        losers.append(Match(f"L1-{i + 1}", 1, LOSERS, Slot(loser_of=f"W1-{2 * i + 1}"),
                            Slot(loser_of=f"W1-{2 * i + 2}")))
    for drop in range(1, rounds):
        count = size >> (drop + 1)
        dropped = _drop_order([f"W{drop + 1}-{i + 1}" for i in range(count)], drop, rounds)
        for i in range(count):
            losers.append(Match(f"L{2 * drop}-{i + 1}", 2 * drop, LOSERS, Slot(winner_of=f"L{2 * drop - 1}-{i + 1}"),
                                Slot(loser_of=dropped[i])))
        if drop < rounds - 1:
            for i in range(count // 2):
                losers.append(Match(f"L{2 * drop + 1}-{i + 1}", 2 * drop + 1, LOSERS,
                                    Slot(winner_of=f"L{2 * drop}-{2 * i + 1}"),
                                    Slot(winner_of=f"L{2 * drop}-{2 * i + 2}")))
    # With two entrants there is no losers' bracket: the loser of the only match goes straight to the final.
    survivor = Slot(winner_of=losers[-1].id) if losers else Slot(loser_of=winners[-1].id)
    finals = [Match("GF", 1, FINAL, Slot(winner_of=winners[-1].id), survivor)]
    if reset:
        finals.append(Match("GF2", 2, FINAL, Slot(winner_of="GF"), Slot(loser_of="GF")))
    return (*winners, *losers, *finals)


def _winners_bracket(entrants: int) -> list[Match]:
    if entrants < 2:
        raise ValueError("a bracket needs at least two entrants")
    rounds = (entrants - 1).bit_length()
    order = bracket_order(1 << rounds)
    matches = []
    for i in range(len(order) // 2):
        favourite, other = sorted(order[2 * i:2 * i + 2])
        matches.append(Match(f"W1-{i + 1}", 1, WINNERS, Slot(seed=favourite),
                             Slot(seed=other) if other <= entrants else Slot()))
    for number in range(2, rounds + 1):
        for i in range(len(order) >> number):
            matches.append(Match(f"W{number}-{i + 1}", number, WINNERS, Slot(winner_of=f"W{number - 1}-{2 * i + 1}"),
                                 Slot(winner_of=f"W{number - 1}-{2 * i + 2}")))
    return matches


# How the losers of each winners' round after the first drop into the losers' bracket, by the number of winners'
# rounds: one ordering per drop, "pairs" (each two neighbours swapped) for the drops not listed. Measured, among
# the usual orderings (as they stand, reversed, halves swapped, neighbours swapped), on simulated brackets: the
# favourites winning every match, and 200 random runs; these give the fewest rematches before the grand final: one
# when the favourites win (the losers' final), and at random 0.6 to 0.8 per bracket of 8 to 128 (1.2 at 256),
# against 1.3 (8) to 13 (64) with no reordering. No single rule is best at every size; other bracket tools
# tabulate by size as well.
_DROPS = {4: ("halves", "as_is"), 5: ("reverse",)}
_DROPS_LARGER = ("halves", "reverse")


def _drop_order(ids: list[str], drop: int, rounds: int) -> list[str]:
    """The losers of the winners' round ``drop + 1``, in the order of the losers' matches they drop into."""
    named = _DROPS.get(rounds, _DROPS_LARGER if rounds > 5 else ())
    how = named[drop - 1] if drop <= len(named) else "pairs"
    half = len(ids) // 2
    if how == "halves":
        return ids[half:] + ids[:half]
    if how == "reverse":
        return ids[::-1]
    if how == "pairs":
        return [ids[i ^ 1] for i in range(len(ids))] if len(ids) > 1 else ids
    return ids


# -- the state of a bracket ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Outcome:
    players: tuple[object, object]  # each a player id, None (nobody) or _UNKNOWN
    winner: object
    loser: object


def _outcomes(matches: Iterable[Match], seeds: Sequence[int], winners: Mapping[str, int]) -> dict[str, _Outcome]:
    by_id = {match.id: match for match in matches}
    if len(set(seeds)) != len(seeds):
        raise ValueError("a player holds two seeds")
    unknown_ids = set(winners) - set(by_id)
    if unknown_ids:
        raise ValueError(f"no such match: {sorted(unknown_ids)}")
    done: dict[str, _Outcome] = {}

    def player(slot: Slot) -> object:
        if slot.seed is not None:
            if not 1 <= slot.seed <= len(seeds):
                raise ValueError(f"seed {slot.seed} has no player")
            return seeds[slot.seed - 1]
        if slot.winner_of is not None:
            return outcome(slot.winner_of).winner
        if slot.loser_of is not None:
            return outcome(slot.loser_of).loser
        return None

    def outcome(match_id: str) -> _Outcome:
        if match_id not in done:
            done[match_id] = _decide(by_id[match_id], player(by_id[match_id].a), player(by_id[match_id].b),
                                     winners, outcome)
        return done[match_id]

    for match_id in by_id:
        outcome(match_id)
    return done


def _decide(match: Match, a: object, b: object, winners: Mapping[str, int], outcome) -> _Outcome:
    if match.id == "GF2":
        final = outcome("GF")
        if final.winner is not _UNKNOWN and final.winner == final.players[0]:
            # The winners' bracket winner won the first final: they have lost no match, the second is not needed.
            return _refuse_result(match, winners, _Outcome((a, b), None, None))
    if a is _UNKNOWN or b is _UNKNOWN:
        return _refuse_result(match, winners, _Outcome((a, b), _UNKNOWN, _UNKNOWN))
    if a is None or b is None:  # a bye: whoever is there goes through without playing
        return _refuse_result(match, winners, _Outcome((a, b), b if a is None else a, None))
    if match.id not in winners:
        return _Outcome((a, b), _UNKNOWN, _UNKNOWN)
    winner = winners[match.id]
    if winner not in (a, b):
        raise ValueError(f"{winner} did not play {match.id}")
    return _Outcome((a, b), winner, b if winner == a else a)


def _refuse_result(match: Match, winners: Mapping[str, int], outcome: _Outcome) -> _Outcome:
    """A result for a match that cannot be played (yet) is a mistake of the caller, not something to ignore."""
    if match.id in winners:
        raise ValueError(f"{match.id} has a winner but cannot be played")
    return outcome


def playable(matches: Iterable[Match], seeds: Sequence[int],
             winners: Mapping[str, int]) -> list[tuple[Match, int, int]]:
    """Return the matches ready to play: both players known, no winner yet; the players in seat order, the
    better seed (the lower number) in seat 0. ``seeds[0]`` is seed 1's player; ``winners`` maps a played
    match's id to its winner."""
    matches = tuple(matches)
    outcomes = _outcomes(matches, seeds, winners)
    seed_of = {player: number for number, player in enumerate(seeds, 1)}
    ready = []
    for match in matches:
        found = outcomes[match.id]
        a, b = found.players
        if found.winner is _UNKNOWN and isinstance(a, int) and isinstance(b, int):
            ready.append((match, *sorted((a, b), key=seed_of.__getitem__)))
    return ready


def resolved(matches: Iterable[Match], seeds: Sequence[int], winners: Mapping[str, int]) -> dict[str, int | None]:
    """Return each decided match's winner: those played (``winners``), and those decided without play: a bye's
    player, ``None`` when nobody was in either slot or for a "GF2" that is not needed."""
    return {match_id: found.winner for match_id, found in _outcomes(matches, seeds, winners).items()
            if found.winner is not _UNKNOWN}


def placings(matches: Iterable[Match], seeds: Sequence[int], winners: Mapping[str, int]) -> list[list[int]]:
    """Return the final places once the bracket is decided (else an empty list), best first, as groups of players
    who share a place: the winner, the runner-up, then those out in the same round together, the later round
    first (single elimination: the round they lost; double: the losers' round they lost)."""
    matches = tuple(matches)
    outcomes = _outcomes(matches, seeds, winners)
    finals = [match for match in matches if match.bracket == FINAL]
    if finals:
        last = [match for match in finals if outcomes[match.id].winner not in (_UNKNOWN, None)]
        if any(outcomes[match.id].winner is _UNKNOWN for match in finals) or not last:
            return []
        decider, out_bracket = outcomes[last[-1].id], LOSERS
    else:
        final = max((match for match in matches if match.bracket == WINNERS), key=lambda match: match.round)
        decider, out_bracket = outcomes[final.id], WINNERS
        if decider.winner is _UNKNOWN:
            return []
    places = [[decider.winner], [decider.loser]]
    out = [match for match in matches if match.bracket == out_bracket]
    for number in sorted({match.round for match in out}, reverse=True):
        group = [outcomes[match.id].loser for match in out if match.round == number]
        group = [player for player in group if player is not None and player not in places[1]]
        if group:
            places.append(group)
    return places


def bracket_to_json(matches: Iterable[Match]) -> list[dict]:
    """Return the bracket as JSON-ready dicts; a slot lists only what it has (``{}`` for nobody)."""
    return [{"id": match.id, "round": match.round, "bracket": match.bracket,
             "a": {key: value for key, value in asdict(match.a).items() if value is not None},
             "b": {key: value for key, value in asdict(match.b).items() if value is not None}}
            for match in matches]


def bracket_from_json(data: Iterable[Mapping]) -> tuple[Match, ...]:
    """Return the bracket that ``bracket_to_json`` wrote."""
    return tuple(Match(id=item["id"], round=item["round"], bracket=item["bracket"],
                       a=Slot(**item["a"]), b=Slot(**item["b"])) for item in data)


# -- multi-player elimination ----------------------------------------------------------------------------------


def elimination_tables(ranked: Sequence[int], table_size: int) -> list[tuple[int, ...]]:
    """Seat ``ranked`` (best first) at tables of ``table_size`` and, where the count needs it, one seat fewer.

    Dealt as a snake (1, 2, 3, 3, 2, 1, ...) so every table gets a like share of strong and weak players. Within
    a table the lowest-ranked sits first and the best last: seat 0 moves first in most of the service's games,
    the usual advantage, and it goes to whoever the seeding favours least.
    """
    if table_size < 2:
        raise ValueError("a table has at least two seats")
    if len(set(ranked)) != len(ranked):
        raise ValueError("a player is listed twice")
    count = -(-len(ranked) // table_size)
    if count == 0 or len(ranked) < count * (table_size - 1):
        raise ValueError(f"{len(ranked)} players cannot all sit at tables of {table_size - 1} or {table_size}")
    tables: list[list[int]] = [[] for _ in range(count)]
    for place, player in enumerate(ranked):
        sweep, position = divmod(place, count)
        tables[position if sweep % 2 == 0 else count - 1 - position].append(player)
    return [tuple(reversed(table)) for table in tables]


def advancing(places_by_table: Sequence[Sequence[tuple[int, int]]], keep: int, *,
              ranked: Sequence[int] | None = None) -> list[int]:
    """Return who goes through: at each table, everyone with fewer than ``keep`` players placed strictly ahead of
    them (so players tied at the cut go through together), ranked by place, then by ``ranked`` (the order of the
    round before) or, without it, by the order given.

    Each table is a list of (player, place), place 1 the best; ties share a place.
    """
    if keep < 1:
        raise ValueError("at least one player of a table goes through")
    given = [player for table in places_by_table for player, _ in table]
    order = {player: place for place, player in enumerate(given if ranked is None else ranked)}
    if set(given) - set(order):
        raise ValueError("a player at a table is missing from the ranking")
    through = []
    for table in places_by_table:
        for player, place in table:
            if sum(other < place for _, other in table) < keep:
                through.append((place, order[player], player))
    return [player for *_, player in sorted(through)]


def final_reached(count: int, table_size: int) -> bool:
    """Tell whether ``count`` players fit at one table: the next round is the final."""
    return count <= table_size
