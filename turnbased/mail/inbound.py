"""Replies by email: check who sent them, read the move, make it, and answer the player.

The reply address carries a signed token bound to (user, game, seq); it is the
password of email play, since anyone can write any From header. A reply is
handled in stages, cheapest first, so that forged or abusive mail costs little
and is never answered:

1. Who: the reply address (envelope recipients first, then the headers, read
   without the body) is signed by us, not expired, and names a player seated
   in that game; the From address is that player's; and the provider's SPF and
   DKIM verdicts, when the reply came through its webhook, do not fail for the
   sender's domain. Anything else is logged, counted per day and reason
   (``InboundDrop``) and dropped: answering the From of forged mail would be
   backscatter.
2. The same message (Message-ID) delivered again is ignored. The row that
   says so, the move (or say, or resign) and the answer (an ``OutgoingEmail``)
   are written in one transaction: after any failure none of them is left, and
   the redelivered message is handled in full. The answer is sent once that
   transaction has committed, from the outbox, like every email.
3. Size and MIME structure, measured on the raw bytes (``inbound_limits``): a
   reply over the limits gets a short answer and is never parsed.
4. The full parse, with header values kept as plain strings: the first line of
   new text (``reply_text``) is the command, a move in the game's notation,
   ``show``, ``help``, ``resign``, or ``say ...`` (the new text after ``say``
   goes to the table talk; a reply without it never does, so a mistyped move is
   never said to the table). Every outcome is answered, to the player's own
   address.

Everything from the parse on happens in the player's language (``compose.for_recipient``): the
commands are read in it and in English (``commands``), the game reads the move in it
(and in English), and every answer is worded in it.
"""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass, field
from email import message_from_bytes
from email.header import decode_header, make_header
from email.parser import BytesHeaderParser
from email.policy import compat32
from email.utils import getaddresses

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from games.base import RESIGN, EngineError
from turnbased.accounts.models import is_bot_account
from turnbased.accounts.selectors import verified_email
from turnbased.chat import services as chat_services
from turnbased.chat.models import MessageSource
from turnbased.kit.errors import Conflict, GameNotFound, IllegalMoveError, NotAllowed, PlayError, StaleSequence
from turnbased.kit.http.limits import account_refusal
from turnbased.mail import commands, compose, inbound_limits, outbox, sender_auth
from turnbased.mail.models import EmailKind, InboundDrop, InboundDropReason, InboundEmail, InboundStatus
from turnbased.mail.reply_text import MAX_COMMAND_LENGTH, body_text, first_command, said_text
from turnbased.mail.tokens import BadToken, ExpiredToken, ReplyToken, find_reply_addresses, read_reply_address
from turnbased.play import services, store
from turnbased.play.models import Game, GameStatus, MoveSource

logger = logging.getLogger(__name__)


def _clean(value) -> str:
    """Return header or body text safe to store: a string without NUL or other control characters."""
    return "".join(ch for ch in str(value or "") if ch.isprintable() or ch == " ").strip()


@dataclass
class Headers:
    """What the top-level headers (and the envelope) say about one inbound message."""

    message_id: str
    sender: str
    recipient: str
    subject: str


# A From header of a real person is short; a longer one is not worth parsing.
MAX_FROM_CHARS = 1000


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


def read_command(message) -> str:
    """Return the first line of new text of a parsed message (within the limits)."""
    try:
        return _clean(first_command(body_text(message)))
    except Exception:  # a body we cannot read has no move in it; the player is told so
        logger.info("could not read the body of an inbound message", exc_info=True)
        return ""


class Dropped(Exception):
    """The message is not from a player of the game its address names: drop it unanswered."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


@dataclass
class Reply:
    """A message from a real player of the game its reply address names."""

    headers: Headers
    token: ReplyToken
    user: AbstractBaseUser
    game: Game
    # The duplicate-check row, and the answers written with it (sent once they are committed).
    record: InboundEmail | None = None
    answers: list[int] = field(default_factory=list)


def verify(headers: Headers, verdicts: list | None = None) -> Reply:
    """Check the reply address, the player, the sender and the provider's verdicts; raise ``Dropped``."""
    if not headers.recipient:
        raise Dropped(InboundDropReason.NO_REPLY_ADDRESS)
    try:
        token = read_reply_address(headers.recipient)
    except ExpiredToken:
        raise Dropped(InboundDropReason.EXPIRED_ADDRESS) from None
    except BadToken:
        raise Dropped(InboundDropReason.FORGED_ADDRESS) from None
    user = get_user_model().objects.filter(pk=token.user_id).first()
    game = Game.objects.filter(pk=token.game_id).first()
    if user is None or game is None or not game.seats.filter(user=user).exists():
        raise Dropped(InboundDropReason.UNKNOWN_PLAYER)
    if not is_players_address(user, headers.sender):
        raise Dropped(InboundDropReason.WRONG_SENDER)
    failure = sender_auth.authentication_failure(verdicts or [], headers.sender)
    if failure is not None:
        raise Dropped(failure)
    return Reply(headers=headers, token=token, user=user, game=game)


