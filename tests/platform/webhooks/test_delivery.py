"""Deliveries: written with the events they carry, sent signed to the receiver, retried, and given up.

The tasks run in the test's process (Celery's eager mode); the receiver is a real HTTP server on
loopback, reached through the real client.
"""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from turnbased.events.models import Event, EventKind
from turnbased.events.services import NewEvent, events_record
from turnbased.events.wording import worded_payload
from tests.platform.webhooks.receivers import Receiver
from turnbased.play import services as play
from turnbased.webhooks import client, delivery, services, signing
from turnbased.webhooks.models import PING, DeliveryState, WebhookDelivery
from turnbased.webhooks.tasks import prune_webhook_deliveries

pytestmark = pytest.mark.django_db


def _move(game, user, text: str):
    game.refresh_from_db()
    return play.submit_move(game_id=game.pk, user=user, expected_seq=game.seq, text=text)


def _tell(user, kind=EventKind.YOUR_TURN, payload=None) -> int:
    events_record(events=[NewEvent(user_id=user.pk, kind=kind, payload=payload or {"n": 1})])
    return Event.objects.filter(user=user).latest("id").pk


@pytest.fixture(autouse=True)
def _commits_run(monkeypatch):
    """Run what waits for a commit at once (the test's transaction never commits): queued pings, owners' emails."""
    monkeypatch.setattr("django.db.transaction.on_commit", lambda function, *args, **kwargs: function())


def test_a_move_writes_one_delivery_per_event_of_the_chosen_kinds_for_the_hooks_owner_only(started_game, alice, bob,
                                                                                            loopback_allowed):
    turns, _ = services.webhook_create(owner=bob, url="http://127.0.0.1:9999/turns", kinds=["your_turn"])
    everything, _ = services.webhook_create(owner=bob, url="http://127.0.0.1:9999/all")
    alices, _ = services.webhook_create(owner=alice, url="http://127.0.0.1:9999/alice", kinds=["game_finished"])

    _move(started_game, alice, "handmaid")

    bobs_events = dict(Event.objects.filter(user=bob, seq=1).values_list("kind", "id"))
    assert set(bobs_events) == {"move_played", "your_turn"}
    assert set(WebhookDelivery.objects.filter(hook=turns).values_list("kind", "event_id")) == {
        ("your_turn", bobs_events["your_turn"])}
    assert set(WebhookDelivery.objects.filter(hook=everything).values_list("kind", "event_id")) == {
        ("your_turn", bobs_events["your_turn"]), ("move_played", bobs_events["move_played"])}
    assert not WebhookDelivery.objects.filter(hook=alices).exists()
    assert set(WebhookDelivery.objects.values_list("state", "attempts")) == {(DeliveryState.PENDING, 0)}


def test_an_inactive_hook_gets_no_deliveries_and_a_rolled_back_event_leaves_none(alice, loopback_allowed):
    hook, _ = services.webhook_create(owner=alice, url="http://127.0.0.1:9999/")
    services.webhook_update(owner=alice, hook_id=hook.pk, active=False)
    _tell(alice)
    assert not WebhookDelivery.objects.exists()

    services.webhook_update(owner=alice, hook_id=hook.pk, active=True)
    from django.db import transaction

    with pytest.raises(RuntimeError), transaction.atomic():
        _tell(alice)
        assert WebhookDelivery.objects.count() == 1
        raise RuntimeError
    assert not WebhookDelivery.objects.exists()


def test_the_receiver_gets_the_event_signed_with_the_hooks_secret(started_game, alice, bob, receiver, worker_queue):
    hook, secret = services.webhook_create(owner=bob, url=receiver.url, kinds=["move_played"])
    _move(started_game, alice, "handmaid")

    assert worker_queue.sweep() == 1
    [request] = receiver.wait_for(1)
    event = Event.objects.get(user=bob, kind="move_played")
    sent = WebhookDelivery.objects.get(hook=hook)
    assert request.path == "/hook"
    assert request.headers["Content-Type"] == "application/json"
    assert request.headers["X-Turnbased-Event"] == "move_played"
    assert request.headers["X-Turnbased-Delivery"] == str(sent.pk)
    assert signing.verify(secret, request.body, request.headers["X-Turnbased-Timestamp"],
                          request.headers["X-Turnbased-Signature"])
    assert not signing.verify("whsec_another", request.body, request.headers["X-Turnbased-Timestamp"],
                              request.headers["X-Turnbased-Signature"])
    body = json.loads(request.body)
    assert body.keys() == {"id", "kind", "game", "seq", "created_at", "data"}
    assert (body["id"], body["kind"], body["game"], body["seq"]) == (event.pk, "move_played", started_game.pk, 1)
    assert body["data"] == worded_payload(event)  # worded when sent, in bob's language
    assert body["data"]["text"] == "alice played the Handmaid: protected until alice's next turn." and body["data"]["seat"] == 1
    assert "text" not in event.payload  # the row holds no words
    sent.refresh_from_db()
    assert (sent.state, sent.attempts, sent.status_code, sent.response_excerpt) == ("delivered", 1, 200, "ok")
    assert sent.finished_at is not None and sent.duration_ms is not None
    # Settled: later sweeps send nothing more.
    assert worker_queue.sweep() == 0
    assert len(receiver.received) == 1


