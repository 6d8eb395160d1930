"""Bots at the table: seated at creation, moving through submit_move's door with source "bot"."""

from __future__ import annotations

import time

import pytest

from tests.platform.embedded_worker import embedded_worker
from turnbased.kit.errors import Conflict, Unprocessable
from turnbased.play import selectors, services, tasks
from turnbased.play.models import Game, GameStatus, Move


def test_bots_fill_seats_at_creation_and_the_table_starts(db, alice, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        game = services.create_game(creator=alice, engine_slug="love-letter", players=3, bots={1: "random", 2: "random"})
    game.refresh_from_db()
    assert game.status == GameStatus.ACTIVE
    assert game.player_names == ["alice", "bot2", "bot3"]
    assert [(s["name"], s["bot"]) for s in selectors.seat_summaries(game)] == [
        ("alice", None), ("bot2", "random"), ("bot3", "random")]


def test_the_lobby_names_bots_by_their_kind(db, alice, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        services.create_game(creator=alice, engine_slug="love-letter", players=3, bots={1: "basic", 2: "random"})
    assert [row["players"] for row in selectors.lobby_rows(alice)] == [["alice", "Basic bot", "Random bot"]]


def test_bots_answer_a_persons_move(db, alice, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        game = services.create_game(creator=alice, engine_slug="halali", players=2, bots={1: "random"})
    for _ in range(6):
        game.refresh_from_db()
        if game.status != GameStatus.ACTIVE:
            break
        assert game.to_move == [0], "the bot has always answered by now"
        move = selectors.legal_moves_for(selectors.Viewer(game=game, seat=0))[0]["move"]
        with django_capture_on_commit_callbacks(execute=True):
            services.submit_move(game_id=game.pk, user=alice, expected_seq=game.seq, move=move)
    assert Move.objects.filter(game=game, source="bot").count() >= 5


def test_bad_bot_requests_are_refused(db, alice):
    # Each of the request's shape, but no seat that can take that bot: 422.
    with pytest.raises(Unprocessable, match="no bot called"):
        services.create_game(creator=alice, engine_slug="love-letter", players=2, bots={1: "genius"})
    with pytest.raises(Unprocessable, match="yours"):
        services.create_game(creator=alice, engine_slug="love-letter", players=2, bots={0: "random"})
    with pytest.raises(Unprocessable, match="Seat 5 cannot take a bot"):
        services.create_game(creator=alice, engine_slug="love-letter", players=2, bots={5: "random"})
    with pytest.raises(Unprocessable, match="bots must map seat numbers"):
        services.create_game(creator=alice, engine_slug="love-letter", players=2, bots={"first": "random"})
    assert not Game.objects.exists()


def test_a_stale_bot_task_does_nothing(db, alice, bob, start_scripted_game):
    game = start_scripted_game(alice, bob)
    assert services.play_bot_turn(game_id=game.pk, seq=7) == []
    assert services.play_bot_turn(game_id=game.pk, seq=0) == []  # no bot seat is to move


def test_a_bot_task_for_a_game_that_is_gone_plays_nothing(db, alice, bob, start_scripted_game):
    game = start_scripted_game(alice, bob)
    gone = game.pk + 1000
    assert services.play_bot_turn(game_id=gone, seq=0) == []
    assert tasks.play_bot_turn(gone, 0) == 0  # the task ends without an error (a queued turn of a deleted game)


def test_a_person_cannot_move_for_a_seat_a_bot_took_over(db, alice, bob, start_scripted_game):
    game = start_scripted_game(alice, bob)
    game.seats.filter(index=0).update(bot="random")
    with pytest.raises(Conflict, match="bot plays this seat"):
        services.submit_move(game_id=game.pk, user=alice, expected_seq=0, move={"card": "handmaid"})


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_bot_only_table_plays_to_the_end_through_the_real_worker(make_user, settings):
    settings.BOT_MOVE_DELAY_SECONDS = 0
    watcher = make_user("watcher")
    with embedded_worker():
        game = services.create_game(creator=watcher, engine_slug="love-letter", players=2, creator_plays=False,
                                    bots={0: "random", 1: "random"})
        deadline = time.monotonic() + 60
        while Game.objects.get(pk=game.pk).status == GameStatus.ACTIVE and time.monotonic() < deadline:
            time.sleep(0.1)
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED and len(game.result["winners"]) == 1
    assert set(Move.objects.filter(game=game).values_list("source", flat=True)) == {"bot"}
    assert game.result["bot_played_seats"] == [0, 1]
