"""Fixtures for rate-limit tests: set one scope's rate for a test, leave the others at their defaults."""

from __future__ import annotations

import pytest


@pytest.fixture
def rates(settings):
    """Return a function setting scope rates (``rates(moves="2/min")``) for this test only."""

    def set_rates(**changed: str) -> None:
        current = settings.REST_FRAMEWORK
        settings.REST_FRAMEWORK = {**current, "DEFAULT_THROTTLE_RATES": {**current["DEFAULT_THROTTLE_RATES"], **changed}}

    return set_rates