def is_players_address(user, sender: str) -> bool:
    """Tell whether ``sender`` is the player's verified address, the one their emails go to."""
    address = verified_email(user)
    return bool(sender) and address is not None and sender.lower() == address.lower()


def count_drop(reason: str) -> None:
    """Add one to today's count of messages dropped for ``reason``: one row per day and reason, never more."""
    day = timezone.now().date()
    rows = InboundDrop.objects.filter(day=day, reason=reason)
    if rows.update(count=F("count") + 1):
        return
    try:
        with transaction.atomic():
            InboundDrop.objects.create(day=day, reason=reason, count=1)
    except IntegrityError:  # another worker created today's row first
        rows.update(count=F("count") + 1)


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
    headers = read_headers(raw, envelope_recipients)
    try:
        reply = verify(headers, provider.get("verdicts"))
    except Dropped as drop:
        count_drop(drop.reason)
        # The address is not logged: a valid one from a wrong sender is a password.
        logger.info("dropped inbound message %s unanswered: %s", headers.message_id, drop.reason)
        return f"dropped: {drop.reason}", []
    # The player's language (and zone) for all that follows: the commands, the game's reading of the move, the answers.
    with compose.for_recipient(reply.user), transaction.atomic():
        try:
            with transaction.atomic():
                reply.record = InboundEmail.objects.create(
                    message_id=headers.message_id, sender=headers.sender[:254], recipient=headers.recipient[:254],
                    subject=headers.subject,
                )
        except IntegrityError:  # handled before; a concurrent delivery waits here until the first one commits
            return "duplicate", []
        outcome = _handle(reply, raw, provider)
    return outcome, list(reply.answers)


def _handle(reply: Reply, raw: bytes, provider: dict) -> str:
    """Read the message, do what it asks and write the answer, inside the transaction of its duplicate-check row."""
    record = reply.record
    refusal = provider.get("refusal") or inbound_limits.raw_refusal(raw)
    if refusal is None:
        # Within the limits the full parse takes milliseconds; a few more limits need the parsed parts.
        try:
            message = message_from_bytes(raw, policy=compat32)
            refusal = inbound_limits.parsed_refusal(message)
        except Exception:  # the parser gives up on very little, but a player's garbled reply still gets an answer
            logger.info("could not parse inbound message %s", record.message_id, exc_info=True)
            refusal = inbound_limits.TOO_COMPLEX
    if refusal:
        status, outcome = _refuse(reply, refusal)
    else:
        command = read_command(message)
        record.command = command[:MAX_COMMAND_LENGTH]
        status, outcome = _act(reply, command, message)
    record.status = status
    record.outcome = outcome
    record.save(update_fields=["command", "status", "outcome"])
    return outcome


def _answerer(reply: Reply):
    """Return a function that writes an answer to the player's own address, threaded under their reply."""

    def answer(heading: str, detail: str = "", *, game: Game | None = None, confirm_resign: bool = False):
        message = compose.answer_email(
            to=reply.user.email, subject=reply.headers.subject, heading=heading, detail=detail,
            original_message_id=reply.headers.message_id, game=game, user=reply.user,
            reply_to_current=confirm_resign,
        )
        reply.answers.append(outbox.put(message, kind=EmailKind.ANSWER, user=reply.user, inbound=reply.record).pk)

    return answer


