"""Celery tasks for push notifications: idempotent, given ids, on the mail queue (``CELERY_TASK_ROUTES``).

A push waits at most ``WEB_PUSH_TIMEOUT_SECONDS`` to connect and again for the answer, for each of a
player's devices (at most ``WEB_PUSH_MAX_PER_USER``); the limits end a stuck task long before that adds
up to anything a worker must wait for.
"""

from __future__ import annotations

from celery import shared_task

from turnbased.notifications import push


@shared_task(soft_time_limit=60, time_limit=90)
def push_turn(notification_id: int) -> list[str]:
    """Push one turn to the player's devices, at most once (a retried task finds it settled)."""
    return push.push_turn(notification_id)


@shared_task(soft_time_limit=50, time_limit=60)
def sweep_pushes() -> int:
    """Queue the pushes a lost task or a broker outage left behind (turns of the last few minutes)."""
    due = push.due_ids()
    for notification_id in due:
        push_turn.delay(notification_id)
    return len(due)
