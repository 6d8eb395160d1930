"""Competitions' machine fields in the reader's words, for their pages."""

from __future__ import annotations

from django import template
from django.utils.translation import gettext

from games import engines
from turnbased.competitions import selectors, wording
from turnbased.competitions.models import (
    CompetitionStatus, EntrantStatus, Format, RoundStatus, Settled, TableStatus, WithdrawnBecause,
)

register = template.Library()


def _label(choices, value) -> str:
    return str(dict(choices.choices).get(value, value))


@register.filter
def game_name(slug: str) -> str:
    engine = engines().get(slug)
    return engine.display_name() if engine else slug


@register.filter
def format_name(value: str) -> str:
    return _label(Format, value)


@register.filter
def status_name(value: str) -> str:
    return _label(CompetitionStatus, value)


@register.filter
def entry_word(value: str) -> str:
    return _label(EntrantStatus, value)


@register.filter
def because_word(value: str) -> str:
    return _label(WithdrawnBecause, value) if value else ""


@register.filter
def round_state(value: str) -> str:
    return _label(RoundStatus, value)


@register.filter
def table_state(value: str) -> str:
    return _label(TableStatus, value)


@register.filter
def settled_word(value: str) -> str:
    return _label(Settled, value) if value else ""


@register.filter
def tiebreak_name(value: str) -> str:
    return wording.tiebreak_name(value)


@register.filter
def league_move_word(value: str) -> str:
    """Say how a league season's player came into their division."""
    return {"up": gettext("promoted"), "down": gettext("relegated"), "stay": gettext("stayed"),
            "new": gettext("new")}.get(value, value)



LOBBY_LISTED = 5


@register.inclusion_tag("competitions/_lobby.html", takes_context=True)
def my_competitions(context) -> dict:
    """The lobby's list of the competitions the signed-in person plays in that have not ended (one statement)."""
    user = context["request"].user
    if not user.is_authenticated:
        return {"rows": []}
    rows = list(selectors.competitions_of(user).filter(status__in=[CompetitionStatus.ENTRY,
                                                                   CompetitionStatus.RUNNING])
                .select_related(None).prefetch_related(None).only("pk", "name", "status", "starts_at")
                [:LOBBY_LISTED + 1])
    return {"rows": rows[:LOBBY_LISTED], "more": len(rows) > LOBBY_LISTED}
