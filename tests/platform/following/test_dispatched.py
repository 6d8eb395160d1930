"""A followed game's notices wake the delivery through the dispatcher, as production runs (``WORK_DISPATCH=notify``):
its NOTIFY is a part of the move's own statement, sent only when the move wrote a follower's notice. A move whose next
turn is a bot's tells no person at the table, so a delivery of that position is the followers' alone."""

from __future__ import annotations

import time

import pytest

from tests.platform.conftest import SCRIPTED_CLASSIC_2P, record_queued
from turnbased.following import services as following
from turnbased.kit.db import dispatch
from turnbased.notifications.models import Notification, NotificationKind
from turnbased.play import services

pytestmark = pytest.mark.django_db(transaction=True)

DELIVER = "turnbased.mail.tasks.deliver_game_notifications"


def _settled(calls: list, seconds: float = 2) -> None:
    """Wait until nothing more is queued for a moment (what was notified is queued within it)."""
    deadline, seen = time.monotonic() + seconds, -1
    while time.monotonic() < deadline and seen != len(calls):
        seen = len(calls)
        time.sleep(0.3)


@pytest.mark.parametrize("followed", [False, True], ids=["nobody follows", "carol follows"])
def test_the_delivery_is_queued_for_a_followed_move_alone(alice, carol, followed, monkeypatch, settings):
    settings.WORK_DISPATCH = "notify"
    settings.BOT_MOVE_DELAY_SECONDS = 600  # the bot's turn waits: only the move's own work is queued
    queued = record_queued(monkeypatch)
    with dispatch.Dispatcher():
        game = services.create_game(creator=alice, engine_slug="love-letter", players=2, bots={1: "basic"},
                                    options={"deck": SCRIPTED_CLASSIC_2P, "first_player": 0})
        if followed:
            following.watch_make(user=carol, kind="game", target_id=game.pk)
        services.submit_move(game_id=game.pk, user=alice, expected_seq=0, move={"card": "handmaid"})
        _settled(queued)
    deliveries = [args for task, args, _ in queued if task == DELIVER]
    assert ([game.pk, 1] in deliveries) is followed, queued
    assert Notification.objects.filter(game=game, kind=NotificationKind.FOLLOWED_MOVE).count() == int(followed)