def test_a_failed_attempt_is_retried_after_the_back_off_and_the_hook_pauses(alice, receiver, worker_queue):
    receiver.statuses = [500, 503, 204]
    hook, _ = services.webhook_create(owner=alice, url=receiver.url)
    _tell(alice)
    start = timezone.now()
    with time_machine.travel(start, tick=False) as clock:
        assert worker_queue.sweep() == 1
        sent = WebhookDelivery.objects.get(hook=hook)
        hook.refresh_from_db()
        assert (sent.state, sent.attempts, sent.status_code, sent.error) == ("pending", 1, 500,
                                                                            "the receiver answered 500")
        assert sent.next_attempt_at == start + timedelta(minutes=1)
        assert (hook.consecutive_failures, hook.failing_since, hook.paused_until) == (1, start,
                                                                                      start + timedelta(minutes=1))
        clock.shift(timedelta(seconds=59))
        assert worker_queue.sweep() == 0
        clock.shift(timedelta(seconds=1))
        assert worker_queue.sweep() == 1
        sent.refresh_from_db()
        assert (sent.attempts, sent.next_attempt_at) == (2, start + timedelta(minutes=1 + 2))
        clock.shift(timedelta(minutes=2))
        assert worker_queue.sweep() == 1
    sent.refresh_from_db()
    hook.refresh_from_db()
    assert (sent.state, sent.attempts, sent.status_code) == ("delivered", 3, 204)
    assert (hook.consecutive_failures, hook.failing_since, hook.paused_until) == (0, None, None)
    assert len(receiver.wait_for(3)) == 3
    # Every attempt names the same delivery, each with its own fresh timestamp and signature.
    assert {request.headers["X-Turnbased-Delivery"] for request in receiver.received} == {str(sent.pk)}


def test_a_failing_hook_is_sent_one_delivery_at_a_time_until_one_succeeds(alice, receiver, settings, worker_queue):
    settings.WEBHOOKS_IN_FLIGHT_PER_OWNER = 10  # one account's many deliveries queued at once
    receiver.statuses = [500]
    hook, _ = services.webhook_create(owner=alice, url=receiver.url)
    for _ in range(3):
        _tell(alice)
    with time_machine.travel(timezone.now(), tick=False) as clock:
        assert worker_queue.sweep() == 3  # healthy when queued ...
        assert len(receiver.received) == 1  # ... but after the first failure the others wait for the pause
        assert worker_queue.sweep() == 0
        clock.shift(timedelta(minutes=30))
        assert worker_queue.sweep() == 1  # failing: one probe for the whole hook
        assert worker_queue.sweep() == 0  # paused again
        assert len(receiver.received) == 2
        receiver.statuses = [200]
        clock.shift(timedelta(hours=1))
        assert worker_queue.sweep() == 1  # the probe succeeds, and the rest follow at once, not at the next sweep
        assert worker_queue.sweep() == 0
    assert set(WebhookDelivery.objects.filter(hook=hook).values_list("state", flat=True)) == {"delivered"}
    assert len(receiver.received) == 5


def test_a_delivery_is_given_up_after_its_last_attempt(alice, receiver, settings, worker_queue):
    settings.WEBHOOKS_MAX_ATTEMPTS = 3
    settings.WEBHOOKS_DISABLE_AFTER_FAILURES = 100
    receiver.statuses = [400]
    hook, _ = services.webhook_create(owner=alice, url=receiver.url)
    _tell(alice)
    with time_machine.travel(timezone.now(), tick=False) as clock:
        for _ in range(5):
            worker_queue.sweep()
            clock.shift(timedelta(hours=2))
    sent = WebhookDelivery.objects.get(hook=hook)
    assert (sent.state, sent.attempts, sent.status_code) == ("failed", 3, 400)
    assert sent.finished_at is not None
    assert len(receiver.received) == 3


