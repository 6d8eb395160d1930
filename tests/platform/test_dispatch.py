"""A commit's work reaches Celery through the dispatcher (``turnbased.dispatch``), not from the request.

These tests run with ``WORK_DISPATCH=notify``, as production does (the test runner's default is ``inline``),
and the dispatcher's LISTEN loop in a thread of the test's process, on a connection of its own; what it
would queue in Celery is recorded instead. The fault suite runs it as a process and kills it
(``tests/faults/test_dispatch.py``).
"""

from __future__ import annotations

import time

import pytest
from django.db import connection, connections, transaction

from tests.platform.conftest import SCRIPTED_CLASSIC_2P
from turnbased import dispatch
from turnbased.play import services

pytestmark = pytest.mark.django_db(transaction=True)

DELIVER, BOT = "turnbased.mail.tasks.deliver_game_notifications", "turnbased.play.tasks.play_bot_turn"


@pytest.fixture
def queued(monkeypatch, settings) -> list:
    settings.WORK_DISPATCH = "notify"
    calls = []

    def record(task, args, countdown=0):
        calls.append((task, args, countdown))
        return True

    monkeypatch.setattr(dispatch, "queue", record)
    return calls


def wait_for(calls: list, count: int, seconds: float = 10) -> None:
    deadline = time.monotonic() + seconds
    while len(calls) < count:
        assert time.monotonic() < deadline, f"{len(calls)} of {count} tasks queued: {calls}"
        time.sleep(0.02)


def test_a_moves_work_is_queued_by_the_dispatcher_once_the_move_commits(alice, bob, queued, settings):
    settings.BOT_MOVE_DELAY_SECONDS = 2.0
    with dispatch.Dispatcher():
        game = services.create_game(creator=alice, engine_slug="love-letter", players=2,
                                    options={"deck": SCRIPTED_CLASSIC_2P, "first_player": 0})
        services.join_game(game_id=game.pk, user=bob)
        wait_for(queued, 1)
        assert queued[-1] == (DELIVER, [game.pk, 0], 0)  # the start's turn email for alice
        services.submit_move(game_id=game.pk, user=alice, expected_seq=0, move={"card": "handmaid"})
        wait_for(queued, 2)
    assert queued[-1] == (DELIVER, [game.pk, 1], 0)


def test_a_bot_turn_is_queued_after_its_pause_and_nothing_is_queued_by_the_request(alice, queued, settings,
                                                                                     monkeypatch):
    settings.BOT_MOVE_DELAY_SECONDS = 2.0
    on_commit = []
    monkeypatch.setattr(transaction, "on_commit", lambda *args, **kwargs: on_commit.append(args))
    with dispatch.Dispatcher():
        game = services.create_game(creator=alice, engine_slug="love-letter", players=2, bots={1: "basic"},
                                    options={"deck": SCRIPTED_CLASSIC_2P, "first_player": 0})
        services.submit_move(game_id=game.pk, user=alice, expected_seq=0, move={"card": "handmaid"})
        wait_for(queued, 2)
    assert (BOT, [game.pk, 1], 2.0) in queued
    assert [args for args in on_commit if "dispatch" in getattr(args[0], "__module__", "")] == []


def test_a_change_rolled_back_queues_nothing(alice, bob, queued):
    game = services.create_game(creator=alice, engine_slug="love-letter", players=2,
                                options={"deck": SCRIPTED_CLASSIC_2P, "first_player": 0})
    with dispatch.Dispatcher():
        with pytest.raises(RuntimeError), transaction.atomic():
            services.join_game(game_id=game.pk, user=bob)
            raise RuntimeError("undo")
        dispatch.after_commit(DELIVER, 1, 2)  # outside a transaction: sent at once, so a sign the loop is alive
        wait_for(queued, 1)
    assert queued == [(DELIVER, [1, 2], 0)]


@pytest.mark.parametrize("payload", ["not json", '{"task": "os.system", "args": [1]}', '{"task": "%s", "args": ["x"]}'
                                     % DELIVER, '{"args": [1]}', "[]"])
def test_a_notification_that_names_no_task_it_queues_is_ignored(payload, queued, caplog):
    assert dispatch.handle(payload) is False
    assert queued == [] and "ignored a notification" in caplog.text


def test_only_the_dispatched_tasks_may_be_named(settings):
    with pytest.raises(ValueError):
        dispatch.after_commit("turnbased.events.tasks.prune_events")


def test_the_dispatcher_listens_again_after_its_connection_is_cut(queued, caplog):
    with dispatch.Dispatcher() as dispatcher:
        other = connections.create_connection("default")
        try:
            with other.cursor() as cursor:
                dispatcher.listening.clear()
                cursor.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = %s",
                               [dispatch.APPLICATION_NAME])
                assert cursor.fetchone() == (True,)
        finally:
            other.close()
        assert dispatcher.listening.wait(10)
        dispatch.after_commit(DELIVER, 3, 4)
        wait_for(queued, 1)
    assert queued == [(DELIVER, [3, 4], 0)]
    assert "was lost" in caplog.text


def test_a_broker_that_refuses_a_task_leaves_it_to_the_sweep(monkeypatch, caplog):
    class Refusing:
        def apply_async(self, **options):
            raise ConnectionError("the broker is away")

    monkeypatch.setattr(dispatch.current_app, "signature", lambda *args, **kwargs: Refusing())
    assert dispatch.queue(DELIVER, [1, 2]) is False
    assert "the sweep will" in caplog.text


def test_the_notify_goes_in_the_moves_own_statement(alice, bob, settings):
    from django.test.utils import CaptureQueriesContext

    settings.WORK_DISPATCH = "notify"
    game = services.create_game(creator=alice, engine_slug="love-letter", players=2,
                                options={"deck": SCRIPTED_CLASSIC_2P, "first_player": 0})
    services.join_game(game_id=game.pk, user=bob)
    with CaptureQueriesContext(connection) as captured:
        services.submit_move(game_id=game.pk, user=alice, expected_seq=0, move={"card": "handmaid"})
    [writes] = [query["sql"] for query in captured.captured_queries if "pg_notify" in query["sql"]]
    assert "INSERT INTO \"play_move\"" in writes and DELIVER in writes
