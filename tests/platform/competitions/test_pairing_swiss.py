"""Swiss pairings: whole events of random results, each round checked against the rules in their order.

The rules of ``swiss_pairs``, each above those after it: a blocked pair never sits together (someone with nobody
allowed has a bye); the byes go down the bye order (fewest byes, then lowest-ranked); no rematch where one can be
avoided; the least sum of squared point gaps; seat balance. Small fields are checked against a brute force over
every maximum pairing; larger ones, paired in windows, against the rules that hold whatever the window.
Pure tests of ``turnbased.competitions.pairing``: no database.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from turnbased.competitions.pairing import History, Pairing, swiss_pairs, swiss_tables


def _standing(players, points, strength):
    """Best first: points, then a fixed strength per player (the tie-break the caller would apply)."""
    return sorted(players, key=lambda player: (-points[player], -strength[player]))


def _play(pairing: Pairing, points, rng: random.Random) -> None:
    for a, b in pairing.tables:
        roll = rng.random()
        if roll < 0.1:
            points[a] += 0.5
            points[b] += 0.5
        else:
            points[a if roll < 0.55 else b] += 1
    for player in pairing.byes:
        points[player] += 1


def _blocked(forbidden) -> set[frozenset[int]]:
    return {frozenset(pair) for pair in forbidden}


def _largest_matching(players, blocked) -> int:
    """How many tables the allowed pairs can fill; by Dirac's theorem a field where everyone may meet at least half
    of it has a pairing leaving at most one out, so networkx runs only on sparser fields."""
    allowed = {player: sum(frozenset((player, other)) not in blocked for other in players if other != player)
               for player in players}
    if all(2 * degree >= len(players) for degree in allowed.values()):
        return len(players) // 2
    graph = nx.Graph()
    graph.add_nodes_from(players)
    graph.add_edges_from((a, b) for i, a in enumerate(players) for b in players[i + 1:]
                         if frozenset((a, b)) not in blocked)
    return len(nx.max_weight_matching(graph, maxcardinality=True))


def _imbalance(history: History, player: int) -> int:
    return 2 * history.first_seats(player) - history.games(player)


def _check_round(standing, points, history, blocked, pairing: Pairing) -> None:
    """The rules that hold for every field, however it is paired."""
    seated = [player for table in pairing.tables for player in table]
    assert all(len(table) == 2 for table in pairing.tables)
    assert sorted(seated + list(pairing.byes)) == sorted(standing), "everyone sits once or has a bye"
    assert not [table for table in pairing.tables if frozenset(table) in blocked], "a blocked pair sits together"
    # As few byes as the blocks allow: one for an odd field, more only if the blocks leave someone unpairable.
    assert len(pairing.byes) == len(standing) - 2 * _largest_matching(list(standing), blocked)
    # The bye order: no one sits while a player owed the bye less than them has it, unless the swap would leave
    # someone with nobody allowed to play.
    rank = {player: place for place, player in enumerate(standing)}
    owed = {player: (history.byes_of(player), -rank[player]) for player in standing}
    for bye in pairing.byes:
        for player in seated:
            if owed[player] < owed[bye]:
                others = [p for p in standing if p not in pairing.byes and p != player] + [bye]
                assert 2 * _largest_matching(others, blocked) < len(others), (player, "was owed the bye of", bye)
    # Seats: seat 0 goes to the player who has sat first less (first seats minus other seats): a player is pushed
    # further from balance only when their opponent was owed the same seat at least as much.
    for first, second in pairing.tables:
        assert _imbalance(history, first) <= _imbalance(history, second)


def _event(size, rounds, forbidden, chunk, seed):
    """Yield (standing, points, history, pairing) for each round of a whole event of random results."""
    rng = random.Random(seed)
    players = [10 + 3 * place for place in range(size)]
    strength = {player: rng.random() for player in players}
    points = dict.fromkeys(players, 0.0)
    history = History()
    for number in range(rounds):
        standing = _standing(players, points, strength)
        state = rng.getstate()
        pairing = swiss_pairs(standing, points, history, forbidden=forbidden, rng=rng, chunk=chunk)
        if number == rounds - 1:  # once an event: a round costs as much again
            again = random.Random()
            again.setstate(state)
            assert swiss_pairs(standing, dict(points), history, forbidden=forbidden, rng=again,
                               chunk=chunk) == pairing, "the same seed draws the same round"
        yield standing, dict(points), history, pairing
        _play(pairing, points, rng)
        history = history.added(pairing.tables, pairing.byes)


def _forbidden(size):
    places = st.integers(0, size - 1)
    return st.lists(st.tuples(places, places).filter(lambda pair: pair[0] != pair[1]), max_size=max(size // 3, 1))


@settings(max_examples=60, deadline=None)
@given(data=st.data(), size=st.integers(2, 60), rounds=st.integers(1, 8), chunk=st.sampled_from([4, 6, 10, 48]),
       seed=st.integers(0, 2**32))
def test_random_events_keep_the_rules_in_every_round(data, size, rounds, chunk, seed):
    pairs = data.draw(_forbidden(size))
    forbidden = [frozenset((10 + 3 * a, 10 + 3 * b)) for a, b in pairs]
    blocked = _blocked(forbidden)
    for standing, points, history, pairing in _event(size, rounds, forbidden, chunk, seed):
        _check_round(standing, points, history, blocked, pairing)


# -- small fields against a brute force ----------------------------------------------------------------------------


def _maximum_pairings(players, blocked):
    """Every pairing of ``players`` (allowed pairs only) that seats as many as possible, as lists of pairs."""
    found, best = [], [0]

    def walk(left, pairs):
        if 2 * (len(pairs) + len(left) // 2) < 2 * best[0]:
            return
        if not left:
            if len(pairs) > best[0]:
                best[0], found[:] = len(pairs), []
            if len(pairs) == best[0]:
                found.append(list(pairs))
            return
        first, rest = left[0], left[1:]
        walk(rest, pairs)  # first sits out
        for other in rest:
            if frozenset((first, other)) not in blocked:
                walk([p for p in rest if p != other], pairs + [(first, other)])

    walk(list(players), [])
    return found


def _rule_costs(owed, points, history, pairs):
    """The rules' costs of a pairing, in their order: bye places in the bye order (``owed``: player -> place),
    rematches, squared point gaps, seat clashes (how far past one seat of balance a table pushes its players)."""
    seated = {player for pair in pairs for player in pair}
    byes = sum(place for player, place in owed.items() if player not in seated)
    rematches = sum(history.met(a, b) for a, b in pairs)
    gaps = sum((points[a] - points[b]) ** 2 for a, b in pairs)
    clashes = 0
    for a, b in pairs:
        low, high = sorted((_imbalance(history, a), _imbalance(history, b)))
        clashes += max(low, 0) + max(-high, 0)
    return byes, rematches, gaps, clashes


@settings(max_examples=60, deadline=None)
@given(data=st.data(), size=st.integers(1, 10), rounds=st.integers(1, 7), seed=st.integers(0, 2**32))
def test_small_fields_are_paired_best_by_each_rule_in_turn(data, size, rounds, seed):
    pairs = data.draw(_forbidden(size)) if size > 1 else []
    forbidden = [frozenset((10 + 3 * a, 10 + 3 * b)) for a, b in pairs]
    blocked = _blocked(forbidden)
    for standing, points, history, pairing in _event(size, rounds, forbidden, 48, seed):
        _check_round(standing, points, history, blocked, pairing)
        owed = {player: place for place, player in enumerate(_bye_order(standing, history))}
        best = min(_rule_costs(owed, points, history, candidate) for candidate in _maximum_pairings(standing, blocked))
        assert _rule_costs(owed, points, history, pairing.tables) == best


# -- scripted cases ------------------------------------------------------------------------------------------------


def test_the_leaders_meet_each_other_and_the_last_meet_the_last():
    players = list(range(1, 9))
    first = swiss_pairs(players, dict.fromkeys(players, 0), History(), rng=random.Random(1))
    winners = [min(table) for table in first.tables]
    points = {player: float(player in winners) for player in players}
    standing = sorted(players, key=lambda player: (-points[player], player))
    second = swiss_pairs(standing, points, History.of(first.tables), rng=random.Random(2))
    assert all(points[a] == points[b] for a, b in second.tables), second
    assert set(second.tables[0]) <= set(winners), "the top board holds two leaders"


def test_an_odd_field_gives_the_bye_to_the_lowest_ranked_and_then_rotates_it():
    players = list(range(1, 8))
    history = History()
    had = []
    for _ in range(7):
        pairing = swiss_pairs(players, dict.fromkeys(players, 0), history, rng=random.Random(len(had)))
        assert len(pairing.byes) == 1
        had.append(pairing.byes[0])
        history = history.added(pairing.tables, pairing.byes)
    assert had == [7, 6, 5, 4, 3, 2, 1], "lowest-ranked first; nobody has a second bye before everyone had one"


def test_a_player_blocked_with_everyone_has_a_bye_and_the_field_still_pairs():
    players = [1, 2, 3, 4, 5, 6]
    forbidden = [frozenset((1, other)) for other in players if other != 1]
    pairing = swiss_pairs(players, dict.fromkeys(players, 0), History(), forbidden=forbidden, rng=random.Random(3))
    # Even field, one player unpairable: the other five are odd, so the lowest-ranked of them has a bye too.
    assert pairing.byes == (1, 6)
    assert len(pairing.tables) == 2


def test_three_players_who_may_only_meet_the_same_one_leave_two_byes_to_the_lowest_ranked():
    players = [1, 2, 3, 4]
    forbidden = [frozenset(pair) for pair in [(1, 2), (1, 3), (2, 3)]]
    pairing = swiss_pairs(players, dict.fromkeys(players, 0), History(), forbidden=forbidden, rng=random.Random(4))
    assert pairing.tables == ((1, 4),) or pairing.tables == ((4, 1),)
    assert pairing.byes == (2, 3)


def test_a_blocked_pair_is_kept_apart_even_at_the_cost_of_a_rematch():
    players = [1, 2, 3, 4]
    # The only pairing without a rematch puts 1 with 2, who blocked each other.
    history = History.of([(1, 3), (2, 4), (1, 4), (2, 3)])
    forbidden = [frozenset((1, 2))]
    pairing = swiss_pairs(players, dict.fromkeys(players, 0), history, forbidden=forbidden, rng=random.Random(5))
    assert len(pairing.tables) == 2 and not pairing.byes
    assert frozenset((1, 2)) not in {frozenset(table) for table in pairing.tables}


def test_a_large_field_paired_in_windows_has_no_rematch_over_seven_rounds():
    size, chunk = 200, 48
    assert size > 2 * chunk  # the windows, not one matching
    seen = Counter()
    for standing, points, history, pairing in _event(size, 7, [], chunk, seed=2024):
        assert not pairing.byes
        for a, b in pairing.tables:
            seen[frozenset((a, b))] += 1
        # Score groups hold across the windows: nobody meets a player more than one win away.
        assert max(abs(points[a] - points[b]) for a, b in pairing.tables) <= 1
    assert max(seen.values()) == 1
    # Seat balance over the event (no byes here, seven games each): first and second seats within one of each
    # other for nearly everyone. Not for everyone: the score rule ranks above seats, so when the only two
    # leaders both sat first twice too often, they still meet and one of them sits first a third time too often.
    final = history.added(pairing.tables)
    balance = Counter(abs(_imbalance(final, player)) for player in standing)
    assert set(balance) <= {1, 3} and balance[3] <= size // 100, balance


def test_two_players_meeting_again_and_again_take_turns_in_seat_zero():
    history = History()
    firsts = []
    for round_number in range(6):
        pairing = swiss_pairs([1, 2], {1: 0, 2: 0}, history, rng=random.Random(round_number))
        firsts.append(pairing.tables[0][0])
        history = history.added(pairing.tables)
    assert firsts in ([2, 1, 2, 1, 2, 1], [1, 2, 1, 2, 1, 2])
    assert firsts[0] == 2, "on a tie, the lower-ranked player moves first"


def test_points_may_be_halves_and_a_player_without_points_has_none():
    players = [1, 2, 3, 4]
    points = {1: 2.5, 2: 2.5, 3: 0.5}  # 4 has none
    pairing = swiss_pairs(players, points, History(), rng=random.Random(6))
    assert {frozenset(table) for table in pairing.tables} == {frozenset((1, 2)), frozenset((3, 4))}


def test_the_same_seed_gives_the_same_round_and_another_may_not():
    players = list(range(1, 31))
    points = dict.fromkeys(players, 0)
    draws = {swiss_pairs(players, points, History(), rng=random.Random(seed)) for seed in range(6)}
    assert len(draws) > 1, "equal players are paired by the draw, not always the same way"
    assert swiss_pairs(players, points, History(), rng=random.Random(9)) == \
        swiss_pairs(players, points, History(), rng=random.Random(9))


@pytest.mark.parametrize("standing, chunk", [([1, 2, 2], 48), ([1, 2], 1)])
def test_impossible_input_is_refused(standing, chunk):
    with pytest.raises(ValueError):
        swiss_pairs(standing, {}, History(), rng=random.Random(0), chunk=chunk)


def test_an_empty_field_and_a_single_player():
    assert swiss_pairs([], {}, History(), rng=random.Random(0)) == Pairing(tables=(), byes=())
    assert swiss_pairs([5], {}, History(), rng=random.Random(0)) == Pairing(tables=(), byes=(5,))


def test_history_counts_meetings_seats_and_byes():
    history = History.of([[1, 2], [2, 1], [3, 1, 2]], byes=[3, 3])
    assert history.met(1, 2) == history.met(2, 1) == 3
    assert history.met(1, 3) == 1 and history.met(1, 4) == 0
    assert history.byes_of(3) == 2 and history.byes_of(1) == 0
    assert history.seat_counts(1) == Counter({0: 1, 1: 2})
    assert history.first_seats(2) == 1 and history.first_seats(4) == 0
    assert history.games(1) == 3 and history.last_first_seat(3) == 2 and history.last_first_seat(4) == -1
    assert history.seat_lean(3) == -1.0  # seat 0 of three: one seat earlier than the middle


# -- multi-player Swiss --------------------------------------------------------------------------------------------


def _rematches(tables, history) -> int:
    return sum(history.met(a, b) for table in tables for i, a in enumerate(table) for b in table[i + 1:])


def _has_block(tables, blocked) -> bool:
    return any(frozenset((a, b)) in blocked for table in tables for i, a in enumerate(table) for b in table[i + 1:])


def _fewest_byes(count: int, table_size: int) -> int:
    """The fewest players left out so that the rest fill tables of table_size and table_size - 1 (brute force)."""
    for byes in range(count + 1):
        seated = count - byes
        if seated and any((seated - short * (table_size - 1)) % table_size == 0
                          for short in range(seated // (table_size - 1) + 1)):
            return byes
    return count


def _can_keep_blocks_apart(players, sizes, blocked) -> bool:
    """Whether some seating of ``players`` at tables of ``sizes`` keeps every blocked pair apart (brute force)."""
    if not players:
        return True
    first, rest = players[0], players[1:]
    for size in set(sizes):
        left = list(sizes)
        left.remove(size)
        for companions in combinations(rest, size - 1):
            table = (first, *companions)
            if not _has_block([table], blocked) and _can_keep_blocks_apart(
                    [p for p in rest if p not in companions], left, blocked):
                return True
    return False


@settings(max_examples=60, deadline=None)
@given(data=st.data(), size=st.integers(0, 40), table_size=st.integers(3, 5), rounds=st.integers(1, 5),
       seed=st.integers(0, 2**32))
def test_multi_player_rounds_seat_everyone_at_tables_of_k_or_one_fewer(data, size, table_size, rounds, seed):
    rng = random.Random(seed)
    players = [10 + 3 * place for place in range(size)]
    pairs = data.draw(_forbidden(size)) if size > 1 else []
    forbidden = [frozenset((players[a], players[b])) for a, b in pairs]
    blocked = _blocked(forbidden)
    strength = {player: rng.random() for player in players}
    points = dict.fromkeys(players, 0.0)
    history = History()
    for round_number in range(rounds):
        standing = _standing(players, points, strength)
        state = rng.getstate()
        try:
            pairing = swiss_tables(standing, points, history, table_size, forbidden=forbidden, rng=rng)
        except ValueError:
            byes = _fewest_byes(size, table_size)
            assert size == 0 or byes == size or size <= 9, "refused a round that should be easy to seat"
            if 0 < byes < size:
                seated = [p for p in standing if p not in _bye_order(standing, history)[:byes]]
                sizes = _sizes_for(len(seated), table_size)
                assert not _can_keep_blocks_apart(seated, sizes, blocked), "refused a round that can be seated"
            return
        again = random.Random()
        again.setstate(state)
        assert swiss_tables(standing, points, history, table_size, forbidden=forbidden, rng=again) == pairing
        sizes = [len(table) for table in pairing.tables]
        assert sorted([p for table in pairing.tables for p in table] + list(pairing.byes)) == sorted(standing)
        assert set(sizes) <= {table_size, table_size - 1} and sizes == sorted(sizes, reverse=True)
        assert sizes.count(table_size - 1) < table_size, "no more short tables than needed"
        assert len(pairing.byes) == _fewest_byes(size, table_size)
        assert list(pairing.byes) == sorted(_bye_order(standing, history)[:len(pairing.byes)],
                                            key=standing.index)
        assert not _has_block(pairing.tables, blocked)
        seated = [p for p in standing if p not in pairing.byes]
        naive, start = [], 0
        for table_length in sizes:
            naive.append(seated[start:start + table_length])
            start += table_length
        if not _has_block(naive, blocked):
            # Swaps only ever undo rematches: never more than filling the tables straight down the standing.
            assert _rematches(pairing.tables, history) <= _rematches(naive, history)
            if round_number == 0:
                assert [set(table) for table in pairing.tables] == [set(table) for table in naive]
        for table in pairing.tables:
            ranking = list(table)
            rng.shuffle(ranking)
            for place, player in enumerate(ranking):
                points[player] += len(table) - 1 - place
        for player in pairing.byes:
            points[player] += table_size - 1
        history = history.added(pairing.tables, pairing.byes)


def _bye_order(standing, history):
    """Fewest byes first, then the lowest-ranked."""
    rank = {player: place for place, player in enumerate(standing)}
    return sorted(standing, key=lambda player: (history.byes_of(player), -rank[player]))


def _sizes_for(count, table_size):
    short = -count % table_size
    return [table_size] * ((count - short * (table_size - 1)) // table_size) + [table_size - 1] * short


def test_swaps_between_neighbouring_tables_undo_a_rematch_among_equal_points():
    players = list(range(1, 7))
    history = History.of([(1, 2), (4, 5)])
    pairing = swiss_tables(players, dict.fromkeys(players, 1), history, 3, rng=random.Random(1))
    assert _rematches([(1, 2, 3), (4, 5, 6)], history) == 2  # the tables straight down the standing
    assert _rematches(pairing.tables, history) == 0
    assert 1 in pairing.tables[0] and len(pairing.tables) == 2, "the leader stays at the top table"


def test_the_leaders_sit_at_the_top_table():
    players = list(range(1, 10))
    points = {1: 4, 2: 4, 3: 3, 4: 2, 5: 2, 6: 2, 7: 1, 8: 0, 9: 0}
    history = History.of([(1, 4, 7), (2, 5, 8), (3, 6, 9)])
    pairing = swiss_tables(players, points, history, 3, rng=random.Random(2))
    assert set(pairing.tables[0]) == {1, 2, 3}


def test_who_sat_early_more_often_sits_later():
    history = History.of([(1, 2, 3), (1, 3, 2)])
    for seed in range(5):
        table = swiss_tables([1, 2, 3], {}, history, 3, rng=random.Random(seed)).tables[0]
        assert table[-1] == 1  # player 1 sat first twice: now last; 2 and 3 take the others in the draw's order


def test_a_count_that_no_mix_of_tables_makes_gives_the_fewest_byes_down_the_bye_order():
    players = [1, 2, 3, 4, 5]
    first = swiss_tables(players, {}, History(), 4, rng=random.Random(3))
    assert first.byes == (5,) and [len(table) for table in first.tables] == [4]
    second = swiss_tables(players, {}, History.of(first.tables, first.byes), 4, rng=random.Random(3))
    assert second.byes == (4,), "the bye rotates"


def test_tables_of_two_are_swiss_pairs():
    players = list(range(1, 12))
    points = {player: player % 3 for player in players}
    assert swiss_tables(players, points, History(), 2, rng=random.Random(4)) == \
        swiss_pairs(players, points, History(), rng=random.Random(4))


def test_multi_player_rounds_that_cannot_be_seated_are_refused():
    with pytest.raises(ValueError):  # one table of four, and two of them blocked each other
        swiss_tables([1, 2, 3, 4], {}, History(), 4, forbidden=[frozenset((1, 2))], rng=random.Random(0))
    with pytest.raises(ValueError):  # too few for a table of three or four
        swiss_tables([1, 2], {}, History(), 4, rng=random.Random(0))
    assert swiss_tables([], {}, History(), 4, rng=random.Random(0)) == Pairing(tables=())


def test_a_blocked_pair_is_moved_to_another_table():
    players = list(range(1, 10))
    forbidden = [frozenset((1, 2)), frozenset((1, 3)), frozenset((4, 5))]
    pairing = swiss_tables(players, {}, History(), 3, forbidden=forbidden, rng=random.Random(5))
    assert not _has_block(pairing.tables, _blocked(forbidden))
