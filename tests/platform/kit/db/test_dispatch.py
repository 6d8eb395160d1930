"""A commit's work reaches Celery through the dispatcher (``turnbased.kit.db.dispatch``), not from the request.

These tests run with ``WORK_DISPATCH=notify``, as production does (the test runner's default is ``inline``),
and the dispatcher's LISTEN loop in a thread of the test's process, on a connection of its own; what it
would queue in Celery is recorded instead. The fault suite runs it as a process and kills it
(``tests/faults/test_dispatch.py``).
"""

from __future__ import annotations

import time

import pytest
from django.db import connection, connections, transaction

from tests.platform.conftest import SCRIPTED_CLASSIC_2P, record_queued
from turnbased.kit.db import dispatch
from turnbased.play import services

pytestmark = pytest.mark.django_db(transaction=True)

DELIVER, BOT = "turnbased.mail.tasks.deliver_game_notifications", "turnbased.play.tasks.play_bot_turn"


@pytest.fixture
def queued(monkeypatch, settings) -> list:
    settings.WORK_DISPATCH = "notify"
    return record_queued(monkeypatch)


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


def _cut_the_listen(dispatcher) -> None:
    """End the dispatcher's LISTEN session from another one, as a restarted server or a network cut would."""
    other = connections.create_connection("default")
    try:
        with other.cursor() as cursor:
            dispatcher.listening.clear()
            cursor.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = %s",
                           [dispatch.APPLICATION_NAME])
            assert cursor.fetchone() == (True,)
    finally:
        other.close()


def test_the_dispatcher_listens_again_after_its_connection_is_cut(queued, caplog):
    with dispatch.Dispatcher() as dispatcher:
        _cut_the_listen(dispatcher)
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


def test_the_dispatcher_recovers_once_it_listens_and_again_each_time_it_listens_again(queued):
    """Issue 42: what was notified while the dispatcher was not listening is lost; recover() queues it again."""
    recovered = []
    with dispatch.Dispatcher(recover=lambda: recovered.append(1)) as dispatcher:
        wait_for(recovered, 1)
        _cut_the_listen(dispatcher)
        assert dispatcher.listening.wait(10)
        wait_for(recovered, 2)
        time.sleep(0.3)
    assert len(recovered) == 2  # once a LISTEN, not once a tick


class _Broker:
    """A broker's answers to the watch, in turn: a server's run_id, or None for one that does not answer."""

    def __init__(self, *answers):
        self.answers = list(answers)

    def info(self, section):
        import redis

        answer = self.answers.pop(0) if len(self.answers) > 1 else self.answers[0]
        if answer is None:
            raise redis.ConnectionError("the broker is away")
        return {"run_id": answer}


def _watch(monkeypatch, *answers) -> dispatch.BrokerWatch:
    import threading

    monkeypatch.setattr(dispatch, "BROKER_CHECK_SECONDS", 0)
    monkeypatch.setattr(dispatch, "_refused", threading.Event())  # no refusal of another test's
    watch = dispatch.BrokerWatch("redis://127.0.0.1:1/0")
    watch._client = _Broker(*answers)
    return watch


def test_the_broker_is_back_after_an_absence_or_a_restart_not_while_it_stays(monkeypatch):
    steady = _watch(monkeypatch, "a")
    assert [steady.back() for _ in range(3)] == [False, False, False]
    watch = _watch(monkeypatch, "a", None, None, "a", "a", "b", "b")
    assert [watch.back() for _ in range(7)] == [False, False, False, True, False, True, False]


def test_a_task_the_broker_refused_makes_its_next_answer_a_return(monkeypatch, caplog):
    """An outage too short for the watch to see, but a task refused in it: those it held may be lost too."""
    class Refusing:
        def apply_async(self, **options):
            raise ConnectionError("the broker is away")

    watch = _watch(monkeypatch, "a")
    assert watch.back() is False
    monkeypatch.setattr(dispatch.current_app, "signature", lambda *args, **kwargs: Refusing())
    assert dispatch.queue(DELIVER, [1, 2]) is False
    assert watch.back() is True
    assert watch.back() is False


def test_the_dispatcher_recovers_when_the_broker_is_back_and_tries_again_a_recovery_that_failed(queued):
    class Back:
        def __init__(self):
            self.checks = 0

        def back(self):
            self.checks += 1
            return self.checks == 5

    attempts = []

    def recover():
        attempts.append(1)
        if len(attempts) == 1:
            raise ConnectionError("the database is away")

    with dispatch.Dispatcher(recover=recover, broker=Back()):
        wait_for(attempts, 3)  # the first fails, the next tick tries again, the broker's return asks once more
        time.sleep(0.3)
    assert len(attempts) == 3


def test_only_a_redis_broker_is_watched():
    assert isinstance(dispatch.BrokerWatch.of("redis://127.0.0.1:6379/0"), dispatch.BrokerWatch)
    assert dispatch.BrokerWatch.of("memory://") is None
