"""Write notification rows; once the transaction commits, ask a worker to deliver them."""

from __future__ import annotations

import logging
from collections.abc import Iterable

from django.db import transaction

from turnbased.notifications.models import Notification

logger = logging.getLogger(__name__)


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
    """Queue delivery of a position's notifications; with the broker down the minute sweep does it later."""
    from turnbased.mail.tasks import deliver_game_notifications

    try:
        deliver_game_notifications.delay(game_id, seq)
    except Exception:  # the outbox row is safe; only the prompt delivery is lost
        logger.warning("could not queue delivery for game %s seq %s; the sweep will send it", game_id, seq, exc_info=True)
