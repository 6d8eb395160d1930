"""Cheap limits on inbound mail, checked before the full MIME parse.

Python's email parser builds an object for every part: a 600 KB message of
20,000 tiny parts cost seconds, and a few thousand nested parts exhaust the
recursion limit. So a reply is measured first from its raw bytes, in linear
time and without the parser: its size, an upper bound on its parts (every
part starts on a line beginning with ``--``), and an upper bound on its
nesting (every level is a ``multipart/*`` or ``message/*`` header). Only a
message within all three limits is parsed; ``parsed_refusal`` then checks the
parts and the length of every header field before anything reads them.
"""

from __future__ import annotations

import re
from email.message import Message

from django.conf import settings

# The top-level header block read to find the reply address and the sender; real replies use a few KB.
MAX_HEADER_BYTES = 128 * 1024
# One header field, unfolded: the longest real ones (Autocrypt keys, Microsoft's anti-spam notes) are a few KB.
MAX_HEADER_FIELD_CHARS = 16 * 1024

TOO_LARGE = "too large"
TOO_COMPLEX = "too complex"

_DELIMITER_LINE = re.compile(rb"^--", re.MULTILINE)
# A header that opens a level of nesting; \s spans folded lines, as the parser unfolds them.
_CONTAINER_HEADER = re.compile(rb"^content-type[ \t]*:\s*(?:multipart|message)\s*/", re.MULTILINE | re.IGNORECASE)


def _unified_lines(data: bytes) -> bytes:
    """Return ``data`` with every line ending as LF: the parser splits lines on CR, LF and CRLF alike,
    so must every count here, or bare CRs would hide parts from it."""
    return data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")


def header_block(raw: bytes) -> bytes:
    """Return the top-level header block (from at most ``MAX_HEADER_BYTES``), without reading the body."""
    window = _unified_lines(raw[:MAX_HEADER_BYTES])
    end = window.find(b"\n\n")
    if end >= 0:
        return window[: end + 1] + b"\n"
    # No end of headers in the window: keep whole lines only, so no header is cut in half.
    return window[: window.rfind(b"\n") + 1] if len(raw) > MAX_HEADER_BYTES else window


def raw_refusal(raw: bytes) -> str | None:
    """Return why ``raw`` is refused before parsing (``TOO_LARGE`` or ``TOO_COMPLEX``), or None."""
    if len(raw) > settings.MAIL_INBOUND_MAX_BYTES:
        return TOO_LARGE
    lines = _unified_lines(raw)
    if len(lines) > MAX_HEADER_BYTES and lines.find(b"\n\n", 0, MAX_HEADER_BYTES) < 0:
        return TOO_COMPLEX
    if _count_at_most(_DELIMITER_LINE, lines, settings.MAIL_INBOUND_MAX_PARTS) > settings.MAIL_INBOUND_MAX_PARTS:
        return TOO_COMPLEX
    if _count_at_most(_CONTAINER_HEADER, lines, settings.MAIL_INBOUND_MAX_CONTAINERS) > \
            settings.MAIL_INBOUND_MAX_CONTAINERS:
        return TOO_COMPLEX
    return None


def _count_at_most(pattern: re.Pattern, data: bytes, limit: int) -> int:
    """Count matches of ``pattern`` in ``data``, stopping once there are more than ``limit``."""
    count = 0
    for _ in pattern.finditer(data):
        count += 1
        if count > limit:
            break
    return count


def parsed_refusal(message: Message) -> str | None:
    """Apply the limits to a parsed message (a provider's webhook parses it first), without serializing it.

    Also refuses a header field longer than ``MAX_HEADER_FIELD_CHARS``: the
    email package's header parsers are slow on long fields (and the default
    policy's far slower), so no long field is left for anything to parse.
    """
    size = parts = containers = 0
    for part in message.walk():  # a generator: stops early on a message of thousands of parts
        parts += 1
        for name, value in part.raw_items():  # the stored values: nothing is parsed here
            length = len(str(value))
            if length > MAX_HEADER_FIELD_CHARS:
                return TOO_COMPLEX
            size += length + len(name) + 4
        if part.is_multipart():
            containers += 1
        else:
            payload = part.get_payload()
            size += len(payload) if isinstance(payload, str | bytes) else 0
        if parts > settings.MAIL_INBOUND_MAX_PARTS or containers > settings.MAIL_INBOUND_MAX_CONTAINERS:
            return TOO_COMPLEX
        if size > settings.MAIL_INBOUND_MAX_BYTES:
            return TOO_LARGE
    return None


def headers_of(message: Message) -> bytes:
    """Serialize only the top-level headers of a parsed message (what a refused message still needs)."""
    lines = []
    for name, value in message.raw_items():
        text = re.sub(r"[\r\n]+(?![ \t])", " ", str(value))  # a stray line break must not start a new header
        lines.append(f"{name}: {text}\r\n".encode("utf-8", "surrogateescape"))
    return b"".join(lines) + b"\r\n"
