"""Points and standings (turnbased/competitions/scoring.py): place points, byes, tie-breaks, and the increments.

The increments are proven against ``from_scratch`` on random histories, event by event, the way the
competitions app applies them; ``from_scratch`` itself is held to hand-worked crosstables.
"""

from __future__ import annotations

import math
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from turnbased.competitions.scoring import (
    COLUMNS,
    DEFAULT_POINTS,
    Bye,
    Change,
    GameOutcome,
    Row,
    TieBreak,
    apply,
    bye_points,
    changes_for_bye,
    changes_for_game,
    default_tiebreaks,
    from_scratch,
    meetings,
    place_points,
    points_table,
    ranked,
)

COUNTS = {"games", "byes", "wins", "second_places", "third_places", "score_ratio_games"}


def duel(first: int, second: int, result: float) -> GameOutcome:
    """A two-player game on the default table: ``result`` is the first player's 1, 0.5 or 0."""
    places = {1: (1, 2), 0.5: (1, 1), 0: (2, 1)}[result]
    return GameOutcome((first, second), places, tuple(place_points(places, (1, 0))))


def rows_with(**players: dict) -> dict[int, Row]:
    """Rows by hand, keyed p1, p2... so a test of ``ranked`` reads each column it sets."""
    return {int(name[1:]): Row(**columns) for name, columns in players.items()}


# -- place points -----------------------------------------------------------------------------------------


