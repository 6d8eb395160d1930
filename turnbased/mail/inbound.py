"""Replies by email, as a pipeline: read the headers, verify the sender, then read the body, act, and answer.

Each stage is a module of its own, taking and returning plain data, in the order a reply goes through them:

1. ``reading.read_headers``: the Message-ID, the From, the Subject and the reply address, from the envelope and
   the headers alone (the body is not read yet: forged or abusive mail must cost little).
2. ``verifying.verify``: the reply address is ours and unexpired, names a player of its game, and the From is
   that player's (and the provider's SPF/DKIM verdicts agree). Anything else is counted and dropped unanswered.
3. Once: the same message (Message-ID) delivered again is ignored. Its record (``InboundEmail``), the act and the
   answer are written in one transaction: after any failure none of them is left, and the redelivered message
   is handled in full.
4. ``reading.read_request``: the body, within the size and MIME limits (one over them is refused unread), its
   first line of new text read as a move or a command.
5. ``acting.act``: what it asks, done through the same services as the page and the API (a takeback, or the
   answer to one: ``agreement_replies``; a reply to a group's invitation or request: ``group_replies.act``, accept
   or decline through the groups' services; a reply to a followed game's news: ``watch_replies.act``, stop following).
6. ``answering.answer``: one answer, worded from what the act returned, written to the outbox and sent once the
   transaction has committed, like every email.

Everything from the body on happens in the player's language (``compose.for_recipient``): the commands are read
in it and in English, the game reads the move in it (and in English), and the answer is worded in it.
"""

from __future__ import annotations

import logging

from django.db import IntegrityError, transaction

from turnbased.mail import acting, answering, compose, group_replies, outbox, reading, verifying, watch_replies
from turnbased.mail.models import InboundEmail
from turnbased.mail.reply_text import MAX_COMMAND_LENGTH

logger = logging.getLogger(__name__)


def handle_inbound(raw: bytes, envelope_recipients: list[str] | None = None, provider: dict | None = None) -> str:
    """Process one message end to end and answer it when it is from a player; return an outcome for logs.

    ``provider`` comes from the webhook path only: ``verdicts`` (SPF/DKIM, see
    ``sender_auth``) and ``refusal`` when the webhook already found the message
    over the limits (then ``raw`` holds its headers only).
    """
    outcome, answers = handle_without_sending(raw, envelope_recipients, provider)
    for email_id in answers:
        outbox.send_soon(email_id)
    return outcome


def handle_without_sending(raw: bytes, envelope_recipients: list[str] | None = None,
                           provider: dict | None = None) -> tuple[str, list[int]]:
    """Do what ``handle_inbound`` does but queue no answer's send; return the outcome and the answers' outbox ids,
    to be sent once the caller's own transaction has committed (``accepted.handle``)."""
    provider = provider or {}
    headers = reading.read_headers(raw, envelope_recipients)
    try:
        reply = verifying.verify(headers, provider.get("verdicts"))
    except verifying.Dropped as drop:
        verifying.count_drop(drop.reason)
        # The address is not logged: a valid one from a wrong sender is a password.
        logger.info("dropped inbound message %s unanswered: %s", headers.message_id, drop.reason)
        return f"dropped: {drop.reason}", []
    # The player's language (and zone) for all that follows: the commands, the game's reading of the move, the answer.
    with compose.for_recipient(reply.user), transaction.atomic():
        # Once: the record is unique by the Message-ID, and commits with the act and the answer or not at all.
        try:
            with transaction.atomic():
                record = InboundEmail.objects.create(
                    message_id=headers.message_id, sender=headers.sender[:254], recipient=headers.recipient[:254],
                    subject=headers.subject,
                )
        except IntegrityError:  # handled before; a concurrent delivery waits here until the first one commits
            return "duplicate", []
        request = reading.read_request(raw, headers.message_id, provider.get("refusal"))
        # A reply to a group's invitation or request (issue 44) is answered by the groups' services; a turn's, the game's.
        # A reply to a followed game's news (issue 46) is answered by the following services.
        stage = (group_replies if isinstance(reply, verifying.GroupReply)
                 else watch_replies if isinstance(reply, verifying.WatchReply) else acting)
        done = stage.act(reply, request)
        answer_id = (answering if stage is acting else stage).answer(reply, done, record)
        # What the reply asked and what came of it, for the admin's list of replies.
        record.command = request.line[:MAX_COMMAND_LENGTH]
        record.status = done.status
        record.outcome = done.outcome
        record.save(update_fields=["command", "status", "outcome"])
    return done.outcome, [answer_id]
