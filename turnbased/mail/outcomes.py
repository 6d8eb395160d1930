"""What was done with a verified player's reply to a game's email, or why nothing was: the ``Done`` that ``acting``
(and ``agreement_replies``) return, the record keeps and ``answering`` words, one ``Answer`` for each case."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from turnbased.play.models import Game, Move


class Answer(enum.Enum):
    """What the answer to a reply tells the player: ``answering`` words each."""

    TOO_LARGE = enum.auto()
    TOO_COMPLEX = enum.auto()
    BOT_ACCOUNT = enum.auto()
    EMPTY = enum.auto()
    TOO_LONG = enum.auto()
    SHOW = enum.auto()
    HELP = enum.auto()
    STALE = enum.auto()
    ILLEGAL = enum.auto()
    CONFLICT = enum.auto()
    NOTHING_PLAYED = enum.auto()
    PLAYED = enum.auto()
    NOT_POSTED = enum.auto()
    POSTED = enum.auto()
    NOT_NOTED = enum.auto()
    NOTED = enum.auto()
    RESIGN_REFUSED = enum.auto()
    CONFIRM_RESIGN = enum.auto()
    RESIGNED = enum.auto()
    # Takebacks (issue 46, ``agreement_replies``): asked, carried at once, refused.
    TAKEBACK_ASKED = enum.auto()
    TAKEN_BACK = enum.auto()
    TAKEBACK_REFUSED = enum.auto()
    # A pause, more time, a draw or a cancel proposed (issue 46, ``vote_replies``): made, carried at once, refused.
    PROPOSED = enum.auto()
    PROPOSAL_CARRIED = enum.auto()
    PROPOSAL_NOT_MADE = enum.auto()
    # The answer to a proposal of any kind waiting at the game (``agreement_replies``): counted, refused, to confirm.
    PROPOSAL_ACCEPTED = enum.auto()
    PROPOSAL_DECLINED = enum.auto()
    PROPOSAL_REFUSED = enum.auto()
    CONFIRM_PROPOSAL = enum.auto()


@dataclass(frozen=True)
class Done:
    """What was done with a reply, or why nothing was.

    ``status`` and ``outcome`` (in English, for logs) are kept on the reply's record. The answer shows ``game``
    as given (None: no position); ``move`` is the move as the player wrote it, ``played`` the one logged, and
    ``detail`` a refusal's reason as the service that refused worded it, or what was posted to the table;
    ``proposal`` the proposal made or answered, as the agreements show it (``proposal_shown``; for one refused
    before it was made, its ``kind`` alone).
    """

    status: str
    outcome: str
    answer: Answer
    game: Game | None
    move: str = ""
    played: Move | None = None
    detail: str = ""
    proposal: dict | None = None


def fresh(game: Game) -> Game:
    """Return the game as it stands now, for an answer that shows the position after the act (or a refusal)."""
    return Game.objects.get(pk=game.pk)
