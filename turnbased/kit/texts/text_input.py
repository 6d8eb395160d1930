"""Tell text from what only looks like it, in whatever a request or an email brings in (issue 42).

Two kinds of input look like strings and are not text:

- bytes that do not decode in their encoding (UTF-8, unless a request declares another charset): a
  percent-encoded query string or form (``%FF``, ``%C3`` cut short, ``%ED%A0%80``, an overlong ``%C0%AF``),
  a header's raw bytes, a multipart form's field. Django decodes these leniently, each bad byte
  a U+FFFD, so a view would act on text the client never wrote;
- a lone surrogate (U+D800 to U+DFFF), which JSON writes as an escape (``"\\ud800"``, or a low ``"\\udc00"``
  with no high one before it) and which Python's ``json``, a UTF-7 charset or the ``email`` package hand on
  as a string. Nothing can encode it as UTF-8 afterwards: PostgreSQL, a template, the answer that echoes
  it back ("... is not a valid choice") all fail, a server error.

The request guards (``request_guards``) refuse such a request with a 400 before anything reads it, naming
where the bad text is; this module only finds it, worded in the active language. Email cannot be refused
that way (its sender is a person who never wrote the bytes their mail client sent): ``readable`` replaces
what is not text with U+FFFD, so a reply is still read and answered.
"""

from __future__ import annotations

import codecs
import json
import re
from email.message import Message
from email.parser import BytesParser
from email.policy import compat32
from email.utils import collapse_rfc2231_value
from urllib.parse import quote, unquote_to_bytes

from django.utils.translation import gettext as _

_SURROGATE = re.compile("[\ud800-\udfff]")
# A JSON escape of a surrogate (paired or not): the only way a JSON body can bring in a lone one.
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89abcdefABCDEF]")
REPLACEMENT = "\ufffd"
# Encodings in which a string of ASCII bytes is that same text: the common case needs no decoding.
_ASCII_SUPERSETS = {"utf-8", "iso8859-1", "cp1252", "ascii"}
# Where a refusal quotes what was sent, it quotes this much of it (a query string may be kilobytes long).
QUOTED_CHARS = 60


class InvalidText(ValueError):
    """A request holds a string that is not valid text; the message says where, for a person to read."""


def is_text(value: str) -> bool:
    """Tell whether ``value`` holds no lone surrogate, so that UTF-8 (and PostgreSQL) can carry it."""
    return value.isascii() or _SURROGATE.search(value) is None


def readable(value):
    """Return ``value`` (a string, or lists and dicts of them) with every lone surrogate made a U+FFFD."""
    if isinstance(value, str):
        return value if is_text(value) else _SURROGATE.sub(REPLACEMENT, value)
    if isinstance(value, list):
        return [readable(item) for item in value]
    if isinstance(value, dict):
        return {readable(key): readable(item) for key, item in value.items()}
    return value


def _decodes(data: bytes, encoding: str) -> bool:
    """Tell whether ``data`` decodes in ``encoding`` to text (a UTF-7 or escape codec may yield a lone surrogate)."""
    if data.isascii() and codecs.lookup(encoding).name in _ASCII_SUPERSETS:
        return True
    try:
        return is_text(data.decode(encoding))
    except UnicodeDecodeError:
        return False


def _shown(data: bytes) -> str:
    """Return bytes as a client would write them in an address: ASCII, the rest percent-encoded, cut short."""
    shown = quote(data, safe="!#$&'()*+,/:;=?@[]~%")
    return shown if len(shown) <= QUOTED_CHARS else shown[:QUOTED_CHARS] + "…"


def _encoding_name(encoding: str) -> str:
    return codecs.lookup(encoding).name.upper()


def check_json(value) -> None:
    """Raise ``InvalidText`` naming the first string of a parsed JSON value (member names too) that is not text.

    The place is written as the API's errors name a field: ``time_control.kind``, ``kinds.0``.
    """
    stack = [(value, "")]
    while stack:
        item, place = stack.pop()
        if isinstance(item, str):
            if not is_text(item):
                raise InvalidText(_at(place, _("the text holds a lone surrogate (%(code)s), which no UTF-8 text can "
                                               "hold: write a character beyond U+FFFF as a pair of surrogates.")
                                      % {"code": _first_surrogate(item)}))
        elif isinstance(item, dict):
            for key, child in item.items():
                if not is_text(key):
                    raise InvalidText(_at(place, _("a member's name holds a lone surrogate (%(code)s), which no "
                                                   "UTF-8 text can hold.") % {"code": _first_surrogate(key)}))
                stack.append((child, f"{place}.{key}" if place else key))
        elif isinstance(item, list):
            stack.extend((child, f"{place}.{index}" if place else str(index)) for index, child in enumerate(item))


