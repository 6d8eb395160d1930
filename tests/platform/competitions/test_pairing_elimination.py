"""Elimination: brackets of every size run to the end on random results; multi-player rounds keep the best places.

A bracket is played only through ``playable`` (what can be played now) and the winners fed back, as the
competitions app will: every size from 2 to 70, single and double, must reach its final places with no match
played twice. Pure tests of ``turnbased.competitions.pairing``: no database.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from turnbased.competitions.pairing import (
    Match, Slot, advancing, bracket_from_json, bracket_order, bracket_to_json, double_elimination, elimination_tables,
    final_reached, placings, playable, resolved, single_elimination,
)

SIZES = range(2, 71)


def _run(matches, seeds, pick):
    """Play ``matches`` to the end: each round, every playable match, its winner chosen by ``pick``. Return the
    winners and the list of (match id, seat 0, seat 1, winner) in the order played."""
    winners: dict[str, int] = {}
    played = []
    while True:
        ready = playable(matches, seeds, winners)
        if not ready:
            return winners, played
        for match, first, second in ready:
            assert match.id not in winners, "a match is playable twice"
            assert first != second
            winner = pick(first, second)
            winners[match.id] = winner
            played.append((match.id, first, second, winner))
        assert placings(matches, seeds, winners) == [] or not playable(matches, seeds, winners)


def _favourite(seeds):
    seed_of = {player: number for number, player in enumerate(seeds, 1)}
    return lambda a, b: min((a, b), key=seed_of.__getitem__)


def _seeds(entrants):
    return [500 + 7 * number for number in range(entrants)]  # seed 1's player first


def test_the_bracket_order_of_sixteen_is_the_standard_one():
    order = bracket_order(16)
    assert [tuple(sorted(order[i:i + 2])) for i in range(0, 16, 2)] == [
        (1, 16), (8, 9), (5, 12), (4, 13), (3, 14), (6, 11), (7, 10), (2, 15)]


@pytest.mark.parametrize("size", [2, 4, 8, 16, 32, 64, 128])
def test_the_best_seeds_are_spread_so_they_meet_as_late_as_possible(size):
    order = bracket_order(size)
    assert sorted(order) == list(range(1, size + 1))
    # Seeds 1..2^k sit in 2^k different sections of size / 2^k: the best two meet only in the final, the best four
    # only in the semi-finals, and so on.
    part = size
    while part > 1:
        sections = [order[i:i + part] for i in range(0, size, part)]
        best = [min(section) for section in sections]
        assert sorted(best) == list(range(1, len(sections) + 1))
        part //= 2


@pytest.mark.parametrize("entrants", SIZES)
def test_single_elimination_plays_entrants_minus_one_matches_to_final_places(entrants):
    matches = single_elimination(entrants)
    seeds = _seeds(entrants)
    rng = random.Random(entrants)
    winners, played = _run(matches, seeds, lambda a, b: rng.choice((a, b)))
    assert len(played) == entrants - 1, "every player but the champion loses one match"
    places = placings(matches, seeds, winners)
    assert sorted(player for group in places for player in group) == sorted(seeds), "everyone placed once"
    assert len(places[0]) == len(places[1]) == 1
    assert places[0][0] == resolved(matches, seeds, winners)[matches[-1].id]
    losses = Counter(b if winner == a else a for _, a, b, winner in played)
    assert set(losses.values()) == {1} and places[0][0] not in losses
    # The byes go to the top seeds: the first round's empty slots face seeds 1, 2, ...
    size = 1 << (entrants - 1).bit_length()
    byes = sorted(match.a.seed for match in matches if match.round == 1 and match.b == Slot())
    assert byes == list(range(1, size - entrants + 1))


@pytest.mark.parametrize("entrants", SIZES)
def test_the_favourites_winning_everything_brings_seeds_one_and_two_to_the_final_only(entrants):
    matches = single_elimination(entrants)
    seeds = _seeds(entrants)
    winners, played = _run(matches, seeds, _favourite(seeds))
    meetings = [match_id for match_id, a, b, _ in played if {a, b} == {seeds[0], seeds[1]}]
    assert meetings == [matches[-1].id]
    # Seat 0 holds the better seed.
    seed_of = {player: number for number, player in enumerate(seeds, 1)}
    assert all(seed_of[first] < seed_of[second] for _, first, second, _ in played)
    assert placings(matches, seeds, winners)[:2] == [[seeds[0]], [seeds[1]]]


@settings(max_examples=60, deadline=None)
@given(entrants=st.integers(2, 70), reset=st.booleans(), seed=st.integers(0, 2**32))
def test_double_elimination_runs_to_the_end_with_two_losses_for_everyone_but_the_champion(entrants, reset, seed):
    matches = double_elimination(entrants, reset=reset)
    seeds = _seeds(entrants)
    rng = random.Random(seed)
    winners, played = _run(matches, seeds, lambda a, b: rng.choice((a, b)))
    places = placings(matches, seeds, winners)
    assert sorted(player for group in places for player in group) == sorted(seeds)
    champion, runner_up = places[0][0], places[1][0]
    losses = Counter(b if winner == a else a for _, a, b, winner in played)
    # With a reset, every player but the champion loses exactly two matches, the champion at most one.
    # Without it, the grand final decides in one match: when the losers' bracket winner takes it, the
    # runner-up (the winners' bracket winner) goes out with a single loss.
    assert losses[champion] <= 1
    others = [player for player in seeds if player not in (champion, runner_up)]
    assert all(losses[player] == 2 for player in others)
    assert losses[runner_up] == 2 or (not reset and losses[runner_up] == 1 and played[-1][0] == "GF")
    assert len(played) in (2 * entrants - 2, 2 * entrants - 1)
    # After the final two, each group is those out in one losers' round, a later round placing better.
    out_round = {b if winner == a else a: int(match_id[1:].split("-")[0])
                 for match_id, a, b, winner in played if match_id.startswith("L")}
    rounds = [{out_round[player] for player in group} for group in places[2:]]
    assert all(len(group) == 1 for group in rounds)
    assert [group.pop() for group in rounds] == sorted({out_round[p] for p in out_round if p != runner_up},
                                                       reverse=True)


@pytest.mark.parametrize("entrants", SIZES)
def test_double_elimination_with_the_favourites_winning_has_one_rematch_at_most_before_the_grand_final(entrants):
    matches = double_elimination(entrants)
    seeds = _seeds(entrants)
    winners, played = _run(matches, seeds, _favourite(seeds))
    met = Counter(frozenset((a, b)) for match_id, a, b, _ in played if match_id[:2] != "GF")
    assert sum(times - 1 for times in met.values()) <= 1
    assert placings(matches, seeds, winners)[0] == [seeds[0]]
    assert [match_id for match_id, *_ in played][-1] == "GF", "the winners' bracket winner needs no second final"


def test_the_losers_bracket_winner_taking_the_first_final_forces_a_second():
    matches = double_elimination(4)
    seeds = [1, 2, 3, 4]
    winners = {"W1-1": 1, "W1-2": 2, "W2-1": 1, "L1-1": 3, "L2-1": 2}
    assert [(match.id, a, b) for match, a, b in playable(matches, seeds, winners)] == [("GF", 1, 2)]
    winners["GF"] = 2
    assert [(match.id, a, b) for match, a, b in playable(matches, seeds, winners)] == [("GF2", 1, 2)]
    assert placings(matches, seeds, winners) == []
    winners["GF2"] = 2
    assert placings(matches, seeds, winners) == [[2], [1], [3], [4]]
    no_reset = double_elimination(4, reset=False)
    assert placings(no_reset, seeds, {key: value for key, value in winners.items() if key != "GF2"})[:2] == [[2], [1]]


def test_byes_are_decided_at_once_and_a_match_of_two_empty_slots_has_no_winner():
    matches = double_elimination(5)  # a bracket of eight: seeds 6, 7 and 8 are missing
    seeds = [11, 12, 13, 14, 15]
    decided = resolved(matches, seeds, {})
    assert decided == {"W1-1": 11, "W1-3": 13, "W1-4": 12, "L1-2": None}
    # W2-2 is ready too: both its players came through byes.
    assert {match.id for match, _, _ in playable(matches, seeds, {})} == {"W1-2", "W2-2"}


def test_a_result_that_cannot_be_is_refused():
    matches = single_elimination(4)
    seeds = [1, 2, 3, 4]
    with pytest.raises(ValueError):
        playable(matches, seeds, {"W1-1": 2})  # 2 does not play W1-1
    with pytest.raises(ValueError):
        resolved(matches, seeds, {"W2-1": 1})  # the final cannot be played yet
    with pytest.raises(ValueError):
        resolved(matches, seeds, {"W9-9": 1})
    with pytest.raises(ValueError):
        resolved(matches, [1, 2, 3], {})  # a seed with no player
    with pytest.raises(ValueError):
        single_elimination(1)


@pytest.mark.parametrize("entrants", [2, 3, 7, 16, 33])
def test_a_bracket_survives_a_trip_through_json(entrants):
    for bracket in (single_elimination(entrants), double_elimination(entrants), double_elimination(entrants,
                                                                                                   reset=False)):
        stored = json.loads(json.dumps(bracket_to_json(bracket)))
        assert bracket_from_json(stored) == bracket
    assert bracket_to_json([Match("W1-1", 1, "winners", Slot(seed=1), Slot())])[0]["b"] == {}


# -- multi-player elimination --------------------------------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(count=st.integers(1, 100), table_size=st.integers(2, 6))
def test_elimination_tables_seat_everyone_snake_seeded(count, table_size):
    ranked = [900 + number for number in range(count)]
    tables_needed = -(-count // table_size)
    if count < tables_needed * (table_size - 1):
        with pytest.raises(ValueError):
            elimination_tables(ranked, table_size)
        return
    tables = elimination_tables(ranked, table_size)
    assert sorted(player for table in tables for player in table) == ranked
    assert len(tables) == tables_needed
    assert {len(table) for table in tables} <= {table_size, table_size - 1}
    rank = {player: place for place, player in enumerate(ranked)}
    # The snake: table i holds the i-th best seed; within a table the lowest-ranked sits first, the best last.
    assert [max(table, key=lambda player: -rank[player]) for table in tables] == ranked[:len(tables)]
    assert all(list(table) == sorted(table, key=rank.__getitem__, reverse=True) for table in tables)
    strengths = [sum(rank[player] for player in table) / len(table) for table in tables]
    assert max(strengths) - min(strengths) <= len(tables), "tables of like strength"


def test_the_best_places_of_each_table_go_through_and_ties_at_the_cut_go_together():
    tables = [
        [(1, 1), (2, 2), (3, 3), (4, 4)],
        [(5, 1), (6, 2), (7, 2), (8, 4)],  # 6 and 7 tie for second: both go through
        [(9, 1), (10, 1), (11, 3)],  # two winners: both through, and nobody else
    ]
    assert advancing(tables, 2) == [1, 5, 9, 10, 2, 6, 7]
    assert advancing(tables, 2, ranked=[10, 9, 7, 6, 5, 2, 1, 3, 4, 8, 11]) == [10, 9, 5, 1, 7, 6, 2]
    assert advancing(tables, 1) == [1, 5, 9, 10]
    with pytest.raises(ValueError):
        advancing(tables, 0)


@settings(max_examples=100, deadline=None)
@given(sizes=st.lists(st.integers(2, 6), min_size=1, max_size=8), keep=st.integers(1, 5), seed=st.integers(0, 2**32))
def test_advancing_keeps_at_least_keep_per_table_and_more_only_for_a_tie(sizes, keep, seed):
    rng = random.Random(seed)
    player = iter(range(1, 100))
    tables = []
    for size in sizes:
        scores = [rng.randint(0, 3) for _ in range(size)]
        tables.append([(next(player), 1 + sum(other > score for other in scores)) for score in scores])
    through = set(advancing(tables, keep))
    for table in tables:
        kept = [(player_id, place) for player_id, place in table if player_id in through]
        left = [place for player_id, place in table if player_id not in through]
        assert len(kept) >= min(keep, len(table))
        if left:
            assert max(place for _, place in kept) < min(left), "nobody goes through over a better place"
        if len(kept) > keep:
            worst = max(place for _, place in kept)
            assert sum(place < worst for _, place in kept) < keep, "more than keep only for a tie at the cut"


def test_the_final_is_reached_when_everyone_fits_one_table():
    assert final_reached(4, 4) and final_reached(3, 4)
    assert not final_reached(5, 4)
