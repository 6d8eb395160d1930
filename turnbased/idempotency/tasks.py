"""The hourly prune of idempotency keys past their keeping time."""

from __future__ import annotations

from celery import shared_task

from turnbased.idempotency import services


@shared_task(soft_time_limit=300, time_limit=360)
def prune_idempotency_keys() -> int:
    """Delete the keys past their keeping time; idempotent (a second run finds nothing to delete)."""
    return services.idempotency_keys_prune()
