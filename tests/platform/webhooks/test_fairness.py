"""Fairness between accounts (issue 42), by counts and order: the webhooks queue and its one worker in the test's
process (``worker_queue``), first in, first out, each task to its end before the next, as the Procfile's worker.

One account's burst no longer fills the queue ahead of another's delivery, and a backlog follows one delivery
after another, each as soon as the one before is settled, with no sweep between them. What these orders mean in
seconds against real processes: ``test_fairness_processes.py``.
"""

from __future__ import annotations

import json

import pytest

from turnbased.events.models import Event, EventKind
from turnbased.events.services import NewEvent, events_record
from turnbased.webhooks import services
from turnbased.webhooks.models import WebhookDelivery

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _commits_run(monkeypatch):
    """Run what waits for a commit at once (the test's transaction never commits): an account's next task."""
    monkeypatch.setattr("django.db.transaction.on_commit", lambda function, *args, **kwargs: function())


def _tell(user, number: int = 0) -> int:
    events_record(events=[NewEvent(user_id=user.pk, kind=EventKind.YOUR_TURN, payload={"n": number})])
    return Event.objects.filter(user=user).latest("id").pk


def _owners(delivery_ids: list[int]) -> list[str]:
    owner_of = dict(WebhookDelivery.objects.values_list("pk", "hook__owner__username"))
    return [owner_of[delivery_id] for delivery_id in delivery_ids]


def test_another_accounts_delivery_waits_for_one_attempt_of_a_busy_account_at_most(alice, bob, receiver,
                                                                                   worker_queue):
    """Issue 42: a sweep queued twenty of one account's deliveries at once, and another account's delivery, queued
    by the next sweep, waited behind all of them (a receiver answering in 1.2 s: 24 s)."""
    for _ in range(5):
        services.webhook_create(owner=alice, url=receiver.url)
    for number in range(4):
        _tell(alice, number)  # twenty deliveries of alice's
    services.webhook_create(owner=bob, url=receiver.url)
    worker_queue.sweep(work=False)
    worker_queue.step()  # the worker is busy with alice's burst ...
    _tell(bob)  # ... when bob's event comes
    worker_queue.sweep(work=False)  # and the next sweep queues its delivery
    bobs = next(delivery_id for delivery_id in worker_queue.waiting if _owners([delivery_id]) == ["bob"])
    ahead = list(worker_queue.waiting)[:list(worker_queue.waiting).index(bobs)]
    worker_queue.work()
    assert _owners(ahead) == ["alice"]  # the one of hers already queued; before, nineteen
    assert set(WebhookDelivery.objects.values_list("state", flat=True)) == {"delivered"}
    assert len(receiver.received) == 21


def test_two_backlogs_drain_in_turn_one_delivery_after_another_with_no_sweep_between(alice, bob, receiver,
                                                                                      worker_queue):
    """Issue 42: a backlog drained twenty a sweep (240 a minute), however fast its receiver answered."""
    services.webhook_create(owner=alice, url=receiver.url)
    services.webhook_create(owner=bob, url=receiver.url)
    alices = [_tell(alice, number) for number in range(30)]
    bobs = [_tell(bob, number) for number in range(30)]
    assert worker_queue.sweep() == 2  # the first of each account's ...
    assert len(worker_queue.ran) == 60  # ... and every other one after the one before it, with no other sweep
    assert _owners(worker_queue.ran) == ["alice", "bob"] * 30  # the accounts in turn
    sent = [json.loads(request.body) for request in receiver.received]
    assert [body["id"] for body in sent if body["id"] in alices] == alices  # each account's in event order
    assert [body["id"] for body in sent if body["id"] in bobs] == bobs
    assert set(WebhookDelivery.objects.values_list("state", flat=True)) == {"delivered"}
    assert worker_queue.sweep() == 0


def test_an_accounts_slow_hook_pausing_leaves_its_other_hooks_going(alice, receiver, settings, worker_queue):
    """A receiver slower than WEBHOOKS_SLOW_SECONDS pauses its own hook; the account's next delivery is another
    hook's, at once."""
    from tests.platform.webhooks.receivers import Receiver

    settings.WEBHOOKS_SLOW_SECONDS = 0.2
    slow = Receiver(delay=0.3).start()
    try:
        slow_hook, _ = services.webhook_create(owner=alice, url=slow.url)
        services.webhook_create(owner=alice, url=receiver.url)
        for number in range(3):
            _tell(alice, number)
        assert worker_queue.sweep() == 1
    finally:
        slow.stop()
    assert len(slow.received) == 1  # answered slowly: its hook pauses, with its two others waiting
    assert len(receiver.received) == 3  # the healthy hook's three followed, one after another
    slow_hook.refresh_from_db()
    assert slow_hook.paused_until is not None and slow_hook.consecutive_failures == 0
    assert WebhookDelivery.objects.filter(hook=slow_hook, state="pending", queued_at=None).count() == 2


def test_none_in_flight_and_the_retired_setting_of_twenty_queued_are_refused_at_start():
    from tests.platform.conftest import settings_error

    assert "WEBHOOKS_IN_FLIGHT_PER_OWNER=0" in settings_error(WEBHOOKS_IN_FLIGHT_PER_OWNER="0")
    assert "WEBHOOKS_QUEUED_PER_OWNER is gone" in settings_error(WEBHOOKS_QUEUED_PER_OWNER="20")
