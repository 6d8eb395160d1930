"""Write notification rows; once the transaction commits, ask a worker to deliver them.

The rows are the hand-over: this app knows the delivering task only by its
name, so it never imports the mail app (which uses play, which uses this).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from celery import current_app
from django.db import transaction

from turnbased.notifications.models import Notification

logger = logging.getLogger(__name__)

DELIVERY_TASK = "turnbased.mail.tasks.deliver_game_notifications"


def notifications_record(*, game, seq: int, kind: str, user_ids: Iterable[int]) -> None:
    """Record that each user must hear of ``kind`` at ``seq``; call inside the change's transaction."""
    user_ids = set(user_ids)
    if not user_ids:
        return
    Notification.objects.bulk_create(
        [Notification(user_id=user_id, game=game, seq=seq, kind=kind) for user_id in user_ids],
        ignore_conflicts=True,
    )
    game_id = game.pk
    transaction.on_commit(lambda: enqueue_delivery(game_id, seq))


def enqueue_delivery(game_id: int, seq: int) -> None:
    """Queue delivery of a position's notifications; with the broker down the minute sweep does it later.

    By name: the task's queue comes from ``CELERY_TASK_ROUTES`` as for any other call.
    """
    try:
        current_app.signature(DELIVERY_TASK, args=(game_id, seq)).delay()
    except Exception:  # the outbox row is safe; only the prompt delivery is lost
        logger.warning("could not queue delivery for game %s seq %s; the sweep will send it", game_id, seq, exc_info=True)
