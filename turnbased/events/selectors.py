"""Reads of a user's events, in id order: what a stream sends after a given id, and where a stream starts.

Both are one index range of ``(user, id)``, whatever the table's size.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.db import connections
from django.db.models import Q, QuerySet
from django.utils import timezone

from turnbased.accounts.models import ApiToken
from turnbased.events.models import Event
from turnbased.events.wording import add_current
from turnbased.kit.db.prepared import filled, parameter_slots, prepared_statement

# The most events one read returns; a stream reads again at once while a read comes back full.
PAGE = 100


@dataclass(frozen=True)
class Credential:
    """What a stream was opened with, checked again at every read: an API token's id, or a browser session's key."""

    token_id: int | None = None
    session_key: str | None = None


def _holding(credential: Credential, user_id: int, now) -> list[QuerySet]:
    """Return the queries that must each find a row for ``credential`` to still hold for ``user_id``: the token
    (not revoked, not expired), or the session (not ended, not expired) and its account (active, not a bot's)."""
    if credential.token_id is not None:
        return [ApiToken.objects.filter(Q(expiry__isnull=True) | Q(expiry__gt=now), pk=credential.token_id,
                                        user_id=user_id)]
    account = get_user_model().objects.filter(pk=user_id, is_active=True).exclude(profile__is_bot_account=True)
    return [Session.objects.filter(session_key=credential.session_key, expire_date__gt=now), account]


# The read's SQL, built once per kind of credential and page size from values no real read uses, with the
# positions those values take among its parameters (``prepared``: a woken stream reads at every move, and
# building the statement through the ORM each time cost more than PostgreSQL's answer); it runs as a prepared
# statement, planned once per connection.
_SENTINELS = {"user_id": -70_001, "after_id": -70_002, "token_id": -70_003,
              "session_key": "sentinel of the stream's read", "now": datetime(1901, 2, 3, 4, 5, 6, tzinfo=UTC)}
_READS: dict[tuple[str, int], tuple[str, tuple, tuple[tuple[int, str], ...]]] = {}


def _read_sql(*, user_id: int, after_id: int, limit: int, credential: Credential, now) -> tuple[str, list]:
    """Return the statement that reads the events after ``after_id`` only while ``credential`` holds, and its
    parameters."""
    kind = "token" if credential.token_id is not None else "session"
    if (kind, limit) not in _READS:
        sentinels = {name: _SENTINELS[name] for name in
                     ("user_id", "after_id", "now", "token_id" if kind == "token" else "session_key")}
        sql, params = _compose(user_id=sentinels["user_id"], after_id=sentinels["after_id"], limit=limit,
                               credential=Credential(token_id=sentinels.get("token_id"),
                                                     session_key=sentinels.get("session_key")),
                               now=sentinels["now"])
        _READS[(kind, limit)] = (sql, tuple(params), parameter_slots(params, sentinels))
    sql, params, slots = _READS[(kind, limit)]
    return sql, filled(params, slots, {"user_id": user_id, "after_id": after_id, "token_id": credential.token_id,
                                       "session_key": credential.session_key, "now": now})


def _compose(*, user_id: int, after_id: int, limit: int, credential: Credential, now) -> tuple[str, list]:
    # One row of nulls when the credential holds and no event waits, none at all when it no longer holds.
    checks, params = [], []
    for query in _holding(credential, user_id, now):
        check_sql, check_params = query.values("pk").query.sql_with_params()
        checks.append(f"EXISTS ({check_sql})")
        params += check_params
    events = Event.objects.filter(user_id=user_id, id__gt=after_id).order_by("id")[:limit]
    events_sql, events_params = events.query.sql_with_params()
    sql = (f"SELECT e.* FROM (SELECT WHERE {' AND '.join(checks)}) AS holding "
           f"LEFT JOIN LATERAL ({events_sql}) AS e ON TRUE ORDER BY e.id")
    return sql, [*params, *events_params]


def events_after(*, user_id: int, after_id: int, limit: int = PAGE, credential: Credential | None = None,
                 with_current: bool = False) -> list[Event] | None:
    """Return the user's events with an id above ``after_id``, oldest first, at most ``limit``.

    With ``credential``, return None instead once it no longer holds (a revoked token, an ended
    session, an account made inactive), read in the same statement: a stream checks at every read,
    at no extra cost, and ends. With ``with_current``, the rows get what is true now added
    (``wording.add_current``: a ``your_turn`` row still current gets the seat's view and legal moves).
    """
    rows = _events_after(user_id=user_id, after_id=after_id, limit=limit, credential=credential)
    if rows and with_current:
        add_current(rows)
    return rows


def _events_after(*, user_id: int, after_id: int, limit: int, credential: Credential | None) -> list[Event] | None:
    if credential is None:
        return list(Event.objects.filter(user_id=user_id, id__gt=after_id).order_by("id")[:limit])
    sql, params = _read_sql(user_id=user_id, after_id=after_id, limit=limit, credential=credential, now=timezone.now())
    with prepared_statement(connections[Event.objects.db], sql, params) as statement:
        rows = list(Event.objects.raw(statement, params))
    if not rows:
        return None
    return [event for event in rows if event.pk is not None]


def latest_event_id(*, user_id: int) -> int:
    """Return the id of the user's latest event (0 for none): a stream without Last-Event-ID starts after it."""
    return Event.objects.filter(user_id=user_id).order_by("-id").values_list("id", flat=True).first() or 0
