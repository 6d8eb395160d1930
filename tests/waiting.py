"""Waiting for what another process or thread does (a worker, a server), with a deadline."""

from __future__ import annotations

import time


def wait_for(condition, what: str, timeout: float = 30.0, every: float = 0.05):
    """Return the first truthy value of ``condition()``; fail, naming ``what``, after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(every)
    raise AssertionError(f"timed out waiting for {what}")
