"""The secrecy walk sends hundreds of requests from one address in a second: rates are not its subject."""

import pytest


@pytest.fixture(autouse=True)
def _rates_off_for_the_walk(settings):
    settings.RATE_LIMITS_ON = False
