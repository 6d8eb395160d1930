"""The final score of a Carcassonne: Hunters and Gatherers game by category (the contract's ``score_breakdown``).

Points scored during play (completed forests and rivers, hunting traps,
logboats) are kept as one running total per seat, so they form one row; the
final scoring of §5 adds a row for the meadows (hunters) and one for the river
systems (huts). Every scoring is public, so the breakdown hides nothing. The labels are worded in
the reader's language each time the breakdown is asked for.
"""

from __future__ import annotations

from typing import Any

from games.i18n import catalog_of

_ = catalog_of(__name__)
N_ = _.noop

LABELS = {"meadow": N_("Meadows (hunters, at the end)"), "river_system": N_("River systems (huts, at the end)")}
DURING_PLAY = N_("During play (forests, rivers, hunting traps, logboats)")


def score_breakdown(state: dict[str, Any]) -> list[dict[str, Any]]:
    """Return the points scored during play, from meadows and from river systems; empty while the game goes on."""
    if state["phase"] != "over":
        return []
    seats = len(state["scores"])
    final = {feature: [0] * seats for feature in LABELS}
    for entry in state["final"] or []:
        for scorer in entry["scorers"]:
            final[entry["feature"]][scorer] += entry["points"]
    during = [state["scores"][seat] - sum(points[seat] for points in final.values()) for seat in range(seats)]
    rows = [{"label": _(DURING_PLAY), "points": during, "counts": True}]
    rows.extend({"label": _(LABELS[feature]), "points": points, "counts": True} for feature, points in final.items())
    return rows
