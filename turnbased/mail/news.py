"""A feature's news by email (a group's invitation, tables left after a bot took a seat): whom it may go to, and
writing it to the outbox in the transaction that made it, sent once that has committed (at most once)."""

from __future__ import annotations

from django.db import transaction

from turnbased.accounts.selectors import verified_email
from turnbased.mail import outbox
from turnbased.mail.models import MailPreference


def takes_news(user) -> bool:
    """Whether the person takes a feature's news by email: a verified address, and game emails on."""
    if verified_email(user) is None:
        return False
    return MailPreference.objects.filter(user=user, game_emails=False).first() is None


def write_and_send(message, user, *, kind: str) -> None:
    """Write ``message`` to the outbox now and send it once the transaction commits."""
    email = outbox.put(message, kind=kind, user=user)
    transaction.on_commit(lambda: outbox.send_soon(email.pk))
