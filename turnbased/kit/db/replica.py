"""A streaming replica for the reads that tolerate lag (issue 29), and the router that sends them there.

``DATABASE_REPLICA_URL`` names a hot standby of the primary (the ``replica`` alias; docs/operating.md,
"A replica, and failover", sets one up). Unset, there is no router and every read goes to the primary.
With it, ``ReplicaRouter`` decides each query:

- Writes, ``select_for_update`` and anything else Django routes as a write, and every migration: the
  primary. A replica takes no write, and a lock taken there would lock nothing.
- A read goes to the replica only inside a view that opts in with ``reads_from_replica``: replays,
  records, leaderboards, player pages and their finished-games archives, history pages, and the same in
  the API. Everywhere else (the game page, legal moves, the lobby, anything a move or a task reads) the
  primary, as before: a read there decides what is written next, and must see the latest.
- Even inside such a view, the primary: in an atomic block; once the view has written anything; while the
  replica has not yet replayed the reader's own latest change (read your writes, below); and for
  ``REPLICA_RETRY_SECONDS`` after the replica failed a read in this process.
- A view whose replica reads meet any database error (the replica down or restarted, a statement it
  cancelled for a conflict with recovery, a table a migration has not brought there yet) is run again on
  the primary: a read that can go anywhere never fails because of the replica. Only safe methods opt in,
  so running the view twice writes nothing twice.

Read your writes: after each change a signed-in person makes (a request with an unsafe method answered
below 400), ``ReadYourWritesMiddleware`` keeps the primary's WAL position, which the change's commit lies
behind, in the shared cache for ``READ_YOUR_WRITES_SECONDS``. Their next lag-tolerant read asks the
replica once whether it has replayed that far (``pg_last_wal_replay_lsn()``), and reads the primary until
it has: the player who has just moved sees the move on the history page at once, however far the replica
lags, and everyone else's reads stay on the replica. Changes made outside a request (an email reply, a
bot's or a timeout's move) are not followed: their news reaches the player by email or event after them.
"""

from __future__ import annotations

import logging
import time
from contextvars import ContextVar
from dataclasses import dataclass
from functools import wraps

from django.conf import settings
from django.core.cache import cache
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections
from django.http import HttpRequest

logger = logging.getLogger(__name__)

REPLICA = "replica"
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")


@dataclass
class _Reading:
    """One run of a view that may read the replica, and what the router learnt during it."""

    user_id: int | None
    used: bool = False  # the router sent a read to the replica
    wrote: bool = False  # the view routed a write: what it reads next must see it
    caught_up: bool | None = None  # the replica has replayed the reader's latest change (asked at most once)


_reading: ContextVar[_Reading | None] = ContextVar("turnbased_replica_reading", default=None)
# Until when (time.monotonic()) this process reads the primary only: the replica failed a read. Shared by the
# process's threads; a race between two failures only sets it twice.
_resting_until = 0.0


def replica_configured() -> bool:
    return REPLICA in connections.settings  # settings.DATABASES, as the connections read it


def _change_key(user_id: int) -> str:
    return f"replica:last-change:{user_id}"


class ReplicaRouter:
    """Send the reads of the views that opted in to the replica, and everything else to the primary."""

    def db_for_read(self, model, **hints):
        reading = _reading.get()
        if (reading is None or reading.wrote or time.monotonic() < _resting_until
                or connections[DEFAULT_DB_ALIAS].in_atomic_block):
            return DEFAULT_DB_ALIAS
        if not _caught_up(reading):
            return DEFAULT_DB_ALIAS
        reading.used = True
        return REPLICA

    def db_for_write(self, model, **hints):
        reading = _reading.get()
        if reading is not None:
            reading.wrote = True
        return DEFAULT_DB_ALIAS

    def allow_relation(self, obj1, obj2, **hints):
        return True  # the same rows on both servers

    def allow_migrate(self, db, app_label, model_name=None, **hints):
        return db == DEFAULT_DB_ALIAS  # the replica replays the primary's schema; it takes no DDL of its own


