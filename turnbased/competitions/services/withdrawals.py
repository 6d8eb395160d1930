"""Withdrawing an entrant, whoever decides it (themselves, the organiser, a timeout, the requirements checked again),
and telling them when it was not their own choice. Called under the competition's row lock."""

from __future__ import annotations

from django.db.models import F
from django.utils import timezone

from turnbased.competitions import selectors
from turnbased.competitions.models import Competition, Entrant, EntrantStatus
from turnbased.competitions.signals import entrant_removed
from turnbased.events.models import EventKind
from turnbased.events.services import NewEvent, events_record


def withdraw(competition: Competition, entrant: Entrant, because: str) -> None:
    """Withdraw the entrant: paired no more; their place freed (the count kept on the row)."""
    entrant.status, entrant.withdrawn_because, entrant.withdrawn_at = EntrantStatus.WITHDRAWN, because, timezone.now()
    entrant.save(update_fields=["status", "withdrawn_because", "withdrawn_at"])
    Competition.objects.filter(pk=competition.pk).update(entrant_count=F("entrant_count") - 1)
    competition.entrant_count -= 1


def told_removed(competition: Competition, entrant: Entrant) -> None:
    """Tell an entrant they were withdrawn by someone or something else (stream, webhooks, email)."""
    events_record(events=[NewEvent(user_id=entrant.user_id, kind=EventKind.COMPETITION_REMOVED, payload={
        "competition": selectors.summary(competition), "because": entrant.withdrawn_because})])
    entrant_removed.send(sender=Entrant, competition=competition, entrant=entrant)
