"""Reads of agreements: the proposal waiting at a table, the latest ones, what the page offers a player, and the
words of the events that tell the table's players of them. Proposals are the players' business: only the people
seated at the table read them (a takeback carried shows in everyone's history as the log's entry)."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from turnbased.agreements import rules
from turnbased.agreements.models import Proposal, ProposalKind, ProposalStatus
from turnbased.events.models import Event
from turnbased.kit.errors import NotAllowed
from turnbased.play import store
from turnbased.play.models import Game, GameStatus, Move, MoveSource
from turnbased.play.selectors import Viewer, viewer_of

LISTED = 20  # the latest proposals a table's list shows


def proposal_viewer(game_id: int, user: AbstractBaseUser | AnonymousUser) -> Viewer:
    """Return the place at the game of a player of it; a game the user may not see does not exist for them
    (``GameNotFound``), and one they watch without a seat is refused: proposals are its players' business."""
    viewer = viewer_of(game_id, user)
    if viewer.seat is None or not user.is_authenticated:
        raise NotAllowed(gettext("Only the game's players make and answer proposals at its table."))
    return viewer


def status_of(proposal: Proposal, game: Game) -> str:
    """The proposal's status as it stands now: an open one lapses once its window closes or the game ends, and a
    takeback or a draw once anyone moves."""
    if proposal.status == ProposalStatus.OPEN and (
            game.status != GameStatus.ACTIVE or timezone.now() >= proposal.expires_at
            or (proposal.kind in rules.LAPSES_ON_MOVE and game.seq != proposal.seq)):
        return ProposalStatus.LAPSED
    return proposal.status


def waiting_proposal(game: Game) -> Proposal | None:
    """Return the proposal at the table still waiting for answers (not lapsed), with its answers, or None."""
    found = Proposal.objects.filter(game=game, status=ProposalStatus.OPEN).prefetch_related("answers").first()
    return found if found is not None and status_of(found, game) == ProposalStatus.OPEN else None


def proposals_of(game: Game) -> list[Proposal]:
    """Return the table's latest proposals, the newest first, with their answers."""
    return list(Proposal.objects.filter(game=game).prefetch_related("answers")[:LISTED])


def waiting_for(proposal: Proposal, game: Game) -> list[int]:
    """Return the seats whose answer the proposal still waits for (none once it is settled): every other person
    still at the table (a player who resigned is asked nothing; a bot answered when it was made)."""
    if status_of(proposal, game) != ProposalStatus.OPEN:
        return []
    answered = {answer.seat for answer in proposal.answers.all()}
    return [seat.index for seat in game.seats.all()
            if seat.index != proposal.seat and seat.index not in answered and seat.left_at is None]


def proposal_shown(proposal: Proposal, game: Game) -> dict:
    """A proposal as the API, the page and the stream show it to the table's players."""
    names = list(game.player_names)
    return {
        "id": proposal.pk,
        "kind": proposal.kind,
        "status": status_of(proposal, game),
        "seat": proposal.seat,
        "player": names[proposal.seat],
        "move": proposal.terms.get("seq"),
        "days": proposal.terms.get("days"),
        "for_seat": proposal.terms.get("seat"),
        "for_player": names[proposal.terms["seat"]] if "seat" in proposal.terms else None,
        "made_at": proposal.created_at,
        "expires_at": proposal.expires_at,
        "decided_at": proposal.decided_at,
        "answers": [{"seat": answer.seat, "player": names[answer.seat], "accepted": answer.accepted,
                     "by_bot": answer.user_id is None} for answer in proposal.answers.all()],
        "waiting_for": waiting_for(proposal, game),
    }


def takeback_offered(viewer: Viewer) -> bool:
    """Whether the game page offers its player to ask for their last move back: a game whose moves may be taken
    back, in play, the last entry theirs, no proposal waiting, the table allowing it (the confirm step replays the
    game and says why, if the move itself may not be). One query, for a player of such a game only."""
    game, seat = viewer.game, viewer.seat
    if seat is None or game.status != GameStatus.ACTIVE or game.seq == 0 or not store.engine_of(game).offers_takebacks:
        return False
    if rules.forbidden_reason(game, ProposalKind.TAKE_BACK) or any(s.bot for s in game.seats.all() if s.index == seat):
        return False
    last = Move.objects.filter(game=game, seq=game.seq).values_list("seat", "source").first()
    return last is not None and last[0] == seat and last[1] != MoveSource.AGREED


