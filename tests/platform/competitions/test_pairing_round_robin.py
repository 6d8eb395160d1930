"""Round robins: pools of equal strength, every pair meeting equally often, nobody twice in a round, fair seats.

Pure tests of ``turnbased.competitions.pairing``: no database. Schedules depend only on the pool's size (the
players are labels), so the properties are drawn over sizes.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations
from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from turnbased.competitions.pairing import all_at_once, pools, round_robin
from turnbased.competitions.pairing.round_robin import MAX_TABLES


def _tables(rounds):
    return [table for tables in rounds for table in tables]


def _assert_nobody_twice_in_a_round(rounds):
    for tables in rounds:
        seated = [player for table in tables for player in table]
        assert len(seated) == len(set(seated)), tables


# -- pools -------------------------------------------------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(count=st.integers(0, 120), pool_size=st.integers(1, 30), table_size=st.integers(2, 6))
def test_pools_deal_everyone_once_into_pools_of_even_size_and_even_strength(count, pool_size, table_size):
    players = [1000 + place for place in range(count)]  # strongest first
    if count < table_size - 1 or count == 0:
        with pytest.raises(ValueError):
            pools(players, pool_size, table_size)
        return
    dealt = pools(players, pool_size, table_size)
    assert sorted(player for pool in dealt for player in pool) == players
    sizes = [len(pool) for pool in dealt]
    assert max(sizes) - min(sizes) <= 1
    assert min(sizes) >= table_size - 1
    wanted = -(-count // pool_size)
    # As many pools as pool_size asks for, unless that would leave a pool short of a table; then the most that do not.
    assert len(dealt) == wanted or (len(dealt) < wanted and count // (len(dealt) + 1) < table_size - 1)
    # The snake: pool i takes the i-th strongest first, and pools of one size are of like strength (rank sums
    # within pools - 1 of each other), where dealing round and round would favour the first pool every sweep.
    assert [pool[0] for pool in dealt] == players[:len(dealt)]
    rank = {player: place for place, player in enumerate(players)}
    for size in set(sizes):
        sums = [sum(rank[player] for player in pool) for pool in dealt if len(pool) == size]
        assert max(sums) - min(sums) <= len(dealt) - 1


def test_pools_snake_the_field():
    assert pools(list(range(1, 13)), 4, 2) == [[1, 6, 7, 12], [2, 5, 8, 11], [3, 4, 9, 10]]


def test_pools_take_fewer_pools_rather_than_leave_one_short_of_a_table():
    # Ten players in pools of three would be four pools of 2-3; tables of four need pools of at least three.
    dealt = pools(list(range(10)), 3, 4)
    assert sorted(len(pool) for pool in dealt) == [3, 3, 4]


# -- two-player round robins ---------------------------------------------------------------------------------------


@settings(max_examples=80, deadline=None)
@given(size=st.integers(2, 18), cycles=st.integers(1, 4))
def test_two_player_round_robin_meets_every_pair_exactly_cycles_times_with_balanced_first_seats(size, cycles):
    pool = [7 * place + 3 for place in range(size)]
    rounds = round_robin(pool, 2, cycles)
    per_cycle = size - 1 if size % 2 == 0 else size
    assert len(rounds) == per_cycle * cycles
    _assert_nobody_twice_in_a_round(rounds)
    tables = _tables(rounds)
    assert all(len(table) == 2 for table in tables)
    met = Counter(frozenset(table) for table in tables)
    assert set(met) == {frozenset(pair) for pair in combinations(pool, 2)}
    assert set(met.values()) == {cycles}
    for cycle in range(cycles):
        one_cycle = _tables(rounds[cycle * per_cycle:(cycle + 1) * per_cycle])
        first = Counter(table[0] for table in one_cycle)
        second = Counter(table[1] for table in one_cycle)
        counts = [first[player] for player in pool]
        assert max(counts) - min(counts) <= 1, counts
        assert all(abs(first[player] - second[player]) <= 1 for player in pool)
        if size % 2:  # an odd pool rests each player exactly once a cycle
            resting = [set(pool) - {player for table in tables_ for player in table}
                       for tables_ in rounds[cycle * per_cycle:(cycle + 1) * per_cycle]]
            assert sorted(player for rest in resting for player in rest) == sorted(pool)
    if cycles % 2 == 0:  # the second cycle swaps every table's seats: over two cycles, first as often as second
        first = Counter(table[0] for table in tables)
        assert all(first[player] == (size - 1) * cycles // 2 for player in pool)


def test_a_two_player_pool_of_four_plays_the_berger_rounds():
    assert round_robin([1, 2, 3, 4], 2) == [[(1, 4), (2, 3)], [(4, 2), (3, 1)], [(3, 4), (1, 2)]]


# -- larger tables -------------------------------------------------------------------------------------------------


def _every_table_case(table_size: int, size: int, cycles: int) -> None:
    pool = [11 * place + 5 for place in range(size)]
    rounds = round_robin(pool, table_size, cycles)
    _assert_nobody_twice_in_a_round(rounds)
    tables = _tables(rounds)
    assert all(len(table) == table_size for table in tables)
    # Every k-subset, cycles times: so every pair shares C(p-2, k-2) tables per cycle, the same for every pair.
    assert Counter(frozenset(table) for table in tables) == {frozenset(subset): cycles
                                                            for subset in combinations(pool, table_size)}
    met = Counter(frozenset(pair) for table in tables for pair in combinations(table, 2))
    assert set(met.values()) == {comb(size - 2, table_size - 2) * cycles}
    # Seats: each player sits in each seat within two times of any other seat, and their mean seat is within two
    # seats' worth (summed) of the middle. The schedule is deterministic, so these bounds were checked over every
    # case the function accepts up to tables of eight (the long test below); a greedy table-by-table assignment
    # cannot promise exact balance.
    for player in pool:
        seats = Counter(seat for table in tables for seat, who in enumerate(table) if who == player)
        counts = [seats[seat] for seat in range(table_size)]
        assert max(counts) - min(counts) <= 2, (player, counts)
        lean = sum((seat - (table_size - 1) / 2) * times for seat, times in seats.items())
        assert abs(lean) <= 2, (player, lean)


def _every_case(largest_table: int) -> list[tuple[int, int, int]]:
    cases = []
    for table_size in range(3, largest_table + 1):
        size = table_size + 1
        while comb(size, table_size) <= MAX_TABLES:
            cases += [(table_size, size, cycles) for cycles in range(1, MAX_TABLES // comb(size, table_size) + 1)]
            size += 1
    return cases


@settings(max_examples=25, deadline=None)
@given(case=st.sampled_from(_every_case(6)))
def test_larger_tables_play_every_subset_equally_often_with_balanced_seats(case):
    _every_table_case(*case)


@pytest.mark.long
@pytest.mark.parametrize("case", _every_case(8), ids=str)
def test_larger_tables_every_accepted_case(case):
    _every_table_case(*case)


@settings(max_examples=40, deadline=None)
@given(size=st.integers(2, 6), extra=st.integers(0, 3), cycles=st.integers(1, 12))
def test_a_pool_that_fits_one_table_turns_its_seats_each_cycle(size, extra, cycles):
    table_size = max(size + extra, 3)
    pool = list(range(100, 100 + size))
    rounds = round_robin(pool, table_size, cycles)
    assert [len(tables) for tables in rounds] == [1] * cycles
    for player in pool:
        seats = Counter(tables[0].index(player) for tables in rounds)
        counts = [seats[seat] for seat in range(size)]
        assert max(counts) - min(counts) <= 1, counts  # every seat in turn: as even as the cycles allow


def test_too_many_tables_is_refused_so_the_organiser_picks_smaller_pools():
    with pytest.raises(ValueError):
        round_robin(list(range(10)), 3)  # C(10, 3) = 120 tables
    assert len(_tables(round_robin(list(range(9)), 3))) == 84


@pytest.mark.parametrize("pool, table_size, cycles", [([1], 2, 1), ([1, 1], 2, 1), ([1, 2], 1, 1), ([1, 2], 2, 0)])
def test_impossible_round_robins_are_refused(pool, table_size, cycles):
    with pytest.raises(ValueError):
        round_robin(pool, table_size, cycles)


def test_all_at_once_lists_every_table_in_order():
    rounds = round_robin([1, 2, 3, 4, 5], 2, 2)
    flat = all_at_once(rounds)
    assert flat == [table for tables in rounds for table in tables]
    assert len(flat) == 20 and flat[0] == rounds[0][0]
