"""Agreements at the table, written: ask for a takeback, answer a proposal, withdraw one. One service each, for the
page, the API and an email reply alike; each runs under the game's row lock, the lock every move takes, so a
proposal and a move racing each other are settled in one order: a move first lapses the proposal, a carried
takeback first makes the move's position stale (docs/players.md, "Taking a move back")."""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from turnbased.agreements import rules, signals
from turnbased.agreements.models import Answer, Proposal, ProposalKind, ProposalStatus
from turnbased.agreements.selectors import proposal_shown, proposal_viewer, status_of, waiting_for
from turnbased.events.models import EventKind
from turnbased.events.services import NewEvent, events_record
from turnbased.kit.errors import Conflict, InvalidRequest, NotAllowed, NotFound
from turnbased.play import store
from turnbased.play.models import Game, GameStatus, Seat
from turnbased.play.services import locked_game, take_back


def _locked(game_id: int, user: AbstractBaseUser) -> tuple[Game, Seat]:
    """Return the game under its row lock and the user's seat at it (refused, as ``proposal_viewer`` says)."""
    seat_index = proposal_viewer(game_id, user).seat
    game = locked_game(game_id)
    seat = next(seat for seat in game.seats.all() if seat.index == seat_index)
    return game, seat


def _is_bot(seat: Seat) -> bool:
    return seat.user_id is None or bool(seat.bot)


def _people(game: Game) -> dict[int, int]:
    """The people at the table by seat (not the seats bots play)."""
    return {seat.index: seat.user_id for seat in game.seats.all() if not _is_bot(seat)}


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


def _check_asks(game: Game, seat: int, move_seq: int) -> None:
    """Refuse a takeback asked for again: once a move, and ``rules.ASKS_PER_DAY`` a day at a game."""
    asked = Proposal.objects.filter(game=game, seat=seat, kind=ProposalKind.TAKE_BACK)
    if asked.filter(terms__seq=move_seq, seq=game.seq).exists():
        raise Conflict(gettext("You have already asked to take back this move."))
    recent = list(asked.filter(created_at__gte=timezone.now() - timedelta(days=1)).values_list("created_at", flat=True))
    if len(recent) >= rules.ASKS_PER_DAY:
        again = min(recent) + timedelta(days=1)
        raise Conflict(ngettext(
            "You have asked for %(count)s takeback at this game within a day: ask again after %(when)s (UTC).",
            "You have asked for %(count)s takebacks at this game within a day: ask again after %(when)s (UTC).",
            len(recent)) % {"count": len(recent), "when": again.strftime("%Y-%m-%d %H:%M")})


def takeback_ask(*, game_id: int, user: AbstractBaseUser) -> Proposal:
    """Ask the others at the table to let ``user`` take back their last move; return the proposal (the API's
    ``Idempotency-Key`` answers a repeated request as the first). Bots answer at once (``rules.bots_agree``);
    a table with no other person carries it at once. Refused with the reason, nothing changed, when the game is
    not in play, the last move is not theirs or may not be taken back, the table forbids it, a bot there will not
    agree, a proposal is waiting, or they asked too often."""
    with transaction.atomic():
        game, seat = _locked(game_id, user)
        if game.status != GameStatus.ACTIVE:
            raise Conflict(gettext("This game is not in play: it has not started yet, or it is over."))
        if _is_bot(seat):
            raise Conflict(gettext("A bot plays this seat now: you left the game or ran out of time too often."))
        forbidden = rules.forbidden_reason(game, ProposalKind.TAKE_BACK)
        if forbidden:
            raise NotAllowed(forbidden)
        _lapse_stale(game)
        waiting = Proposal.objects.filter(game=game, status=ProposalStatus.OPEN).first()
        if waiting is not None:
            raise Conflict(gettext("A proposal at this table is waiting for answers: it must be settled first."))
        reason = store.log_replay(game).refusal(seat.index) if game.seq else gettext("No move has been made yet.")
        if reason:
            raise Conflict(reason)
        _check_asks(game, seat.index, game.seq)
        bots = [other for other in game.seats.all() if other.index != seat.index and _is_bot(other)]
        if bots and not rules.bots_agree(game):
            raise Conflict(gettext("A bot plays at this table, and bots agree to a takeback only at unrated tables "
                                   "(or where a competition's organiser allows it)."))
        proposal = Proposal.objects.create(
            game=game, kind=ProposalKind.TAKE_BACK, seat=seat.index, proposer=user, seq=game.seq,
            terms={"seq": game.seq}, expires_at=timezone.now() + rules.WINDOW[ProposalKind.TAKE_BACK])
        Answer.objects.bulk_create([Answer(proposal=proposal, seat=bot.index, accepted=True) for bot in bots])
        if waiting_for(proposal, game):
            _tell(proposal, game, EventKind.PROPOSAL_MADE)
        else:
            _carry(proposal, game)
    return proposal


def _carry(proposal: Proposal, game: Game) -> None:
    """Everyone agreed: do what was proposed (the takeback's log entry), then settle and tell."""
    take_back(game=game, seat=proposal.seat, seq=proposal.terms["seq"], user=None)
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
    takeback is logged at once). Refused with the reason, nothing changed, for one's own proposal, a second answer,
    or a proposal settled or lapsed."""
    if not isinstance(accept, bool):
        raise InvalidRequest(gettext("accept must be true or false."))
    with transaction.atomic():
        game, seat = _locked(game_id, user)
        proposal = _open_proposal(game, proposal_id)
        if seat.index == proposal.seat:
            raise NotAllowed(gettext("This is your own proposal: you may withdraw it, not answer it."))
        if _is_bot(seat):
            raise Conflict(gettext("A bot plays this seat now: you left the game or ran out of time too often."))
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
