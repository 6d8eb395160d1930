"""Scoring of Carcassonne: Hunters and Gatherers features, both editions (rules file §6, §7, §8).

Plain functions over an ``Analysis`` and the option values; nothing here
changes a state. ``cancelled`` is the set of meadow nodes whose animals a
hunting trap covered (§4.5).
"""

from __future__ import annotations

from collections import Counter
from typing import Iterable

from games.carcassonne_hg import tiles
from games.carcassonne_hg.analysis import Analysis, System, Zone
from games.carcassonne_hg.board import Node
from games.carcassonne_hg.tiles import CLASSIC, REVISED

MUSHROOM_POINTS = {REVISED: 3, CLASSIC: 2}
ANIMAL_POINTS = {
    REVISED: {"deer": 1, "aurochs": 2, "mammoth": 3},
    CLASSIC: {"deer": 2, "aurochs": 2, "mammoth": 2},
}
FIRES = (tiles.WILDFIRE, tiles.FIRE)


def majority(counts: dict[int, int]) -> list[int]:
    """Return the seats with the most pieces (all of them on a tie; none without pieces), §8."""
    best = max(counts.values(), default=0)
    return sorted(seat for seat, count in counts.items() if count == best and best > 0)


def forest_points(edition: str, zone: Zone, parts_separately: bool) -> int:
    """Return a completed forest's value: 2 per tile (or per part) plus the mushroom bonus (§6)."""
    size = len(zone.nodes) if parts_separately else len(zone.tiles)
    return 2 * size + MUSHROOM_POINTS[edition] * zone.mushrooms


def river_fish(an: Analysis, zone: Zone, river_fish_counts: bool) -> int:
    """Return the fish a completed river's fishermen count: its end lakes, and (revised) the river itself."""
    lakes = sum(an.region(lake).fish for lake in zone.lakes)
    return lakes + (zone.fish if river_fish_counts else 0)


def river_points(an: Analysis, zone: Zone, river_fish_counts: bool) -> int:
    """Return a completed river's value: 1 per tile plus its fish (§6)."""
    return len(zone.tiles) + river_fish(an, zone, river_fish_counts)


def system_points(edition: str, system: System) -> int:
    """Return a river system's value for its hut majority: its fish, plus 1 per lake with the raft (§7)."""
    raft = len(system.lakes) if system.raft and edition == REVISED else 0
    return system.fish + raft


def animals(an: Analysis, nodes: Iterable[Node], cancelled: set[Node], wildfire_tiger: bool) -> Counter:
    """Return the animals still counting on ``nodes`` (cancelled regions left out)."""
    found: Counter = Counter()
    for node in nodes:
        if node in cancelled:
            continue
        region = an.region(node)
        for animal, count in region.animals:
            found[animal] += count
        if wildfire_tiger and region.special == tiles.WILDFIRE:
            found["tiger"] += 1  # §11 wildfire_tile_tiger_counts: the fleeing tiger drawn on the tile
    return found


def animal_value(edition: str, found: Counter, eaten: int = 0) -> int:
    """Return the value of ``found`` with ``eaten`` of its deer gone."""
    points = ANIMAL_POINTS[edition]
    deer = max(found["deer"] - eaten, 0)
    return points["deer"] * deer + points["aurochs"] * found["aurochs"] + points["mammoth"] * found["mammoth"]


def has_special(an: Analysis, nodes: Iterable[Node], specials: tuple[str, ...]) -> list[Node]:
    """Return the nodes of ``nodes`` carrying one of ``specials``."""
    return sorted(node for node in nodes if an.region(node).special in specials)


def near(nodes: Iterable[Node], square: tuple[int, int]) -> list[Node]:
    """Return the nodes on ``square`` or its 8 surrounding squares."""
    x, y = square
    return sorted(node for node in nodes if abs(node[0] - x) <= 1 and abs(node[1] - y) <= 1)


def meadow_score(
    edition: str, an: Analysis, zone: Zone, cancelled: set[Node], wildfire_tiger: bool
) -> dict:
    """Return the final value of a meadow for its hunter majority, with its breakdown (§7).

    Tigers eat one deer each unless fire is in the meadow; with the revised
    pit trap, the animals in the trap's 3×3 area score a second time, and the
    tigers eat deer outside that area first.
    """
    found = animals(an, zone.nodes, cancelled, wildfire_tiger)
    fire = bool(has_special(an, zone.nodes, FIRES))
    tigers = 0 if fire else found["tiger"]
    eaten = min(tigers, found["deer"])
    points = animal_value(edition, found, eaten)
    result = {
        "deer": found["deer"],
        "aurochs": found["aurochs"],
        "mammoth": found["mammoth"],
        "tiger": found["tiger"],
        "eaten": eaten,
        "fire": fire,
        "points": points,
    }
    traps = has_special(an, zone.nodes, (tiles.PIT_TRAP,)) if edition == REVISED else []
    if traps:
        area = near(zone.nodes, traps[0][:2])
        inside = animals(an, area, cancelled, wildfire_tiger)
        eaten_outside = min(eaten, found["deer"] - inside["deer"])
        extra = animal_value(edition, inside, eaten - eaten_outside)
        result.update(pit_trap=extra, points=points + extra)
    return result


def hunting_trap_score(
    edition: str,
    an: Analysis,
    zone: Zone,
    square: tuple[int, int],
    cancelled: set[Node],
    *,
    fire_protects: bool,
    wildfire_tiger: bool,
) -> tuple[int, list[Node], Counter, int]:
    """Return (points, area nodes, animals, deer eaten) for a hunting trap on ``square`` in meadow ``zone`` (§4.5)."""
    area = [node for node in near(zone.nodes, square) if node not in cancelled]
    found = animals(an, area, set(), wildfire_tiger)
    fire = fire_protects and bool(has_special(an, zone.nodes, FIRES))
    eaten = 0 if fire else min(found["tiger"], found["deer"])
    return animal_value(edition, found, eaten), area, found, eaten
