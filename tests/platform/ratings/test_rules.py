"""The rating rules on their own: places from the engine contract's result, which games and accounts count, the number
shown, and the settings they read."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from tests.platform.conftest import settings_error
from turnbased.ratings.rules import (
    DISPLAY_BASE,
    MODEL,
    Player,
    account_reason,
    display_rating,
    mailbox,
    most_games_of_a_pair,
    pair_reason,
    places,
    provisional,
    rate,
    related,
    relation_reason,
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


NOW = datetime(2026, 12, 1, 12, 0, tzinfo=timezone.utc)


def player(user_id: int, *, confirmed=True, days_old=30.0, enough_games=False, network="", email=None) -> Player:
    return Player(user_id=user_id, confirmed=confirmed, joined=NOW - timedelta(days=days_old),
                  enough_finished_games=enough_games, signup_network=network,
                  mailbox=mailbox(email or f"user{user_id}@example.com"))


def test_an_account_is_rated_once_confirmed_and_old_enough_or_with_enough_finished_games(settings):
    settings.RATINGS_MIN_ACCOUNT_DAYS, settings.RATINGS_MIN_FINISHED_GAMES = 7, 5
    assert account_reason(player(1), now=NOW) is None
    assert account_reason(player(1, days_old=7), now=NOW) is None
    assert account_reason(player(1, days_old=6.9), now=NOW) == (
        "an account younger than 7 days with fewer than 5 finished games")
    assert account_reason(player(1, days_old=0, enough_games=True), now=NOW) is None
    assert account_reason(player(1, confirmed=False), now=NOW) == "an account without a confirmed address"
    assert account_reason(player(1, confirmed=False, enough_games=True), now=NOW) is not None
    settings.RATINGS_MIN_ACCOUNT_DAYS = 0  # no minimum
    assert account_reason(player(1, days_old=0), now=NOW) is None


@pytest.mark.parametrize(("address", "reached"), [
    ("Alice@Example.com", "alice@example.com"),
    ("alice+farm1@example.com", "alice@example.com"),
    ("a.l.i.c.e+2@googlemail.com", "alice@gmail.com"),
    ("A.Lice@gmail.com", "alice@gmail.com"),
    ("a.lice@example.com", "a.lice@example.com"),  # only Gmail is known to ignore the dots
    ("", ""), ("no-at-sign", ""), ("+tag@example.com", ""),
])
def test_an_address_reads_as_the_mailbox_it_reaches(address, reached):
    assert mailbox(address) == reached


def test_accounts_are_related_by_their_sign_up_network_or_minutes(settings):
    settings.RATINGS_RELATED_SIGNUP_MINUTES = 30
    early, late = player(1, days_old=30), player(2, days_old=29)
    assert not related(early, late)
    assert related(early, player(3, days_old=30 - 29 / (24 * 60)))  # 29 minutes later
    assert not related(early, player(3, days_old=30 - 31 / (24 * 60)))
    assert related(player(1, network="n1"), player(2, days_old=2, network="n1"))
    assert not related(player(1, network="n1"), player(2, days_old=2, network="n2"))
    assert not related(player(1, network=""), player(2, days_old=2, network=""))  # unknown is no network
    settings.RATINGS_RELATED_SIGNUP_MINUTES = 0
    assert not related(early, player(3, days_old=30))


def test_related_accounts_count_together_only_once_both_are_established_and_one_mailbox_never(settings):
    settings.RATINGS_RELATED_SIGNUP_MINUTES = 30
    first, same_minute = player(1), player(2)
    stranger = player(3, days_old=3)
    assert relation_reason([first, stranger], established=[]) is None
    assert relation_reason([first, same_minute], established=[1]) == (
        "two related accounts, one of them with a provisional rating")
    assert relation_reason([first, same_minute], established=[1, 2]) is None
    assert relation_reason([stranger, first, same_minute], established=[2, 3]) is not None
    one_mailbox = [player(1, email="ann+a@example.com"), player(2, days_old=3, email="ann+b@example.com")]
    assert relation_reason(one_mailbox, established=[1, 2]) == "two accounts of one mailbox"
    no_address = [player(1, email="@"), player(2, days_old=3, email="@")]
    assert relation_reason(no_address, established=[]) is None


def test_a_rating_is_provisional_below_the_sites_count_of_games(settings):
    settings.RATINGS_PROVISIONAL_GAMES = 10
    assert provisional(0) and provisional(9) and not provisional(10)
    settings.RATINGS_PROVISIONAL_GAMES = 0
    assert not provisional(0)


@pytest.mark.parametrize(("variable", "value", "said"), [
    ("RATINGS_SAME_PLAYERS_PER_DAY", "0", "RATINGS_SAME_PLAYERS_PER_DAY=0: it must be at least 1."),
    ("RATINGS_MIN_ACCOUNT_DAYS", "-1", "RATINGS_MIN_ACCOUNT_DAYS=-1: it must be at least 0."),
    ("RATINGS_PROVISIONAL_GAMES", "ten", "RATINGS_PROVISIONAL_GAMES"),
])
def test_the_service_refuses_to_start_with_a_threshold_it_cannot_use(variable, value, said):
    assert said in settings_error(**{variable: value})
