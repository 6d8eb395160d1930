"""Agreements at the table, written: ask for a takeback, propose a pause, extra time, a draw or a cancel, answer a
proposal, withdraw one. One service each, for the page, the API and an email reply alike; each runs under the
game's row lock, the lock every move takes, so a proposal and a move racing each other are settled in one order: a
move first lapses a takeback or a draw, a carried takeback first makes the move's position stale, a carried draw or
cancel first ends the game (docs/players.md, "Taking a move back" and "Agreements at the table")."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from turnbased.agreements import rules, signals
from games.base import AGREED_DRAW
from turnbased.agreements.checks import is_bot, proposal_refusal, read_terms, takeback_refusal
from turnbased.agreements.models import Answer, Proposal, ProposalKind, ProposalStatus
from turnbased.agreements.selectors import proposal_shown, proposal_viewer, status_of, waiting_for
from turnbased.events.models import EventKind
from turnbased.events.services import NewEvent, events_record
from turnbased.kit.errors import Conflict, InvalidRequest, NotAllowed, NotFound
from turnbased.play.models import Game, Seat
from turnbased.clocks.agreed import clock_extra_time, clocks_pause
from turnbased.play.services import game_abandon, game_decide, locked_game, take_back


def _locked(game_id: int, user: AbstractBaseUser) -> tuple[Game, Seat]:
    """Return the game under its row lock and the user's seat at it (refused, as ``proposal_viewer`` says)."""
    seat_index = proposal_viewer(game_id, user).seat
    game = locked_game(game_id)
    seat = next(seat for seat in game.seats.all() if seat.index == seat_index)
    return game, seat


def _people(game: Game) -> dict[int, int]:
    """The people still at the table by seat (not the seats bots play, nor a player's who resigned)."""
    return {seat.index: seat.user_id for seat in game.seats.all() if not is_bot(seat) and seat.left_at is None}


def _tell(proposal: Proposal, game: Game, kind: str) -> None:
    """Tell every person at the table (their streams and webhooks), and the doors above (an email to the others)."""
    people = _people(game)
    shown = proposal_shown(proposal, game)
    payload = {"engine": game.engine, "engine_version": game.engine_version, **shown}
    events_record(events=[NewEvent(user_id=user_id, kind=kind, game_id=game.pk, seq=game.seq, payload=payload)
                          for _, user_id in sorted(people.items())])
    others = [user_id for seat, user_id in sorted(people.items()) if seat != proposal.seat or kind != EventKind.PROPOSAL_MADE]
    signal = signals.proposal_made if kind == EventKind.PROPOSAL_MADE else signals.proposal_decided
    signal.send(sender=Proposal, proposal=proposal, game=game, user_ids=others)


def _lapse_stale(game: Game) -> None:
    """Mark the table's open proposal lapsed when a move or its window has passed it by (read as lapsed already)."""
    for proposal in Proposal.objects.filter(game=game, status=ProposalStatus.OPEN):
        if status_of(proposal, game) == ProposalStatus.LAPSED:
            proposal.status, proposal.decided_at = ProposalStatus.LAPSED, timezone.now()
            proposal.save(update_fields=["status", "decided_at"])


def takeback_ask(*, game_id: int, user: AbstractBaseUser) -> Proposal:
    """Ask the others at the table to let ``user`` take back their last move; return the proposal (the API's
    ``Idempotency-Key`` answers a repeated request as the first). Bots answer at once (``rules.bots_agree``);
    a table with no other person carries it at once. Refused with the reason, nothing changed, when the game is
    not in play, the last move is not theirs or may not be taken back, the table forbids it, a bot there will not
    agree, a proposal is waiting, or they asked too often."""
    with transaction.atomic():
        game, seat = _locked(game_id, user)
        _lapse_stale(game)
        refusal = takeback_refusal(game, seat)
        if refusal is not None:
            raise refusal
        bots = [other for other in game.seats.all() if other.index != seat.index and is_bot(other)]
        proposal = Proposal.objects.create(
            game=game, kind=ProposalKind.TAKE_BACK, seat=seat.index, proposer=user, seq=game.seq,
            terms={"seq": game.seq}, expires_at=timezone.now() + rules.WINDOW[ProposalKind.TAKE_BACK])
        Answer.objects.bulk_create([Answer(proposal=proposal, seat=bot.index, accepted=True) for bot in bots])
        if waiting_for(proposal, game):
            _tell(proposal, game, EventKind.PROPOSAL_MADE)
        else:
            _carry(proposal, game)
    return proposal