def proposal_text(kind: str, status: str, values: dict) -> str:
    """The sentence that tells of a proposal of ``kind`` as ``status`` says, in the reader's language; ``values``:
    player (who proposed), game (the table's name), move, days, for_player (who is given time)."""
    days = values.get("days") or 0
    texts = {
        ProposalKind.TAKE_BACK: {
            ProposalStatus.OPEN: gettext("%(player)s asks to take back move %(move)s at %(game)s."),
            ProposalStatus.ACCEPTED: gettext("Move %(move)s at %(game)s was taken back: everyone agreed."),
            ProposalStatus.DECLINED: gettext("%(player)s's request to take back move %(move)s at %(game)s was "
                                             "declined."),
            ProposalStatus.WITHDRAWN: gettext("%(player)s withdrew the request to take back move %(move)s at "
                                              "%(game)s."),
            ProposalStatus.LAPSED: gettext("%(player)s's request to take back move %(move)s at %(game)s lapsed."),
        },
        ProposalKind.PAUSE: {
            ProposalStatus.OPEN: ngettext("%(player)s proposes to pause the clocks at %(game)s for %(days)s day.",
                                          "%(player)s proposes to pause the clocks at %(game)s for %(days)s days.",
                                          days),
            ProposalStatus.ACCEPTED: ngettext("The clocks at %(game)s are paused for %(days)s day: everyone agreed.",
                                              "The clocks at %(game)s are paused for %(days)s days: everyone agreed.",
                                              days),
            ProposalStatus.DECLINED: gettext("%(player)s's proposal to pause the clocks at %(game)s was declined."),
            ProposalStatus.WITHDRAWN: gettext("%(player)s withdrew the proposal to pause the clocks at %(game)s."),
            ProposalStatus.LAPSED: gettext("%(player)s's proposal to pause the clocks at %(game)s lapsed."),
        },
        ProposalKind.EXTRA_TIME: {
            ProposalStatus.OPEN: ngettext("%(player)s proposes to give %(for_player)s %(days)s more day at %(game)s.",
                                          "%(player)s proposes to give %(for_player)s %(days)s more days at "
                                          "%(game)s.", days),
            ProposalStatus.ACCEPTED: ngettext("%(for_player)s has %(days)s more day at %(game)s: everyone agreed.",
                                              "%(for_player)s has %(days)s more days at %(game)s: everyone agreed.",
                                              days),
            ProposalStatus.DECLINED: gettext("%(player)s's proposal to give %(for_player)s more time at %(game)s was "
                                             "declined."),
            ProposalStatus.WITHDRAWN: gettext("%(player)s withdrew the proposal to give %(for_player)s more time at "
                                              "%(game)s."),
            ProposalStatus.LAPSED: gettext("%(player)s's proposal to give %(for_player)s more time at %(game)s "
                                           "lapsed."),
        },
        ProposalKind.DRAW: {
            ProposalStatus.OPEN: gettext("%(player)s proposes to end %(game)s as a draw."),
            ProposalStatus.ACCEPTED: gettext("%(game)s ended as a draw: everyone agreed."),
            ProposalStatus.DECLINED: gettext("%(player)s's proposal to end %(game)s as a draw was declined."),
            ProposalStatus.WITHDRAWN: gettext("%(player)s withdrew the proposal to end %(game)s as a draw."),
            ProposalStatus.LAPSED: gettext("%(player)s's proposal to end %(game)s as a draw lapsed."),
        },
        ProposalKind.CANCEL: {
            ProposalStatus.OPEN: gettext("%(player)s proposes to cancel %(game)s: it would end with no result and "
                                         "count for nobody's rating."),
            ProposalStatus.ACCEPTED: gettext("%(game)s was cancelled: everyone agreed."),
            ProposalStatus.DECLINED: gettext("%(player)s's proposal to cancel %(game)s was declined."),
            ProposalStatus.WITHDRAWN: gettext("%(player)s withdrew the proposal to cancel %(game)s."),
            ProposalStatus.LAPSED: gettext("%(player)s's proposal to cancel %(game)s lapsed."),
        },
    }
    by_status = texts.get(kind, texts[ProposalKind.TAKE_BACK])
    text = by_status.get(status, by_status[ProposalStatus.OPEN])
    return text % {"player": "?", "game": "", "move": "", "for_player": "?", **values, "days": days}


def word_proposal_event(payload: dict, event: Event) -> dict:
    """The words of a ``proposal_made`` or ``proposal_decided`` event (``text``), in the reader's language."""
    title = payload.get("name") or f"#{event.game_id}"
    values = {"player": payload.get("player", "?"), "move": payload.get("move"), "game": title,
              "days": payload.get("days"), "for_player": payload.get("for_player") or "?"}
    text = proposal_text(payload.get("kind", ProposalKind.TAKE_BACK), payload.get("status"), values)
    return {**payload, "text": text}
