"""What was done with a reply to a feature's news, and its one answer: a group's invitation or request
(``group_replies``), a followed game's news (``watch_replies``). A game's reply has its own (``outcomes``,
``answering``): it answers with the position; these answer with a line or two."""

from __future__ import annotations

from dataclasses import dataclass

from turnbased.mail import compose, outbox
from turnbased.mail.models import EmailKind, InboundEmail


@dataclass(frozen=True)
class NewsDone:
    """What was done with a reply to a feature's news: the record's status and outcome, the answer's words."""

    status: str
    outcome: str
    heading: str
    detail: str = ""


def answer(reply, done: NewsDone, record: InboundEmail) -> int:
    """Write the answer to the outbox under the reply's record; return its outbox id (sent once committed)."""
    message = compose.answer_email(to=reply.user.email, subject=reply.headers.subject, heading=done.heading,
                                   detail=done.detail, original_message_id=reply.headers.message_id, user=reply.user)
    return outbox.put(message, kind=EmailKind.ANSWER, user=reply.user, inbound=record).pk
