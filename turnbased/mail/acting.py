"""Do what a verified player's reply asks, through the same services as the page and the API, and say what was done.

A move goes through ``play.services.submit_move`` under a key made from the reply's Message-ID, a resign through
``resign_game``, a ``say`` through the table talk's ``message_post`` (counted against the account's chat rate, as
one from the page or the API is), a ``note`` through ``notes.services.note_save`` (added to the player's notes), a
``takeback`` (``agreement_replies``), a ``pause``, ``more time``, ``draw`` or ``cancel`` (``vote_replies``) and the
answers to any proposal (``accept``, ``decline``: ``agreement_replies``) through the agreements' services.
``show`` and ``help`` change nothing. A bot account acts through the API only, and a reply over the limits is
refused unread. What was done, or why nothing was, comes back as a ``Done``
(``outcomes``): the record keeps its status and outcome, and ``answering`` words the one answer from it.
"""

from __future__ import annotations

import hashlib

from django.db import transaction
from django.utils.translation import gettext

from turnbased.accounts.models import is_bot_account
from turnbased.chat import services as chat_services
from turnbased.chat.models import MessageSource
from turnbased.kit.errors import Conflict, GameNotFound, IllegalMoveError, NotAllowed, PlayError, StaleSequence
from turnbased.kit.http.limits import account_refusal
from turnbased.mail import agreement_replies, commands, inbound_limits, vote_replies
from turnbased.mail.models import InboundStatus
from turnbased.mail.outcomes import Answer, Done, fresh
from turnbased.mail.reading import Request
from turnbased.mail.reply_text import MAX_COMMAND_LENGTH
from turnbased.mail.verifying import Reply
from turnbased.notes import services as notes_services
from turnbased.play import services
from turnbased.play.models import Game, GameStatus, MoveSource


def act(reply: Reply, request: Request) -> Done:
    """Do what the reply asks (nothing, for a refused one) and return what was done."""
    game, user = reply.game, reply.user
    if request.refusal:
        answer = Answer.TOO_LARGE if request.refusal == inbound_limits.TOO_LARGE else Answer.TOO_COMPLEX
        return Done(InboundStatus.REJECTED, request.refusal, answer, fresh(game))
    if is_bot_account(user):
        # Moves, resignations and table talk alike: a bot account acts through the API only.
        return Done(InboundStatus.REJECTED, "bot account", Answer.BOT_ACCOUNT, game)
    if request.command == commands.SAY:
        return _say(reply, request.said)
    if request.command == commands.NOTE:
        return _note(reply, request.said)
    if not request.line:
        return Done(InboundStatus.REJECTED, "empty", Answer.EMPTY, game)
    if len(request.line) > MAX_COMMAND_LENGTH:
        return Done(InboundStatus.REJECTED, "too long", Answer.TOO_LONG, game)
    if request.command == commands.SHOW:
        return Done(InboundStatus.ANSWERED, "show", Answer.SHOW, game)
    if request.command == commands.HELP:
        return Done(InboundStatus.ANSWERED, "help", Answer.HELP, game)
    if request.command == commands.RESIGN:
        return _resign(reply)
    if request.command == commands.TAKEBACK:
        return agreement_replies.ask(reply)
    if request.command in commands.PROPOSALS:
        return vote_replies.propose(reply, request.line, request.command)
    answered = agreement_replies.answer(reply, request.line)  # None: no proposal to answer, the line is a move
    return answered if answered is not None else _move(reply, request.line)


def _move(reply: Reply, written: str) -> Done:
    """Submit the move as written; the reply's Message-ID is its key, so a redelivered reply never plays twice."""
    game = reply.game
    try:
        outcome = services.submit_move(
            game_id=game.pk, user=reply.user, expected_seq=reply.token.seq, text=written, source=MoveSource.EMAIL,
            idempotency_key=f"email:{hashlib.sha256(reply.headers.message_id.encode()).hexdigest()[:40]}",
        )
    except StaleSequence:
        return Done(InboundStatus.REJECTED, "stale", Answer.STALE, fresh(game), move=written)
    except IllegalMoveError as error:
        return Done(InboundStatus.REJECTED, f"illegal: {error.detail}", Answer.ILLEGAL, game, move=written,
                    detail=error.detail)
    except Conflict as error:
        return Done(InboundStatus.REJECTED, f"conflict: {error.detail}", Answer.CONFLICT, fresh(game),
                    move=written, detail=error.detail)
    except (GameNotFound, NotAllowed) as error:
        return Done(InboundStatus.REJECTED, error.detail, Answer.NOTHING_PLAYED, None, detail=error.detail)
    return Done(InboundStatus.MOVED, f"played {outcome.move.text}", Answer.PLAYED, fresh(game), move=written,
                played=outcome.move)


def _say(reply: Reply, said: str) -> Done:
    """Post the reply's new text after ``say`` to the game's table talk, within the account's chat rate."""
    refusal = account_refusal(reply.user, "chat")
    if refusal:
        return Done(InboundStatus.REJECTED, "say refused: rate limit", Answer.NOT_POSTED, fresh(reply.game),
                    detail=refusal.detail)
    try:
        posted = chat_services.message_post(game_id=reply.game.pk, user=reply.user, text=said,
                                            source=MessageSource.EMAIL)
    except PlayError as error:
        return Done(InboundStatus.REJECTED, f"say refused: {error.detail}", Answer.NOT_POSTED, fresh(reply.game),
                    detail=error.detail)
    return Done(InboundStatus.ANSWERED, "said", Answer.POSTED, fresh(reply.game), detail=posted.text)


def _note(reply: Reply, written: str) -> Done:
    """Add the reply's new text after ``note`` to the player's private notes on the game (nobody else reads them)."""
    if not written:
        return Done(InboundStatus.REJECTED, "note refused: empty", Answer.NOT_NOTED, fresh(reply.game),
                    detail=gettext("Write what to note after the word, on the same line or the lines below."))
    try:
        note = notes_services.note_save(game_id=reply.game.pk, user=reply.user, text=written, append=True)
    except PlayError as error:
        return Done(InboundStatus.REJECTED, f"note refused: {error.detail}", Answer.NOT_NOTED, fresh(reply.game),
                    detail=error.detail)
    return Done(InboundStatus.ANSWERED, "noted", Answer.NOTED, fresh(reply.game), detail=note.text if note else "")


def _resign(reply: Reply) -> Done:
    """Resign only from the address of the current position; from an older one, ask for a confirmation.

    An old turn email may sit in a mailbox for weeks: whoever can read it holds
    a valid address. A resign sent to it is answered with the current position
    and an address for that position, and only a reply to that one resigns.
    """
    try:
        with transaction.atomic():
            # Locked, so the game cannot move on between the check and the resign.
            current = Game.objects.select_for_update().get(pk=reply.game.pk)
            confirm = current.status == GameStatus.ACTIVE and current.seq != reply.token.seq
            if not confirm:
                services.resign_game(game_id=current.pk, user=reply.user, source=MoveSource.EMAIL)
    except PlayError as error:
        return Done(InboundStatus.REJECTED, f"resign refused: {error.detail}", Answer.RESIGN_REFUSED,
                    fresh(reply.game), detail=error.detail)
    if confirm:
        return Done(InboundStatus.ANSWERED, "resign to confirm", Answer.CONFIRM_RESIGN, fresh(reply.game))
    return Done(InboundStatus.MOVED, "resigned", Answer.RESIGNED, fresh(reply.game))
