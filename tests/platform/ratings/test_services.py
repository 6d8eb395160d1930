"""Ratings move in the transaction that ends a game, once, for rated games only."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.db import DatabaseError, transaction
from django.utils import timezone

from tests.platform.ratings.conftest import play_moves, ready_to_end, start
from turnbased.kit.errors import PlayError
from turnbased.play import services
from turnbased.play.models import Game, GameStatus, Move
from turnbased.ratings.models import Rating, RatingChange
from turnbased.ratings.rules import RATED_MIN_OWN_MOVES
from turnbased.ratings.services import ratings_record_game

pytestmark = pytest.mark.django_db


def test_a_finished_public_game_between_people_moves_both_ratings(alice, bob, finish_game):
    game = finish_game(alice, bob, moves=6)  # three moves each, then bob resigns: move 7
    winner, loser = Rating.objects.get(user=alice), Rating.objects.get(user=bob)
    assert (winner.game_slug, winner.players, winner.games) == ("halali", 2, 1)
    assert winner.display > 1000 > loser.display
    changes = {change.user_id: change for change in RatingChange.objects.filter(game=game)}
    assert changes[alice.pk].place == 1 and changes[bob.pk].place == 2
    assert changes[alice.pk].before == changes[bob.pk].before == 1000
    assert (changes[alice.pk].mu_after, changes[alice.pk].sigma_after) == (winner.mu, winner.sigma)


def test_the_next_game_starts_from_the_rating_the_last_one_left(alice, bob, finish_game):
    finish_game(alice, bob)
    after_first = Rating.objects.get(user=bob)
    second = finish_game(bob, alice)
    change = RatingChange.objects.get(game=second, user=bob)
    assert (change.mu_before, change.sigma_before) == (after_first.mu, after_first.sigma)
    assert Rating.objects.get(user=bob).games == 2


def test_a_game_is_counted_once(alice, bob, finish_game):
    game = finish_game(alice, bob)
    before = list(Rating.objects.order_by("pk").values_list("mu", "sigma", "games"))
    with transaction.atomic():
        assert ratings_record_game(game=Game.objects.select_for_update().get(pk=game.pk)) == []
    assert list(Rating.objects.order_by("pk").values_list("mu", "sigma", "games")) == before
    assert RatingChange.objects.filter(game=game).count() == 2


def test_the_record_of_changes_cannot_be_edited_or_deleted(alice, bob, finish_game):
    finish_game(alice, bob)
    change = RatingChange.objects.first()
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        RatingChange.objects.filter(pk=change.pk).update(place=2)
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        RatingChange.objects.filter(pk=change.pk).delete()


@pytest.mark.parametrize("moves", [0, 1, 2])
def test_a_resignation_before_move_3_rates_nobody(alice, bob, finish_game, moves):
    game = finish_game(alice, bob, moves=moves)
    assert game.seq == moves + 1 <= 3
    assert not Rating.objects.exists() and not RatingChange.objects.exists()


def test_a_resignation_after_each_players_third_move_is_rated(alice, bob, finish_game):
    game = finish_game(alice, bob, moves=6)
    assert game.seq == 7
    assert RatingChange.objects.filter(game=game).count() == 2


def test_a_private_table_is_unrated(alice, bob, finish_game):
    finish_game(alice, bob, moves=5, visibility="private")
    assert not Rating.objects.exists()


def test_a_table_with_a_bot_is_unrated(alice, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        game = services.create_game(creator=alice, engine_slug="halali", players=2, bots={1: "random"})
    for _ in range(10):  # alice's move and the bot's answer each time: 4 moves in two rounds
        if game.seq >= 4:
            break
        game.refresh_from_db()
        if game.to_move == [0]:
            with django_capture_on_commit_callbacks(execute=True):  # the bot answers at once
                play_moves(game, [alice, None], 1)
    services.resign_game(game_id=game.pk, user=alice)
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED and game.seq > 3
    assert not Rating.objects.exists()


def test_each_player_count_has_its_own_rating(alice, bob, carol, finish_game):
    finish_game(alice, bob, slug="love-letter")
    game = start([alice, bob, carol], slug="love-letter")
    # Each makes three moves of their own (a round's knocked-out players wait for the next), so it is rated.
    while min(Move.objects.filter(game=game, seat=seat).count() for seat in range(3)) < 3:
        game = play_moves(game, [alice, bob, carol], 1)
    services.resign_game(game_id=game.pk, user=bob)
    services.resign_game(game_id=game.pk, user=carol)  # alice is left alone: she wins
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    assert sorted(Rating.objects.filter(user=alice).values_list("players", flat=True)) == [2, 3]
    places = dict(RatingChange.objects.filter(game=game).values_list("user__username", "place"))
    # Bob and carol both left: below alice, in the engine's ranking, tied when their scores are equal.
    scores = game.result["scores"]
    assert places["alice"] == 1
    if scores[1] == scores[2]:
        assert places["bob"] == places["carol"] == 2
    else:
        assert {places["bob"], places["carol"]} == {2, 3}


def test_ratings_move_in_the_transaction_that_ends_the_game(alice, bob, monkeypatch):
    """If the ratings cannot be updated, the game does not end: the resignation is refused whole."""
    game = start([alice, bob])
    play_moves(game, [alice, bob], 6)

    def broken(before, placed):
        raise PlayError("ratings are down")

    monkeypatch.setattr("turnbased.ratings.services.rate", broken)
    with pytest.raises(PlayError):
        services.resign_game(game_id=game.pk, user=bob)
    game.refresh_from_db()
    assert game.status == GameStatus.ACTIVE and game.seq == 6
    assert not Move.objects.filter(game=game, seq=7).exists() and not Rating.objects.exists()


def test_a_seat_a_bot_took_over_still_rates_its_person(alice, bob):
    """A person whose seat a bot took (out of time) is rated as having left, as is one who resigns."""
    game = start([alice, bob])
    play_moves(game, [alice, bob], 6)
    game.seats.filter(index=0).update(bot="random", left_at=timezone.now())  # what a timeout takeover records
    services.resign_game(game_id=game.pk, user=bob)  # bob resigns to the bot: the engine makes seat 0 win
    game.refresh_from_db()
    assert game.result["winners"] == [0] and game.result["left_seats"] == [0]
    places = dict(RatingChange.objects.filter(game=game).values_list("user__username", "place"))
    assert places == {"alice": 1, "bob": 2}  # both left; then the winner first


def test_a_three_player_game_ended_by_resignations_ranks_the_one_who_stayed_first(alice, bob, carol):
    game = start([alice, bob, carol], slug="carcassonne-hg", seed="three-resign")
    # Until each has made enough moves of their own to be rated (a turn may take one move or two).
    while min(Move.objects.filter(game=game, seat=seat).count() for seat in range(3)) < RATED_MIN_OWN_MOVES:
        play_moves(game, [alice, bob, carol], 1)
    services.resign_game(game_id=game.pk, user=alice)
    services.resign_game(game_id=game.pk, user=carol)
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED and game.result["winners"] == [1]
    places = dict(RatingChange.objects.filter(game=game).values_list("user__username", "place"))
    assert places["bob"] == 1 and places["carol"] > 1 and places["alice"] > 1



def test_a_second_account_cannot_farm_a_rating(alice, bob, carol, finish_game):
    """Issue 27: three quick resignations lifted an account from 1000 to 1168 in under a minute."""
    for _ in range(3):
        finish_game(alice, bob, moves=2)  # resigned before making three moves of their own
    assert not Rating.objects.exists()
    rated = [finish_game(alice, bob) for _ in range(4)]  # games long enough to count: three a day between them
    assert [RatingChange.objects.filter(game=game).count() for game in rated] == [2, 2, 2, 0]
    assert Rating.objects.get(user=alice, players=2).games == 3
    # Another pairing the same day still counts, and an older day's games do not hold anyone back.
    assert RatingChange.objects.filter(game=finish_game(alice, carol)).count() == 2
    with time_machine.travel(timezone.now() + timedelta(days=1, minutes=1)):
        assert RatingChange.objects.filter(game=finish_game(alice, bob)).count() == 2


def test_the_daily_cap_holds_for_each_two_players_at_a_bigger_table_too(alice, bob, carol, finish_game):
    """Two accounts that reached the cap cannot meet again rated the same day by bringing a third to the table."""
    for _ in range(3):
        finish_game(alice, bob)
    game = ready_to_end([alice, carol, bob], slug="love-letter")
    services.resign_game(game_id=game.pk, user=carol)
    services.resign_game(game_id=game.pk, user=bob)
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED and not RatingChange.objects.filter(game=game).exists()
    assert not Rating.objects.filter(user=carol).exists()


def test_a_rating_is_provisional_until_it_counts_as_many_rated_games_as_the_site_asks(alice, make_user, finish_game,
                                                                                     settings):
    settings.RATINGS_PROVISIONAL_GAMES = 4
    for number in range(5):
        finish_game(alice, make_user(f"opponent{number}"))
        rating = Rating.objects.get(user=alice, players=2)
        assert (rating.games, rating.provisional) == (number + 1, number < 3)
        assert rating.display_text.endswith("?") == rating.provisional
