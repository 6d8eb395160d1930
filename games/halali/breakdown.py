"""The final score of a Halali! match by kind of tile (the engine contract's ``score_breakdown``).

Rules file §8: a player's points are the values of the tiles in their pile
(bear 10; fox, lumberjack and hunter 5; pheasant 3; duck and tree 2), added
over both legs (§9). Each kind anyone collected is a row; the tiles collected
(the tie-break) and each leg's points follow as rows that do not count again.
Piles are public, so the breakdown hides nothing. The labels are in the reader's language.
"""

from __future__ import annotations

from typing import Any

from games.halali.names import tile_name
from games.halali.player_view import match_totals
from games.halali.tiles import KINDS, POINTS
from games.i18n import catalog_of

_ = catalog_of(__name__)


def _kinds_collected(state: dict[str, Any]) -> list[list[str]]:
    """Return each seat's collected kinds over the finished legs and the leg cut short, if any."""
    piles = [[], []]
    for record in state["legs"]:
        for seat in (0, 1):
            piles[seat].extend(record["piles"][seat])
    if len(state["legs"]) < state["leg"]:  # a resignation ended the match during this leg
        for seat in (0, 1):
            piles[seat].extend(entry["kind"] for entry in state["piles"][seat])
    return piles


def score_breakdown(state: dict[str, Any]) -> list[dict[str, Any]]:
    """Return the points per kind of tile, then the tiles collected and each leg's points; empty before the end."""
    if state["phase"] != "over":
        return []
    piles = _kinds_collected(state)
    rows = []
    for kind in KINDS:
        counts = [pile.count(kind) for pile in piles]
        if any(counts):
            label = _.ngettext("{tile} ({count} point each)", "{tile} ({count} points each)", POINTS[kind]).format(
                tile=tile_name(kind), count=POINTS[kind]
            )
            rows.append({"label": label, "points": [count * POINTS[kind] for count in counts], "counts": True})
    tiles = match_totals(state)[1]
    rows.append({"label": _("Tiles collected (the tie-break)"), "points": tiles, "counts": False})
    for record in state["legs"]:
        rows.append({"label": _("Leg {leg}").format(leg=record["leg"]), "points": list(record["points"]), "counts": False})
    return rows
