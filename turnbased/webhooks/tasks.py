"""Celery tasks of webhooks, all on the ``webhooks`` queue (``CELERY_TASK_ROUTES``) with a worker of its own.

Receivers are other people's servers: one that is slow holds a worker up to
``WEBHOOKS_TOTAL_SECONDS`` per attempt, and that must delay only webhooks, never
moves, bots, sweeps or mail (as the mail queue does for a slow relay).
"""

from __future__ import annotations

from celery import shared_task

from turnbased.webhooks import delivery

# An attempt takes at most WEBHOOKS_TOTAL_SECONDS (10 by default, the watchdog cuts it there); the limits
# are a backstop, and the hard one is below delivery.LEASE, so an attempt still running holds its claim.
SEND_LIMITS = {"soft_time_limit": 45, "time_limit": 60}


@shared_task(**SEND_LIMITS)
def deliver_webhook(delivery_id: int) -> str:
    """Make one attempt at a queued delivery (claimed, sent with nothing held, settled); a repeat finds it taken."""
    return delivery.attempt(delivery_id)


@shared_task(soft_time_limit=50, time_limit=60)
def sweep_webhooks() -> int:
    """Queue the deliveries whose time has come: new ones, retries, and ones whose task or sender was lost."""
    due = delivery.queue_due()
    for delivery_id in due:
        delivery.send_soon(delivery_id)
    return len(due)


@shared_task(soft_time_limit=300, time_limit=360)
def prune_webhook_deliveries() -> int:
    """Delete the delivery log past WEBHOOKS_KEEP_DAYS; idempotent (a second run finds nothing)."""
    return delivery.prune()
