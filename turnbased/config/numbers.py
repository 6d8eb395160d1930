"""Numbers read from the environment by the settings, checked: a service refuses to start on a bad one."""

from __future__ import annotations

from django.core.exceptions import ImproperlyConfigured


def count(env, variable: str, default: int, *, least: int = 0) -> int:
    """Read a whole number from the environment; refuse to start on one below ``least``."""
    value = env.int(variable, default=default)
    if value < least:
        raise ImproperlyConfigured(f"{variable}={value}: it must be at least {least}.")
    return value


def limit(env, variable: str, default: int) -> int | None:
    """Read a limit from the environment: a whole number from 0, or ``off`` (None: no limit)."""
    raw = env.str(variable, default=str(default)).strip().lower()
    if raw in ("off", "none", ""):
        return None
    if not raw.isdigit():
        raise ImproperlyConfigured(f"{variable}={raw}: give a whole number from 0, or off.")
    return int(raw)