def _at(place: str, problem: str) -> str:
    return f"{place}: {problem}" if place else problem


def _first_surrogate(value: str) -> str:
    return f"U+{ord(_SURROGATE.search(value).group()):04X}"


def surrogate_escapes_problem(body: bytes) -> str | None:
    """Return why a JSON body holds a string that is not text, or None (also when it is not JSON at all).

    For bodies that someone else's parser reads (a mail provider's webhook, read by django-anymail): a lone
    surrogate can only come from an escape, so a body without one is not parsed here.
    """
    if _SURROGATE_ESCAPE.search(body) is None:
        return None
    try:
        check_json(json.loads(body))
    except InvalidText as error:
        return str(error)
    except (ValueError, RecursionError):  # not JSON: its reader refuses it as it refuses any other
        return None
    return None


def _undecodable_field(encoded: bytes, encoding: str) -> bytes | None:
    """Return the first ``name=value`` field of a query string or form that does not decode, or None."""
    if encoded.isascii() and b"%" not in encoded and codecs.lookup(encoding).name in _ASCII_SUPERSETS:
        return None  # the common case: nothing escaped, nothing to decode
    for field in encoded.split(b"&"):  # as Django splits them
        for part in field.split(b"=", 1):
            if not _decodes(unquote_to_bytes(part.replace(b"+", b" ")), encoding):
                return field
    return None


def query_problem(query: bytes, encoding: str = "utf-8") -> str | None:
    """Return why a raw query string is not text in ``encoding`` once percent-decoded, or None."""
    field = _undecodable_field(query, encoding)
    if field is None:
        return None
    return _("The query string is not valid text: \"%(field)s\" is not %(encoding)s once its percent-escapes are "
             "decoded.") % {"field": _shown(field), "encoding": _encoding_name(encoding)}


def form_problem(body: bytes, declared_charset: str | None = None) -> str | None:
    """Return why an ``application/x-www-form-urlencoded`` body is not UTF-8 text, or None.

    Such a form is UTF-8 whatever charset it declares (RFC 1866); Django refuses to read one that declares
    another, so it is refused here, with the reason, as well.
    """
    if declared_charset is not None and declared_charset.lower() != "utf-8":  # as Django compares it
        return _("The form declares the charset %(charset)s, but a form is read as UTF-8 only.") % {
            "charset": declared_charset}
    field = _undecodable_field(body, "utf-8")
    if field is None:
        return None
    return _("The form is not valid text: \"%(field)s\" is not %(encoding)s once its percent-escapes are "
             "decoded.") % {"field": _shown(field), "encoding": "UTF-8"}


def multipart_problem(body: bytes, content_type: bytes, encoding: str = "utf-8") -> str | None:
    """Return why a ``multipart/form-data`` body holds a field name, file name or field that is not text, or None.

    Read as Django reads it: each part's headers as UTF-8 (an RFC 2231 name in its own charset), each field's
    value in the request's encoding; a file's content is not text, and is not read.
    """
    message = BytesParser(policy=compat32).parsebytes(b"Content-Type: " + content_type + b"\r\n\r\n" + body)
    if not message.is_multipart():
        return None  # no parts, for Django either
    for part in message.get_payload():
        if not isinstance(part, Message):
            continue
        headers = b"".join(f"{name}: {value}\r\n".encode("utf-8", "surrogateescape") for name, value in part.raw_items())
        if not _decodes(headers, "utf-8") or not _rfc2231_is_text(part):
            return _("The form is not valid text: a field's name or file name is not UTF-8.")
        name = part.get_param("name", header="content-disposition")
        if part.get_param("filename", header="content-disposition") is None and \
                not _decodes(part.get_payload(decode=True) or b"", encoding):
            return _("The form is not valid text: the field \"%(name)s\" is not %(encoding)s.") % {
                "name": collapse_rfc2231_value(name or ""), "encoding": _encoding_name(encoding)}
    return None


def _rfc2231_is_text(part: Message) -> bool:
    """Tell whether the part's name and file name, where RFC 2231 writes them in a charset, decode in it."""
    for parameter in ("name", "filename"):
        value = part.get_param(parameter, header="content-disposition")
        if isinstance(value, tuple):  # (charset, language, percent-decoded bytes as Latin-1)
            try:
                if not is_text(collapse_rfc2231_value(value, errors="strict")):
                    return False
            except UnicodeDecodeError:
                return False
    return True


def header_problem(name: str, value: bytes) -> str | None:
    """Return why a header's raw value is not UTF-8 text, or None."""
    if _decodes(value, "utf-8"):
        return None
    return _("The header %(name)s is not valid text: its value is not UTF-8.") % {"name": name}
