"""The end screen and rematch offers, drawn into the game page and the lobby by tags of their own."""

from __future__ import annotations

from django import template

from django.utils.translation import gettext

from turnbased.aftergame import selectors
from turnbased.aftergame.summary import GameSummary, summary
from turnbased.clocks.services import format_duration
from turnbased.play.models import GameStatus

register = template.Library()


def rematch_box_context(game, user) -> dict:
    """Return what the rematch box of finished game ``game`` shows ``user``."""
    rematch = selectors.rematch_for(game)
    plays = (user.is_authenticated and any(seat.user_id == user.pk for seat in game.seats.all())
             and (rematch is not None or selectors.rematch_offered(game)))
    state = selectors.rematch_state(rematch, user) if rematch is not None else None
    # The box asks for news while something can still change for this viewer: a rematch proposed or answered.
    live = plays and (state is None or state.status == "waiting")
    return {"game": game, "user": user, "plays": plays, "rematch": state, "live": live,
            "version": state.version if state else "none"}


def _points(scores: list[float]) -> str:
    return "–".join(str(int(value)) if float(value).is_integer() else f"{value:g}" for value in scores)


def told(found: GameSummary | None, labels: list) -> dict | None:
    """Return the game in short as the end screen words it: a row per player, and the turning points."""
    if found is None or len(labels) != len(found.seats):
        return None
    return {
        "rows": [{"seat": labels[row.seat], "moves": row.moves, "bot_moves": row.bot_moves,
                  "time": format_duration(row.seconds) if row.moves else "",
                  "longest": format_duration(row.longest_seconds) if row.moves else ""} for row in found.seats],
        "moves": found.moves,
        "time": format_duration(found.seconds),
        "turns": [{"seq": point.seq, "seat": labels[point.leader], "points": _points(point.scores),
                   "decisive": point is found.decisive} for point in found.turning_points],
        "earlier_turns": found.lead_changes - len(found.turning_points),
        "no_lead": gettext("Nobody ever led alone on the count every player could see.")
        if not found.turning_points and found.lead_changes == 0 else "",
    }


@register.inclusion_tag("aftergame/_after_game.html", takes_context=True)
def after_game(context) -> dict:
    """Draw, for a finished game, how it ended, its score table and its rematch; for a rematch, where it came from."""
    game = context["game"]
    user = context["request"].user
    found = {"game": game, "user": user, "rematched_from": selectors.rematched_from(game)}
    if game.status == GameStatus.FINISHED:
        score = selectors.final_score(game)
        found.update(
            ending=selectors.ending(game),
            score=score,
            told=told(summary(game), score.seats if score else []),
            ratings=selectors.rating_moves(game),
            **{f"box_{key}": value for key, value in rematch_box_context(game, user).items()},
        )
    elif found["rematched_from"] is not None and game.status == GameStatus.OPEN:
        found["offer"] = selectors.rematch_state(found["rematched_from"], user)
    return found


@register.inclusion_tag("aftergame/_lobby_offers.html", takes_context=True)
def rematch_offers(context) -> dict:
    """Draw the lobby's list of rematches waiting for the viewer's one-click acceptance."""
    user = context["request"].user
    return {"offers": selectors.offers_for(user) if user.is_authenticated else [], "csrf_token": context.get("csrf_token")}