def test_a_hook_failing_ten_attempts_over_four_hours_is_disabled_and_its_owner_emailed(alice, receiver, mailoutbox,
                                                                                         worker_queue):
    receiver.statuses = [502]
    hook, _ = services.webhook_create(owner=alice, url=receiver.url)
    for _ in range(3):
        _tell(alice)
    start = timezone.now()
    with time_machine.travel(start, tick=False) as clock:
        for _ in range(200):
            if not hook.active:
                break
            worker_queue.sweep()
            clock.shift(timedelta(minutes=5))
            hook.refresh_from_db()
        now = timezone.now()
    assert hook.consecutive_failures == 10
    assert now - start >= timedelta(hours=4)
    assert "10 failed attempts in a row" in hook.disabled_reason and "502" in hook.disabled_reason
    assert hook.disabled_at is not None and hook.notice_due is False  # the email is written
    assert set(WebhookDelivery.objects.filter(hook=hook).values_list("state", flat=True)) == {"failed"}
    [email] = mailoutbox
    assert email.to == ["alice@example.com"] and "disabled" in email.subject
    assert receiver.url in email.body and '{"active": true}' in email.body
    # Disabled: no more attempts, and the events that follow write no deliveries.
    count = len(receiver.received)
    _tell(alice)
    worker_queue.sweep()
    assert len(receiver.received) == count
    assert WebhookDelivery.objects.filter(hook=hook).count() == 3


def test_turning_a_disabled_hook_on_again_forgets_its_failures(alice, receiver, worker_queue):
    receiver.statuses = [500]
    hook, _ = services.webhook_create(owner=alice, url=receiver.url)
    _tell(alice)
    worker_queue.sweep()
    services.webhook_update(owner=alice, hook_id=hook.pk, active=False)
    hook.refresh_from_db()
    assert (hook.active, hook.disabled_reason, hook.consecutive_failures) == (False, "turned off by its owner", 1)
    assert WebhookDelivery.objects.get(hook=hook).state == "failed"

    services.webhook_update(owner=alice, hook_id=hook.pk, active=True)
    hook.refresh_from_db()
    assert (hook.active, hook.disabled_at, hook.disabled_reason) == (True, None, "")
    assert (hook.consecutive_failures, hook.failing_since, hook.paused_until) == (0, None, None)


def test_a_ping_is_sent_at_once_once_and_not_retried(alice, receiver, worker_queue):
    receiver.statuses = [500]
    hook, secret = services.webhook_create(owner=alice, url=receiver.url, kinds=["your_turn"])
    ping = services.webhook_ping(owner=alice, hook_id=hook.pk)
    [request] = receiver.wait_for(1)
    body = json.loads(request.body)
    assert (body["id"], body["kind"], body["data"]["hook"], body["data"]["kinds"]) == (None, PING, hook.pk,
                                                                                    ["your_turn"])
    assert request.headers["X-Turnbased-Event"] == "ping"
    assert signing.verify(secret, request.body, request.headers["X-Turnbased-Timestamp"],
                          request.headers["X-Turnbased-Signature"])
    ping.refresh_from_db()
    assert (ping.state, ping.attempts, ping.status_code) == ("failed", 1, 500)
    with time_machine.travel(timezone.now() + timedelta(hours=1)):
        worker_queue.sweep()
    assert len(receiver.received) == 1


def test_a_second_task_for_the_same_delivery_sends_nothing(alice, receiver, settings, worker_queue):
    settings.WEBHOOKS_IN_FLIGHT_PER_OWNER = 2
    services.webhook_create(owner=alice, url=receiver.url)
    _tell(alice)
    _tell(alice)
    first, second = delivery.queue_due()
    assert delivery.attempt(first) == "delivered"
    assert delivery.attempt(first) == "not queued"
    assert len(receiver.received) == 1
    # While one task's attempt runs (claimed, not yet settled), a second task for the row takes nothing.
    assert delivery.claim(second) is not None
    assert delivery.claim(second) is None


def test_a_sender_that_died_mid_attempt_is_replaced_after_its_lease(alice, receiver, worker_queue):
    hook, _ = services.webhook_create(owner=alice, url=receiver.url)
    _tell(alice)
    start = timezone.now()
    [delivery_id] = delivery.queue_due(now=start)
    assert delivery.claim(delivery_id, now=start) is not None  # ... and the worker dies before sending
    assert delivery.queue_due(now=start + delivery.LEASE - timedelta(seconds=1)) == []
    with time_machine.travel(start + delivery.LEASE, tick=False):
        assert worker_queue.sweep() == 1
    sent = WebhookDelivery.objects.get(pk=delivery_id)
    assert (sent.state, sent.attempts) == ("delivered", 2)


