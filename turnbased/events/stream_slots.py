"""The open streams of an account and of an address, counted across every stream process (issue 27).

Each stream process counted only its own streams, so with several processes (or machines) an account could
hold several times ``STREAM_MAX_PER_USER``, and nothing counted an address. Now each open stream holds a slot
in Redis, the cache every process shares: a sorted set per account and one per address, each slot scored
with the time it lapses. A stream renews its slots as it waits (at least every heartbeat) and gives them
back when it ends; the slots of a process that died lapse by themselves within ``SLOT_SECONDS``.

Taking a slot adds it first and counts after, in one round trip: of two streams opened at once for the last
place, both may be refused (each then counts the other), never both let in. With Redis away nothing is
refused for it: each process's own count still holds an account to its cap in that process.
"""

from __future__ import annotations

import logging
import secrets
import time
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache

logger = logging.getLogger(__name__)

PREFIX = "turnbased:streams"


def slot_seconds() -> float:
    """How long a slot lasts unrenewed: three heartbeats (a stream renews at least at each one)."""
    return 3 * settings.STREAM_HEARTBEAT_SECONDS


@dataclass(frozen=True)
class Slots:
    """The slots one stream holds: its account's and its address's (None: Redis was away, none were taken)."""

    token: str | None
    keys: tuple[str, ...]


def _client():
    return cache._cache.get_client(write=True)  # django-redis's RedisCache: the shared Redis


def _keys(user_id: int, address: str) -> tuple[str, str]:
    # Named after the database too: two installations (or test runs) sharing a Redis count apart.
    scope = f"{PREFIX}:{settings.DATABASES['default']['NAME']}"
    return f"{scope}:user:{user_id}", f"{scope}:address:{address}"


def take(user_id: int, address: str) -> tuple[Slots | None, str | None]:
    """Take a slot for a new stream of ``user_id`` from ``address``; return the slots, or None and what is full
    ("user" or "address")."""
    keys = _keys(user_id, address)
    caps = (settings.STREAM_MAX_PER_USER, settings.STREAM_MAX_PER_ADDRESS)
    token, now = secrets.token_hex(8), time.time()
    try:
        pipe = _client().pipeline(transaction=True)
        for key in keys:
            pipe.zremrangebyscore(key, "-inf", now)
            pipe.zadd(key, {token: now + slot_seconds()})
            pipe.zcard(key)
            pipe.expire(key, int(slot_seconds()) + 1)
        counts = pipe.execute()[2::4]
    except Exception as error:  # noqa: BLE001 - Redis away: the process's own count still holds
        logger.warning("could not count the open streams in Redis: %s", error)
        return Slots(None, ()), None
    slots = Slots(token, keys)
    for kind, count, cap in zip(("user", "address"), counts, caps):
        if count > cap:
            give_back(slots)
            return None, kind
    return slots, None


def renew(slots: Slots) -> None:
    """Keep a stream's slots from lapsing (called as it waits)."""
    _each_key(slots, "renew a stream's slots", lambda pipe, key: (
        pipe.zadd(key, {slots.token: time.time() + slot_seconds()}, xx=True),
        pipe.expire(key, int(slot_seconds()) + 1)))


def give_back(slots: Slots) -> None:
    """Free a stream's slots (it ended)."""
    _each_key(slots, "free a stream's slots", lambda pipe, key: pipe.zrem(key, slots.token))


def _each_key(slots: Slots, what: str, step) -> None:
    """Send ``step(pipe, key)`` for each of the slots' keys in one round trip; Redis away, log it: the slots lapse
    by themselves at worst, and the stream goes on."""
    if slots.token is None:
        return
    try:
        pipe = _client().pipeline(transaction=False)
        for key in slots.keys:
            step(pipe, key)
        pipe.execute()
    except Exception as error:  # noqa: BLE001 - see above
        logger.warning("could not %s: %s", what, error)
