"""Webhook tests send to loopback receivers: the address rule is relaxed as under ``make run``."""

from __future__ import annotations

import pytest

from tests.platform.webhooks.receivers import Receiver
from tests.platform.webhooks.worker_queue import WorkerQueue
from turnbased.webhooks import delivery


@pytest.fixture
def loopback_allowed(settings):
    settings.WEBHOOKS_ALLOW_PRIVATE_ADDRESSES = True
    settings.WEBHOOKS_ALLOW_HTTP = True
    settings.RATE_LIMITS_ON = False
    return settings


@pytest.fixture
def receiver(loopback_allowed):
    receiver = Receiver().start()
    yield receiver
    receiver.stop()


@pytest.fixture
def worker_queue(monkeypatch):
    """The webhooks queue and its one worker in the test's process (``worker_queue``), in place of Celery's."""
    queue = WorkerQueue()
    monkeypatch.setattr(delivery, "send_soon", queue.put)
    return queue
