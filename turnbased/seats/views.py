"""The page door of seat offers: a game's offer form (which seat, to whom), an offer's own page (take it, decline it),
and the forms they post; each says what will happen, or why it cannot, for a browser without scripts too."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from turnbased.kit.errors import GameNotFound, NotFound, PlayError
from turnbased.kit.http.limits import page_refusal
from turnbased.play.selectors import viewer_of
from turnbased.seats import rules, selectors, services
from turnbased.seats.models import OfferStatus
from turnbased.seats.templatetags.seat_offers import panel_context


def _acted(request, act, done: str, back):
    refusal = page_refusal(request, "api")
    if refusal:
        messages.error(request, refusal.detail)
        return redirect(back())
    try:
        act()
    except (GameNotFound, NotFound):
        raise Http404(gettext("No such seat offer.")) from None
    except PlayError as failure:
        messages.error(request, failure.detail)
    else:
        messages.success(request, done)
    return redirect(back())


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def offer_new(request, game_id: int):
    """Offer a seat of a game I play (GET: the form, or why nothing can be offered; POST: the offer)."""
    back = lambda: reverse("game-detail", args=[game_id]) + "#seats"  # noqa: E731
    if request.method == "POST":
        seat = request.POST.get("seat", "")
        return _acted(request, lambda: services.offer_make(
            game_id=game_id, user=request.user, seat=int(seat) if seat.isdigit() and len(seat) < 4 else seat,
            username=request.POST.get("username", "")[:200] or None),
            gettext("The seat is offered."), back)
    try:
        viewer = viewer_of(game_id, request.user)
    except GameNotFound:
        raise Http404(gettext("No such game.")) from None
    shown = panel_context(request, viewer)
    if not shown["shown"]:
        reason = (gettext("This table's seats are kept for its competition's entrants.")
                  if viewer.seat is not None and not rules.offers_allowed(viewer.game)
                  else gettext("Only the game's players, while it is in play, offer its seats."))
        return render(request, "seats/offer_new.html", {"refusal": reason}, status=403)
    names = shown["names"]
    return render(request, "seats/offer_new.html", {
        **shown, "bot_choices": [(index, names[index]) for index in shown["bot_seats"]],
        "listable": rules.listable(viewer.game), "refusal": None})


@require_safe
def offer_page(request, offer_id: int):
    """An offer: what taking the seat means, with the buttons to take it or decline it."""
    try:
        offer = selectors.offer_for(offer_id, request.user)
    except NotFound:
        raise Http404(gettext("No such seat offer.")) from None
    shown = selectors.offer_shown(offer)
    mine = request.user.is_authenticated and offer.offered_to_id in (None, request.user.pk)
    seated = request.user.is_authenticated and any(seat.user_id == request.user.pk for seat in offer.game.seats.all())
    return render(request, "seats/offer.html", {
        "offer": shown, "title": offer.game.title, "may_take": mine and not seated,
        "refusal": gettext("You already play at this game: one seat each.") if mine and seated
        and shown["status"] == OfferStatus.OPEN else None,
        "status_label": OfferStatus(shown["status"]).label,
    })


def _offer_back(offer_id: int):
    return lambda: reverse("seat-offer", args=[offer_id])


@require_POST
@login_required
def offer_accept(request, offer_id: int):
    refusal = page_refusal(request, "api")
    if refusal:
        messages.error(request, refusal.detail)
        return redirect(reverse("seat-offer", args=[offer_id]))
    try:
        offer = services.offer_accept(offer_id=offer_id, user=request.user)
    except NotFound:
        raise Http404(gettext("No such seat offer.")) from None
    except PlayError as failure:
        messages.error(request, failure.detail)
        return redirect(reverse("seat-offer", args=[offer_id]))
    messages.success(request, gettext("The seat is yours: you play it from now on."))
    return redirect(reverse("game-detail", args=[offer.game_id]))


@require_POST
@login_required
def offer_decline(request, offer_id: int):
    return _acted(request, lambda: services.offer_decline(offer_id=offer_id, user=request.user),
                  gettext("You declined the seat."), _offer_back(offer_id))


@require_POST
@login_required
def offer_withdraw(request, offer_id: int):
    return _acted(request, lambda: services.offer_withdraw(offer_id=offer_id, user=request.user),
                  gettext("You withdrew the offer."), _offer_back(offer_id))
