"""The events table's own guarantees: a user's events commit in id order, a commit wakes the streams (a
rollback never does), and a week of events is kept."""

from __future__ import annotations

import select
import threading
import time
from datetime import timedelta

import psycopg2
import pytest
from django.db import connection, transaction
from django.utils import timezone

from tests.platform.conftest import settings_error
from turnbased.events import services, tasks
from turnbased.events.models import NOTIFY_CHANNEL, Event, EventKind
from turnbased.events.services import NewEvent, events_record
from turnbased.kit.db.listening import listen_parameters


def _event(user) -> NewEvent:
    return NewEvent(user_id=user.pk, kind=EventKind.YOUR_TURN, payload={"for": user.username})


@pytest.mark.django_db(transaction=True)
def test_a_second_writer_to_the_same_user_waits_for_the_first_to_commit(alice, bob, carol):
    """So ids become visible in order: a stream resuming after id N never misses an N - 1 committed later."""
    first_wrote, release = threading.Event(), threading.Event()
    done: dict[str, float] = {}

    def first():
        with transaction.atomic():
            events_record(events=[_event(alice)], lock_user_ids=[bob.pk])
            first_wrote.set()
            release.wait(10)
        done["first"] = time.monotonic()
        connection.close()

    def second(user, name):
        first_wrote.wait(10)
        with transaction.atomic():
            events_record(events=[_event(user)])
        done[name] = time.monotonic()
        connection.close()

    threads = [threading.Thread(target=first), threading.Thread(target=second, args=(alice, "alice")),
               threading.Thread(target=second, args=(carol, "carol"))]
    for thread in threads:
        thread.start()
    time.sleep(1.0)
    assert "carol" in done, "a writer to someone else does not wait"
    assert "alice" not in done, "a writer to the same user waits for the first one's commit"
    release.set()
    for thread in threads:
        thread.join(10)
    assert done["alice"] >= done["first"]
    first_id, second_id = Event.objects.filter(user=alice).order_by("id").values_list("id", flat=True)
    assert first_id < second_id


@pytest.mark.django_db(transaction=True)
def test_a_commit_notifies_the_streams_of_its_users_and_a_rollback_does_not(alice, bob):
    listener = psycopg2.connect(**listen_parameters())
    listener.autocommit = True
    try:
        listener.cursor().execute(f"LISTEN {NOTIFY_CHANNEL}")

        class Undo(Exception):
            pass

        with pytest.raises(Undo):
            with transaction.atomic():
                events_record(events=[_event(alice)])
                raise Undo
        with transaction.atomic():
            events_record(events=[_event(alice), _event(bob), _event(bob)])
        payloads = []
        deadline = time.monotonic() + 5
        while not payloads and time.monotonic() < deadline:
            select.select([listener], [], [], 0.2)
            listener.poll()
            payloads += [notify.payload for notify in listener.notifies]
            listener.notifies.clear()
        assert [sorted(payload.split(",")) for payload in payloads] == [sorted([str(alice.pk), str(bob.pk)])]
    finally:
        listener.close()


@pytest.mark.django_db
def test_the_users_a_query_leaves_out_get_nothing(alice):
    from turnbased.chat.models import Mute

    Mute.objects.create(user=alice, muted=alice)  # a query of user ids that names alice
    events_record(events=[_event(alice)], unless=Mute.objects.filter(muted=alice).values("user_id"))
    assert not Event.objects.exists()


@pytest.mark.django_db
def test_events_older_than_a_week_are_pruned_in_batches_and_once(alice, monkeypatch):
    monkeypatch.setattr(services, "PRUNE_BATCH", 2)
    events_record(events=[_event(alice)] * 5)
    now = timezone.now()
    ids = list(Event.objects.order_by("id").values_list("id", flat=True))
    Event.objects.filter(id__in=ids[:3]).update(created_at=now - timedelta(days=7, minutes=1))
    Event.objects.filter(id=ids[3]).update(created_at=now - timedelta(days=6, hours=23))
    assert tasks.prune_events() == 3
    assert tasks.prune_events() == 0
    assert list(Event.objects.order_by("id").values_list("id", flat=True)) == ids[3:]


def test_less_than_a_week_of_events_is_refused_at_start():
    assert "EVENTS_KEEP_DAYS=6" in settings_error(EVENTS_KEEP_DAYS="6")
