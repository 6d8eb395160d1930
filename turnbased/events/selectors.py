"""Reads of a user's events, in id order: what a stream sends after a given id, and where a stream starts.

Both are one index range of ``(user, id)``, whatever the table's size.
"""

from __future__ import annotations

from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from turnbased.accounts.models import ApiToken
from turnbased.events.models import Event

# The most events one read returns; a stream reads again at once while a read comes back full.
PAGE = 100


def events_after(*, user_id: int, after_id: int, limit: int = PAGE, token_id: int | None = None) -> list[Event]:
    """Return the user's events with an id above ``after_id``, oldest first, at most ``limit``.

    With ``token_id``, only while that API token still exists and has not expired (in the same
    query): a stream opened with a token that is revoked since receives nothing more.
    """
    events = Event.objects.filter(user_id=user_id, id__gt=after_id)
    if token_id is not None:
        live = ApiToken.objects.filter(Q(expiry__isnull=True) | Q(expiry__gt=timezone.now()), pk=token_id,
                                       user_id=OuterRef("user_id"))
        events = events.filter(Exists(live))
    return list(events.order_by("id")[:limit])


def latest_event_id(*, user_id: int) -> int:
    """Return the id of the user's latest event (0 for none): a stream without Last-Event-ID starts after it."""
    return Event.objects.filter(user_id=user_id).order_by("-id").values_list("id", flat=True).first() or 0