def test_the_default_tables_and_the_triangular_ones_beyond_four_players():
    assert points_table(2) == (1, 0)
    assert points_table(3) == (5, 2, 0)
    assert points_table(4) == (10, 6, 3, 1)
    assert points_table(5) == (15, 10, 6, 3, 1)
    assert points_table(6) == (21, 15, 10, 6, 3, 1)
    assert points_table(11) == tuple(float(k * (k + 1) // 2) for k in range(11, 0, -1))
    for size, table in DEFAULT_POINTS.items():
        assert len(table) == size and list(table) == sorted(table, reverse=True)


def test_an_organisers_table_wins_whatever_the_type_of_its_key_and_the_others_stay_default():
    assert points_table(3, {"3": [3, 1, 0]}) == (3.0, 1.0, 0.0)
    assert points_table(3, {3: (6, 3, 1)}) == (6.0, 3.0, 1.0)
    assert points_table(4, {"3": [3, 1, 0]}) == (10, 6, 3, 1)
    assert points_table(2, {}) == (1, 0)
    assert points_table(2, {"2": ["2", Decimal("0.5")]}) == (2.0, 0.5)
    assert points_table(2, {2: [1, -1]}) == (1.0, -1.0)  # a penalty for losing is allowed


@pytest.mark.parametrize(
    "configured", [{"3": [5, 2]}, {"3": [5, 2, 0, 0]}, {"3": [2, 5, 0]}, {3: [5, float("nan"), 0]}]
)
def test_a_malformed_table_is_refused(configured):
    with pytest.raises(ValueError):
        points_table(3, configured)


def test_a_game_of_one_is_no_game():
    with pytest.raises(ValueError):
        points_table(1)


@pytest.mark.parametrize(
    "places, table, expected",
    [
        ((1, 2), (1, 0), [1, 0]),
        ((2, 1), (1, 0), [0, 1]),
        ((1, 1), (1, 0), [0.5, 0.5]),
        ((1, 2, 3), (5, 2, 0), [5, 2, 0]),
        ((1, 1, 3), (5, 2, 0), [3.5, 3.5, 0]),
        ((1, 2, 2), (5, 2, 0), [5, 1, 1]),
        ((3, 1, 1), (5, 2, 0), [0, 3.5, 3.5]),
        ((1, 2, 3, 4), (10, 6, 3, 1), [10, 6, 3, 1]),
        ((1, 1, 3, 3), (10, 6, 3, 1), [8, 8, 2, 2]),
        ((2, 1, 3, 3), (10, 6, 3, 1), [6, 10, 2, 2]),
        ((1, 2, 2, 2), (10, 6, 3, 1), [10, 10 / 3, 10 / 3, 10 / 3]),
        ((1, 1, 1, 4), (10, 6, 3, 1), [19 / 3, 19 / 3, 19 / 3, 1]),
        ((1, 1, 1, 1), (10, 6, 3, 1), [5, 5, 5, 5]),
    ],
)
def test_place_points_share_the_entries_tied_seats_span(places, table, expected):
    assert place_points(places, table) == pytest.approx(expected, abs=1e-12)


def test_a_short_table_scores_from_the_table_of_its_own_size():
    # A four-player event that seats three at one table: first of three earns the 3-player first, not 10.
    assert place_points((2, 1, 3), points_table(3)) == [2, 5, 0]
    with pytest.raises(ValueError):
        place_points((2, 1, 3), points_table(4))


@pytest.mark.parametrize("places", [(1, 3), (2, 2, 2), (0, 1), (1, 2, 2, 3), (1, 1, 2), (2, 3), (3, 3, 1)])
def test_places_that_are_no_ranking_are_refused(places):
    with pytest.raises(ValueError):
        place_points(places, points_table(len(places)))


@pytest.mark.parametrize("places, expected", [((2, 2), [0, 0]), ((3, 3, 3), [0, 0, 0]), ((4, 4, 4, 4), [1] * 4)])
def test_a_game_every_player_lost_gives_each_the_last_places_points(places, expected):
    # A round's deadline stopped it and the organiser chose that every player loses (no table sum is handed out).
    assert place_points(places, points_table(len(places))) == expected
    outcome = GameOutcome(tuple(range(10, 10 + len(places))), places, tuple(expected))
    changes = changes_for_game(outcome, {}, dict.fromkeys(outcome.players, 0.0))
    assert not [change for change in changes if change.column == "wins"]


table_sizes = st.integers(2, 6)


@settings(max_examples=150, deadline=None)
@given(data=st.data(), size=table_sizes)
def test_a_game_hands_out_its_whole_table_and_tied_seats_get_the_same(data, size):
    keys = data.draw(st.lists(st.integers(0, size - 1), min_size=size, max_size=size))
    places = [1 + sum(other < key for other in keys) for key in keys]
    halves = st.integers(-4, 40).map(lambda value: value / 2)
    table = data.draw(st.one_of(
        st.just(list(points_table(size))),
        st.lists(halves, min_size=size, max_size=size).map(lambda values: sorted(values, reverse=True)),
    ))
    points = place_points(places, table)
    assert math.isclose(sum(points), sum(table), abs_tol=1e-9)
    for seat, other in [(a, b) for a in range(size) for b in range(size)]:
        if places[seat] == places[other]:
            assert points[seat] == points[other]
        if places[seat] < places[other]:
            assert points[seat] >= points[other]


# -- byes and tie-break names ---------------------------------------------------------------------------


def test_a_bye_is_worth_the_fixed_amount_or_an_average_result():
    assert bye_points("fixed", fixed=1, table=(10, 6, 3, 1)) == 1.0
    assert bye_points("average", fixed=1, table=(10, 6, 3, 1)) == 5.0
    assert bye_points("average", fixed=0, table=(5, 2, 0)) == pytest.approx(7 / 3)
    assert bye_points("average", fixed=0, table=(1, 0)) == 0.5
    with pytest.raises(ValueError):
        bye_points("half", fixed=1, table=(1, 0))


def test_the_default_tiebreaks_by_table_size():
    assert default_tiebreaks(2) == ["sonneborn_berger", "buchholz", "head_to_head"]
    assert default_tiebreaks(3) == ["wins", "second_places", "third_places", "score_ratio"]
    assert default_tiebreaks(4) == default_tiebreaks(6) == default_tiebreaks(3)
    default_tiebreaks(2).clear()
    assert default_tiebreaks(2)  # each call gives its own list
    assert {member.value for member in TieBreak} == {
        "sonneborn_berger", "buchholz", "head_to_head", "wins", "second_places", "third_places", "score_ratio"
    }


# -- a game's own columns --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "places, scores, expected",
    [
        ((1, 2, 3), (10, 5, 0), [1, 0.5, 0]),
        ((1, 2), (8, 8), [1, 1]),  # lost on a tie-break of the game's own: the full share
        ((1, 1, 3), (0, 0, -3), [1, 1, 0]),  # the winners scored nothing: only their score is a share
        ((1, 2), (-2, -5), [1, 0]),
        ((1, 2), (-2, -2), [1, 1]),
        ((1, 2), (10, 14), [1, 1]),  # a seat that left out-scored the winner: no more than the win
        ((1, 2, 3), (10, -5, 2.5), [1, 0, 0.25]),  # a negative score earns nothing, not less
        ((1, 1, 3), (10, 8, 4), [1, 0.8, 0.4]),  # shared winners: the highest of their scores
        ((2, 1), (3, 12), [0.25, 1]),
        ((1, 2), (1, 0.5), [1, 0.5]),  # a winner's score of 1 is a share like any other above 0
    ],
)
def test_the_score_ratio_of_each_seat(places, scores, expected):
    outcome = GameOutcome(tuple(range(len(places))), places, (0,) * len(places), scores)
    assert outcome.score_ratios() == pytest.approx(expected)


def test_a_game_without_numeric_scores_leaves_the_ratio_alone():
    rows = from_scratch([duel(1, 2, 1)], [1, 2])
    assert rows[1].score_ratio_games == rows[1].score_ratio_sum == 0


@pytest.mark.parametrize(
    "players, places, points, scores",
    [
        ((1,), (1,), (1,), None),
        ((1, 1), (1, 2), (1, 0), None),
        ((1, 2), (1, 2), (1,), None),
        ((1, 2), (1, 2, 3), (1, 0), None),
        ((1, 2), (1, 2), (1, 0), (3,)),
        ((1, 2), (1, 3), (1, 0), None),
    ],
)
def test_a_malformed_game_is_refused(players, places, points, scores):
    with pytest.raises(ValueError):
        GameOutcome(players, places, points, scores)


def test_a_game_counts_wins_and_places_and_a_shared_first_is_a_win():
    game = GameOutcome((7, 8, 9, 10), (1, 1, 3, 4), (8, 8, 3, 1), (12, 12, 6, 0))
    rows = from_scratch([game, GameOutcome((7, 8, 9), (3, 1, 2), (0, 5, 2), None)], [7, 8, 9, 10, 11])
    assert (rows[7].wins, rows[7].second_places, rows[7].third_places) == (1, 0, 1)
    assert (rows[8].wins, rows[8].second_places, rows[8].third_places) == (2, 0, 0)
    assert (rows[9].wins, rows[9].second_places, rows[9].third_places) == (0, 1, 1)
    assert (rows[10].wins, rows[10].second_places, rows[10].third_places) == (0, 0, 0)  # fourth: no column
    assert rows[9].score_ratio_sum == 0.5 and rows[9].score_ratio_games == 1
    assert rows[7].games == 2 and rows[10].games == 1 and rows[11] == Row()


# -- the increments, by hand ------------------------------------------------------------------------------


def test_two_players_who_met_before_get_the_rise_for_that_game_and_the_new_total_for_this_one():
    # Game 1: 1 beats 2. Game 2: 2 beats 1. After both, each has 1 point, and each counted the other twice.
    first = duel(1, 2, 1)
    rows = apply({}, changes_for_game(first, {}, {1: 0, 2: 0}))
    assert rows == {1: Row(points=1, games=1, wins=1), 2: Row(games=1, second_places=1, buchholz=1)}
    second = duel(2, 1, 1)
    changes = changes_for_game(second, meetings([first]), {1: rows[1].points, 2: rows[2].points})
    assert {(change.player, change.column): change.amount for change in changes} == {
        (2, "points"): 1, (2, "games"): 1, (2, "wins"): 1, (1, "games"): 1, (1, "second_places"): 1,
        # 2's rise of 1 reaches 1, who beat 2 in game 1 (1's factor 1 against 2): buchholz and SB both
        # gain 1; then this game adds 2's new total 1 to 1's buchholz, and 1's total 1 to 2's buchholz and SB.
        (1, "buchholz"): 2, (1, "sonneborn_berger"): 1, (2, "buchholz"): 1, (2, "sonneborn_berger"): 1,
    }
    rows = apply(rows, changes)
    assert rows == from_scratch([first, second], [1, 2])
    assert rows[1] == Row(points=1, games=2, wins=1, second_places=1, buchholz=2, sonneborn_berger=1)


def test_a_bye_raises_the_earlier_opponents_but_is_no_game():
    games = [duel(1, 2, 1), duel(2, 3, 0.5)]
    rows = from_scratch(games, [1, 2, 3])
    changes = changes_for_bye(2, 1, meetings(games))
    assert {(change.player, change.column): change.amount for change in changes} == {
        (2, "points"): 1, (2, "byes"): 1,
        (1, "buchholz"): 1, (1, "sonneborn_berger"): 1,  # 1 beat 2
        (3, "buchholz"): 1, (3, "sonneborn_berger"): 0.5,  # 3 drew with 2
    }
    after = apply(rows, changes)
    assert after == from_scratch([*games, Bye(2, 1)], [1, 2, 3])
    assert (after[2].games, after[2].buchholz) == (rows[2].games, rows[2].buchholz)


def test_a_bye_before_any_game_changes_only_its_player():
    assert changes_for_bye(5, 0.5, {}) == [Change(5, "points", 0.5), Change(5, "byes", 1)]
    assert changes_for_bye(5, 0, {}) == [Change(5, "byes", 1)]


def test_a_bye_of_a_decimal_amount_as_the_database_gives_it():
    games = [duel(1, 2, 0.5)]
    changes = changes_for_bye(2, Decimal("0.5"), meetings(games))
    assert apply(from_scratch(games, [1, 2]), changes) == from_scratch([*games, Bye(2, 0.5)], [1, 2])


def test_the_increments_take_decimals_as_the_database_gives_them():
    first = GameOutcome((1, 2, 3), (1, 2, 3), (5, 2, 0), None)
    second = GameOutcome((3, 1), (1, 2), (1, 0), None)
    rows = from_scratch([first], [1, 2, 3])
    changes = changes_for_game(second, meetings([first]), {1: Decimal("5"), 3: Decimal("0")})
    assert apply(rows, changes) == from_scratch([first, second], [1, 2, 3])


def test_apply_leaves_its_rows_alone_keeps_counts_whole_and_refuses_an_unknown_column():
    rows = {1: Row(points=2)}
    after = apply(rows, [Change(1, "games", 1), Change(2, "points", 0.5), Change(1, "games", 1)])
    assert rows == {1: Row(points=2)}
    assert after == {1: Row(points=2, games=2), 2: Row(points=0.5)}
    assert type(after[1].games) is int
    with pytest.raises(ValueError):
        apply(rows, [Change(1, "rating", 1)])


# -- the increments agree with the whole history ----------------------------------------------------------


@st.composite
def histories(draw) -> tuple[list[int], list[GameOutcome | Bye]]:
    count = draw(st.integers(2, 12))
    entrants = list(range(40, 40 + count))  # ids that are not seat numbers or indexes
    halves = st.integers(-2, 24).map(lambda value: value / 2)
    configured = {}
    for size in draw(st.sets(st.integers(2, 4))):
        table = draw(st.lists(halves, min_size=size, max_size=size))
        configured[draw(st.sampled_from([size, str(size)]))] = sorted(table, reverse=True)
    events: list[GameOutcome | Bye] = []
    for _ in range(draw(st.integers(1, 14))):
        if draw(st.integers(0, 4)) == 0:
            events.append(Bye(draw(st.sampled_from(entrants)), draw(st.sampled_from([0, 0.5, 1, 7 / 3, 5]))))
            continue
        size = draw(st.integers(2, min(4, count)))
        players = draw(st.permutations(entrants))[:size]
        keys = draw(st.lists(st.integers(0, size - 1), min_size=size, max_size=size))
        places = tuple(1 + sum(other < key for other in keys) for key in keys)
        scores = draw(st.none() | st.tuples(*[st.integers(-3, 20)] * size))
        if draw(st.integers(0, 5)) == 0:  # stopped at its round's deadline, every player losing
            places, scores = (size,) * size, None
        points = place_points(places, points_table(size, configured))
        events.append(GameOutcome(tuple(players), places, tuple(points), scores))
    return entrants, events


def assert_same_rows(got: dict[int, Row], expected: dict[int, Row]) -> None:
    assert got.keys() == expected.keys()
    for player in expected:
        for column in COLUMNS:
            mine, theirs = getattr(got[player], column), getattr(expected[player], column)
            if column in COUNTS:
                assert mine == theirs and type(mine) is type(theirs) is int, (player, column, mine, theirs)
            else:
                assert math.isclose(mine, theirs, rel_tol=1e-9, abs_tol=1e-9), (player, column, mine, theirs)


@settings(max_examples=250, deadline=None)
@given(history=histories())
def test_applying_each_event_as_it_comes_keeps_every_row_equal_to_the_whole_history(history):
    entrants, events = history
    rows = {player: Row() for player in entrants}
    opponents: dict[int, list[tuple[int, float]]] = {}  # kept as the app keeps its game history
    for done, event in enumerate(events, start=1):
        if isinstance(event, Bye):
            rows = apply(rows, changes_for_bye(event.player, event.points, opponents))
        else:
            before = {player: rows[player].points for player in event.players}
            rows = apply(rows, changes_for_game(event, opponents, before))
            for seat, player in enumerate(event.players):
                for other_seat, other in enumerate(event.players):
                    mine, theirs = event.places[seat], event.places[other_seat]
                    if seat != other_seat:
                        factor = 1 if mine < theirs else 0.5 if mine == theirs else 0
                        opponents.setdefault(player, []).append((other, factor))
        expected = from_scratch(events[:done], entrants)
        assert_same_rows(rows, expected)
    # Buchholz counted from the other side: each player's points once for every opponent's seat it filled.
    filled = {player: 0 for player in entrants}
    for event in events:
        if isinstance(event, GameOutcome):
            for player in event.players:
                filled[player] += len(event.players) - 1
    total = sum(row.buchholz for row in rows.values())
    assert math.isclose(total, sum(rows[p].points * filled[p] for p in entrants), rel_tol=1e-9, abs_tol=1e-9)
    assert meetings([event for event in events if isinstance(event, GameOutcome)]) == {
        player: met for player, met in opponents.items()
    }


def test_the_values_are_frozen_as_the_rows_they_stand_for():
    for value in (Row(), Bye(1, 1), Change(1, "points", 1), duel(1, 2, 1)):
        with pytest.raises(AttributeError):
            value.player = 3
    assert Row(wins=1, score_ratio_sum=1.5, score_ratio_games=2).score_ratio == 0.75
    assert Row().score_ratio == 0


# -- ranked -----------------------------------------------------------------------------------------------

# A four-player round robin (1 = A, 2 = B, 3 = C, 4 = D), worked by hand:
#   A beats D, draws B and C: 2.   B draws A and D, beats C: 2.   C beats D, loses to B: 1.5.   D: 0.5.
# Buchholz, the round robin's (total less one's own): A 4, B 4, C 4.5, D 5.5.
# Sonneborn-Berger: A = D 0.5 + half B 1 + half C 0.75 = 2.25; B = C 1.5 + half A 1 + half D 0.25 = 2.75;
# C = half A 1 + D 0.5 = 1.5; D = half B 1.
ROUND_ROBIN = [duel(1, 4, 1), duel(1, 2, 0.5), duel(1, 3, 0.5), duel(2, 3, 1), duel(2, 4, 0.5), duel(3, 4, 1)]


def test_the_classic_sonneborn_berger_of_a_round_robin():
    rows = from_scratch(ROUND_ROBIN, [1, 2, 3, 4])
    assert [rows[player].points for player in (1, 2, 3, 4)] == [2, 2, 1.5, 0.5]
    assert [rows[player].buchholz for player in (1, 2, 3, 4)] == [4, 4, 4.5, 5.5]
    assert [rows[player].sonneborn_berger for player in (1, 2, 3, 4)] == [2.25, 2.75, 1.5, 1]
    assert ranked(rows, default_tiebreaks(2), ROUND_ROBIN) == [[2], [1], [3], [4]]
    assert ranked(rows, ["buchholz"], ROUND_ROBIN) == [[1, 2], [3], [4]]
    assert ranked(rows, ["buchholz", "head_to_head"], ROUND_ROBIN) == [[1, 2], [3], [4]]  # they drew
    assert ranked(rows, ["buchholz", "sonneborn_berger"], ROUND_ROBIN) == [[2], [1], [3], [4]]
    assert ranked(rows, [], ROUND_ROBIN) == [[1, 2], [3], [4]]


# Two Swiss rounds of six (P 1, Q 2, S 3, T 4, W 5, V 6), worked by hand:
#   Round 1: S beats P, T beats Q, W draws V.   Round 2: P beats W, Q beats V, S beats T.
#   Points: S 2; P, Q, T 1; W, V 0.5.
#   Sonneborn-Berger: T (beat Q) 1; P (beat W) 0.5; Q (beat V) 0.5.   Buchholz: T 3, P (S + W) 2.5, Q (T + V) 1.5.
SWISS = [duel(3, 1, 1), duel(4, 2, 1), duel(5, 6, 0.5), duel(1, 5, 1), duel(2, 6, 1), duel(3, 4, 1)]


def test_buchholz_separates_players_whose_defeated_opponents_were_equal_but_whose_others_were_not():
    rows = from_scratch(SWISS, range(1, 7))
    assert [rows[player].sonneborn_berger for player in (4, 1, 2)] == [1, 0.5, 0.5]
    assert [rows[player].buchholz for player in (4, 1, 2)] == [3, 2.5, 1.5]
    assert ranked(rows, default_tiebreaks(2), SWISS) == [[3], [4], [1], [2], [5, 6]]
    assert ranked(rows, ["buchholz"], SWISS) == [[3], [4], [1], [2], [5, 6]]
    assert ranked(rows, ["sonneborn_berger"], SWISS) == [[3], [4], [1, 2], [5, 6]]


def test_a_bye_counts_in_the_buchholz_of_those_its_player_met():
    rows = from_scratch([*SWISS, Bye(5, 1)], range(1, 7))
    assert (rows[5].points, rows[5].byes, rows[5].games) == (1.5, 1, 2)
    assert rows[1].buchholz == 3.5 and rows[1].sonneborn_berger == 1.5  # P beat W, now on 1.5
    assert rows[6].buchholz == 2.5 and rows[6].sonneborn_berger == 0.75  # V drew W
    assert rows[5].buchholz == 1.5  # W's own: its opponents V 0.5 and P 1, the bye none


TIED = {"points": 4, "sonneborn_berger": 2, "buchholz": 6}


def test_head_to_head_between_two_tied_players():
    rows = rows_with(p1=TIED, p2=TIED, p3={"points": 1})
    games = [duel(2, 3, 1), duel(1, 2, 0), duel(1, 3, 1)]
    assert ranked(rows, default_tiebreaks(2), games) == [[2], [1], [3]]
    assert ranked(rows, default_tiebreaks(2), [duel(2, 1, 0.5), duel(1, 2, 0.5)]) == [[1, 2], [3]]
    assert ranked(rows, default_tiebreaks(2), []) == [[1, 2], [3]]


def test_head_to_head_among_three_then_the_next_tie_break_within_what_it_left_tied():
    rows = rows_with(p1=TIED, p2=TIED, p3={**TIED, "wins": 1}, p4={"points": 9})
    # Among 1, 2 and 3: 1 scores 2, 2 and 3 half a point; 2's win over 4 is against no tied player.
    games = [duel(1, 2, 1), duel(1, 3, 1), duel(2, 3, 0.5), duel(2, 4, 1)]
    assert ranked(rows, ["head_to_head", "wins"], games) == [[4], [1], [3], [2]]
    assert ranked(rows, ["head_to_head"], games) == [[4], [1], [2, 3]]
    cycle = [duel(1, 2, 1), duel(2, 3, 1), duel(3, 1, 1)]
    assert ranked(rows, ["head_to_head", "wins"], cycle) == [[4], [3], [1, 2]]


def test_head_to_head_reads_only_the_group_still_tied_when_it_comes():
    rows = rows_with(p1={**TIED, "sonneborn_berger": 3}, p2=TIED, p3=TIED)
    # Among all three, 2 would lead (two wins over 1); once SB has set 1 apart, 3 beat 2.
    games = [duel(2, 1, 1), duel(2, 1, 1), duel(3, 2, 1)]
    assert ranked(rows, ["sonneborn_berger", "head_to_head"], games) == [[1], [3], [2]]
    assert ranked(rows, ["head_to_head", "sonneborn_berger"], games) == [[2], [3], [1]]


def test_head_to_head_at_larger_tables_counts_the_games_only_tied_players_sat_at():
    rows = rows_with(p1=TIED, p2=TIED, p3=TIED, p9={"points": 1})
    among = GameOutcome((1, 2, 3), (2, 1, 3), (2, 5, 0), None)
    with_outsider = GameOutcome((1, 2, 9), (1, 3, 2), (5, 0, 2), None)
    assert ranked(rows, ["head_to_head"], [among, with_outsider]) == [[2], [1], [3], [9]]
    duo = GameOutcome((1, 3), (1, 2), (3, 0), None)  # 1 draws level with 2
    assert ranked(rows, ["head_to_head"], [among, duo]) == [[1, 2], [3], [9]]


def test_wins_then_second_then_third_places_then_score_ratio():
    same = {"points": 20, "wins": 1, "second_places": 2}
    rows = rows_with(
        p1={"points": 20, "wins": 2},
        p2={**same, "second_places": 3},
        p3=same,
        p4={**same, "third_places": 1, "score_ratio_sum": 1, "score_ratio_games": 2},
        p5={**same, "third_places": 1, "score_ratio_sum": 1.4, "score_ratio_games": 2},
        p6={"points": 21},
    )
    assert ranked(rows, default_tiebreaks(4), []) == [[6], [1], [2], [5], [4], [3]]
    assert ranked(rows, ["third_places"], []) == [[6], [4, 5], [1, 2, 3]]


def test_score_ratio_compares_the_mean_not_the_sum_and_no_scored_game_is_a_ratio_of_nothing():
    rows = rows_with(
        p1={"score_ratio_sum": 1.5, "score_ratio_games": 2},
        p2={"score_ratio_sum": 2, "score_ratio_games": 3},
        p3={},
        p4={"score_ratio_sum": 0, "score_ratio_games": 1},
    )
    assert ranked(rows, ["score_ratio"], []) == [[1], [2], [3, 4]]


def test_values_that_differ_only_by_rounding_tie():
    # Six three-way shares of a first place (7/3 each) added one game at a time, against 14 counted at once.
    share = place_points((1, 1, 1), points_table(3))[0]
    added = sum([share] * 6)
    rows = rows_with(p1={"points": added}, p2={"points": 14}, p3={"points": 14 - 2e-6})
    assert added != 14
    assert ranked(rows, [], []) == [[1, 2], [3]]
    assert ranked(rows_with(p1={"points": 1e-6}, p2={}), [], []) == [[1, 2]]  # the tolerance itself ties


def test_ranked_of_nobody_and_an_unknown_tie_break():
    assert ranked({}, default_tiebreaks(2), []) == []
    with pytest.raises(ValueError):
        ranked(rows_with(p1={}, p2={}), ["median_buchholz"], [])
