"""Games ended by something other than their own moves (``play.services.play_out``): decided now by the engine
(adjudicated on the public count, or every player losing), finished like any game, and verifiable from the record."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from games import get_engine
from games.base import ADJUDICATED, ALL_LOSE
from games.record import verify_record
from turnbased.aftergame.selectors import ending
from turnbased.clocks.models import SeatClock
from turnbased.events.models import Event, EventKind
from turnbased.play import services
from turnbased.play.models import Game, GameStatus, Seat
from turnbased.play.records import complete_record
from turnbased.ratings.models import RatingChange
from turnbased.ratings.selectors import archived_games, final_places
from turnbased.ratings.services import game_unrated_reason

pytestmark = pytest.mark.django_db

CLOCK = {"kind": "per_move", "days_per_move": 3}


def _halfway(alice, bob, moves: int = 14) -> Game:
    """A public Halali! game between alice and bob, dealt from its seed, ``moves`` random legal moves in."""
    game = services.create_game(creator=alice, engine_slug="halali", players=2, time_control=CLOCK)
    services.join_game(game_id=game.pk, user=bob)
    engine, rng, users = get_engine("halali"), random.Random(7), {0: alice, 1: bob}
    for _ in range(moves):
        game.refresh_from_db()
        seat = game.to_move[0]
        move = rng.choice(engine.legal_moves(game.state, seat))
        services.submit_move(game_id=game.pk, user=users[seat], expected_seq=game.seq, move=move)
    game.refresh_from_db()
    assert game.status == GameStatus.ACTIVE
    return game


def test_an_adjudicated_game_is_finished_by_the_public_count_and_its_record_verifies(alice, bob):
    game = _halfway(alice, bob)
    engine = get_engine("halali")
    expected = engine.decided_result(game.state, ADJUDICATED, list(game.player_names))
    Event.objects.all().delete()
    services.game_decide(game_id=game.pk, how=ADJUDICATED)
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED and game.finished_at is not None and game.to_move == []
    assert {key: game.result[key] for key in expected} == expected
    assert game.result["scores"] == engine.public_scores(game.state)
    # Every clock stopped, every player told (the stream row the move that ends a game writes).
    assert not SeatClock.objects.filter(game=game, turn_started_at__isnull=False).exists()
    assert sorted(Event.objects.filter(kind=EventKind.GAME_FINISHED).values_list("user_id", flat=True)) \
        == sorted([alice.pk, bob.pk])
    # A decided game is not rated, and says how it ended.
    assert game_unrated_reason(game, None) == "a game decided before its end"
    assert not RatingChange.objects.filter(game=game).exists()
    assert ending(game).how == ADJUDICATED
    assert game.result_line.startswith("Adjudicated before its end")
    report = verify_record(complete_record(game))
    assert report.ok, report.lines()


def test_a_game_every_player_lost_places_them_last_together_and_is_no_draw(alice, bob):
    game = _halfway(alice, bob, moves=6)
    services.game_decide(game_id=game.pk, how=ALL_LOSE)
    game.refresh_from_db()
    assert game.result["winners"] == [] and game.result["decided"] == ALL_LOSE
    assert final_places(game) == [2, 2]
    (archived,) = archived_games(alice, [Game.objects.prefetch_related("seats__user").get(pk=game.pk)])
    assert archived.place == 2 and not archived.won and not archived.draw
    assert ending(game).how == ALL_LOSE
    assert verify_record(complete_record(game)).ok


def test_deciding_a_game_that_is_over_changes_nothing_and_only_a_known_way_decides(alice, bob):
    game = _halfway(alice, bob, moves=4)
    with pytest.raises(ValueError):
        services.game_decide(game_id=game.pk, how="coin_toss")
    game.refresh_from_db()
    assert game.status == GameStatus.ACTIVE
    services.game_decide(game_id=game.pk, how=ALL_LOSE)
    finished = Game.objects.get(pk=game.pk)
    services.game_decide(game_id=game.pk, how=ADJUDICATED)  # a second decision: the first stands
    again = Game.objects.get(pk=game.pk)
    assert again.result == finished.result and again.finished_at == finished.finished_at


def test_a_seat_out_of_time_before_the_deadline_places_below_the_seats_played_out_at_it(alice, bob):
    """A play-out hands every seat still a person's to its bot alike, and marks none as left: whoever ran out of
    time before it (their seat handed on) places below them whatever the bots make of the game, and the play-out
    counts as nobody's abandoned game."""
    game = services.create_game(creator=alice, engine_slug="halali", players=2,
                                time_control={**CLOCK, "expiry": "remove"})
    services.join_game(game_id=game.pk, user=bob)
    game.refresh_from_db()
    late = game.to_move[0]
    SeatClock.objects.filter(game=game, seat=late).update(deadline=timezone.now() - timedelta(seconds=1))
    assert services.play_timeout(game_id=game.pk, seat=late) == "seat handed to the bot"
    services.game_play_out(game_id=game.pk)
    stayed = game.seats.get(index=1 - late)
    assert stayed.bot and stayed.left_at is None
    for _ in range(2000):
        game.refresh_from_db()
        if game.status != GameStatus.ACTIVE:
            break
        services.play_bot_turn(game_id=game.pk, seq=game.seq)
    assert game.status == GameStatus.FINISHED and game.result["left_seats"] == [late]
    places = final_places(game)
    assert places[late] == 2 and places[1 - late] == 1
    assert not Seat.objects.filter(user=stayed.user, left_at__isnull=False).exists()
