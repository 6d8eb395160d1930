"""The Celery application: a worker of the ``bots`` queue (where bot turns run), starting, queues again every bot turn
waiting (issue 42: the turns a killed worker held stay in the broker until its visibility timeout). Through real
processes: ``tests/faults/test_bot_turns.py``."""

from __future__ import annotations

import logging
from types import SimpleNamespace

import pytest

from turnbased import celery


def _worker_of(*queues: str) -> SimpleNamespace:
    return SimpleNamespace(task_consumer=SimpleNamespace(queues=[SimpleNamespace(name=name) for name in queues]))


@pytest.mark.parametrize(("queues", "queued_again"), [
    (("bots",), 1),  # the Procfile's and compose.yaml's bots worker
    (("celery", "bots"), 1),  # one worker of both (the soaks', the tests' embedded one): once, not twice
    (("celery",), 0),  # the default queue's worker plays no bot turn any more
    (("mail",), 0),
    (("webhooks",), 0),
])
def test_a_worker_of_the_bots_queue_queues_the_waiting_bot_turns_as_it_starts(monkeypatch, queues, queued_again):
    calls = []
    monkeypatch.setattr("turnbased.play.services.queue_bot_turns_waiting", lambda: calls.append(1) or 0)
    celery.queue_waiting_bot_turns(_worker_of(*queues))
    assert len(calls) == queued_again


def test_a_worker_starts_whatever_the_database_says(monkeypatch, caplog):
    def away():
        raise ConnectionError("the database is away")

    # The warning is read at its own logger's level: a fresh-clone run once read nothing here, the logging of its
    # pytest worker left changed by a test before it in the same process (a logger's level, or logging.disable).
    caplog.set_level(logging.WARNING, logger="turnbased.celery")
    monkeypatch.setattr("turnbased.play.services.queue_bot_turns_waiting", away)
    celery.queue_waiting_bot_turns(_worker_of("bots"))
    assert "could not queue again" in caplog.text
