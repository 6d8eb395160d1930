"""The cards a Savernake Forest player may mark in their private notes (issue 46): every card in every forest, face
up or face down (a path to finish, an animal to feed), named by whose forest and where in it."""

from __future__ import annotations

from typing import Any

from games.i18n import catalog_of

_ = catalog_of(__name__)


def mark_spots(view: dict[str, Any]) -> list[tuple[str, str]]:
    spots = []
    for seat in view.get("seats", []):
        for cell in sorted(seat.get("forest", []), key=lambda cell: (-cell["y"], cell["x"])):
            spots.append((f"card:{seat['seat']}:{cell['x']},{cell['y']}",
                          _("{player}'s forest: the card at {x}, {y}").format(player=seat["name"], x=cell["x"],
                                                                              y=cell["y"])))
    return spots
