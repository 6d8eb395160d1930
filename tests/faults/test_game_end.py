"""A game's end and its rating commit together, or neither does (issue 43: the rating reacts to the core's fact
``GameFinished`` in the transaction that ends the game).

The worst moment: a real web process has logged the last move, written the result and the finished status, and is
rating the game (the ratings wait for the players' locks, which the test holds) when it is killed. Nothing of the
end may stay: the game is in play, the move unlogged, no rating moved, nobody notified. Sent again, the same
resignation ends the game and rates it once.
"""

from __future__ import annotations

import signal
import threading

import httpx
import pytest
from django.db import connection, connections, transaction

from tests.platform.conftest import alice, api_token, bob, make_user  # noqa: F401 - the accounts' fixtures
from tests.platform.ratings.conftest import ready_to_end
from tests.serving.served import database_url_for, served_web
from tests.waiting import wait_for
from turnbased.notifications.models import Notification, NotificationKind
from turnbased.play import services
from turnbased.play.models import GameStatus, Move
from turnbased.ratings.models import Rating, RatingChange
from turnbased.ratings.services import LOCK_SPACE

pytestmark = [pytest.mark.faults, pytest.mark.django_db(transaction=True)]


def _waiting_on_the_ratings_lock() -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND classid = %s",
                       [LOCK_SPACE])
        return cursor.fetchone()[0] > 0


def _sessions_of_the_web() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                       "AND pid <> pg_backend_pid() AND state <> 'idle'")
        return cursor.fetchone()[0]


def test_a_web_process_killed_while_rating_a_games_end_leaves_neither_the_end_nor_the_rating(tmp_path, alice, bob):
    game = ready_to_end([alice, bob])
    moves_before = Move.objects.filter(game=game).count()
    token = api_token(bob)
    holder = connections.create_connection("default")  # the test's second session: it holds alice's rating lock
    answers: list[object] = []
    try:
        with served_web(tmp_path, database_url_for(connection.settings_dict["NAME"]),
                        WEB_CONCURRENCY="1", WEB_THREADS="1") as web:
            with holder.cursor() as cursor:
                cursor.execute("BEGIN")
                cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [LOCK_SPACE, alice.pk])

                def resign() -> None:
                    try:
                        answers.append(httpx.post(f"http://127.0.0.1:{web.port}/api/games/{game.pk}/resign/",
                                                  headers={"Authorization": f"Token {token}"}, timeout=60))
                    except httpx.HTTPError as error:  # the process answering it is killed: no answer
                        answers.append(error)

                request = threading.Thread(target=resign)
                request.start()
                wait_for(_waiting_on_the_ratings_lock, "the resignation to wait inside the rating", timeout=60)
                web.process.signal(signal.SIGKILL)  # the master and its worker, mid-transaction
                request.join(60)
                cursor.execute("COMMIT")  # the lock goes; the killed session's backend finds its client gone
            wait_for(lambda: not _waiting_on_the_ratings_lock() and _sessions_of_the_web() == 0,
                     "the killed process's session to end", timeout=60)
    finally:
        holder.close()
    assert answers and isinstance(answers[0], httpx.HTTPError), answers

    game.refresh_from_db()
    assert game.status == GameStatus.ACTIVE and game.result is None
    assert Move.objects.filter(game=game).count() == moves_before
    assert not RatingChange.objects.filter(game=game).exists() and not Rating.objects.exists()
    assert not Notification.objects.filter(game=game, kind=NotificationKind.GAME_FINISHED).exists()

    # Sent again, it ends the game and rates it, once.
    with transaction.atomic():
        services.resign_game(game_id=game.pk, user=bob)
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    assert RatingChange.objects.filter(game=game).count() == 2
    assert Notification.objects.filter(game=game, kind=NotificationKind.GAME_FINISHED).count() == 2