def test_a_queued_delivery_whose_task_was_lost_is_queued_again(alice, receiver):
    services.webhook_create(owner=alice, url=receiver.url)
    _tell(alice)
    start = timezone.now()
    assert len(delivery.queue_due(now=start)) == 1  # its task never arrives
    assert delivery.queue_due(now=start + timedelta(seconds=5)) == []
    assert len(delivery.queue_due(now=start + delivery.REQUEUE_AFTER)) == 1


def test_a_redirect_is_not_followed(alice, receiver, worker_queue):
    receiver.statuses = [302]
    receiver.extra_headers = {"Location": "http://127.0.0.1:9999/elsewhere"}
    hook, _ = services.webhook_create(owner=alice, url=receiver.url)
    _tell(alice)
    worker_queue.sweep()
    sent = WebhookDelivery.objects.get(hook=hook)
    assert (sent.state, sent.status_code, sent.error) == ("pending", 302, "the receiver answered 302")
    assert len(receiver.received) == 1


def test_only_the_start_of_a_long_answer_is_read_and_kept(alice, receiver, worker_queue):
    receiver.answer_body = b"\x00" + "é".encode() * 100_000
    hook, _ = services.webhook_create(owner=alice, url=receiver.url)
    _tell(alice)
    worker_queue.sweep()
    sent = WebhookDelivery.objects.get(hook=hook)
    assert sent.state == "delivered" and 0 < len(sent.response_excerpt) <= 1000
    assert "\x00" not in sent.response_excerpt and "é" in sent.response_excerpt


def test_a_receiver_slower_than_the_timeouts_fails_the_attempt_in_time(alice, receiver, settings, worker_queue):
    settings.WEBHOOKS_READ_TIMEOUT = 0.3
    receiver.delay = 2
    hook, _ = services.webhook_create(owner=alice, url=receiver.url)
    _tell(alice)
    worker_queue.sweep()
    sent = WebhookDelivery.objects.get(hook=hook)
    assert (sent.state, sent.status_code, sent.error) == ("pending", None, "timed out")
    assert sent.duration_ms < 1500


def test_a_receiver_dripping_its_answer_is_cut_at_the_total_limit(alice, loopback_allowed, settings, worker_queue):
    import socket
    import threading
    import time

    settings.WEBHOOKS_READ_TIMEOUT = 1
    settings.WEBHOOKS_TOTAL_SECONDS = 1.5
    listener = socket.create_server(("127.0.0.1", 0))
    stop = threading.Event()

    def drip():
        connection, _ = listener.accept()
        connection.recv(65536)
        connection.sendall(b"HTTP/1.1 200 OK\r\n")
        while not stop.is_set():
            try:
                connection.sendall(b"X-Slow: a\r\n")
            except OSError:
                break
            time.sleep(0.2)
        connection.close()

    threading.Thread(target=drip, daemon=True).start()
    hook, _ = services.webhook_create(owner=alice, url=f"http://127.0.0.1:{listener.getsockname()[1]}/")
    _tell(alice)
    try:
        worker_queue.sweep()
    finally:
        stop.set()
        listener.close()
    sent = WebhookDelivery.objects.get(hook=hook)
    assert (sent.state, sent.error) == ("pending", "timed out")
    assert 1400 <= sent.duration_ms < 3000


def test_an_address_that_turned_private_since_registration_is_refused_at_send_time(alice, receiver, settings,
                                                                                    monkeypatch, worker_queue):
    """DNS rebinding: the name resolved to a public address when registered, to loopback when sending."""
    from turnbased.webhooks import addresses

    answers = {"hooks.example.org": "93.184.215.14"}
    real = addresses.socket.getaddrinfo

    def resolve(host, port, *args, **kwargs):
        if host in answers:
            return [(addresses.socket.AF_INET, addresses.socket.SOCK_STREAM, 6, "", (answers[host], port))]
        return real(host, port, *args, **kwargs)

    monkeypatch.setattr(addresses.socket, "getaddrinfo", resolve)
    settings.WEBHOOKS_ALLOW_PRIVATE_ADDRESSES = False
    hook, _ = services.webhook_create(owner=alice, url=f"http://hooks.example.org:{receiver.port}/hook")
    answers["hooks.example.org"] = "127.0.0.1"
    _tell(alice)
    worker_queue.sweep()
    sent = WebhookDelivery.objects.get(hook=hook)
    assert sent.state == "pending" and sent.status_code is None
    assert sent.error.startswith("refused: The host hooks.example.org does not resolve only to public addresses")
    assert "127.0.0.1" not in sent.error
    assert receiver.received == []


