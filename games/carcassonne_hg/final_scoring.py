"""The final scoring of a Carcassonne: Hunters and Gatherers game (rules file §5, §7).

When the game ends, each meadow holding hunters is scored for its hunter majority (a hunter on the
classic shrine wins the meadow alone, §7.5) and each river system holding huts for its hut
majority. Gatherers and fishermen in unfinished forests and rivers score nothing. The engine
ends the game with the scores worked out here.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from games.base import Event, State
from games.carcassonne_hg import scoring, tiles
from games.carcassonne_hg.analysis import Analysis
from games.carcassonne_hg.pieces import HUNTER, HUT, node_of
from games.carcassonne_hg.tiles import MEADOW, REVISED


def score_final(state: State, an: Analysis, events: list[Event]) -> tuple[list[int], list[dict[str, Any]]]:
    """Return every seat's score after scoring meadows (hunters) and river systems (huts), and the entries.

    Each entry is also appended to ``events`` (``meadow_scored``, ``river_system_scored``), meadows
    first, each kind in the order of its first piece on the board.
    """
    opts = state["options"]
    edition = state["edition"]
    cancelled = {tuple(node) for node in state["cancelled"]}
    final: list[dict[str, Any]] = []
    by_zone: dict[int, list[dict]] = {}
    by_system: dict[int, list[dict]] = {}
    for piece in state["pieces"]:
        if piece["kind"] == HUNTER:
            by_zone.setdefault(an.zone_of[node_of(piece)], []).append(piece)
        elif piece["kind"] == HUT:
            by_system.setdefault(an.system_of[node_of(piece)], []).append(piece)
    scores = list(state["scores"])
    for root, hunters in sorted(by_zone.items(), key=lambda item: min(map(node_of, item[1]))):
        zone = an.zones[root]
        detail = scoring.meadow_score(edition, an, zone, cancelled, opts["wildfire_tile_tiger_counts"])
        shrine = [p for p in hunters if an.region(node_of(p)).special == tiles.SHRINE]
        if shrine:
            scorers = sorted({p["seat"] for p in shrine})  # §7.5: a hunter on the shrine wins the meadow alone
        else:
            scorers = scoring.majority(dict(Counter(p["seat"] for p in hunters)))
        for scorer in scorers:
            scores[scorer] += detail["points"]
        at = min(map(node_of, hunters))
        entry = {"feature": MEADOW, "x": at[0], "y": at[1], "region": at[2], "tiles": len(zone.tiles)}
        entry.update(detail, scorers=scorers, shrine=bool(shrine))
        final.append(entry)
        events.append(Event("meadow_scored", entry))
    for root, huts in sorted(by_system.items(), key=lambda item: min(map(node_of, item[1]))):
        system = an.systems[root]
        scorers = scoring.majority(dict(Counter(p["seat"] for p in huts)))
        points = scoring.system_points(edition, system)
        for scorer in scorers:
            scores[scorer] += points
        at = min(map(node_of, huts))
        raft = system.raft and edition == REVISED
        entry = {
            "feature": "river_system",
            "x": at[0],
            "y": at[1],
            "region": at[2],
            "fish": system.fish,
            "lakes": len(system.lakes),
            "raft": raft,
            "points": points,
            "scorers": scorers,
        }
        final.append(entry)
        events.append(Event("river_system_scored", entry))
    return scores, final
