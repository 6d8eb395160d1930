"""Replies by email: read the move out of a reply, make it, and always answer.

The reply address carries a signed token bound to (user, game, seq); the
sender must be that user's address; the first line of new text is the
command: a move in the game's notation, ``show``, ``help`` or ``resign``.
"""

from __future__ import annotations

import hashlib
import logging
import re
from dataclasses import dataclass
from email import message_from_bytes, policy
from email.message import EmailMessage
from email.utils import getaddresses, parseaddr
from html.parser import HTMLParser

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction

from turnbased.mail import compose
from turnbased.mail.models import InboundEmail, InboundStatus
from turnbased.mail.tokens import BadToken, ExpiredToken, is_reply_address, read_reply_address
from turnbased.play import services
from turnbased.play.errors import Conflict, GameNotFound, IllegalMoveError, NotAllowed, PlayError, StaleSequence
from turnbased.play.models import Game, MoveSource

logger = logging.getLogger(__name__)

MAX_MESSAGE_BYTES = 512 * 1024
MAX_COMMAND_LENGTH = 200

_QUOTE_HEADERS = [
    re.compile(r"^on .+wrote:\s*$", re.IGNORECASE),
    re.compile(r"^-+\s*original message\s*-+$", re.IGNORECASE),
    re.compile(r"^_{10,}$"),
    re.compile(r"^(from|sent|to|subject|date):\s.+$", re.IGNORECASE),
    re.compile(r"^le .+a écrit\s*:\s*$", re.IGNORECASE),
    re.compile(r"^am .+schrieb .+:\s*$", re.IGNORECASE),
]
_SIGNATURE = re.compile(r"^(--|—|sent from my .+|get outlook for .+)\s*$", re.IGNORECASE)


class _TextOfHtml(HTMLParser):
    """Collect the visible text of an HTML body, a line per block, leaving out quoted parts."""

    BLOCKS = {"p", "div", "br", "li", "tr", "h1", "h2", "h3", "pre"}
    HIDDEN = {"style", "script", "head", "title", "blockquote"}
    VOID = {"br", "img", "hr", "meta", "input", "link", "wbr"}

    def __init__(self):
        super().__init__()
        self.parts: list[str] = []
        self.hidden_depth = 0

    def handle_starttag(self, tag, attrs):
        if self.hidden_depth:
            self.hidden_depth += 0 if tag in self.VOID else 1
        elif tag in self.HIDDEN or "quote" in (dict(attrs).get("class") or ""):
            self.hidden_depth = 1
        elif tag in self.BLOCKS:
            self.parts.append("\n")

    def handle_endtag(self, tag):
        if self.hidden_depth:
            self.hidden_depth -= 1
        elif tag in self.BLOCKS:
            self.parts.append("\n")

    def handle_data(self, data):
        if not self.hidden_depth:
            self.parts.append(data)

    def text(self) -> str:
        return "".join(self.parts)


def html_to_text(html: str) -> str:
    parser = _TextOfHtml()
    parser.feed(html)
    return parser.text()


def new_text(message: EmailMessage) -> str:
    """Return the body text the sender wrote: the plain part, or the HTML part as text."""
    plain = message.get_body(preferencelist=("plain",))
    if plain is not None:
        return plain.get_content()
    html = message.get_body(preferencelist=("html",))
    if html is not None:
        return html_to_text(html.get_content())
    return ""


def first_command(text: str) -> str:
    """Return the first line of new text: above the quoted history and the signature."""
    for raw in text.replace("\r\n", "\n").split("\n"):
        line = raw.strip().replace("\u00a0", " ")
        if line.startswith(">") or any(pattern.match(line) for pattern in _QUOTE_HEADERS) or _SIGNATURE.match(line):
            return ""
        if line:
            return re.sub(r"\s+", " ", line)[: MAX_COMMAND_LENGTH + 1]
    return ""


def _clean(value) -> str:
    """Return header or body text safe to store: a string without NUL or other control characters."""
    return "".join(ch for ch in str(value or "") if ch.isprintable() or ch == " ").strip()


@dataclass
class Reply:
    """What we could read of one inbound message."""

    message_id: str
    sender: str
    recipient: str
    subject: str
    command: str
    oversized: bool = False


def read_reply(raw: bytes, envelope_recipients: list[str] | None = None) -> Reply:
    """Parse a raw message (it may be garbled) into a ``Reply``; never raises for bad input."""
    digest = hashlib.sha256(raw).hexdigest()[:40]
    oversized = len(raw) > MAX_MESSAGE_BYTES
    try:
        message = message_from_bytes(raw[: MAX_MESSAGE_BYTES * 2], policy=policy.default)
        message_id = _clean(message.get("Message-ID", ""))[:200] or f"<sha256-{digest}>"
        sender = _clean(parseaddr(_clean(message.get("From", "")))[1])
        subject = _clean(message.get("Subject", ""))[:200]
        candidates = list(envelope_recipients or [])
        for header in ("Delivered-To", "X-Original-To", "To", "Cc"):
            candidates += [address for _, address in getaddresses([str(v) for v in message.get_all(header, [])])]
        recipient = next((address for address in candidates if is_reply_address(address)), "")
        command = "" if oversized else _clean(first_command(new_text(message)))
    except Exception:  # a garbled message still gets an answer if we can find who sent it
        logger.info("could not parse inbound message %s", digest, exc_info=True)
        return Reply(message_id=f"<sha256-{digest}>", sender="", recipient="", subject="", command="")
    return Reply(message_id=message_id, sender=sender, recipient=recipient, subject=subject, command=command,
                 oversized=oversized)