def test_a_connection_goes_to_the_address_checked_not_to_a_second_lookup(alice, receiver, monkeypatch):
    """The name is resolved once per attempt: the connection uses that answer, whatever a later lookup says."""
    from turnbased.webhooks import addresses

    lookups = []
    real = addresses.socket.getaddrinfo

    def resolve(host, port, *args, **kwargs):
        if host == "hooks.example.org":
            lookups.append(host)
            if len(lookups) == 1:
                return [(addresses.socket.AF_INET, addresses.socket.SOCK_STREAM, 6, "", ("127.0.0.1", port))]
        return real(host, port, *args, **kwargs)  # "hooks.example.org" does not resolve here

    monkeypatch.setattr(addresses.socket, "getaddrinfo", resolve)
    from turnbased.webhooks import client

    outcome = client.post(f"http://hooks.example.org:{receiver.port}/hook", b"{}", {})
    assert outcome.delivered, outcome
    assert lookups == ["hooks.example.org"]
    assert receiver.received[0].headers["Host"] == f"hooks.example.org:{receiver.port}"


def test_the_log_is_pruned_after_the_keeping_days(alice, receiver, settings):
    services.webhook_create(owner=alice, url=receiver.url)
    _tell(alice)
    _tell(alice)
    old = WebhookDelivery.objects.order_by("id").first()
    WebhookDelivery.objects.filter(pk=old.pk).update(created_at=timezone.now() - timedelta(days=31))
    assert prune_webhook_deliveries.delay().get() == 1
    assert prune_webhook_deliveries.delay().get() == 0
    assert WebhookDelivery.objects.count() == 1 and not WebhookDelivery.objects.filter(pk=old.pk).exists()


def test_an_event_no_longer_kept_is_given_up(alice, receiver, worker_queue):
    hook, _ = services.webhook_create(owner=alice, url=receiver.url)
    Event.objects.filter(pk=_tell(alice)).delete()
    worker_queue.sweep()
    sent = WebhookDelivery.objects.get(hook=hook)
    assert (sent.state, sent.error) == ("failed", "the event is no longer kept")
    assert receiver.received == []
    hook.refresh_from_db()
    assert (hook.consecutive_failures, hook.paused_until) == (0, None)  # not the receiver's fault


def test_many_failures_in_a_short_while_do_not_disable_a_hook(alice, receiver):
    """Ten failed pings in a row within a minute: failing, but not yet for the hours the rule asks."""
    receiver.statuses = [500]
    hook, _ = services.webhook_create(owner=alice, url=receiver.url)
    for _ in range(12):
        services.webhook_ping(owner=alice, hook_id=hook.pk)
    hook.refresh_from_db()
    assert len(receiver.received) == 12 and hook.consecutive_failures == 12
    assert hook.active and hook.disabled_at is None and not hook.notice_due


def test_deliveries_held_back_by_a_pause_follow_as_soon_as_it_ends_in_event_order(alice, receiver, worker_queue):
    """Issue 27: queued deliveries a pause refused waited REQUEUE_AFTER, then arrived after newer ones."""
    receiver.statuses = [500, 200]
    hook, _ = services.webhook_create(owner=alice, url=receiver.url)
    events = [_tell(alice, payload={"n": number}) for number in range(3)]
    start = timezone.now()
    with time_machine.travel(start, tick=False) as clock:
        assert worker_queue.sweep() == 1  # the first fails; the two behind it are held for the pause
        held = WebhookDelivery.objects.filter(hook=hook, state=DeliveryState.PENDING, queued_at__isnull=True)
        assert held.count() == 3
        events += [_tell(alice, payload={"n": number}) for number in range(3, 5)]  # more come meanwhile
        clock.shift(timedelta(seconds=59))
        assert worker_queue.sweep() == 0
        clock.shift(timedelta(seconds=1))  # the pause is over: one sweep sends the probe, and the rest follow
        worker_queue.sweep()
        assert set(WebhookDelivery.objects.filter(hook=hook).values_list("state", flat=True)) == {"delivered"}
    received = [json.loads(request.body)["id"] for request in receiver.wait_for(6)]
    assert received == [events[0], *events]


