"""Push notifications' fixtures: a local push service, the site's VAPID key, devices subscribed."""

from __future__ import annotations

import pytest

from tests.platform.notifications.push_service import PushService
from turnbased.notifications import services
from turnbased.notifications.models import Notification, NotificationKind
from turnbased.notifications.vapid import generate_private_key, public_key_of

SUBJECT = "mailto:games@turnbased.localhost"


@pytest.fixture
def vapid_key(settings):
    """A VAPID key of the test's own, and pushes allowed to loopback over plain http (the local push service)."""
    settings.VAPID_PRIVATE_KEY = generate_private_key()
    settings.VAPID_SUBJECT = SUBJECT
    settings.WEB_PUSH_SERVICES = ["127.0.0.1"]
    settings.WEB_PUSH_ALLOW_HTTP = True
    settings.WEB_PUSH_TIMEOUT_SECONDS = 5.0
    return settings.VAPID_PRIVATE_KEY


@pytest.fixture
def push_service(vapid_key):
    with PushService(vapid_public_key=public_key_of(vapid_key), subject=SUBJECT) as service:
        yield service


@pytest.fixture
def subscribe():
    """Subscribe a device (a ``push_service.Device``) for a user, as the page's script does through the API."""

    def subscribe_device(user, device, user_agent: str = ""):
        subscription, _ = services.push_subscription_save(
            user=user, endpoint=device.endpoint, p256dh=device.subscription()["keys"]["p256dh"],
            auth=device.subscription()["keys"]["auth"], user_agent=user_agent)
        return subscription

    return subscribe_device


def turn_row(game, username: str) -> Notification:
    return Notification.objects.get(game=game, seq=game.seq, kind=NotificationKind.YOUR_TURN,
                                    user__username=username)
