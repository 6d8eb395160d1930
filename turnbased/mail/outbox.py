"""The outbox: every email is a row written in the transaction that decided it, and sent later without a lock.

Sending is three steps, none inside a transaction the sender keeps open:
claim the row for a lease (one short UPDATE that skips a row whose lease is
live), hand the message to the relay with no row locked, mark the row sent.
A worker killed between the relay's acceptance and the mark leaves the row
claimed; once the lease runs out the sweep sends it again, with the same
Message-ID, so the receiver can drop the copy. That window is the only way
an email goes out twice.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from email.mime.base import MIMEBase
from smtplib import SMTPRecipientsRefused

from anymail.exceptions import AnymailInvalidAddress, AnymailRecipientsRefused
from celery import current_app
from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db.models import F, Q
from django.utils import timezone

from turnbased.mail import compose
from turnbased.mail.models import OutgoingEmail

logger = logging.getLogger(__name__)

# A claim outlives any send: it is longer than the hard time limit of every task that sends
# (turnbased.mail.tasks), so a row is sent again only once its sender is surely dead.
LEASE = timedelta(seconds=settings.MAIL_LEASE_SECONDS)
# After a failed attempt the next waits 1, 2, 4 ... minutes, at most an hour; after this many, none.
MAX_ATTEMPTS = 10
FIRST_RETRY = timedelta(minutes=1)
LONGEST_RETRY = timedelta(hours=1)
# A row never claimed this long after it was written lost its task (a broker outage): the sweep sends it.
SWEEP_AFTER = timedelta(seconds=settings.MAIL_SWEEP_AFTER_SECONDS)
# The relay refused the address itself: trying again cannot help.
_PERMANENT = (SMTPRecipientsRefused, AnymailRecipientsRefused, AnymailInvalidAddress)
SEND_TASK = "turnbased.mail.tasks.send_email"


def put(message: EmailMultiAlternatives, *, kind: str, user=None, notification=None, inbound=None) -> OutgoingEmail:
    """Write a composed message to the outbox, keeping the Message-ID it was composed with."""
    headers = dict(message.extra_headers)
    message_id = headers.pop("Message-ID")
    html = [content for content, mimetype in message.alternatives if mimetype == "text/html"]
    pictures = [part for part in message.attachments
                if isinstance(part, MIMEBase) and part["Content-ID"] == "<position>"]
    if len(message.to) != 1 or len(html) != len(message.alternatives) or len(pictures) != len(message.attachments):
        raise ValueError("the outbox keeps one recipient, a text and an HTML body, and the position's picture")
    return OutgoingEmail.objects.create(
        message_id=message_id, kind=kind, user=user, notification=notification, inbound=inbound,
        from_email=message.from_email, to=message.to[0], reply_to=message.reply_to[0] if message.reply_to else "",
        subject=message.subject, text=message.body, html=html[0] if html else "", headers=headers,
        picture=pictures[0].get_payload(decode=True) if pictures else None,
    )


def message_of(email: OutgoingEmail) -> EmailMultiAlternatives:
    """Return the row as the message it was composed as, with its own Message-ID."""
    message = EmailMultiAlternatives(
        subject=email.subject, body=email.text, from_email=email.from_email, to=[email.to],
        reply_to=[email.reply_to] if email.reply_to else None,
        headers={"Message-ID": email.message_id, **email.headers},
    )
    if email.html:
        message.attach_alternative(email.html, "text/html")
    if email.picture is not None:
        message.attach(compose.picture_part(bytes(email.picture)))
    return message


def claim(email_id: int) -> OutgoingEmail | None:
    """Take the row for one send attempt, unless it is settled or someone's lease on it is live.

    One UPDATE: PostgreSQL re-checks its condition on a row another claim
    changed meanwhile, so of two racing claims one finds nothing to take.
    """
    moment = timezone.now()
    taken = (
        OutgoingEmail.objects.filter(pk=email_id, sent_at=None, given_up_at=None)
        .filter(Q(claimed_until=None) | Q(claimed_until__lte=moment))
        .update(claimed_until=moment + LEASE, attempts=F("attempts") + 1)
    )
    return OutgoingEmail.objects.get(pk=email_id) if taken else None


def send(email_id: int) -> str:
    """Claim, send with no transaction or lock held, mark sent; return what happened.

    Call it outside any transaction: the claim must commit before the relay is
    reached, or a crash would undo it. A failure is written on the row with the
    time of the next attempt; the sweep makes that attempt.
    """
    email = claim(email_id)
    if email is None:
        settled = OutgoingEmail.objects.filter(pk=email_id).exclude(sent_at=None, given_up_at=None).exists()
        return "settled" if settled else "claimed elsewhere"
    try:
        message_of(email).send()
    except Exception as error:  # the relay's answer, a timeout, the task's soft time limit: the row keeps it
        return _failed(email, error)
    _mark_sent(email)
    return "sent"


def _mark_sent(email: OutgoingEmail) -> None:
    OutgoingEmail.objects.filter(pk=email.pk).update(sent_at=timezone.now(), claimed_until=None, last_error="")


def _failed(email: OutgoingEmail, error: Exception) -> str:
    moment = timezone.now()
    why = f"{type(error).__name__}: {error}"[:1000]
    if isinstance(error, _PERMANENT) or email.attempts >= MAX_ATTEMPTS:
        OutgoingEmail.objects.filter(pk=email.pk).update(given_up_at=moment, claimed_until=None, last_error=why)
        logger.warning("gave up sending email %s after %s attempts: %s", email.pk, email.attempts, why)
        return f"given up: {why}"
    wait = min(FIRST_RETRY * 2 ** (email.attempts - 1), LONGEST_RETRY)
    OutgoingEmail.objects.filter(pk=email.pk).update(claimed_until=moment + wait, last_error=why)
    logger.warning("could not send email %s (attempt %s), next in %s: %s", email.pk, email.attempts, wait, why)
    return f"failed: {why}"


def due_ids(*, limit: int = 500) -> list[int]:
    """Rows to send now: whose retry time or dead sender's lease has passed, or whose task was lost."""
    moment = timezone.now()
    rows = OutgoingEmail.objects.filter(sent_at=None, given_up_at=None).filter(
        Q(claimed_until=None, created_at__lte=moment - SWEEP_AFTER) | Q(claimed_until__lte=moment)
    )
    return list(rows.order_by("created_at").values_list("pk", flat=True)[:limit])


def send_soon(email_id: int) -> None:
    """Queue the row's send on the mail queue; with the broker down, the sweep sends it a minute later."""
    try:
        current_app.signature(SEND_TASK, args=(email_id,)).delay()
    except Exception:
        logger.warning("could not queue email %s; the sweep will send it", email_id, exc_info=True)
