"""The tiles a Carcassonne: Hunters and Gatherers player may mark in their private notes (issue 46): every tile on the
board (a forest to close, a river to watch), named by where it lies."""

from __future__ import annotations

from typing import Any

from games.i18n import catalog_of

_ = catalog_of(__name__)


def mark_spots(view: dict[str, Any]) -> list[tuple[str, str]]:
    placed = sorted((-entry[1], entry[0]) for entry in view.get("board", []))  # north to south, west to east
    return [(f"tile:{x},{-minus_y}", _("the tile at {x}, {y}").format(x=x, y=-minus_y)) for minus_y, x in placed]
