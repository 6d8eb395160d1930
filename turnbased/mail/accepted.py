"""Replies by email kept in PostgreSQL from the moment they are accepted until a worker has handled them.

The inbound SMTP server answers 250, and a provider's webhook 200, only once the message is a committed
``AcceptedReply`` row: before, it lived only in the broker, so a Redis that lost its memory lost accepted
replies, and a worker killed mid-reply left it for the broker's visibility timeout. The row names its
handling task through the dispatcher (``dispatch.after_commit``): the accepting process publishes nothing.

A worker handles a row inside one transaction that locks it, does what the reply asks (``handle_inbound``:
the move, the answer, the duplicate-check row) and deletes it: all of that commits together or not at
all. A worker that dies mid-reply leaves the row for the sweep (``due_ids``), as does a broker that lost
the task. Two tasks for one row cannot both handle it: the second finds it locked (it skips it) or gone.
A row that failed ``MAX_ATTEMPTS`` times is left for an operator (the admin lists it) instead of being
tried for ever.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from turnbased.kit.db import dispatch
from turnbased.mail.models import AcceptedReply

logger = logging.getLogger(__name__)

HANDLE_TASK = "turnbased.mail.tasks.handle_accepted_reply"
MAX_ATTEMPTS = 5


def accept(raw: bytes, envelope_recipients: list[str] | None = None, provider: dict | None = None) -> int:
    """Keep an accepted message and have a worker handle it once it is committed; return its row's id.

    Raises what the database raises: the caller then refuses the message for now (451), and its sender tries
    again later.
    """
    with transaction.atomic():
        accepted = AcceptedReply.objects.create(raw=raw, envelope_recipients=list(envelope_recipients or []),
                                                provider=provider)
        dispatch.after_commit(HANDLE_TASK, accepted.pk)
    return accepted.pk


def handle(accepted_id: int) -> str:
    """Handle one accepted message, exactly once; return the outcome for logs."""
    from turnbased.mail import outbox
    from turnbased.mail.inbound import handle_without_sending

    # Counted outside the handling's transaction, so that tries that died count too.
    AcceptedReply.objects.filter(pk=accepted_id).update(attempts=F("attempts") + 1)
    with transaction.atomic():
        accepted = AcceptedReply.objects.select_for_update(skip_locked=True).filter(pk=accepted_id).first()
        if accepted is None:
            return "handled already, or in hand"
        outcome, answers = handle_without_sending(bytes(accepted.raw), accepted.envelope_recipients,
                                                  accepted.provider)
        accepted.delete()
    for email_id in answers:  # committed: a mail worker finds them (and the sweep, if this send is lost)
        outbox.send_soon(email_id)
    return outcome


def due_ids(*, older_than: timedelta, limit: int = 100) -> list[int]:
    """Return the accepted messages still unhandled ``older_than`` after they came, oldest first (the sweep's)."""
    stale = timezone.now() - older_than
    waiting = AcceptedReply.objects.filter(accepted_at__lte=stale)
    given_up = waiting.filter(attempts__gte=MAX_ATTEMPTS).count()
    if given_up:
        logger.error("%s accepted replies failed %s times each and are left for an operator (admin: accepted "
                     "replies)", given_up, MAX_ATTEMPTS)
    return list(waiting.filter(attempts__lt=MAX_ATTEMPTS).order_by("accepted_at").values_list("pk", flat=True)[:limit])
