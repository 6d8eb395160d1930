"""Write notification rows; once the transaction commits, ask a worker to deliver them. Keep and forget
the devices a person subscribed to push.

The rows are the hand-over: this app knows the delivering task only by its
name, so it never imports the mail app (which uses play, which uses this).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from django.conf import settings
from django.db import transaction
from django.db.models import F

from turnbased.kit.db import dispatch
from turnbased.kit.db import one_statement
from turnbased.notifications.devices import check_endpoint, check_keys, describe_device
from turnbased.notifications.models import Notification, PushSubscription

logger = logging.getLogger(__name__)

DELIVERY_TASK = "turnbased.mail.tasks.deliver_game_notifications"


def notifications_record(*, game, seq: int, kind: str, user_ids: Iterable[int]) -> None:
    """Record that each user must hear of ``kind`` at ``seq``; call inside the change's transaction.

    Their delivery is queued once the transaction commits (``dispatch.after_commit``: a NOTIFY in the change's
    own statement); should that be lost, the outbox sweep sends the rows.
    """
    user_ids = set(user_ids)
    if not user_ids:
        return
    # With a move's other writes when it sends them together (``one_statement``); nobody reads the ids.
    sql, params = one_statement.insert(
        [Notification(user_id=user_id, game=game, seq=seq, kind=kind) for user_id in sorted(user_ids)],
        ignore_conflicts=True,
    )
    one_statement.write(f"{one_statement.name('notified')} AS ({sql})", params)
    dispatch.after_commit(DELIVERY_TASK, game.pk, seq)


# -- devices subscribed to push (issue 25) -------------------------------------------------------------


def push_subscription_save(*, user, endpoint: str, p256dh: str, auth: str, user_agent: str = ""):
    """Keep one device's push subscription for ``user``; return it and whether it is new to ``user``.

    A row belongs to the account and the endpoint together: a browser that subscribes again for the same
    account replaces that row's keys, and an endpoint another account has kept is neither taken over nor
    touched (this account gets a row of its own), so what ``user`` is told never depends on other accounts.
    Beyond ``WEB_PUSH_MAX_PER_USER`` the user's longest-unused device is let go. Raises
    ``devices.BadSubscription`` for an endpoint we do not push to or keys that are not keys.
    """
    endpoint = check_endpoint(endpoint)
    p256dh, auth = check_keys(p256dh, auth)
    browser, system = describe_device(user_agent)
    with transaction.atomic():
        subscription, created = PushSubscription.objects.update_or_create(
            user=user, endpoint=endpoint, defaults={"p256dh": p256dh, "auth": auth, "browser": browser,
                                                    "system": system})
        surplus = (PushSubscription.objects.filter(user=user).exclude(pk=subscription.pk)
                   .order_by(F("last_pushed_at").desc(nulls_last=True), "-created_at", "-pk")
                   .values_list("pk", flat=True)[settings.WEB_PUSH_MAX_PER_USER - 1:])
        PushSubscription.objects.filter(pk__in=list(surplus)).delete()
    return subscription, created


def push_subscription_remove(*, user, subscription_id: int) -> bool:
    """Forget one of the user's devices (no more pushes to it); False when it is not theirs or is gone."""
    deleted, _ = PushSubscription.objects.filter(user=user, pk=subscription_id).delete()
    return bool(deleted)