def proposal_make(*, game_id: int, user: AbstractBaseUser, kind, terms=None) -> Proposal:
    """Propose to the others at the table a pause of its clocks, extra time for a seat, a draw or a cancel
    (``kind``, with ``terms`` as ``checks.read_terms`` reads them: a pause's days, extra time's seat and days);
    return the proposal (the API's ``Idempotency-Key`` answers a repeated request as the first). The proposer agrees
    by proposing; bots answer at once (``rules.bots_accept``); a table with no other person carries it at once.
    Refused with the reason, nothing changed, for bad terms, a game not in play, a seat a bot plays or that left,
    a kind the table forbids or the game or its clock does not allow, a proposal waiting, too many proposals
    lately, or a bot at the table that will not agree."""
    if kind == ProposalKind.TAKE_BACK:
        return takeback_ask(game_id=game_id, user=user)
    with transaction.atomic():
        game, seat = _locked(game_id, user)
        terms = read_terms(game, kind, terms)
        _lapse_stale(game)
        refusal = proposal_refusal(game, seat, kind, terms)
        if refusal is not None:
            raise refusal
        bots = [other for other in game.seats.all() if other.index != seat.index and is_bot(other)]
        proposal = Proposal.objects.create(game=game, kind=kind, seat=seat.index, proposer=user, seq=game.seq,
                                           terms=terms, expires_at=timezone.now() + rules.WINDOW[kind])
        Answer.objects.bulk_create([Answer(proposal=proposal, seat=bot.index, accepted=True) for bot in bots])
        if waiting_for(proposal, game):
            _tell(proposal, game, EventKind.PROPOSAL_MADE)
        else:
            _carry(proposal, game)
    return proposal


def _carry(proposal: Proposal, game: Game) -> None:
    """Everyone agreed: do what was proposed (a takeback's log entry, the clocks paused or a seat's time given, the
    game drawn or cancelled), then settle and tell."""
    terms = proposal.terms
    if proposal.kind == ProposalKind.TAKE_BACK:
        take_back(game=game, seat=proposal.seat, seq=terms["seq"], user=None)
    elif proposal.kind == ProposalKind.PAUSE:
        clocks_pause(game=game, days=terms["days"])
    elif proposal.kind == ProposalKind.EXTRA_TIME:
        clock_extra_time(game=game, seat=terms["seat"], days=terms["days"])
    elif proposal.kind == ProposalKind.DRAW:
        game_decide(game_id=game.pk, how=AGREED_DRAW)
    elif proposal.kind == ProposalKind.CANCEL:
        game_abandon(game_id=game.pk)
    else:
        raise ValueError(f"no proposal of kind {proposal.kind!r} is carried")
    _settle(proposal, game, ProposalStatus.ACCEPTED)


def _settle(proposal: Proposal, game: Game, status: str) -> None:
    proposal.status, proposal.decided_at = status, timezone.now()
    proposal.save(update_fields=["status", "decided_at"])
    _tell(proposal, game, EventKind.PROPOSAL_DECIDED)


def _open_proposal(game: Game, proposal_id: int) -> Proposal:
    proposal = Proposal.objects.filter(pk=proposal_id, game=game).first() if isinstance(proposal_id, int) else None
    if proposal is None:
        raise NotFound(gettext("No such proposal at this game."))
    status = status_of(proposal, game)
    if status == ProposalStatus.LAPSED:
        raise Conflict(gettext("This proposal has lapsed: someone moved, or its time ran out."))
    if status != ProposalStatus.OPEN:
        raise Conflict(gettext("This proposal is already settled: %(status)s.") % {
            "status": ProposalStatus(status).label})
    return proposal


def proposal_answer(*, game_id: int, proposal_id: int, user: AbstractBaseUser, accept) -> Proposal:
    """Answer a proposal waiting at the table: a decline settles it for all; the last acceptance carries it (a
    takeback is logged at once, the clocks paused, the time given, the game drawn or cancelled). Refused with the reason, nothing changed, for one's own proposal, a second answer,
    or a proposal settled or lapsed."""
    if not isinstance(accept, bool):
        raise InvalidRequest(gettext("accept must be true or false."))
    with transaction.atomic():
        game, seat = _locked(game_id, user)
        proposal = _open_proposal(game, proposal_id)
        if seat.index == proposal.seat:
            raise NotAllowed(gettext("This is your own proposal: you may withdraw it, not answer it."))
        if is_bot(seat):
            raise Conflict(gettext("A bot plays this seat now: you left the game or ran out of time too often."))
        if seat.left_at is not None:
            raise Conflict(gettext("You have left this game: its players decide without you."))
        if proposal.answers.filter(seat=seat.index).exists():
            raise Conflict(gettext("You have already answered this proposal."))
        Answer.objects.create(proposal=proposal, seat=seat.index, user=user, accepted=accept)
        if not accept:
            _settle(proposal, game, ProposalStatus.DECLINED)
        elif not waiting_for(proposal, game):
            _carry(proposal, game)
    return proposal


def proposal_withdraw(*, game_id: int, proposal_id: int, user: AbstractBaseUser) -> Proposal:
    """Withdraw one's own proposal while it waits; the others are told."""
    with transaction.atomic():
        game, seat = _locked(game_id, user)
        proposal = _open_proposal(game, proposal_id)
        if seat.index != proposal.seat:
            raise NotAllowed(gettext("Only the player who made a proposal may withdraw it."))
        _settle(proposal, game, ProposalStatus.WITHDRAWN)
    return proposal
