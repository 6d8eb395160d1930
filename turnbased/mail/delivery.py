"""Deliver the notification outbox: one email per row at most, whatever retries happen."""

from __future__ import annotations

import logging
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from turnbased.accounts.selectors import verified_email
from turnbased.mail import compose
from turnbased.mail.models import MailPreference, TurnEmails
from turnbased.notifications.models import Notification, NotificationKind
from turnbased.play.models import Game, GameStatus

logger = logging.getLogger(__name__)

# A player polling a game's page within this window is "there": their turn email waits.
PRESENCE_WINDOW = timedelta(minutes=1)
# Rows still unsent after this long are picked up by the sweep (a lost task, a broker outage).
SWEEP_AFTER = timedelta(minutes=1)


def preference_of(user) -> MailPreference:
    preference, _ = MailPreference.objects.get_or_create(user=user)
    return preference


def _presence_key(user_id: int, game_id: int) -> str:
    return f"presence:{game_id}:{user_id}"


def record_visit(*, user_id: int, game_id: int) -> None:
    """Note that the user has the game open now, for ``PRESENCE_WINDOW``.

    The page polls every few seconds: presence lives in the shared cache
    (Redis), which forgets it by itself, so a poll writes nothing to the database.
    The moment is kept too, so the window is measured by the same clock as the
    turn emails it holds back.
    """
    cache.set(_presence_key(user_id, game_id), timezone.now().timestamp(), timeout=PRESENCE_WINDOW.total_seconds())


def is_present(user_id: int, game_id: int) -> bool:
    """Tell whether the user had the game's page open within ``PRESENCE_WINDOW``."""
    seen_at = cache.get(_presence_key(user_id, game_id))
    return seen_at is not None and seen_at >= (timezone.now() - PRESENCE_WINDOW).timestamp()


def _decide(notification: Notification) -> tuple[str, str]:
    """Return ("send", ""), ("skip", why) or ("wait", why) for one outbox row."""
    user, game = notification.user, notification.game
    if not user.email:
        return "skip", "no address"
    if verified_email(user) is None:
        return "skip", "address not verified"
    preference = preference_of(user)
    if notification.kind == NotificationKind.YOUR_TURN:
        if game.status != GameStatus.ACTIVE or game.seq != notification.seq:
            return "skip", "superseded"
        if preference.turn_emails == TurnEmails.OFF:
            return "skip", "turn emails off"
        if preference.turn_emails == TurnEmails.DIGEST:
            return "skip", "in the digest"
        if is_present(user.pk, game.pk):
            return "wait", "has the game open"
        return "send", ""
    if notification.kind == NotificationKind.REMINDER:
        if game.status != GameStatus.ACTIVE or game.seq != notification.seq:
            return "skip", "superseded"
        if preference.turn_emails == TurnEmails.OFF:
            return "skip", "turn emails off"
        return "send", ""
    if not preference.game_emails:
        return "skip", "game emails off"
    if notification.kind == NotificationKind.INVITED:
        return _decide_invitation(notification)
    if notification.kind == NotificationKind.REMATCH_OFFERED and game.status != GameStatus.OPEN:
        return "skip", "superseded"
    if notification.kind == NotificationKind.GAME_STARTED and Notification.objects.filter(
        user=user, game=game, seq=notification.seq, kind=NotificationKind.YOUR_TURN
    ).exists() and preference.turn_emails == TurnEmails.IMMEDIATE:
        return "skip", "the turn email says it"
    return "send", ""


def _decide_invitation(notification: Notification) -> tuple[str, str]:
    """An invitation is worth an email while the table is open, the person not seated, the invitation not declined."""
    game, user_id = notification.game, notification.user_id
    if game.status != GameStatus.OPEN:
        return "skip", "table no longer open"
    if game.seats.filter(user_id=user_id).exists():
        return "skip", "already seated"
    if game.invitations.filter(user_id=user_id, declined_at__isnull=False).exists():
        return "skip", "declined"
    return "send", ""


def _message(notification: Notification):
    if notification.kind == NotificationKind.INVITED:
        return compose.invitation_email(notification.game, notification.user)
    if notification.kind == NotificationKind.YOUR_TURN:
        return compose.turn_email(notification.game, notification.user)
    if notification.kind == NotificationKind.REMINDER:
        return compose.turn_email(notification.game, notification.user, reminder=True)
    return compose.game_news_email(notification.game, notification.user, notification.kind)


def deliver(notification_id: int) -> str:
    """Send one outbox row unless it was settled already; return what happened.

    The row stays locked while the email goes out and is marked sent in the
    same transaction, so a retried or duplicated task finds it settled.
    """
    with transaction.atomic():
        notification = (
            Notification.objects.select_for_update(skip_locked=True, of=("self",))
            .select_related("user", "game")
            .filter(pk=notification_id, sent_at=None, skipped_at=None)
            .first()
        )
        if notification is None:
            return "settled"
        decision, reason = _decide(notification)
        if decision == "wait":
            return "waiting"
        if decision == "skip":
            notification.skipped_at = timezone.now()
            notification.skip_reason = reason
            notification.save(update_fields=["skipped_at", "skip_reason"])
            return f"skipped: {reason}"
        _message(notification).send()
        notification.sent_at = timezone.now()
        notification.save(update_fields=["sent_at"])
    return "sent"


def pending_ids(*, game_id: int | None = None, seq: int | None = None, older_than: timedelta | None = None) -> list[int]:
    rows = Notification.objects.filter(sent_at=None, skipped_at=None)
    if game_id is not None:
        rows = rows.filter(game_id=game_id, seq=seq)
    if older_than is not None:
        rows = rows.filter(created_at__lte=timezone.now() - older_than)
    return list(rows.order_by("created_at").values_list("pk", flat=True)[:500])


def send_digests(*, today=None) -> int:
    """Send each digest user one email listing every game waiting for them; at most once a day."""
    today = today or timezone.localdate()
    sent = 0
    User = get_user_model()
    for user in User.objects.filter(mail_preference__turn_emails=TurnEmails.DIGEST).exclude(email=""):
        if verified_email(user) is None:
            continue  # no digest to an address its owner has not confirmed
        with transaction.atomic():
            preference = MailPreference.objects.select_for_update().get(user=user)
            if preference.last_digest_on == today:
                continue
            games = [
                game for game in Game.objects.filter(status=GameStatus.ACTIVE, seats__user=user).order_by("pk")
                if any(seat.index in game.to_move for seat in game.seats.all() if seat.user_id == user.pk)
            ]
            preference.last_digest_on = today
            preference.save(update_fields=["last_digest_on"])
            if games:
                compose.digest_email(user, games).send()
                sent += 1
    return sent
