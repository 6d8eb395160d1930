"""Answer a player's reply once, from what was done with it: worded in their language, sent to their own address.

Every reply from a player is answered, whatever came of it, and only ever to the verified address of the player
its reply address names (never to a From the sender wrote). The answer is threaded under the reply and shows the
position when it helps; it is written to the outbox in the transaction of the reply's record, and sent once that
has committed, like every email. The caller words it in the player's language (``compose.for_recipient``).
"""

from __future__ import annotations

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _

from games.base import RESIGN, EngineError
from turnbased.mail import agreement_replies, commands, compose, outbox
from turnbased.mail.outcomes import Answer, Done
from turnbased.mail.models import EmailKind, InboundEmail
from turnbased.mail.verifying import Reply
from turnbased.play import store
from turnbased.play.models import Game


def answer(reply: Reply, done: Done, record: InboundEmail) -> int:
    """Write the answer to the outbox, under the reply's record; return its outbox id (sent once committed)."""
    heading, detail = _words(reply, done)
    message = compose.answer_email(
        to=reply.user.email, subject=reply.headers.subject, heading=heading, detail=detail,
        original_message_id=reply.headers.message_id, game=done.game, user=reply.user,
        reply_to_current=done.answer in (Answer.CONFIRM_RESIGN, Answer.CONFIRM_PROPOSAL),
    )
    return outbox.put(message, kind=EmailKind.ANSWER, user=reply.user, inbound=record).pk


def _words(reply: Reply, done: Done) -> tuple[str, str]:
    """Return the answer's heading (what was done, or that nothing was) and its detail (why, or what next)."""
    # The words the player may reply with, as their language writes them (``commands`` reads them back).
    words = commands.shown_words(translation.get_language())
    if done.answer in agreement_replies.ANSWERS:
        return agreement_replies.words(done, words)
    match done.answer:
        case Answer.TOO_LARGE:
            return _("Your reply was too large to read, so nothing was played."), _limits()
        case Answer.TOO_COMPLEX:
            return _("Your reply was too complex to read, so nothing was played."), _limits()
        case Answer.BOT_ACCOUNT:
            return (_("Nothing was done: this is a bot account, and a bot account plays through the API only."),
                    _("Send moves with an API token (POST %(path)s); email replies are for people.")
                    % {"path": f"/api/games/{done.game.pk}/moves/"})
        case Answer.EMPTY:
            return (_("Your reply had no move in it, so nothing was played."),
                    _("Write your move on the first line of the reply, above the quoted email."))
        case Answer.TOO_LONG:
            return (_("That first line is too long to be a move, so nothing was played."),
                    _("To write to the table, start the first line with \"%(say)s\".") % words)
        case Answer.SHOW:
            return _("Here is the game as it stands."), ""
        case Answer.HELP:
            return _("How to play by email."), _help(reply, done, words)
        case Answer.STALE:
            return (_("Your move \"%(move)s\" was not played: the game has moved on since that email.")
                    % {"move": done.move}, _("Here is the game as it stands now."))
        case Answer.ILLEGAL:
            return (_("\"%(move)s\" is not a move you can make now, so nothing was played.") % {"move": done.move},
                    done.detail)
        case Answer.CONFLICT:
            return _("Your move \"%(move)s\" was not played: %(why)s") % {"move": done.move, "why": done.detail}, ""
        case Answer.NOTHING_PLAYED:
            return _("Nothing was played."), done.detail
        case Answer.PLAYED:
            played = _worded_move(reply.game, done.played, done.move)
            return (_("Your move \"%(move)s\" was played.") % {"move": played},
                    "" if done.game.status == "active" else _("The game is over."))
        case Answer.NOT_POSTED:
            return _("Your message was not posted."), done.detail
        case Answer.POSTED:
            return _("Your message was posted to the table."), done.detail
        case Answer.NOT_NOTED:
            return _("Nothing was added to your notes."), done.detail
        case Answer.NOTED:
            return _("Added to your notes on this game (only you read them). They now read:"), done.detail
        case Answer.RESIGN_REFUSED:
            return _("You could not resign."), done.detail
        case Answer.CONFIRM_RESIGN:
            return (_("Reply \"%(resign)s\" to this email to confirm that you resign.") % words,
                    _("The email you answered was written for an earlier position of this game, so you have not "
                      "resigned. This answer is for the game as it stands now; its reply address works until the "
                      "game moves on."))
        case Answer.RESIGNED:
            return _("You resigned."), ""
    raise ValueError(f"no answer is worded for {done.answer}")


def _help(reply: Reply, done: Done, words: dict[str, str]) -> str:
    """Return the help: each command the player may write in their language, one a line with an example, and (to
    a reader of another language) that English is read too."""
    values = {**words, "said": _("Good luck, everyone!"), "noted": _("plan ahead for the endgame")}
    lines = [_("Reply to a turn email with your move on the first line: the list of moves in each turn email shows "
               "what you may play. Instead of a move, the first line may be one of these:"),
             *(f"  {line}" for line in (
                 _("\"%(show)s\" sends the position again.") % values,
                 _("\"%(help)s\" sends this help.") % values,
                 _("\"%(resign)s\" leaves the game (a resign sent to an older email is only done once you confirm "
                   "it).") % values,
                 _("\"%(say)s: %(said)s\" writes what follows the colon to the table talk.") % values,
                 _("\"%(note)s: %(noted)s\" adds what follows the colon to your private notes on the game.") % values,
                 *agreement_replies.help_text(done.game, words, reply.user)))]
    english = commands.shown_words(commands.ENGLISH)
    if words != english:
        with translation.override(commands.ENGLISH):
            said = _("Good luck, everyone!")
        lines += ["", _("Moves and commands may be written in English too: \"%(show)s\", \"%(help)s\", "
                        "\"%(resign)s\", \"%(say)s: %(said)s\".") % {**english, "said": said}]
    return "\n".join(lines)


def _limits() -> str:
    return _("Replies may have at most %(size)s KB and %(parts)s parts. Reply with just your move on the first "
             "line.") % {"size": settings.MAIL_INBOUND_MAX_BYTES // 1024, "parts": settings.MAIL_INBOUND_MAX_PARTS}


def _worded_move(before: Game, logged, written: str) -> str:
    """Return the move just logged as the player's language writes it (the log keeps its English notation), from
    the position it was played in; what the player wrote if that position is not the one at hand."""
    if before.state is None or before.seq != logged.seq - 1 or logged.move == RESIGN:
        return written
    try:
        return store.engine_of(before).describe_move(before.state, logged.move)
    except EngineError:
        return written
