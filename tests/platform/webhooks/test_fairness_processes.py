"""Fairness between accounts through real processes: a webhooks worker (one pool process, as the Procfile runs it)
and beat, sending to receivers on loopback.

- One account's burst to slow receivers is being sent; another account's event comes: its delivery waits for two
  of the slow attempts at most (one before the sweep that queues it, one after), not for the whole burst.
- One account's backlog drains one delivery at a time, each as soon as the last was answered, in event order.
"""

from __future__ import annotations

import json
import re
import time

import pytest
from django.db import connection

from tests.faults.stack import Broker, celery, stop_all, wait_for, worker_environment
from tests.platform.webhooks.receivers import Receiver
from tests.serving.served import database_url_for
from turnbased.events.models import Event, EventKind
from turnbased.events.services import NewEvent, events_record
from turnbased.webhooks import services
from turnbased.webhooks.models import WebhookDelivery

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

BACKLOG = 40
LOOPBACK = {"WEBHOOKS_ALLOW_PRIVATE_ADDRESSES": "on", "WEBHOOKS_ALLOW_HTTP": "on"}


def _tell(user, number: int) -> int:
    events_record(events=[NewEvent(user_id=user.pk, kind=EventKind.YOUR_TURN, payload={"n": number})])
    return Event.objects.filter(user=user).latest("id").pk


class _Stack:
    """The webhooks worker and beat on a broker of the test's own; stopped, and the broker with them, on exit."""

    def __init__(self, folder, **settings: str):
        self.broker = Broker(folder / "redis")
        self.worker = celery("hooks", ["worker", "-Q", "webhooks", "--concurrency=1", "--loglevel=info"], folder)
        self.beat = celery("beat", ["beat", "--loglevel=info", f"--schedule={folder / 'beat-schedule'}"], folder)
        self.settings = {**LOOPBACK, **settings}

    def __enter__(self) -> _Stack:
        self.broker.start()
        environment = worker_environment(database_url_for(connection.settings_dict["NAME"]), self.broker.url,
                                         **self.settings)
        self.worker.start(environment)
        self.beat.start(environment)
        wait_for(lambda: " ready." in self.worker.output(), "the webhooks worker", processes=[self.worker])
        return self

    def __exit__(self, *exc_info) -> None:
        try:
            stop_all(self.beat, self.worker)
        finally:
            self.broker.stop()


def test_another_accounts_delivery_waits_for_one_slow_attempt_at_most_not_for_the_burst(tmp_path, alice, bob,
                                                                                         loopback_allowed):
    """Issue 42: alice's twenty deliveries to slow receivers (each just under WEBHOOKS_SLOW_SECONDS, so never
    paused) sat in the queue ahead of bob's: bob's waited for all of them.

    Now the queue holds one of hers at a time. The sweep that queues bob's delivery shares that queue, so it may
    wait for one of her attempts, and bob's delivery for one more: two of hers at most begin after his event.
    """
    slow, fast = Receiver(delay=0.6).start(), Receiver().start()
    try:
        for _ in range(5):
            services.webhook_create(owner=alice, url=slow.url)
        services.webhook_create(owner=bob, url=fast.url)
        with _Stack(tmp_path, WEBHOOKS_SWEEP_SECONDS="0.5", WEBHOOKS_SLOW_SECONDS="3"):
            for number in range(4):
                _tell(alice, number)  # twenty slow deliveries
            slow.wait_for(1, timeout=30)
            told = time.monotonic()
            _tell(bob, 0)
            [bobs] = fast.wait_for(1, timeout=60)
            slow_between = [request for request in slow.received if told <= request.at < bobs.at]
            print(f"bob's delivery after {bobs.at - told:.1f} s; alice's slow attempts begun meanwhile: "
                  f"{len(slow_between)} of {len(slow.received)} so far")
            assert len(slow_between) <= 2
            slow.wait_for(20, timeout=60)  # and alice's burst is delivered whole, one at a time
            wait_for(lambda: not WebhookDelivery.objects.exclude(state="delivered").exists(), "every delivery settled")
        assert slow.most_at_once == 1
    finally:
        slow.stop()
        fast.stop()


def _sweeps_queued(log: str) -> list[int]:
    """Return what each sweep the worker's log shows queued, in order."""
    return [int(count) for count in re.findall(r"Task turnbased\.webhooks\.tasks\.sweep_webhooks\[[0-9a-f-]+\] "
                                              r"succeeded in [0-9.e-]+s: (\d+)", log)]


@pytest.mark.parametrize("answer_seconds", [0.0, 0.1])
def test_a_backlog_drains_one_at_a_time_each_as_soon_as_the_last_was_answered(tmp_path, alice, loopback_allowed,
                                                                              answer_seconds):
    """Issue 42: a backlog went twenty a sweep (240 a minute), however fast its receiver answered."""
    receiver = Receiver(delay=answer_seconds).start()
    try:
        services.webhook_create(owner=alice, url=receiver.url)
        events = [_tell(alice, number) for number in range(BACKLOG)]
        with _Stack(tmp_path, WEBHOOKS_SWEEP_SECONDS="2") as stack:
            received = receiver.wait_for(BACKLOG, timeout=120)
            wait_for(lambda: not WebhookDelivery.objects.exclude(state="delivered").exists(), "every delivery settled")
            sweeps = _sweeps_queued(stack.worker.output())
    finally:
        receiver.stop()
    took = received[-1].at - received[0].at
    gaps = sorted(later.at - earlier.at - answer_seconds for earlier, later in zip(received, received[1:]))
    print(f"{BACKLOG} deliveries answered in {answer_seconds} s: {took:.2f} s, {(BACKLOG - 1) / took:.1f} a second; "
          f"from an answer to the next request: median {gaps[len(gaps) // 2] * 1000:.0f} ms, "
          f"longest {gaps[-1] * 1000:.0f} ms; the sweeps queued {sweeps}")
    assert [json.loads(request.body)["id"] for request in received] == events  # in event order
    assert receiver.most_at_once == 1
    assert sum(sweeps) == 1  # the sweep queued the first; each of the others followed the one before
