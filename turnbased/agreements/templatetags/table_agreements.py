"""The agreements panel on the game page (what is proposed at the table, and the takeback the player may ask for),
drawn from the page's own context (``viewer``): nothing for anyone who does not sit at the game, two queries for a
player of a game in play."""

from django import template

from turnbased.agreements import selectors
from turnbased.play.models import GameStatus

register = template.Library()


def panel_context(request, viewer) -> dict:
    game = viewer.game
    shown = (viewer.seat is not None and request.user.is_authenticated and game.status == GameStatus.ACTIVE)
    waiting = selectors.waiting_proposal(game) if shown else None
    return {
        "request": request, "shown": shown, "game": game, "seat": viewer.seat,
        "waiting": selectors.proposal_shown(waiting, game) if waiting else None,
        "offered": shown and waiting is None and selectors.takeback_offered(viewer),
    }


@register.inclusion_tag("agreements/_agreements.html", takes_context=True)
def agreements_panel(context):
    return {**panel_context(context["request"], context["viewer"]), "csrf_token": context.get("csrf_token")}
