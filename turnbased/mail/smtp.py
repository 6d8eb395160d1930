"""Local SMTP servers (aiosmtpd): the inbound server for replies, and a sink that keeps outgoing mail.

The inbound server accepts mail only for reply addresses we signed that have
not expired, refusing the others at RCPT (so a forger's own server, not we,
tells them), takes at most ``MAIL_INBOUND_MAX_BYTES`` per message (a bigger
one gets a 552) and only queues it for a worker. The sink, for development,
stores every message it is handed so the mailbox page can show it.
"""

from __future__ import annotations

import logging
from concurrent.futures import ThreadPoolExecutor
from email import message_from_bytes, policy
from email.utils import getaddresses

from aiosmtpd.controller import Controller
from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import close_old_connections, reset_queries

from turnbased.mail.models import InboundDropReason
from turnbased.mail.tokens import BadToken, ExpiredToken, is_reply_address, read_any_reply_address
from turnbased.kit.texts.text_input import readable

logger = logging.getLogger(__name__)

# Outgoing mail kept by the development sink (turn emails carry a picture of the board).
SINK_SIZE_LIMIT = 10 * 1024 * 1024
# The threads that reach the database for both servers, each with its own connection: this bounds the
# mail server's connections (deploy/README.md counts them). Left to asyncio, every server's loop
# would start up to min(32, cores + 4) threads, each keeping a connection that is never checked.
DATABASE_THREADS = 2
_database_threads = ThreadPoolExecutor(max_workers=DATABASE_THREADS, thread_name_prefix="mail-database")


def _as_one_request(function):
    """Wrap ``function`` to run as a request does: connections past their age or broken are replaced first
    and closed after (``CONN_MAX_AGE``, ``CONN_HEALTH_CHECKS``), and the log of queries DEBUG keeps is emptied,
    as Django's request signals do for pages. Without a request to empty it, that log kept every statement of
    every message (each outgoing one whole, picture included) under ``make run``, up to 9,000 a connection."""

    def run(*args):
        reset_queries()
        close_old_connections()
        try:
            return function(*args)
        finally:
            close_old_connections()
            reset_queries()

    return run


async def _in_database_thread(function, *args):
    """Run a database call on one of the mail server's database threads."""
    return await sync_to_async(_as_one_request(function), thread_sensitive=False, executor=_database_threads)(*args)


class InboundHandler:
    """Accept replies to game addresses (and to a group's news) and hand them to a Celery task."""

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        try:
            read_any_reply_address(address)
        except ExpiredToken:
            await _count_drop(InboundDropReason.EXPIRED_ADDRESS)
            return "550 5.1.1 This reply address has expired: reply to your latest game email or use the game page"
        except BadToken:
            await _count_drop(InboundDropReason.FORGED_ADDRESS if is_reply_address(address)
                              else InboundDropReason.NO_REPLY_ADDRESS)
            return "550 5.1.1 No such mailbox: reply to a game email's address"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        from turnbased.mail.tasks import enqueue_inbound

        try:
            await _in_database_thread(
                enqueue_inbound, bytes(envelope.original_content or envelope.content), list(envelope.rcpt_tos)
            )
        except Exception:
            logger.exception("could not queue an inbound message")
            return "451 4.3.0 Try again later"
        return "250 Message accepted for delivery"


async def _count_drop(reason: str) -> None:
    """Count a refused recipient like a dropped message; counting must never break the SMTP session."""
    from turnbased.mail.verifying import count_drop

    try:
        await _in_database_thread(count_drop, reason)
    except Exception:
        logger.exception("could not count a refused recipient")


def _store_local_message(raw: bytes, sender: str, recipients: list[str]) -> None:
    """Keep a message for the mailbox page, its text as it reads: a part in UTF-7 may decode to a lone surrogate,
    which PostgreSQL cannot store (``text_input.readable``)."""
    from turnbased.mail.models import LocalMessage

    message = message_from_bytes(raw, policy=policy.default)
    plain = message.get_body(preferencelist=("plain",))
    html = message.get_body(preferencelist=("html",))
    reply_to = [address for _, address in getaddresses([str(v) for v in message.get_all("Reply-To", [])])]
    LocalMessage.objects.create(**readable({
        "sender": sender,
        "recipients": recipients,
        "subject": str(message.get("Subject", ""))[:255],
        "text": _text_of(plain),
        "html": _text_of(html),
        "reply_to": (reply_to[0] if reply_to else "")[:254],
        "message_id": str(message.get("Message-ID", ""))[:255],
        "headers": {key: str(value) for key, value in message.items()},
    }))


def _text_of(part) -> str:
    """Return a body part's text, in its charset, or as UTF-8 where Python knows no such charset."""
    if part is None:
        return ""
    try:
        return part.get_content()
    except LookupError:
        return (part.get_payload(decode=True) or b"").decode("utf-8", "replace")


class SinkHandler:
    """Keep every outgoing message in the database instead of delivering it."""

    async def handle_DATA(self, server, session, envelope):
        try:
            await _in_database_thread(
                _store_local_message, bytes(envelope.original_content or envelope.content), envelope.mail_from,
                list(envelope.rcpt_tos),
            )
        except Exception:
            logger.exception("could not store a message in the local mailbox")
            return "451 4.3.0 Try again later"
        return "250 Message kept in the local mailbox"


def start_server(handler, host: str, port: int) -> Controller:
    """Start an SMTP server in a background thread and return its controller (call ``stop()``)."""
    size_limit = SINK_SIZE_LIMIT if isinstance(handler, SinkHandler) else settings.MAIL_INBOUND_MAX_BYTES
    controller = Controller(handler, hostname=host, port=port, data_size_limit=size_limit)
    controller.start()
    return controller
