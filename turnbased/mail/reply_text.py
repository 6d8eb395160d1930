"""Find the command in a reply: the first line of new text, above the quoted history and the signature.

Every step is linear in the size of the reply. The message is parsed with the
``compat32`` policy, whose headers stay plain strings: the default policy
parses each MIME header it is asked for, at tens of microseconds a byte, so a
reply of a hundred parts with long parameter lists would cost seconds. HTML
goes through lxml (libxml2): the standard library's ``HTMLParser`` is
quadratic on inputs such as ``<a<a<a...`` (64 KB of it takes seconds).
"""

from __future__ import annotations

import re
from email.message import Message

from lxml import etree
from lxml import html as lxml_html

from turnbased.kit.texts.text_input import readable
from turnbased.mail import commands

MAX_COMMAND_LENGTH = 200
# The command is at the top: no more of the text is searched (nor of one line, so no pattern backtracks far).
MAX_TEXT_CHARS = 64 * 1024
MAX_LINE_CHARS = 1000

# The lines mail clients put above the quoted email, in the languages players write in (whatever the site's
# language, a player's mail client words them in its own): English, French, German, Hungarian.
_QUOTE_HEADERS = [
    re.compile(r"^on .+wrote:\s*$", re.IGNORECASE),
    re.compile(r"^-+\s*(original message|ursprüngliche nachricht|eredeti üzenet)\s*-+$", re.IGNORECASE),
    re.compile(r"^_{10,}$"),
    re.compile(r"^(from|sent|to|subject|date):\s.+$", re.IGNORECASE),
    re.compile(r"^(von|gesendet|an|betreff|datum):\s.+$", re.IGNORECASE),
    re.compile(r"^(feladó|elküldve|címzett|tárgy|dátum):\s.+$", re.IGNORECASE),
    re.compile(r"^le .+a écrit\s*:\s*$", re.IGNORECASE),
    re.compile(r"^am .+schrieb .+:\s*$", re.IGNORECASE),
    re.compile(r"^.+ ezt írta\b.*:\s*$", re.IGNORECASE),
]
_SIGNATURE = re.compile(
    r"^(--|—|sent from my .+|get outlook for .+|von meinem .+ gesendet|gesendet von .+|.+ról küldve|.+ről küldve)\s*$",
    re.IGNORECASE,
)

_HIDDEN = "//style|//script|//head|//title|//blockquote|//*[contains(@class, 'quote')]"
_BLOCKS = {"p", "div", "br", "li", "tr", "h1", "h2", "h3", "pre"}


def html_to_text(html: str) -> str:
    """Return the visible text of an HTML body, a line per block, leaving out quoted parts."""
    try:
        # Bytes with a stated encoding: lxml refuses a str that carries its own XML encoding declaration.
        root = lxml_html.document_fromstring(html.encode("utf-8", "replace"),
                                             parser=lxml_html.HTMLParser(encoding="utf-8"))
    except (etree.ParserError, ValueError):  # empty or not HTML at all
        return ""
    for element in root.xpath(_HIDDEN):
        element.drop_tree()
    for element in root.iter(*_BLOCKS):
        element.text = "\n" + (element.text or "")
        element.tail = "\n" + (element.tail or "")
    return root.text_content()


def body_text(message: Message) -> str:
    """Return the text the sender wrote: the first inline text/plain part, else the HTML one as text."""
    plain = _first_text_part(message, "plain")
    if plain is not None:
        return _decoded(plain)
    html = _first_text_part(message, "html")
    return html_to_text(_decoded(html)) if html is not None else ""


def _first_text_part(part: Message, subtype: str) -> Message | None:
    """Find the body part as ``EmailMessage.get_body`` would: depth first, past attachments and attached mail."""
    if str(part.get("Content-Disposition", "")).split(";")[0].strip().lower() == "attachment":
        return None
    maintype, _, found_subtype = part.get_content_type().partition("/")
    if maintype == "text":
        return part if found_subtype == subtype else None
    if maintype != "multipart" or not part.is_multipart():
        return None
    for subpart in part.get_payload():
        found = _first_text_part(subpart, subtype)
        if found is not None:
            return found
    return None


def _decoded(part: Message) -> str:
    """Return a part's text: what does not decode in its charset, or decodes to a lone surrogate (UTF-7 can
    write one), is a U+FFFD, so the reply is still read and answered, and never breaks what stores it."""
    payload = part.get_payload(decode=True) or b""
    try:
        return readable(payload.decode(part.get_content_charset() or "utf-8", "replace"))
    except LookupError:  # a charset Python does not know
        return payload.decode("utf-8", "replace")


def new_text(text: str) -> str:
    """Return the new text of a reply: its lines above the quoted history and the signature, blanks trimmed."""
    lines = []
    for raw in text[:MAX_TEXT_CHARS].replace("\r\n", "\n").split("\n"):
        line = raw[:MAX_LINE_CHARS].rstrip().replace("\u00a0", " ")
        stripped = line.strip()
        if stripped.startswith(">") or any(pattern.match(stripped) for pattern in _QUOTE_HEADERS) \
                or _SIGNATURE.match(stripped):
            break
        lines.append(line)
    return "\n".join(lines).strip()


def said_text(text: str, language: str | None) -> str:
    """Return what a reply whose first line starts with ``say`` or ``note`` (in the player's ``language`` or
    English: ``commands``) writes: the new text after the command's words and the colon that may close them."""
    return commands.said(new_text(text), language)


def first_command(text: str) -> str:
    """Return the first line of new text: above the quoted history and the signature."""
    for raw in text[:MAX_TEXT_CHARS].replace("\r\n", "\n").split("\n"):
        line = raw[:MAX_LINE_CHARS].strip().replace("\u00a0", " ")
        if line.startswith(">") or any(pattern.match(line) for pattern in _QUOTE_HEADERS) or _SIGNATURE.match(line):
            return ""
        if line:
            return re.sub(r"\s+", " ", line)[: MAX_COMMAND_LENGTH + 1]
    return ""
