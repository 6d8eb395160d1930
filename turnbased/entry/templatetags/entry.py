"""The table page's requirements (what the table asks, shown before anyone joins, and whether the viewer meets it),
and where a person stands under the limits on games waiting."""

from __future__ import annotations

from django import template

from turnbased.entry import requirements as rules
from turnbased.entry import waiting
from turnbased.entry.reactions import requirements_of

register = template.Library()


@register.inclusion_tag("entry/_requirements.html", takes_context=True)
def table_requirements(context) -> dict:
    game, user = context["game"], context["request"].user
    requirements = requirements_of(game)
    if requirements is None:
        return {"asked": []}
    seated = user.is_authenticated and any(seat.user_id == user.pk for seat in game.seats.all())
    unmet = rules.unmet(requirements, user, game) if user.is_authenticated and not seated \
        and game.status == "open" else None
    return {"asked": rules.worded(requirements), "unmet": unmet, "checked": user.is_authenticated and not seated}


@register.inclusion_tag("entry/_games_waiting.html", takes_context=True)
def games_waiting(context, game=None) -> dict:
    """Where the signed-in person stands under the limits on games waiting (the lobby, the new-table page, and an
    open table they may join: ``game``, whose own invitation a join answers, is left out of the count)."""
    user = context["request"].user
    if not user.is_authenticated or not waiting.any_limit():
        return {"worded": ""}
    mine = waiting.standing(user, besides=game)
    if game is not None:
        refusal = mine.why_not_join()
        return {"worded": refusal or mine.worded(), "refused": refusal is not None}
    return {"worded": mine.worded(), "refused": mine.may_join == 0 or not mine.may_create}
