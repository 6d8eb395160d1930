"""The rating rules on their own: places from the engine contract's result, which games count, the number shown."""

from __future__ import annotations

import pytest

from turnbased.ratings.rules import (
    DISPLAY_BASE,
    MODEL,
    display_rating,
    most_games_of_a_pair,
    pair_reason,
    places,
    rate,
    unrated_reason,
)


def result(winners, ranking, scores, **extra):
    return {"winners": winners, "ranking": ranking, "scores": scores, "summary": "", **extra}


def test_the_winner_places_first_and_the_ranking_orders_the_rest():
    assert places(result([2], [2, 0, 1], [4, 3, 9]), 3) == [2, 3, 1]


def test_a_draw_is_a_tie_for_first():
    assert places(result([], [0, 1], [5, 5], draw=True), 2) == [1, 1]


def test_a_shared_win_is_a_tie_for_first_and_the_next_place_skips():
    assert places(result([0, 2], [0, 2, 1], [10, 4, 10]), 3) == [1, 3, 1]


def test_below_the_winners_equal_scores_next_to_each_other_share_a_place():
    # The engine's ranking separates seats 0 and 1 by seat number alone; their scores are equal.
    assert places(result([2], [2, 0, 1, 3], [1, 1, 7, 0]), 4) == [2, 2, 1, 4]


def test_a_tie_break_the_engine_applied_to_the_winner_stands():
    # Equal points, one winner (a tie-break on tiles, say): the winner is still alone in first place.
    assert places(result([1], [1, 0], [6, 6]), 2) == [2, 1]


def test_seats_that_left_place_below_every_seat_that_stayed_whatever_their_score():
    assert places(result([2], [2, 0, 1, 3], [1, 1, 7, 0]), 4, left=[0]) == [4, 2, 1, 3]
    assert places(result([1], [0, 1], [9, 2]), 2, left=[0]) == [2, 1]


def test_a_winner_that_left_places_below_the_seats_that_stayed():
    # A bot won the seat after its person ran out of time: the person does not get the win.
    assert places(result([0], [0, 1, 2], [9, 5, 4]), 3, left=[0]) == [3, 1, 2]


def test_a_seat_missing_from_the_ranking_comes_last():
    assert places(result([0], [0], [3, 1]), 2) == [1, 2]


def test_a_new_player_shows_the_base_rating_and_the_formula_is_the_documented_one():
    assert display_rating(MODEL.mu, MODEL.sigma) == DISPLAY_BASE == 1000
    assert display_rating(30.0, 2.0) == round(1000 + 20 * (30.0 - 3 * 2.0)) == 1480


def test_a_win_raises_and_a_loss_lowers_and_a_tie_between_equals_moves_neither():
    fresh = (MODEL.mu, MODEL.sigma)
    (winner, loser) = rate([fresh, fresh], [1, 2])
    assert winner[0] > MODEL.mu > loser[0]
    (one, two) = rate([fresh, fresh], [1, 1])
    assert one[0] == two[0] == pytest.approx(MODEL.mu)


@pytest.mark.parametrize(("fewest", "early", "rated"), [
    (0, True, False),   # resigned at once
    (2, True, False),   # a player had made two moves of their own
    (3, True, True),    # every player had made three, then a resignation or a timeout ended it
    (1, False, True),   # a game that ends by its own rules is rated however short
])
def test_a_game_abandoned_in_its_first_moves_is_unrated(fewest, early, rated):
    """Issue 27: three quick resignations lifted an account from 1000 to 1168 in a minute."""
    reason = unrated_reason(private=False, bot_seats=False, fewest_own_moves=fewest, ended_early=early)
    assert (reason is None) == rated


@pytest.mark.parametrize(("today", "rated"), [(0, True), (2, True), (3, False), (9, False)])
def test_past_three_rated_games_a_day_between_two_players_their_next_is_unrated(today, rated):
    assert (pair_reason(busiest_pair=today, per_day=3) is None) == rated
    assert pair_reason(busiest_pair=today, per_day=10) is None


def test_the_busiest_pair_counts_every_two_players_in_any_game_they_shared():
    alice, bob, carol, dan = 1, 2, 3, 4
    today = [[alice, bob], [alice, bob, carol], [bob, carol, dan], [alice, dan], [carol, dan]]
    assert most_games_of_a_pair(today, [alice, bob]) == 2
    assert most_games_of_a_pair(today, [carol, dan]) == 2  # together in two games, one of them with bob
    assert most_games_of_a_pair(today, [alice, bob, carol, dan]) == 2
    assert most_games_of_a_pair(today, [alice, carol]) == 1
    assert most_games_of_a_pair([], [alice, bob]) == 0
    assert most_games_of_a_pair([[alice], [bob]], [alice, bob]) == 0  # never at one table


def test_private_tables_and_tables_with_a_bot_are_unrated():
    played = {"fewest_own_moves": 20, "ended_early": False}
    assert unrated_reason(private=True, bot_seats=False, **played) == "a private table"
    assert unrated_reason(private=False, bot_seats=True, **played) == "a bot held a seat"
    assert unrated_reason(private=False, bot_seats=False, **played) is None
