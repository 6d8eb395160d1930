"""Push "your turn" to a player's devices (Web Push, RFC 8030/8291/8292), at most once per turn.

The turn email's decision is the push's: when ``mail.delivery`` settles a turn notification as worth an
email (an active game still at that position, turn emails "immediately", the player not on the game's
page, an account that is not a bot's), it calls ``push_soon``, and after its commit a task
(``tasks.push_turn``) pushes to each device. So no push goes while the player has the game open, nor to
players who chose the digest or no turn emails.

The task marks the notification ``push_settled_at`` in the transaction that decides, and sends after
it: a crash between the two loses that push (the email still goes), a retried or duplicated task finds
it settled and sends nothing. Each push also carries a ``Topic`` per game, so a push service holding an
undelivered one for a device offline replaces it instead of adding another.

What a push says is what anyone at the table may know: the game's name in the player's language and
"It is your turn." (nothing of the position), with the game page's address.
"""

from __future__ import annotations

import json
import logging
import time
from dataclasses import dataclass
from datetime import timedelta

import requests
from celery import current_app
from django.conf import settings
from django.db import transaction
from django.templatetags.static import static
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from turnbased.accounts.readers import for_reader
from turnbased.events.presence import is_present
from turnbased.notifications.devices import BadSubscription, check_endpoint
from turnbased.notifications.models import Notification, NotificationKind, PushSubscription
from turnbased.notifications.vapid import signer
from turnbased.play.models import GameStatus

logger = logging.getLogger(__name__)

PUSH_TASK = "turnbased.notifications.tasks.push_turn"
# Devices are pushed to one after another for at most this long (the task's soft limit is 60 s).
PUSHING_SECONDS = 40
# The push services say a subscription is gone (unsubscribed, expired) with these: its row is deleted.
GONE = {404, 410}
# A turn's push still worth sending: the sweep takes up ones whose task was lost, up to this age.
SWEEP_WINDOW = timedelta(minutes=10)
# ...and only once the prompt task has had its chance.
SWEEP_AFTER = timedelta(seconds=30)


def configured() -> bool:
    return bool(settings.VAPID_PRIVATE_KEY)


# What is pushed: a turn, and (issue 46) a move or the end of a game the person follows, as a turn is told.
PUSHED_KINDS = (NotificationKind.YOUR_TURN, NotificationKind.FOLLOWED_MOVE, NotificationKind.FOLLOWED_END)


def push_soon(notification: Notification) -> None:
    """Queue the push of a turn notification (or a followed game's), decided worth an email, once this transaction
    commits.

    Only for a player with a subscribed device (one indexed look), so most turns queue nothing.
    """
    if notification.kind not in PUSHED_KINDS or not configured():
        return
    if not PushSubscription.objects.filter(user_id=notification.user_id).exists():
        return
    notification_id = notification.pk
    transaction.on_commit(lambda: enqueue(notification_id))


def enqueue(notification_id: int) -> None:
    """Queue one push task; with the broker down the sweep queues it later (within ``SWEEP_WINDOW``)."""
    try:
        current_app.signature(PUSH_TASK, args=(notification_id,)).delay()
    except Exception:  # the notification stays unsettled for pushes: the sweep finds it
        logger.warning("could not queue the push of notification %s; the sweep will", notification_id, exc_info=True)


def turn_payload(game, user, kind: str = NotificationKind.YOUR_TURN) -> dict:
    """What the push says, in the player's language: the game's name and that it is their turn (or that a game they
    follow moved on or ended), nothing more."""
    with translation.override(settings.LANGUAGE_CODE), for_reader(user):
        body = {NotificationKind.FOLLOWED_MOVE: _("A game you follow moved on."),
                NotificationKind.FOLLOWED_END: _("A game you follow is over.")}.get(kind) or _("It is your turn.")
        return {
            "title": game.title,
            "body": body,
            "url": reverse("game-detail", args=[game.pk]),
            # One shown at a time per game and kind: a newer one replaces the older on the device.
            "tag": f"turn-{game.pk}" if kind == NotificationKind.YOUR_TURN else f"followed-{game.pk}",
            "icon": static("icons/icon-192.png"),
        }