def handle_inbound(raw: bytes, envelope_recipients: list[str] | None = None) -> str:
    """Process one reply end to end and send the answer; return a short outcome for logs.

    A message seen before (same Message-ID) is ignored, so a redelivered
    email never plays twice or answers twice.
    """
    reply = read_reply(raw, envelope_recipients)
    try:
        with transaction.atomic():
            record = InboundEmail.objects.create(
                message_id=reply.message_id, sender=reply.sender[:254], recipient=reply.recipient[:254],
                subject=reply.subject, command=reply.command[:MAX_COMMAND_LENGTH],
            )
    except IntegrityError:
        return "duplicate"
    status, outcome = _answer(reply)
    record.status = status
    record.outcome = outcome
    record.save(update_fields=["status", "outcome"])
    return outcome


def _answer(reply: Reply) -> tuple[str, str]:
    """Do what the reply asks and email the answer; return (status, outcome)."""
    if not reply.sender:
        return InboundStatus.REJECTED, "no sender address: nobody to answer"

    def answer(heading: str, detail: str = "", *, game=None, user=None):
        compose.answer_email(
            to=reply.sender, subject=reply.subject, heading=heading, detail=detail,
            original_message_id=reply.message_id, game=game, user=user,
        ).send()

    try:
        token = read_reply_address(reply.recipient)
    except ExpiredToken:
        answer("This reply address has expired.",
               "Replies are accepted for a limited time. Open the game page, or reply to your latest turn email.")
        return InboundStatus.REJECTED, "expired token"
    except BadToken:
        answer("This email was not sent to a valid game address, so nothing was played.",
               "Reply to a turn email from turnbased without changing its reply address.")
        return InboundStatus.REJECTED, "forged or missing token"

    user = get_user_model().objects.filter(pk=token.user_id).first()
    game = Game.objects.filter(pk=token.game_id).first()
    if user is None or game is None or not game.seats.filter(user=user).exists():
        answer("This email was not sent to a valid game address, so nothing was played.")
        return InboundStatus.REJECTED, "token for no such player"
    if reply.sender.lower() != (user.email or "").lower():
        answer("Moves are only accepted from the address the turn email was sent to.",
               "Nothing was played. Reply from that address, or use the game page.")
        return InboundStatus.REJECTED, "sender does not own the token"
    if reply.oversized:
        answer("Your reply was too large to read, so nothing was played.",
               "Reply with just your move on the first line.", game=game, user=user)
        return InboundStatus.REJECTED, "oversized"

    command = reply.command
    word = command.lower().strip(" .!")
    if not command:
        answer("Your reply had no move in it, so nothing was played.",
               "Write your move on the first line of the reply, above the quoted email.", game=game, user=user)
        return InboundStatus.REJECTED, "empty"
    if len(command) > MAX_COMMAND_LENGTH:
        answer("That first line is too long to be a move, so nothing was played.", game=game, user=user)
        return InboundStatus.REJECTED, "too long"
    if word in ("show", "position", "board"):
        answer("Here is the game as it stands.", game=game, user=user)
        return InboundStatus.ANSWERED, "show"
    if word in ("help", "?"):
        answer("How to play by email.",
               "Reply to a turn email with your move on the first line. The list of moves in each turn email "
               "shows what you may play; \"show\" sends the position again; \"resign\" leaves the game.",
               game=game, user=user)
        return InboundStatus.ANSWERED, "help"
    if word == "resign":
        try:
            services.resign_game(game_id=game.pk, user=user, source=MoveSource.EMAIL)
        except PlayError as error:
            answer("You could not resign.", error.detail, game=_fresh(game), user=user)
            return InboundStatus.REJECTED, f"resign refused: {error.detail}"
        answer("You resigned.", game=_fresh(game), user=user)
        return InboundStatus.MOVED, "resigned"

    try:
        outcome = services.submit_move(
            game_id=game.pk, user=user, expected_seq=token.seq, text=command, source=MoveSource.EMAIL,
            idempotency_key=f"email:{hashlib.sha256(reply.message_id.encode()).hexdigest()[:40]}",
        )
    except StaleSequence:
        answer(f"Your move \"{command}\" was not played: the game has moved on since that email.",
               "Here is the game as it stands now.", game=_fresh(game), user=user)
        return InboundStatus.REJECTED, "stale"
    except IllegalMoveError as error:
        answer(f"\"{command}\" is not a move you can make now, so nothing was played.",
               error.detail, game=game, user=user)
        return InboundStatus.REJECTED, f"illegal: {error.detail}"
    except Conflict as error:
        answer(f"Your move \"{command}\" was not played: {error.detail}", game=_fresh(game), user=user)
        return InboundStatus.REJECTED, f"conflict: {error.detail}"
    except (GameNotFound, NotAllowed) as error:
        answer("Nothing was played.", error.detail)
        return InboundStatus.REJECTED, error.detail
    game = _fresh(game)
    answer(f"Your move \"{outcome.move.text}\" was played.",
           "" if game.status == "active" else "The game is over.", game=game, user=user)
    return InboundStatus.MOVED, f"played {outcome.move.text}"


def _fresh(game: Game) -> Game:
    return Game.objects.get(pk=game.pk)
