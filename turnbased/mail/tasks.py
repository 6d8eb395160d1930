"""Celery tasks for email: small, idempotent, and given ids or raw bytes, never objects.

Every task here but the replies' (``handle_accepted_reply``, its sweep, ``process_inbound_email``) runs on
the ``mail`` queue
(``CELERY_TASK_ROUTES``), served by a worker of its own, so a slow relay delays
only mail. The tasks that send have hard time limits below ``outbox.LEASE``: a
send still running always holds its claim.
"""

from __future__ import annotations

import base64
from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.db import InterfaceError, OperationalError

from turnbased.mail import accepted, delivery, inbound, outbox, webhook_notices

# A send takes at most EMAIL_TIMEOUT per step with the relay; the soft limit ends a stuck one, the hard
# limit a stuck worker, both long before the claim's lease runs out.
SEND_LIMITS = {"soft_time_limit": 60, "time_limit": 90}
# Writing a day's digests composes one email per digest user, and sends none itself.
DIGEST_LIMITS = {"soft_time_limit": 900, "time_limit": 960}


@shared_task(**SEND_LIMITS)
def send_email(email_id: int) -> str:
    """Send one outbox row (claimed for a lease, sent with no lock held, marked sent)."""
    return outbox.send(email_id)


@shared_task(**SEND_LIMITS)
def deliver_notification(notification_id: int) -> str:
    return delivery.deliver(notification_id)


@shared_task(**SEND_LIMITS)
def deliver_game_notifications(game_id: int, seq: int) -> list[str]:
    """Deliver every notification a new position produced."""
    return delivery.deliver_many(delivery.pending_ids(game_id=game_id, seq=seq))


@shared_task(soft_time_limit=50, time_limit=60)
def sweep_outbox() -> dict:
    """Queue what is left behind: notifications unsettled after a minute (lost tasks, broker outages,
    players who left the page), emails whose retry time or dead sender's lease has passed, and the
    notices of disabled webhooks not yet written."""
    notifications = delivery.pending_ids(older_than=delivery.SWEEP_AFTER)
    for pk in notifications:
        deliver_notification.delay(pk)
    emails = outbox.due_ids()
    for pk in emails:
        send_email.delay(pk)
    hooks = webhook_notices.due_ids()
    for pk in hooks:
        tell_webhook_disabled.delay(pk)
    return {"notifications": len(notifications), "emails": len(emails), "webhook_notices": len(hooks)}


@shared_task(**SEND_LIMITS)
def tell_webhook_disabled(hook_id: int) -> str:
    """Email a webhook's owner that it was disabled for failing (once: the mark is cleared with the write)."""
    return webhook_notices.tell(hook_id)


@shared_task(**DIGEST_LIMITS)
def send_daily_digests() -> int:
    return delivery.send_digests()


# A reply within the limits takes milliseconds; the limits cap the time a worker can be made to spend.
# The handling is one transaction, so after a database error nothing of it is left and a retry does it all.
INBOUND_LIMITS = {"autoretry_for": (OperationalError, InterfaceError, OSError), "retry_backoff": 5,
                  "retry_backoff_max": 300, "max_retries": 8, "soft_time_limit": 60, "time_limit": 90}


@shared_task(**INBOUND_LIMITS)
def handle_accepted_reply(accepted_id: int) -> str:
    """Make the move an accepted reply asks for and answer it, once (``accepted.handle``)."""
    return accepted.handle(accepted_id)


@shared_task(**INBOUND_LIMITS)
def process_inbound_email(raw_base64: str, envelope_recipients: list[str] | None = None,
                          provider: dict | None = None) -> str:
    """A reply queued whole by a version before accepted replies were kept in the database (issue 27): one still
    in the broker across an upgrade is handled as it was (a redelivered message is ignored, forged mail dropped)."""
    return inbound.handle_inbound(base64.b64decode(raw_base64), envelope_recipients, provider)


@shared_task(soft_time_limit=50, time_limit=60)
def sweep_accepted_replies() -> int:
    """Queue again the accepted replies no worker has handled a while after they came (a task the broker lost,
    a worker that died mid-reply)."""
    due = accepted.due_ids(older_than=timedelta(seconds=settings.INBOUND_SWEEP_AFTER_SECONDS))
    for pk in due:
        handle_accepted_reply.delay(pk)
    return len(due)


def enqueue_inbound(raw: bytes, envelope_recipients: list[str] | None = None, provider: dict | None = None) -> None:
    """Keep a received message until a worker has handled it (``accepted.accept``); ``provider`` carries what a
    provider's webhook said about it."""
    accepted.accept(raw, envelope_recipients, provider)
