"""The agreements panel on the game page (what is proposed at the table, the takeback the player may ask for, and the
proposals they may put to a vote), drawn from the page's own context (``viewer``): nothing for anyone who does not
sit at the game, a few queries for a player of a game in play."""

from django import template

from turnbased.agreements import selectors
from turnbased.agreements.checks import proposals_offered
from turnbased.play.models import GameStatus

register = template.Library()


def panel_context(request, viewer) -> dict:
    game = viewer.game
    shown = (viewer.seat is not None and request.user.is_authenticated and game.status == GameStatus.ACTIVE)
    waiting = selectors.waiting_proposal(game) if shown else None
    shown_waiting = selectors.proposal_shown(waiting, game) if waiting else None
    if shown_waiting is not None:
        shown_waiting["text"] = selectors.proposal_text(waiting.kind, waiting.status, {
            **shown_waiting, "game": game.title})
    return {
        "request": request, "shown": shown, "game": game, "seat": viewer.seat,
        "waiting": shown_waiting,
        "offered": shown and waiting is None and selectors.takeback_offered(viewer),
        "votes": proposals_offered(viewer) if shown and waiting is None else [],
    }


@register.inclusion_tag("agreements/_agreements.html", takes_context=True)
def agreements_panel(context):
    return {**panel_context(context["request"], context["viewer"]), "csrf_token": context.get("csrf_token")}
