"""What a placed Carcassonne: Hunters and Gatherers tile does to scores and pieces during play.

Before deployment, the revised edition's bonus-tile powers that act at once (§4.5): the
**logboat** and the **hunting trap** (the shaman's recall is part of the move itself). After
deployment, every forest and river the tile completes is scored for its majority and its tribe
members go home (§4.3, §6); a completed forest with a menhir (classic: gold nugget) may earn a
bonus turn (§4.4). Each function updates the new state it is given (a copy the engine made for
this move) and appends its events.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from games.base import Event, State
from games.carcassonne_hg import scoring, tiles
from games.carcassonne_hg.analysis import Analysis, Group
from games.carcassonne_hg.board import Square
from games.carcassonne_hg.options import PLACER, RIVER_AND_LAKES
from games.carcassonne_hg.pieces import HUNTER, TRIBE, node_of
from games.carcassonne_hg.tiles import FOREST, REVISED, RIVER


def powers_act(state: State) -> bool:
    """Tell whether bonus-tile powers act (revised edition only, §4.5)."""
    return state["edition"] == REVISED


def logboat(state: State, seat: int, square: Square, tile: tiles.Tile, after: Analysis, events: list[Event]) -> None:
    """Score 2 points per lake of the logboat's river system for the placer (§4.5)."""
    lake = next((r for r in tile.regions if r.special == tiles.LOGBOAT), None)
    if lake is None:
        return
    system = after.system((square[0], square[1], lake.id))
    points = 2 * len(system.lakes)
    state["scores"][seat] += points
    events.append(Event("logboat_scored", {"seat": seat, "lakes": len(system.lakes), "points": points}))


def hunting_trap(
    state: State, seat: int, square: Square, tile: tiles.Tile, after: Analysis, events: list[Event]
) -> None:
    """Score the animals around the hunting trap in its meadow, then cancel them for good (§4.5)."""
    trap = next((r for r in tile.regions if r.special == tiles.HUNTING_TRAP), None)
    if trap is None:
        return
    opts = state["options"]
    zone = after.zone((square[0], square[1], trap.id))
    cancelled = {tuple(node) for node in state["cancelled"]}
    points, area, found, eaten = scoring.hunting_trap_score(
        state["edition"],
        after,
        zone,
        square,
        cancelled,
        fire_protects=opts["fire_affects_hunting_trap"],
        wildfire_tiger=opts["wildfire_tile_tiger_counts"],
    )
    if opts["hunting_trap_scorer"] == PLACER:
        scorers = [seat]
    else:
        hunters = Counter(p["seat"] for p in state["pieces"] if p["kind"] == HUNTER and node_of(p) in zone.nodes)
        scorers = scoring.majority(dict(hunters))
    for scorer in scorers:
        state["scores"][scorer] += points
    state["cancelled"] = state["cancelled"] + [list(node) for node in area]
    events.append(
        Event(
            "hunting_trap_scored",
            {
                "seat": seat,
                "scorers": scorers,
                "points": points,
                "animals": {animal: found[animal] for animal in tiles.ANIMALS},
                "eaten": eaten,
                "cancelled": [list(node) for node in area],
            },
        )
    )


def score_completed(
    state: State,
    seat: int,
    square: Square,
    tile: tiles.Tile,
    after: Analysis,
    zone_groups: list[Group],
    events: list[Event],
) -> bool:
    """Score the forests and rivers this tile completed, return their tribe members; tell if a bonus is earned."""
    opts = state["options"]
    edition = state["edition"]
    earned = False
    x, y = square
    for group in sorted(zone_groups, key=lambda g: tile.regions.index(tile.region(g.regions[0]))):
        if group.kind not in (FOREST, RIVER):
            continue
        zone = after.zone((x, y, group.regions[0]))
        if not zone.complete:
            continue
        inside = [p for p in state["pieces"] if p["kind"] in TRIBE and node_of(p) in zone.nodes]
        counts = Counter(p["seat"] for p in inside)
        winners = scoring.majority(dict(counts))
        data: dict[str, Any] = {"feature": group.kind, "tiles": len(zone.tiles), "x": x, "y": y}
        if group.kind == FOREST:
            points = scoring.forest_points(edition, zone, opts["forest_parts_count_separately"])
            data.update(parts=len(zone.nodes), mushrooms=zone.mushrooms, menhirs=zone.menhirs)
            needs_member = edition == REVISED and opts["menhir_needs_occupied_forest"]
            if zone.menhirs and (inside or not needs_member):
                earned = True
        else:
            river_fish = edition == REVISED and opts["river_fish_for_fishermen"] == RIVER_AND_LAKES
            points = scoring.river_points(after, zone, river_fish)
            data.update(fish=scoring.river_fish(after, zone, river_fish), lakes=len(zone.lakes))
        for winner in winners:
            state["scores"][winner] += points
        returned = [{"seat": p["seat"], "kind": p["kind"], "x": p["x"], "y": p["y"]} for p in inside]
        data.update(points=points, scorers=winners, returned=returned)
        events.append(Event("feature_completed", data))
        if inside:
            state["pieces"] = [p for p in state["pieces"] if p not in inside]
            for p in inside:
                state["supply"][p["seat"]]["members"] += 1
    return earned
