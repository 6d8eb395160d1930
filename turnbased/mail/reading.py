"""Read an email reply: its headers first, and its body only once the sender is known to be the player.

The two reads are apart because a reply is handled cheapest first. The headers (the Message-ID, the From, the
Subject and the reply address, found in the envelope or the headers) are all that ``verifying`` needs, and
reading them never touches the body, so forged or abusive mail costs little. The body is read only for a
verified player, and only within the limits (``inbound_limits``): its size and MIME structure are measured on
the raw bytes, and a reply over them is never parsed. Within them it is parsed once, with header values kept as
plain strings (``compat32``), and its first line of new text (``reply_text``) read as a command (``commands``),
in the player's language and in English: the caller reads it in that language.
"""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass
from email import message_from_bytes
from email.header import decode_header, make_header
from email.parser import BytesHeaderParser
from email.policy import compat32
from email.utils import getaddresses

from django.utils import translation

from turnbased.mail import commands, inbound_limits
from turnbased.mail.reply_text import body_text, first_command, said_text
from turnbased.mail.tokens import find_reply_addresses

logger = logging.getLogger(__name__)

# A From header of a real person is short; a longer one is not worth parsing.
MAX_FROM_CHARS = 1000


@dataclass
class Headers:
    """What the top-level headers (and the envelope) say about one inbound message."""

    message_id: str
    sender: str
    recipient: str
    subject: str


@dataclass(frozen=True)
class Request:
    """What a player's reply asks for, as read from its body.

    ``refusal`` (``inbound_limits.TOO_LARGE`` or ``TOO_COMPLEX``) says the body was over the limits and not
    read: nothing else is set. Else ``line`` is the first line of new text, ``command`` what it asks
    (``commands.SHOW``, ``HELP``, ``RESIGN``, ``SAY``, or None for a move in the game's notation), and ``said``
    what a ``say`` writes to the table talk (a ``note`` to the notes): the new text after its words and colon.
    """

    refusal: str | None = None
    line: str = ""
    command: str | None = None
    said: str = ""


def _clean(value) -> str:
    """Return header or body text safe to store: a string without NUL or other control characters."""
    return "".join(ch for ch in str(value or "") if ch.isprintable() or ch == " ").strip()


def read_headers(raw: bytes, envelope_recipients: list[str] | None = None) -> Headers:
    """Read the headers of a raw message (it may be garbled) without its body; never raises.

    Headers stay plain strings (``compat32``), and each one read is bounded:
    the reply address is found by its pattern, not by parsing address lists.
    """
    digest = f"<sha256-{hashlib.sha256(raw).hexdigest()[:40]}>"
    candidates = [address for address in envelope_recipients or [] if find_reply_addresses(address)]
    try:
        message = BytesHeaderParser(policy=compat32).parsebytes(inbound_limits.header_block(raw))
        message_id = _clean(str(message.get("Message-ID", ""))[:1000])[:200] or digest
        sender = _single_address(message.get_all("From", []))
        subject = _clean(_decoded_header(str(message.get("Subject", ""))[:1000]))[:200]
        for header in ("Delivered-To", "X-Original-To", "To", "Cc"):
            for value in message.get_all(header, []):
                candidates += find_reply_addresses(str(value))
    except Exception:  # garbled headers: the envelope may still say where it went
        logger.info("could not read the headers of inbound message %s", digest, exc_info=True)
        message_id, sender, subject = digest, "", ""
    return Headers(message_id=message_id, sender=sender, recipient=candidates[0] if candidates else "",
                   subject=subject)


def _single_address(values: list) -> str:
    """Return the one address of the From header(s), or "" when there are none or several."""
    text = ", ".join(str(value) for value in values)
    if not text or len(text) > MAX_FROM_CHARS:
        return ""
    addresses = getaddresses([text])
    return _clean(addresses[0][1]) if len(addresses) == 1 else ""


def _decoded_header(value: str) -> str:
    try:
        return str(make_header(decode_header(value)))
    except (ValueError, LookupError, UnicodeError):  # a malformed or unknown encoding: keep it as written
        return value


def read_request(raw: bytes, message_id: str, refusal: str | None = None) -> Request:
    """Read what the reply asks for, within the limits; never raises.

    ``refusal`` is the provider webhook's, which measured the message before it was queued (``raw`` is then
    its headers alone). A reply the parser gives up on is too complex: the player is still answered.
    """
    refusal = refusal or inbound_limits.raw_refusal(raw)
    if refusal is None:
        # Within the limits the full parse takes milliseconds; a few more limits need the parsed parts.
        try:
            message = message_from_bytes(raw, policy=compat32)
            refusal = inbound_limits.parsed_refusal(message)
        except Exception:  # the parser gives up on very little, but a player's garbled reply still gets an answer
            logger.info("could not parse inbound message %s", message_id, exc_info=True)
            refusal = inbound_limits.TOO_COMPLEX
    if refusal:
        return Request(refusal=refusal)
    text = _written_text(message)
    line = _clean(first_command(text))
    command = commands.read(line, translation.get_language())
    return Request(line=line, command=command,
                   said=said_text(text, translation.get_language()) if command in commands.LEADING else "")


def _written_text(message) -> str:
    """Return the text the sender wrote, or "" when the body cannot be read (it has no move in it then)."""
    try:
        return body_text(message)
    except Exception:  # a body we cannot read has no move in it; the player is told so
        logger.info("could not read the body of an inbound message", exc_info=True)
        return ""
