"""The seats a person may take, in the lobby, and a table's seat offers under the board of its game page: drawn from
the page's own context, one query each (none for a table with no bot's seat and no offer, past the seats read)."""

from django import template

from turnbased.play.models import GameStatus
from turnbased.seats import rules, selectors
from turnbased.seats.models import OfferStatus

register = template.Library()


@register.inclusion_tag("seats/_lobby.html", takes_context=True)
def seats_to_take(context):
    request = context["request"]
    return {"offers": [selectors.offer_shown(offer, status=OfferStatus.OPEN)
                       for offer in selectors.offers_for(request.user)],
            "request": request}


def panel_context(request, viewer) -> dict:
    """The table's open offers and what its player may offer (a bot's seat, their own), for a player of a game in
    play whose table lets its seats change hands."""
    game = viewer.game
    seats = list(game.seats.all())
    mine = next((seat for seat in seats if seat.index == viewer.seat), None)
    playing = (request.user.is_authenticated and mine is not None and not mine.bot and mine.left_at is None
               and game.status == GameStatus.ACTIVE and rules.offers_allowed(game))
    bot_seats = [seat.index for seat in seats if seat.bot and seat.user_id is not None]
    offers = [selectors.offer_shown(offer, game) for offer in selectors.offers_at(game)] if playing else []
    return {"shown": playing, "game": game, "seat": viewer.seat, "offers": offers, "bot_seats": bot_seats,
            "names": list(game.player_names), "request": request}


@register.inclusion_tag("seats/_table.html", takes_context=True)
def table_seat_offers(context):
    return {**panel_context(context["request"], context["viewer"]), "csrf_token": context.get("csrf_token")}