def test_one_accounts_slow_receivers_delay_anothers_delivery_by_a_few_attempts_at_most(alice, bob, receiver,
                                                                                         settings, worker_queue):
    """Issue 27: one worker served every account in event order, and a receiver answering 200 slowly was never
    paused: five hooks at a slow receiver held another account's delivery for minutes."""
    settings.WEBHOOKS_SLOW_SECONDS = 0.2
    slow = Receiver(delay=0.3).start()
    try:
        slow_hooks = [services.webhook_create(owner=alice, url=slow.url)[0] for _ in range(5)]
        for _ in range(3):
            _tell(alice)  # every one of alice's hooks gets each of her events: fifteen slow deliveries
        healthy, _ = services.webhook_create(owner=bob, url=receiver.url)
        _tell(bob)  # the newest of all
        with time_machine.travel(timezone.now(), tick=False):
            worker_queue.sweep()
        [bobs] = receiver.wait_for(1)
        slow_before = [request for request in slow.received if request.at < bobs.at]
        assert len(slow_before) <= 1  # the accounts in turn: alice's oldest, then bob's
        # Each of alice's hooks that answered, slowly, pauses as a failing one would; nothing is lost.
        for hook in slow_hooks:
            hook.refresh_from_db()
            answered = WebhookDelivery.objects.filter(hook=hook, state="delivered").exists()
            assert not answered or (hook.paused_until is not None and hook.consecutive_failures == 0)
        assert WebhookDelivery.objects.filter(hook__in=slow_hooks).count() == 15
        assert WebhookDelivery.objects.get(hook=healthy).state == "delivered"
    finally:
        slow.stop()


def test_a_delivery_verifies_with_the_standard_webhooks_library_and_still_carries_the_old_headers(alice, receiver,
                                                                                                    worker_queue):
    """Issue 27: a receiver checks a delivery with Standard Webhooks' published library, nothing of ours."""
    from standardwebhooks.webhooks import Webhook as StandardWebhook, WebhookVerificationError

    hook, secret = services.webhook_create(owner=alice, url=receiver.url)
    event_id = _tell(alice, payload={"n": 7})
    worker_queue.sweep()
    [request] = receiver.wait_for(1)
    headers = {name.lower(): value for name, value in request.headers.items()}
    delivered = StandardWebhook(secret).verify(request.body, headers)
    assert delivered["id"] == event_id and delivered["kind"] == "your_turn"
    assert headers["webhook-id"] == str(WebhookDelivery.objects.get(hook=hook).pk)
    with pytest.raises(WebhookVerificationError):
        StandardWebhook(secret).verify(request.body.replace(b'"n":7', b'"n":8'), headers)
    with pytest.raises(WebhookVerificationError):
        StandardWebhook(signing.new_secret()).verify(request.body, headers)
    # The headers of before still sign it, announced as deprecated under the API's policy.
    assert signing.verify(secret, request.body, headers["x-turnbased-timestamp"], headers["x-turnbased-signature"])
    assert headers["deprecation"].startswith("@") and headers["sunset"].endswith("GMT")
    assert 'rel="deprecation"' in headers["link"]


def test_a_busy_account_may_have_only_so_many_deliveries_in_flight_at_once(alice, bob, receiver, settings,
                                                                          worker_queue):
    """The cap: what one account has queued or being sent holds back its next ones, never another's; a settled
    attempt queues the account's next in its own transaction."""
    settings.WEBHOOKS_IN_FLIGHT_PER_OWNER = 3
    services.webhook_create(owner=alice, url=receiver.url)
    services.webhook_create(owner=bob, url=receiver.url)
    for _ in range(5):
        _tell(alice)
    _tell(bob)
    queued = delivery.queue_due()
    owner_of = dict(WebhookDelivery.objects.values_list("pk", "hook__owner__username"))
    assert [owner_of[delivery_id] for delivery_id in queued] == ["alice", "bob", "alice", "alice"]  # in turn
    assert delivery.queue_due() == []  # alice's three still wait in the queue: none more of hers
    sending = delivery.claim(queued[0])
    assert delivery.queue_due() == []  # nor while one of them is being sent
    with worker_queue.held():
        delivery.settle(sending, client.Outcome(status=200, excerpt="", error="", duration_ms=1))
    [following] = worker_queue.waiting
    assert following not in queued and WebhookDelivery.objects.get(pk=following).hook.owner == alice
    assert delivery.queue_due() == []  # three of hers in flight again
