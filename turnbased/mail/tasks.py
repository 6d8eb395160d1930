"""Celery tasks for email: small, idempotent, and given ids or raw bytes, never objects."""

from __future__ import annotations

import base64
import smtplib

from celery import shared_task

from turnbased.mail import delivery, inbound

_SEND_ERRORS = (OSError, smtplib.SMTPException)


@shared_task(autoretry_for=_SEND_ERRORS, retry_backoff=5, retry_backoff_max=300, max_retries=8)
def deliver_notification(notification_id: int) -> str:
    return delivery.deliver(notification_id)


@shared_task(autoretry_for=_SEND_ERRORS, retry_backoff=5, retry_backoff_max=300, max_retries=8)
def deliver_game_notifications(game_id: int, seq: int) -> list[str]:
    """Deliver every outbox row a new position produced."""
    return [delivery.deliver(pk) for pk in delivery.pending_ids(game_id=game_id, seq=seq)]


@shared_task
def sweep_outbox() -> int:
    """Queue every row still unsent after a minute (lost tasks, broker outages, players who left the page)."""
    pending = delivery.pending_ids(older_than=delivery.SWEEP_AFTER)
    for pk in pending:
        deliver_notification.delay(pk)
    return len(pending)


@shared_task
def send_daily_digests() -> int:
    return delivery.send_digests()


# A reply within the limits takes milliseconds; the limits cap the time a worker can be made to spend.
@shared_task(autoretry_for=_SEND_ERRORS, retry_backoff=5, retry_backoff_max=300, max_retries=8,
             soft_time_limit=60, time_limit=90)
def process_inbound_email(raw_base64: str, envelope_recipients: list[str] | None = None,
                          provider: dict | None = None) -> str:
    """Make the move a reply asks for and answer it (a redelivered message is ignored, forged mail dropped)."""
    return inbound.handle_inbound(base64.b64decode(raw_base64), envelope_recipients, provider)


def enqueue_inbound(raw: bytes, envelope_recipients: list[str] | None = None, provider: dict | None = None) -> None:
    """Queue a received message; ``provider`` carries what a provider's webhook said about it."""
    process_inbound_email.delay(base64.b64encode(raw).decode("ascii"), list(envelope_recipients or []), provider)
