"""The page door of agreements: the game page's agreements panel (``templates/agreements/_panel.html``) and the
forms it posts; asking for a takeback and proposing a pause, extra time, a draw or a cancel each have a confirm step
of their own (a page that says what will happen, or why it cannot), for a browser without scripts too."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from turnbased.agreements import selectors, services
from turnbased.agreements.checks import VOTES, proposal_refusal, takeback_refusal
from turnbased.agreements.models import ProposalKind
from turnbased.clocks.agreed import EXTRA_DAYS_MOST, PAUSE_DAYS_MOST
from turnbased.agreements.templatetags.table_agreements import panel_context
from turnbased.kit.errors import GameNotFound, PlayError
from turnbased.kit.http.limits import page_refusal
from turnbased.play.selectors import viewer_of


def _back(game_id: int):
    return redirect(reverse("game-detail", args=[game_id]) + "#agreements")


def _acted(request, game_id: int, act, done: str):
    refusal = page_refusal(request, "api")
    if refusal:
        messages.error(request, refusal.detail)
        return _back(game_id)
    try:
        act()
    except GameNotFound:
        raise Http404(gettext("No such game.")) from None
    except PlayError as failure:
        messages.error(request, failure.detail)
    else:
        messages.success(request, done)
    return _back(game_id)


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def takeback(request, game_id: int):
    """The confirm step (GET: what asking does, or why it cannot be asked), then the ask (POST)."""
    if request.method == "POST":
        return _acted(request, game_id, lambda: services.takeback_ask(game_id=game_id, user=request.user),
                      gettext("You asked to take back your last move: the others are asked to agree."))
    try:
        viewer = selectors.proposal_viewer(game_id, request.user)
    except GameNotFound:
        raise Http404(gettext("No such game.")) from None
    except PlayError as refusal:
        return render(request, "agreements/takeback.html", {"refusal": refusal.detail}, status=refusal.status)
    game = viewer.game
    seat = next(seat for seat in game.seats.all() if seat.index == viewer.seat)
    refusal = takeback_refusal(game, seat)
    reason = refusal.detail if refusal else None
    return render(request, "agreements/takeback.html", {"game": game, "move": game.seq, "refusal": reason},
                  status=refusal.status if refusal else 200)


def _whole(value: str | None) -> int | None:
    return int(value) if value is not None and value.isdigit() and len(value) < 6 else None


DONE = {
    ProposalKind.PAUSE: lambda: gettext("You proposed a pause: the others are asked to agree."),
    ProposalKind.EXTRA_TIME: lambda: gettext("You proposed extra time: the others are asked to agree."),
    ProposalKind.DRAW: lambda: gettext("You proposed a draw: the others are asked to agree."),
    ProposalKind.CANCEL: lambda: gettext("You proposed to cancel the game: the others are asked to agree."),
}


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def propose(request, game_id: int, kind: str):
    """The confirm step of a proposal put to a vote (GET: what it would do, with its days and seat to choose, or why
    it cannot be made), then the proposal (POST)."""
    if kind not in VOTES:
        raise Http404(gettext("No such proposal."))
    if request.method == "POST":
        terms = {"days": _whole(request.POST.get("days")), "seat": _whole(request.POST.get("seat"))}
        return _acted(request, game_id, lambda: services.proposal_make(
            game_id=game_id, user=request.user, kind=kind, terms=terms), DONE[kind]())
    try:
        viewer = selectors.proposal_viewer(game_id, request.user)
    except GameNotFound:
        raise Http404(gettext("No such game.")) from None
    except PlayError as refusal:
        return render(request, "agreements/propose.html", {"kind": kind, "refusal": refusal.detail},
                      status=refusal.status)
    game = viewer.game
    seat = next(seat for seat in game.seats.all() if seat.index == viewer.seat)
    refusal = proposal_refusal(game, seat, kind, {"seat": seat.index, "days": 1})
    names = list(game.player_names)
    people = [(other.index, names[other.index]) for other in game.seats.all()
              if not other.bot and other.left_at is None]
    most = PAUSE_DAYS_MOST if kind == ProposalKind.PAUSE else EXTRA_DAYS_MOST
    return render(request, "agreements/propose.html", {
        "game": game, "kind": kind, "seat": seat.index, "people": people, "day_choices": range(1, most + 1),
        "refusal": refusal.detail if refusal else None,
    }, status=refusal.status if refusal else 200)


@require_POST
@login_required
def answer(request, game_id: int, proposal_id: int):
    accept = request.POST.get("accept") == "yes"
    return _acted(request, game_id, lambda: services.proposal_answer(
        game_id=game_id, proposal_id=proposal_id, user=request.user, accept=accept),
        gettext("You agreed.") if accept else gettext("You declined."))


@require_POST
@login_required
def withdraw(request, game_id: int, proposal_id: int):
    return _acted(request, game_id, lambda: services.proposal_withdraw(
        game_id=game_id, proposal_id=proposal_id, user=request.user), gettext("You withdrew your proposal."))


@require_safe
def panel(request, game_id: int):
    """The agreements panel alone, for the game page to fetch when its stream tells of a proposal (or a move)."""
    try:
        viewer = viewer_of(game_id, request.user)
    except GameNotFound:
        raise Http404(gettext("No such game.")) from None
    return render(request, "agreements/_agreements.html", panel_context(request, viewer))
