"""The hourly prune of events older than ``EVENTS_KEEP_DAYS``."""

from __future__ import annotations

from celery import shared_task

from turnbased.events import services


@shared_task(soft_time_limit=300, time_limit=360)
def prune_events() -> int:
    """Delete the events past their keeping time; idempotent (a second run finds nothing to delete)."""
    return services.events_prune()
