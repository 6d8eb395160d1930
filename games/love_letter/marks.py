"""The cards a Love Letter player may mark in their private notes (issue 46): each other player's hand while they are
in the round (a guess at what they hold), named by its player."""

from __future__ import annotations

from typing import Any

from games.i18n import catalog_of

_ = catalog_of(__name__)


def mark_spots(view: dict[str, Any]) -> list[tuple[str, str]]:
    return [(f"hand:{seat['seat']}", _("{player}'s hand").format(player=seat["name"]))
            for seat in view.get("seats", [])
            if seat["seat"] != view.get("you") and seat.get("in_round") and not seat.get("left")]
