"""Local SMTP servers (aiosmtpd): the inbound server for replies, and a sink that keeps outgoing mail.

The inbound server accepts mail only for ``play+<token>@`` addresses and
only queues it for a worker. The sink, for development, stores every message
it is handed so the mailbox page can show it.
"""

from __future__ import annotations

import logging
from email import message_from_bytes, policy
from email.utils import getaddresses

from aiosmtpd.controller import Controller
from asgiref.sync import sync_to_async

from turnbased.mail.tokens import is_reply_address

logger = logging.getLogger(__name__)

SMTP_SIZE_LIMIT = 10 * 1024 * 1024


class InboundHandler:
    """Accept replies to game addresses and hand them to a Celery task."""

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if not is_reply_address(address):
            return "550 5.1.1 No such mailbox: reply to a game email's address"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        from turnbased.mail.tasks import enqueue_inbound

        try:
            await sync_to_async(enqueue_inbound, thread_sensitive=False)(
                bytes(envelope.original_content or envelope.content), list(envelope.rcpt_tos)
            )
        except Exception:
            logger.exception("could not queue an inbound message")
            return "451 4.3.0 Try again later"
        return "250 Message accepted for delivery"


def _store_local_message(raw: bytes, sender: str, recipients: list[str]) -> None:
    from turnbased.mail.models import LocalMessage

    message = message_from_bytes(raw, policy=policy.default)
    plain = message.get_body(preferencelist=("plain",))
    html = message.get_body(preferencelist=("html",))
    reply_to = [address for _, address in getaddresses([str(v) for v in message.get_all("Reply-To", [])])]
    LocalMessage.objects.create(
        sender=sender,
        recipients=recipients,
        subject=str(message.get("Subject", ""))[:255],
        text=plain.get_content() if plain is not None else "",
        html=html.get_content() if html is not None else "",
        reply_to=(reply_to[0] if reply_to else "")[:254],
        message_id=str(message.get("Message-ID", ""))[:255],
        headers={key: str(value) for key, value in message.items()},
    )


class SinkHandler:
    """Keep every outgoing message in the database instead of delivering it."""

    async def handle_DATA(self, server, session, envelope):
        try:
            await sync_to_async(_store_local_message, thread_sensitive=False)(
                bytes(envelope.original_content or envelope.content), envelope.mail_from, list(envelope.rcpt_tos)
            )
        except Exception:
            logger.exception("could not store a message in the local mailbox")
            return "451 4.3.0 Try again later"
        return "250 Message kept in the local mailbox"


def start_server(handler, host: str, port: int) -> Controller:
    """Start an SMTP server in a background thread and return its controller (call ``stop()``)."""
    controller = Controller(handler, hostname=host, port=port, data_size_limit=SMTP_SIZE_LIMIT)
    controller.start()
    return controller
