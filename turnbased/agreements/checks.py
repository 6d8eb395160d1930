"""Whether a player may make a proposal now, and if not why: the one place the rules of asking are read, by the
services under the game's lock and by the pages' confirm steps before them (docs/players.md, "Taking a move back"
and "Agreements at the table"); and the terms a proposal is made with, read from a request."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone
from django.utils.translation import gettext, ngettext, pgettext

from turnbased.agreements import rules
from turnbased.agreements.models import VOTES, Proposal, ProposalKind
from turnbased.agreements.selectors import waiting_proposal
from turnbased.clocks import agreed
from turnbased.kit.errors import Conflict, InvalidRequest, NotAllowed, PlayError, Unprocessable
from turnbased.play import store
from turnbased.play.models import Game, GameStatus, Seat
from turnbased.play.selectors import Viewer


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


# -- the proposals put to a vote: a pause, extra time, a draw, a cancel ------------------------------------------

def _whole(value, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def read_terms(game: Game, kind, raw) -> dict:
    """Return the terms of a proposal of ``kind`` from a request's fields (``raw``: days, seat), or refuse saying
    what is wrong: an unknown kind (400), or terms the kind does not take, in a request of the right shape (422).
    A pause takes ``days`` (1 to ``clocks.agreed.PAUSE_DAYS_MOST``); extra time ``seat`` (a seat of the game) and
    ``days`` (1 to ``EXTRA_DAYS_MOST``); a draw or a cancel nothing."""
    if kind not in VOTES:
        raise InvalidRequest(gettext("kind must be one of %(kinds)s.") % {"kinds": ", ".join(VOTES)})
    raw = raw if isinstance(raw, dict) else {}
    given = {key for key, value in raw.items() if value is not None}
    wanted = {ProposalKind.PAUSE: {"days"}, ProposalKind.EXTRA_TIME: {"seat", "days"}}.get(kind, set())
    if given - wanted:
        raise Unprocessable(gettext("A proposal of %(kind)s takes no %(fields)s.") % {
            "kind": kind, "fields": ", ".join(sorted(given - wanted))})
    terms = {}
    if kind == ProposalKind.PAUSE:
        if not _whole(raw.get("days"), 1, agreed.PAUSE_DAYS_MOST):
            raise Unprocessable(gettext("days must be a whole number from 1 to %(most)s.") % {
                "most": agreed.PAUSE_DAYS_MOST})
        terms["days"] = raw["days"]
    elif kind == ProposalKind.EXTRA_TIME:
        if not _whole(raw.get("seat"), 0, len(game.player_names) - 1):
            raise Unprocessable(gettext("seat must be the number of a seat at this game, from 0 to %(last)s.") % {
                "last": len(game.player_names) - 1})
        if not _whole(raw.get("days"), 1, agreed.EXTRA_DAYS_MOST):
            raise Unprocessable(gettext("days must be a whole number from 1 to %(most)s.") % {
                "most": agreed.EXTRA_DAYS_MOST})
        terms.update(seat=raw["seat"], days=raw["days"])
    return terms


def _proposed_too_often(game: Game, seat: int) -> PlayError | None:
    """A seat makes ``rules.PROPOSALS_PER_DAY`` proposals a day at a game, takebacks aside."""
    recent = list(Proposal.objects.filter(game=game, seat=seat, kind__in=VOTES,
                                          created_at__gte=timezone.now() - timedelta(days=1))
                  .values_list("created_at", flat=True))
    if len(recent) < rules.PROPOSALS_PER_DAY:
        return None
    again = min(recent) + timedelta(days=1)
    return Conflict(ngettext(
        "You have made %(count)s proposal at this game within a day: propose again after %(when)s (UTC).",
        "You have made %(count)s proposals at this game within a day: propose again after %(when)s (UTC).",
        len(recent)) % {"count": len(recent), "when": again.strftime("%Y-%m-%d %H:%M")})


def _kind_refusal(game: Game, kind: str, terms: dict) -> PlayError | None:
    """What the game or its clock refuses of a proposal of ``kind`` with ``terms``."""
    if kind == ProposalKind.PAUSE:
        reason = agreed.pause_refusal(game)
    elif kind == ProposalKind.EXTRA_TIME:
        reason = agreed.extra_time_refusal(game)
        target = next(seat for seat in game.seats.all() if seat.index == terms["seat"])
        if reason is None and (is_bot(target) or target.left_at is not None):
            reason = gettext("A bot plays that seat: only a person at the table is given extra time.")
    elif kind == ProposalKind.DRAW and not store.engine_of(game).shares_results:
        reason = gettext("This game has no shared result, so a draw cannot be agreed (its rules play on instead).")
    else:
        reason = None
    return Conflict(reason) if reason else None


def proposal_refusal(game: Game, seat: Seat, kind: str, terms: dict) -> PlayError | None:
    """Return why the player at ``seat`` may not propose ``kind`` with ``terms`` now (a 403 where the table forbids
    it, else a 409 saying why), or None when they may."""
    if game.status != GameStatus.ACTIVE:
        return Conflict(gettext("This game is not in play: it has not started yet, or it is over."))
    if is_bot(seat):
        return Conflict(gettext("A bot plays this seat now: you left the game or ran out of time too often."))
    if seat.left_at is not None:
        return Conflict(gettext("You have left this game: its players decide without you."))
    forbidden = rules.forbidden_reason(game, kind)
    if forbidden:
        return NotAllowed(forbidden)
    if waiting_proposal(game) is not None:
        return Conflict(gettext("A proposal at this table is waiting for answers: it must be settled first."))
    refused = _kind_refusal(game, kind, terms) or _proposed_too_often(game, seat.index)
    if refused is not None:
        return refused
    if not rules.bots_accept(game, kind) and any(is_bot(other) for other in game.seats.all() if other.index != seat.index):
        return Conflict(pgettext("a draw or a cancel", "A bot plays at this table, and bots agree to this only at "
                                 "unrated tables (or where a competition's organiser allows it)."))
    return None


def proposals_offered(viewer: Viewer) -> list[str]:
    """The proposals put to a vote the game page offers its player (``VOTES``; asked when nothing waits): a game in
    play, their seat a person's still at the table, the table allowing the kind, the game and its clock allowing it, and, for a draw or a
    cancel, no bot at the table that would refuse. The confirm step checks the rest (how often they proposed)."""
    game, seat = viewer.game, viewer.seat
    if seat is None or game.status != GameStatus.ACTIVE:
        return []
    seats = list(game.seats.all())
    people = [s.index for s in seats if not is_bot(s) and s.left_at is None]
    if seat not in people:
        return []
    bots = any(is_bot(s) for s in seats if s.index != seat)
    offered = []
    for kind in VOTES:
        if rules.forbidden_reason(game, kind) or (bots and not rules.bots_accept(game, kind)):
            continue
        terms = {"seat": seat, "days": 1} if kind == ProposalKind.EXTRA_TIME else {}
        if _kind_refusal(game, kind, terms) is None:
            offered.append(kind)
    return offered
