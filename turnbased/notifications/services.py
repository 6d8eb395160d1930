"""Write notification rows; sending them is the mail app's work."""

from __future__ import annotations

from collections.abc import Iterable

from turnbased.notifications.models import Notification


def notifications_record(*, game, seq: int, kind: str, user_ids: Iterable[int]) -> None:
    """Record that each user must hear of ``kind`` at ``seq``; call inside the change's transaction."""
    Notification.objects.bulk_create(
        [Notification(user_id=user_id, game=game, seq=seq, kind=kind) for user_id in set(user_ids)],
        ignore_conflicts=True,
    )