def _refuse(reply: Reply, refusal: str) -> tuple[str, str]:
    heading = (_("Your reply was too large to read, so nothing was played.") if refusal == inbound_limits.TOO_LARGE
               else _("Your reply was too complex to read, so nothing was played."))
    limits = _("Replies may have at most %(size)s KB and %(parts)s parts. Reply with just your move on the first "
               "line.") % {"size": settings.MAIL_INBOUND_MAX_BYTES // 1024, "parts": settings.MAIL_INBOUND_MAX_PARTS}
    _answerer(reply)(heading, limits, game=_fresh(reply.game))
    return InboundStatus.REJECTED, refusal


def _act(reply: Reply, command: str, message) -> tuple[str, str]:
    """Do what the reply asks and email the answer; return (status, outcome)."""
    answer = _answerer(reply)
    game, user = reply.game, reply.user
    if is_bot_account(user):
        # Moves, resignations and table talk alike: a bot account acts through the API only.
        answer(_("Nothing was done: this is a bot account, and a bot account plays through the API only."),
               _("Send moves with an API token (POST %(path)s); email replies are for people.")
               % {"path": f"/api/games/{game.pk}/moves/"}, game=game)
        return InboundStatus.REJECTED, "bot account"
    # Read in the player's language, then in English; a word that is a command in neither goes to the game.
    meant = commands.read(command, translation.get_language())
    words = commands.shown_words(translation.get_language())
    if meant == commands.SAY:
        return _say(reply, message)
    if not command:
        answer(_("Your reply had no move in it, so nothing was played."),
               _("Write your move on the first line of the reply, above the quoted email."), game=game)
        return InboundStatus.REJECTED, "empty"
    if len(command) > MAX_COMMAND_LENGTH:
        answer(_("That first line is too long to be a move, so nothing was played."),
               _("To write to the table, start the first line with \"%(say)s\".") % words, game=game)
        return InboundStatus.REJECTED, "too long"
    if meant == commands.SHOW:
        answer(_("Here is the game as it stands."), game=game)
        return InboundStatus.ANSWERED, "show"
    if meant == commands.HELP:
        answer(_("How to play by email."),
               _("Reply to a turn email with your move on the first line. The list of moves in each turn email "
                 "shows what you may play; \"%(show)s\" sends the position again; \"%(resign)s\" leaves the game (a "
                 "resign sent to an older email is only done once you confirm it); a first line starting with "
                 "\"%(say)s\" writes what follows to the table talk.") % words,
               game=game)
        return InboundStatus.ANSWERED, "help"
    if meant == commands.RESIGN:
        return _resign(reply)

    try:
        outcome = services.submit_move(
            game_id=game.pk, user=user, expected_seq=reply.token.seq, text=command, source=MoveSource.EMAIL,
            idempotency_key=f"email:{hashlib.sha256(reply.headers.message_id.encode()).hexdigest()[:40]}",
        )
    except StaleSequence:
        answer(_("Your move \"%(move)s\" was not played: the game has moved on since that email.") % {"move": command},
               _("Here is the game as it stands now."), game=_fresh(game))
        return InboundStatus.REJECTED, "stale"
    except IllegalMoveError as error:
        answer(_("\"%(move)s\" is not a move you can make now, so nothing was played.") % {"move": command},
               error.detail, game=game)
        return InboundStatus.REJECTED, f"illegal: {error.detail}"
    except Conflict as error:
        answer(_("Your move \"%(move)s\" was not played: %(why)s") % {"move": command, "why": error.detail},
               game=_fresh(game))
        return InboundStatus.REJECTED, f"conflict: {error.detail}"
    except (GameNotFound, NotAllowed) as error:
        answer(_("Nothing was played."), error.detail)
        return InboundStatus.REJECTED, error.detail
    played = _worded_move(game, outcome.move, command)
    game = _fresh(game)
    answer(_("Your move \"%(move)s\" was played.") % {"move": played},
           "" if game.status == "active" else _("The game is over."), game=game)
    return InboundStatus.MOVED, f"played {outcome.move.text}"


def _worded_move(before: Game, logged, written: str) -> str:
    """Return the move just logged as the player's language writes it (the log keeps its English notation), from
    the position it was played in; what the player wrote if that position is not the one at hand."""
    if before.state is None or before.seq != logged.seq - 1 or logged.move == RESIGN:
        return written
    try:
        return store.engine_of(before).describe_move(before.state, logged.move)
    except EngineError:
        return written


def _say(reply: Reply, message) -> tuple[str, str]:
    """Post the reply's new text after ``say`` to the game's table talk, and answer with the position.

    A say counts against the account's chat rate, as one from the page or the API does.
    """
    answer = _answerer(reply)
    refusal = account_refusal(reply.user, "chat")
    if refusal:
        answer(_("Your message was not posted."), refusal.detail, game=_fresh(reply.game))
        return InboundStatus.REJECTED, "say refused: rate limit"
    try:
        said = chat_services.message_post(game_id=reply.game.pk, user=reply.user, text=said_text(body_text(message)),
                                          source=MessageSource.EMAIL)
    except PlayError as error:
        answer(_("Your message was not posted."), error.detail, game=_fresh(reply.game))
        return InboundStatus.REJECTED, f"say refused: {error.detail}"
    answer(_("Your message was posted to the table."), said.text, game=_fresh(reply.game))
    return InboundStatus.ANSWERED, "said"


def _resign(reply: Reply) -> tuple[str, str]:
    """Resign only from the address of the current position; from an older one, ask for a confirmation.

    An old turn email may sit in a mailbox for weeks: whoever can read it holds
    a valid address. A resign sent to it is answered with the current position
    and an address for that position, and only a reply to that one resigns.
    """
    answer = _answerer(reply)
    try:
        with transaction.atomic():
            # Locked, so the game cannot move on between the check and the resign.
            current = Game.objects.select_for_update().get(pk=reply.game.pk)
            confirm = current.status == GameStatus.ACTIVE and current.seq != reply.token.seq
            if not confirm:
                services.resign_game(game_id=current.pk, user=reply.user, source=MoveSource.EMAIL)
    except PlayError as error:
        answer(_("You could not resign."), error.detail, game=_fresh(reply.game))
        return InboundStatus.REJECTED, f"resign refused: {error.detail}"
    if confirm:
        answer(_("Reply \"%(resign)s\" to this email to confirm that you resign.")
               % commands.shown_words(translation.get_language()),
               _("The email you answered was written for an earlier position of this game, so you have not "
                 "resigned. This answer is for the game as it stands now; its reply address works until the "
                 "game moves on."), game=_fresh(reply.game), confirm_resign=True)
        return InboundStatus.ANSWERED, "resign to confirm"
    answer(_("You resigned."), game=_fresh(reply.game))
    return InboundStatus.MOVED, "resigned"


def _fresh(game: Game) -> Game:
    return Game.objects.get(pk=game.pk)