def _why_not(notification: Notification) -> str | None:
    """Return why this turn is not pushed, or None when it is; "" when its email is not decided yet."""
    if notification.sent_at is None and notification.skipped_at is None:
        return ""
    if notification.skipped_at is not None:
        return "no turn email"  # the email's rules said no (digest, off, superseded, bot): so does the push
    game = notification.game
    if notification.kind != NotificationKind.FOLLOWED_END and (game.status != GameStatus.ACTIVE
                                                               or game.seq != notification.seq):
        return "superseded"
    if is_present(notification.user_id, game.pk):
        return "has the game open"
    if not configured():
        return "push not configured"
    return None


@dataclass(frozen=True)
class Decision:
    outcome: str
    payload: dict | None = None
    subscriptions: tuple[PushSubscription, ...] = ()


def settle(notification_id: int) -> Decision:
    """Decide one turn's push and mark it settled (one short transaction, the notification row locked)."""
    with transaction.atomic():
        notification = (
            Notification.objects.select_for_update(skip_locked=True, of=("self",))
            .select_related("user", "user__profile", "game")
            .filter(pk=notification_id, kind__in=PUSHED_KINDS, push_settled_at=None)
            .first()
        )
        if notification is None:
            return Decision("settled")
        reason = _why_not(notification)
        if reason == "":
            return Decision("waiting")
        notification.push_settled_at = timezone.now()
        notification.save(update_fields=["push_settled_at"])
        if reason is not None:
            return Decision(f"skipped: {reason}")
        subscriptions = tuple(PushSubscription.objects.filter(user_id=notification.user_id).order_by("pk"))
        return Decision("pushing", turn_payload(notification.game, notification.user, notification.kind),
                        subscriptions)


def _session() -> requests.Session:
    session = requests.Session()
    session.max_redirects = 0  # a push service answers; it never sends the push elsewhere
    session.trust_env = False  # no proxy from the environment between us and the push service
    return session


def send(subscription: PushSubscription, payload: dict) -> str:
    """Push ``payload`` to one device; delete a subscription its push service says is gone; say what happened."""
    try:
        check_endpoint(subscription.endpoint)  # WEB_PUSH_SERVICES may have changed since it was kept
    except BadSubscription:
        return "refused: not a push service we send to"
    # Imported here, not at the top: pywebpush brings aiohttp, a third of a second of every process's start (each
    # web and Celery worker, each management command) for the one task that pushes.
    from pywebpush import WebPushException, webpush

    # A fresh dict for each push: pywebpush adds the audience (the endpoint's origin) and expiry to it.
    claims = {"sub": settings.VAPID_SUBJECT}
    timeout = settings.WEB_PUSH_TIMEOUT_SECONDS
    try:
        with _session() as session:
            webpush(
                subscription_info={"endpoint": subscription.endpoint,
                                   "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth}},
                data=json.dumps(payload, ensure_ascii=False),
                vapid_private_key=signer(settings.VAPID_PRIVATE_KEY), vapid_claims=claims,
                content_encoding="aes128gcm", ttl=settings.WEB_PUSH_TTL_SECONDS, timeout=(timeout, timeout),
                headers={"Urgency": "normal", "Topic": payload["tag"]}, requests_session=session,
            )
    except WebPushException as error:
        status = error.status_code
        if status in GONE:
            PushSubscription.objects.filter(pk=subscription.pk).delete()
            return f"gone ({status}): subscription removed"
        return f"failed: {status or error.message}"
    except requests.RequestException as error:
        return f"failed: {type(error).__name__}"
    PushSubscription.objects.filter(pk=subscription.pk).update(last_pushed_at=timezone.now())
    return "pushed"


def push_turn(notification_id: int) -> list[str]:
    """Settle one turn's push, then send it to each of the player's devices; return what happened."""
    decision = settle(notification_id)
    if decision.outcome != "pushing":
        return [decision.outcome]
    started, outcomes = time.monotonic(), []
    for subscription in decision.subscriptions:
        # Within the task's soft time limit however many devices time out: the rest are given up (the email goes).
        if time.monotonic() - started > PUSHING_SECONDS:
            outcomes.append("failed: out of time")
            continue
        outcomes.append(send(subscription, decision.payload))
    return outcomes or ["no device"]


def due_ids() -> list[int]:
    """Turns whose push a lost task or a broker outage left behind: decided worth an email, not yet pushed."""
    now = timezone.now()
    rows = Notification.objects.filter(
        kind__in=PUSHED_KINDS, push_settled_at=None, sent_at__gte=now - SWEEP_WINDOW,
        sent_at__lte=now - SWEEP_AFTER, user__push_subscriptions__isnull=False,
    ).distinct()
    return list(rows.order_by("pk").values_list("pk", flat=True)[:500])
