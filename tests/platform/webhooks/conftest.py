"""Webhook tests send to loopback receivers: the address rule is relaxed as under ``make run``."""

from __future__ import annotations

import pytest

from tests.platform.webhooks.receivers import Receiver


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
