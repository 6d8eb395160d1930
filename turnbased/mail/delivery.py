"""Turn notifications into emails: decide each once, write its email to the outbox, then send it.

Deciding and composing happen in one short transaction that settles the
notification and writes its ``OutgoingEmail``; the send comes after it, with
no row locked (``outbox.send``), so a slow relay holds up nothing but mail.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from turnbased.accounts.models import is_bot_account
from turnbased.accounts.selectors import verified_email
from turnbased.events.presence import is_present
from turnbased.following.services import notice_event_record
from turnbased.mail import compose, followed_news, outbox
from turnbased.mail.models import EmailKind, MailPreference, TurnEmails
from turnbased.notifications import push
from turnbased.notifications.models import Notification, NotificationKind
from turnbased.play.models import Game, GameStatus

# Rows still unsettled after this long are picked up by the sweep (a lost task, a broker outage).
SWEEP_AFTER = timedelta(seconds=settings.MAIL_SWEEP_AFTER_SECONDS)


def preference_of(user) -> MailPreference:
    preference, _ = MailPreference.objects.get_or_create(user=user)
    return preference


def _decide(notification: Notification) -> tuple[str, str]:
    """Return ("send", ""), ("skip", why) or ("wait", why) for one notification."""
    user, game = notification.user, notification.game
    if is_bot_account(user):
        # A bot account's program learns of its turns, invitations and games through the API.
        return "skip", "bot account"
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
    if notification.kind in followed_news.KINDS:
        return followed_news.decide(notification, preference)
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
    if notification.kind in followed_news.KINDS:
        return followed_news.followed_email(notification)
    if notification.kind == NotificationKind.INVITED:
        return compose.invitation_email(notification.game, notification.user)
    if notification.kind == NotificationKind.YOUR_TURN:
        return compose.turn_email(notification.game, notification.user)
    if notification.kind == NotificationKind.REMINDER:
        return compose.turn_email(notification.game, notification.user, reminder=True)
    return compose.game_news_email(notification.game, notification.user, notification.kind)


def _followed(notification: Notification) -> tuple[str, str]:
    """A notice of a followed game is skipped when it is no longer for its person; any other tells their stream and
    webhooks, once (the row is settled in this transaction), whatever their email settings then decide."""
    reason = followed_news.refusal(notification)
    if reason is not None:
        return "skip", reason
    notice_event_record(user=notification.user, game=notification.game, seq=notification.seq,
                        kind=notification.kind)
    return "send", ""


def settle(notification_id: int) -> tuple[str, int | None]:
    """Decide one notification and, when it is worth an email, write that email to the outbox.

    One short transaction with the notification row locked: it is settled
    (``sent_at``: its email is in the outbox; or ``skipped_at``) together with
    the email's row, so a retried or duplicated task finds it settled. Return
    what happened and the email's id, if one was written.
    """
    with transaction.atomic():
        notification = (
            Notification.objects.select_for_update(skip_locked=True, of=("self",))
            .select_related("user", "user__profile", "game")
            .filter(pk=notification_id, sent_at=None, skipped_at=None)
            .first()
        )
        if notification is None:
            return "settled", None
        decision, reason = _followed(notification) if notification.kind in followed_news.KINDS else ("send", "")
        if decision == "send":
            decision, reason = _decide(notification)
        if decision == "wait":
            return "waiting", None
        if decision == "skip":
            notification.skipped_at = timezone.now()
            notification.skip_reason = reason
            notification.save(update_fields=["skipped_at", "skip_reason"])
            return f"skipped: {reason}", None
        email = outbox.put(_message(notification), kind=EmailKind.NOTIFICATION, user=notification.user,
                           notification=notification)
        notification.sent_at = timezone.now()
        notification.save(update_fields=["sent_at"])
        push.push_soon(notification)  # issue 25: a turn worth an email is pushed to the player's devices too
    return "written", email.pk


def deliver(notification_id: int) -> str:
    """Settle one notification, then send its email (outside the transaction); return what happened."""
    outcome, email_id = settle(notification_id)
    return outcome if email_id is None else outbox.send(email_id)


def deliver_many(notification_ids: list[int]) -> list[str]:
    """Deliver several notifications; after one send fails the rest wait in the outbox for the sweep.

    A relay that is down or stalled would fail each send after ``EMAIL_TIMEOUT``:
    one wait is enough to know it.
    """
    outcomes, relay_failed = [], False
    for notification_id in notification_ids:
        outcome, email_id = settle(notification_id)
        if email_id is not None:
            outcome = "written" if relay_failed else outbox.send(email_id)
            relay_failed = relay_failed or outcome.startswith("failed")
        outcomes.append(outcome)
    return outcomes


def pending_ids(*, game_id: int | None = None, seq: int | None = None, older_than: timedelta | None = None) -> list[int]:
    rows = Notification.objects.filter(sent_at=None, skipped_at=None)
    if game_id is not None:
        rows = rows.filter(game_id=game_id, seq=seq)
    if older_than is not None:
        rows = rows.filter(created_at__lte=timezone.now() - older_than)
    return list(rows.order_by("created_at").values_list("pk", flat=True)[:500])


def send_digests(*, today=None) -> int:
    """Write each digest user one email listing every game waiting for them, at most once a day; queue them.

    The day is marked in the transaction that writes the email, so a rerun
    writes none twice; the sends are queued, each a task of its own.
    """
    today = today or timezone.localdate()
    written = []
    User = get_user_model()
    digest_users = (
        User.objects.filter(mail_preference__turn_emails=TurnEmails.DIGEST).exclude(email="")
        .exclude(profile__is_bot_account=True)  # a bot account gets no game emails
    )
    for user in digest_users:
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
                written.append(outbox.put(compose.digest_email(user, games), kind=EmailKind.DIGEST, user=user).pk)
    for email_id in written:
        outbox.send_soon(email_id)
    return len(written)
