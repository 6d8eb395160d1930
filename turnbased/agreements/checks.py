"""Whether a player may ask for their last move back now, and if not why: the one place the rules of asking are read,
by the service under the game's lock and by the page's confirm step before it (docs/players.md, "Taking a move
back")."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone
from django.utils.translation import gettext, ngettext

from turnbased.agreements import rules
from turnbased.agreements.models import Proposal, ProposalKind
from turnbased.agreements.selectors import waiting_proposal
from turnbased.kit.errors import Conflict, NotAllowed, PlayError
from turnbased.play import store
from turnbased.play.models import Game, GameStatus, Seat


def is_bot(seat: Seat) -> bool:
    """Whether a bot answers for the seat: one made for a bot, or one a bot took over (either names its bot)."""
    return bool(seat.bot)


def _asked_too_often(game: Game, seat: int) -> PlayError | None:
    """A move is asked about once, and a seat asks ``rules.ASKS_PER_DAY`` times a day at a game."""
    asked = Proposal.objects.filter(game=game, seat=seat, kind=ProposalKind.TAKE_BACK)
    if asked.filter(terms__seq=game.seq, seq=game.seq).exists():
        return Conflict(gettext("You have already asked to take back this move."))
    recent = list(asked.filter(created_at__gte=timezone.now() - timedelta(days=1)).values_list("created_at", flat=True))
    if len(recent) < rules.ASKS_PER_DAY:
        return None
    again = min(recent) + timedelta(days=1)
    return Conflict(ngettext(
        "You have asked for %(count)s takeback at this game within a day: ask again after %(when)s (UTC).",
        "You have asked for %(count)s takebacks at this game within a day: ask again after %(when)s (UTC).",
        len(recent)) % {"count": len(recent), "when": again.strftime("%Y-%m-%d %H:%M")})


def takeback_refusal(game: Game, seat: Seat) -> PlayError | None:
    """Return why the player at ``seat`` may not ask now to take back their last move (the error to answer with: a
    403 where the table forbids it, else a 409 saying why), or None when they may. The cheap checks first; the
    game's own (``games.takebacks``, a replay of the log) last but the asks counted and the bots' rule."""
    if game.status != GameStatus.ACTIVE:
        return Conflict(gettext("This game is not in play: it has not started yet, or it is over."))
    if is_bot(seat):
        return Conflict(gettext("A bot plays this seat now: you left the game or ran out of time too often."))
    forbidden = rules.forbidden_reason(game, ProposalKind.TAKE_BACK)
    if forbidden:
        return NotAllowed(forbidden)
    if waiting_proposal(game) is not None:
        return Conflict(gettext("A proposal at this table is waiting for answers: it must be settled first."))
    reason = store.log_replay(game).refusal(seat.index) if game.seq else gettext("No move has been made yet.")
    if reason:
        return Conflict(reason)
    too_often = _asked_too_often(game, seat.index)
    if too_often is not None:
        return too_often
    if not rules.bots_agree(game) and any(is_bot(other) for other in game.seats.all() if other.index != seat.index):
        return Conflict(gettext("A bot plays at this table, and bots agree to a takeback only at unrated tables "
                                "(or where a competition's organiser allows it)."))
    return None
