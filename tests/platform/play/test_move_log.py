"""The event-sourced move log: replay equals snapshot, append-only, one winner per race."""

from __future__ import annotations

import random
import threading
import time

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import DatabaseError, connection, transaction

from turnbased.clocks.models import SeatClock
from turnbased.kit.errors import PlayError, StaleSequence
from turnbased.play import selectors, services, store
from turnbased.play.models import Game, GameStatus, Move


def play_to_the_end(game: Game, users: dict, rng: random.Random, limit: int = 2000) -> Game:
    """Play random legal moves through submit_move until the game ends."""
    for _ in range(limit):
        game.refresh_from_db()
        if game.status != GameStatus.ACTIVE:
            return game
        seat = game.to_move[0]
        viewer = selectors.Viewer(game=game, seat=seat)
        choice = rng.choice(selectors.legal_moves_for(viewer))
        services.submit_move(game_id=game.pk, user=users[seat], expected_seq=game.seq, move=choice["move"])
    raise AssertionError("the game did not end")


def test_a_whole_game_finishes_with_a_winner_and_replays_to_its_snapshot(alice, bob):
    game = services.create_game(creator=alice, engine_slug="love-letter", players=2)
    services.join_game(game_id=game.pk, user=bob)
    game = play_to_the_end(game, {0: alice, 1: bob}, random.Random(7))
    assert game.status == GameStatus.FINISHED and game.finished_at
    assert len(game.result["winners"]) == 1
    assert Move.objects.filter(game=game).count() == game.seq
    assert store.replay(game) == game.state


def test_verify_games_passes_clean_games_and_catches_a_tampered_snapshot(started_game, alice, capsys):
    services.submit_move(game_id=started_game.pk, user=alice, expected_seq=0, move={"card": "handmaid"})
    call_command("verify_games")
    assert "0 differ" in capsys.readouterr().out

    started_game.refresh_from_db()
    tampered = dict(started_game.state)
    tampered["tampered"] = True
    Game.objects.filter(pk=started_game.pk).update(state=tampered)
    with pytest.raises(CommandError, match="1 game"):
        call_command("verify_games")
    assert f"game {started_game.pk}" in capsys.readouterr().err


def test_the_database_refuses_to_edit_or_delete_logged_moves(started_game, alice):
    services.submit_move(game_id=started_game.pk, user=alice, expected_seq=0, move={"card": "handmaid"})
    entry = Move.objects.get(game=started_game)
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        Move.objects.filter(pk=entry.pk).update(text="something else")
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        Move.objects.filter(pk=entry.pk).delete()


@pytest.mark.django_db(transaction=True)
def test_two_moves_racing_for_the_same_turn_append_exactly_one(make_user, start_scripted_game):
    alice, bob = make_user("alice"), make_user("bob")
    game = start_scripted_game(alice, bob)
    moves = [{"card": "handmaid"}, {"card": "guard", "target": 1, "guess": "prince"}]
    barrier = threading.Barrier(2)
    outcomes: list = []

    def submit(move):
        try:
            barrier.wait()
            services.submit_move(game_id=game.pk, user=alice, expected_seq=0, move=move)
            outcomes.append("appended")
        except PlayError as error:
            outcomes.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=submit, args=(move,)) for move in moves]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)

    assert outcomes.count("appended") == 1
    refused = [o for o in outcomes if o != "appended"]
    assert len(refused) == 1 and isinstance(refused[0], StaleSequence) and refused[0].status == 409
    assert Move.objects.filter(game=game).count() == 1
    game.refresh_from_db()
    assert game.seq == 1 and store.replay(game) == game.state


def _wait_until_a_query_waits_for_a_lock(timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    with connection.cursor() as cursor:
        while time.monotonic() < deadline:
            cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                           "AND datname = current_database()")
            if cursor.fetchone()[0]:
                return
            time.sleep(0.02)
    raise AssertionError("no query waited for the game's lock")


@pytest.mark.django_db(transaction=True)
def test_an_action_that_waited_for_the_lock_works_from_what_the_move_before_it_wrote(make_user):
    """The locking query reads seats and clocks with the game; one that waited for the lock reads them again.

    Alice moves and holds the lock a moment; bob resigns meanwhile. His resignation must stop the clocks as
    alice's move left them (her time bank charged), not as they were when his request began.
    """
    alice, bob = make_user("alice"), make_user("bob")
    game = services.create_game(creator=alice, engine_slug="love-letter", players=2,
                                options={"first_player": 0},
                                time_control={"kind": "bank", "bank_days": 7, "increment_days": 0})
    services.join_game(game_id=game.pk, user=bob)
    game.refresh_from_db()
    moved, release = threading.Event(), threading.Event()
    failures: list = []

    def alice_moves():
        try:
            with transaction.atomic():
                services.submit_move(game_id=game.pk, user=alice, expected_seq=0,
                                     move=store.engine_of(game).legal_moves(game.state, 0)[0])
                moved.set()
                release.wait(10)
        except Exception as error:  # noqa: BLE001 - reported by the main thread
            failures.append(error)
        finally:
            moved.set()
            connection.close()

    def bob_resigns():
        try:
            services.resign_game(game_id=game.pk, user=bob)
        except Exception as error:  # noqa: BLE001 - reported by the main thread
            failures.append(error)
        finally:
            connection.close()

    mover = threading.Thread(target=alice_moves)
    mover.start()
    moved.wait(10)
    resigner = threading.Thread(target=bob_resigns)
    resigner.start()
    try:
        _wait_until_a_query_waits_for_a_lock()
    finally:
        release.set()
        mover.join(30)
        resigner.join(30)
    assert not failures, failures
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED and game.seq == 2
    assert store.replay(game) == game.state, "the resignation started from the state alice's move wrote"
    banks = dict(SeatClock.objects.filter(game=game).values_list("seat", "bank_seconds"))
    assert banks[0] < 7 * 86400, "alice's move charged her bank; the resignation wrote it back as it was"
    assert not SeatClock.objects.filter(game=game, turn_started_at__isnull=False).exists()