def _caught_up(reading: _Reading) -> bool:
    """Tell whether the replica has replayed the reader's latest change (true for a reader with none kept)."""
    if reading.caught_up is not None:
        return reading.caught_up
    reading.caught_up = True
    if reading.user_id is None:
        return True
    try:
        position = cache.get(_change_key(reading.user_id))
    except Exception:  # the cache is away: whether they changed something is not known, so the primary
        logger.warning("replica: the cache did not answer; user %s reads the primary", reading.user_id, exc_info=True)
        position = ""
    if position is None:
        return True
    if not position:  # a change whose position could not be read: the primary for the whole window
        reading.caught_up = False
        return False
    reading.used = True  # the question below goes to the replica: its failure is the replica's
    with connections[REPLICA].cursor() as cursor:
        cursor.execute("SELECT pg_last_wal_replay_lsn() >= %s::pg_lsn", [position])
        replayed = cursor.fetchone()[0]
    reading.caught_up = bool(replayed)  # NULL: not a standby in recovery, so nothing to trust it with
    return reading.caught_up


def _request_of(args) -> HttpRequest:
    """Return the request among a view's arguments: a function view's first, a class view method's second."""
    return args[0] if isinstance(args[0], HttpRequest) else args[1]


def reads_from_replica(view):
    """Let a view of reads that tolerate lag (or a class view's ``get``) read from the replica.

    Who the reader is comes first, from the primary: a session or an account just made must be found. A
    database error while the replica served the view runs it again on the primary, and the process rests
    the replica for ``REPLICA_RETRY_SECONDS``.
    """

    @wraps(view)
    def wrapped(*args, **kwargs):
        if not replica_configured():
            return view(*args, **kwargs)
        request = _request_of(args)
        if request.method not in SAFE_METHODS:
            return view(*args, **kwargs)
        user = request.user
        reading = _Reading(user_id=user.pk if user.is_authenticated else None)
        # No SELECT 1 on a kept replica connection: a dead one fails the view, which then runs on the primary.
        connections[REPLICA].health_check_done = True
        token = _reading.set(reading)
        try:
            return view(*args, **kwargs)
        except DatabaseError as error:
            if not reading.used:
                raise
            _rest_the_replica(error)
        finally:
            _reading.reset(token)
        return view(*args, **kwargs)  # again, on the primary

    wrapped.reads_from_replica = True  # for the test that names every view reading the replica
    return wrapped


def _rest_the_replica(error: DatabaseError) -> None:
    global _resting_until
    _resting_until = time.monotonic() + settings.REPLICA_RETRY_SECONDS
    logger.warning("replica: a read failed (%s); reading the primary for %s s",
                   str(error).strip() or type(error).__name__, settings.REPLICA_RETRY_SECONDS)
    try:
        connections[REPLICA].close()
    except DatabaseError:  # closing a dead connection may fail too: it is gone either way
        pass


def remember_change(user_id: int) -> None:
    """Keep where the primary's WAL stands, now that the user's change has committed, for their next reads."""
    try:
        with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
            # The insert position: at or past the end of every record already written, the commit's included
            # (the write position may trail it when synchronous_commit is off).
            cursor.execute("SELECT pg_current_wal_insert_lsn()")
            position = str(cursor.fetchone()[0])
    except DatabaseError:  # the change is made and answered; its reader then reads the primary for the window
        logger.warning("replica: could not read the WAL position after user %s's change", user_id, exc_info=True)
        position = ""
    try:
        cache.set(_change_key(user_id), position, timeout=settings.READ_YOUR_WRITES_SECONDS)
    except Exception:  # the cache is away: their reads ask it again, fail, and go to the primary
        logger.warning("replica: could not keep user %s's change in the cache", user_id, exc_info=True)


class ReadYourWritesMiddleware:
    """After a signed-in person's change, keep its position so their own reads wait for the replica to have it.

    Installed only with a replica; put after the authentication middleware. An API request's user is the
    token's (DRF sets it on the request it wraps).
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        # A refusal (4xx) changed nothing (docs/design.md, "Bad input gets a clear 4xx and changes nothing").
        if request.method not in SAFE_METHODS and response.status_code < 400:
            user = getattr(request, "user", None)
            if user is not None and user.is_authenticated:
                remember_change(user.pk)
        return response
