"""The final score of a Savernake Forest game by scoring category (the engine contract's ``score_breakdown``).

Rules file §10: each face-up animal scores its base points plus the food it
stores from its path; with the stored-food tie-break (§11) the food items
stored break a tie on points, otherwise they are only a fact beside the score.
Forests are public and the final scoring is announced to all, so the
breakdown hides nothing. Its labels are in the reader's language.
"""

from __future__ import annotations

from typing import Any

from games.i18n import catalog_of
from games.savernake_forest.options import STORED_FOOD, reading

_ = catalog_of(__name__)


def score_breakdown(state: dict[str, Any]) -> list[dict[str, Any]]:
    """Return the animals' base points, the points of the food they store, and the food items; empty before the end."""
    result = state["result"]
    if result is None:
        return []
    sheets = result["animals"]
    return [
        {"label": _("Animals (base points)"), "points": [sum(a["base"] for a in sheet) for sheet in sheets],
         "counts": True},
        {"label": _("Food stored (points)"), "points": [sum(a["food_points"] for a in sheet) for sheet in sheets],
         "counts": True},
        {"label": _("Food items stored (the tie-break)") if reading(state["options"], "tie_break") == STORED_FOOD
         else _("Food items stored"), "points": list(result["stored"]), "counts": False},
        {"label": _("Animals scoring"), "points": [len(sheet) for sheet in sheets], "counts": False},
    ]
