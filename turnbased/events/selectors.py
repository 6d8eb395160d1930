"""Reads of a user's events, in id order: what a stream sends after a given id, and where a stream starts.

Both are one index range of ``(user, id)``, whatever the table's size.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.db.models import Q, QuerySet
from django.utils import timezone

from turnbased.accounts.models import ApiToken
from turnbased.events.models import Event
from turnbased.events.wording import add_current

# The most events one read returns; a stream reads again at once while a read comes back full.
PAGE = 100


@dataclass(frozen=True)
class Credential:
    """What a stream was opened with, checked again at every read: an API token's id, or a browser session's key."""

    token_id: int | None = None
    session_key: str | None = None


def _holding(credential: Credential, user_id: int) -> list[QuerySet]:
    """Return the queries that must each find a row for ``credential`` to still hold for ``user_id``: the token
    (not revoked, not expired), or the session (not ended, not expired) and its account (active, not a bot's)."""
    now = timezone.now()
    if credential.token_id is not None:
        return [ApiToken.objects.filter(Q(expiry__isnull=True) | Q(expiry__gt=now), pk=credential.token_id,
                                        user_id=user_id)]
    account = get_user_model().objects.filter(pk=user_id, is_active=True).exclude(profile__is_bot_account=True)
    return [Session.objects.filter(session_key=credential.session_key, expire_date__gt=now), account]


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
    events = Event.objects.filter(user_id=user_id, id__gt=after_id).order_by("id")[:limit]
    if credential is None:
        return list(events)
    # One row of nulls when the credential holds and no event waits, none at all when it no longer holds.
    checks, params = [], []
    for query in _holding(credential, user_id):
        check_sql, check_params = query.values("pk").query.sql_with_params()
        checks.append(f"EXISTS ({check_sql})")
        params += check_params
    events_sql, events_params = events.query.sql_with_params()
    sql = (f"SELECT e.* FROM (SELECT WHERE {' AND '.join(checks)}) AS holding "
           f"LEFT JOIN LATERAL ({events_sql}) AS e ON TRUE ORDER BY e.id")
    rows = list(Event.objects.raw(sql, [*params, *events_params]))
    if not rows:
        return None
    return [event for event in rows if event.pk is not None]


def latest_event_id(*, user_id: int) -> int:
    """Return the id of the user's latest event (0 for none): a stream without Last-Event-ID starts after it."""
    return Event.objects.filter(user_id=user_id).order_by("-id").values_list("id", flat=True).first() or 0
