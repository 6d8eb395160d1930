"""Webhooks through real processes: a Celery worker on the ``webhooks`` queue and beat, as the Procfile runs
them, on the test database and a Redis of the test's own, sending to a receiver on loopback.

- A move made is received exactly once, correctly signed, with the event as its player may see it.
- A receiver that fails and then recovers gets the same delivery on the retry, and it is logged delivered.
"""

from __future__ import annotations

import json
import time

import pytest
from django.db import connection

from tests.faults.stack import Broker, celery, stop_all, wait_for, worker_environment
from tests.platform.webhooks.receivers import Receiver
from tests.serving.served import database_url_for
from turnbased.events.models import Event
from turnbased.events.wording import worded_payload
from turnbased.play import selectors
from turnbased.play import services as play
from turnbased.webhooks import services, signing
from turnbased.webhooks.models import WebhookDelivery

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

# Sweeps twice a second and a first retry after a second, so the whole test takes seconds.
FAST = {"WEBHOOKS_SWEEP_SECONDS": "0.5", "WEBHOOKS_FIRST_RETRY_SECONDS": "1",
        "WEBHOOKS_ALLOW_PRIVATE_ADDRESSES": "on", "WEBHOOKS_ALLOW_HTTP": "on"}


def _play_until_moved_by(game, user) -> None:
    """Make legal moves for whoever is to move until ``user`` has made one (within a round of turns or two)."""
    for _ in range(10):
        game.refresh_from_db()
        seat = game.to_move[0]
        mover = game.seats.get(index=seat).user
        text = selectors.legal_moves_for(selectors.Viewer(game=game, seat=seat))[0]["text"]
        play.submit_move(game_id=game.pk, user=mover, expected_seq=game.seq, text=text)
        if mover == user:
            return
    raise AssertionError(f"{user} made no move in 10 turns")


def test_a_move_reaches_the_receiver_once_signed_and_a_failed_delivery_is_retried(tmp_path, started_game, alice,
                                                                                   bob, loopback_allowed):
    receiver = Receiver().start()
    hook, secret = services.webhook_create(owner=bob, url=receiver.url, kinds=["move_played"])
    broker = Broker(tmp_path / "redis")
    worker = celery("hooks", ["worker", "-Q", "webhooks", "--concurrency=1", "--loglevel=info"], tmp_path)
    beat = celery("beat", ["beat", "--loglevel=info", f"--schedule={tmp_path / 'beat-schedule'}"], tmp_path)
    broker.start()
    try:
        environment = worker_environment(database_url_for(connection.settings_dict["NAME"]), broker.url, **FAST)
        worker.start(environment)
        beat.start(environment)
        try:
            # 1. A move: bob's hook gets its one event, once.
            _play_until_moved_by(started_game, alice)
            [request] = receiver.wait_for(1, timeout=45)
            time.sleep(2)  # four more sweeps: nothing is sent again
            assert len(receiver.received) == 1
            event = Event.objects.get(user=bob, kind="move_played")
            delivery = WebhookDelivery.objects.get(hook=hook, event_id=event.pk)
            assert request.headers["X-Turnbased-Delivery"] == str(delivery.pk)
            assert request.headers["X-Turnbased-Event"] == "move_played"
            assert signing.verify(secret, request.body, request.headers["X-Turnbased-Timestamp"],
                                  request.headers["X-Turnbased-Signature"])
            body = json.loads(request.body)
            assert (body["id"], body["kind"], body["game"], body["data"]) == (event.pk, "move_played",
                                                                              started_game.pk, worded_payload(event))
            wait_for(lambda: WebhookDelivery.objects.filter(pk=delivery.pk, state="delivered").exists(),
                     "the delivery logged as delivered", timeout=10, processes=[worker, beat])

            # 2. The receiver fails once, then recovers: the next move's event arrives on the retry.
            receiver.statuses = [200, 503, 200]  # by the count of requests: the second fails, the third passes
            _play_until_moved_by(started_game, alice)
            failed, retried = receiver.wait_for(3, timeout=30)[1:]
            second = WebhookDelivery.objects.get(hook=hook, event_id=Event.objects.filter(
                user=bob, kind="move_played").latest("id").pk)
            for attempt in (failed, retried):
                assert attempt.headers["X-Turnbased-Delivery"] == str(second.pk)
                assert signing.verify(secret, attempt.body, attempt.headers["X-Turnbased-Timestamp"],
                                      attempt.headers["X-Turnbased-Signature"])
            assert retried.at - failed.at >= 0.9  # after the back-off
            wait_for(lambda: WebhookDelivery.objects.filter(pk=second.pk, state="delivered").exists(),
                     "the retried delivery logged as delivered", timeout=10, processes=[worker, beat])
            second.refresh_from_db()
            assert (second.attempts, second.status_code, second.error) == (2, 200, "")
            time.sleep(1.5)
            assert len(receiver.received) == 3
        finally:
            stop_all(beat, worker)
    finally:
        broker.stop()
        receiver.stop()
