"""The flood fill of a Carcassonne: Hunters and Gatherers board, one tile at a time (rules file §2).

Which board features a tile placed on a square joins (``border``, ``groups``), and adding it to an
analysis (``add_tile``): zones join through matching edge segments, and a lake ends a river, so
rivers never join through a lake; in a river system a lake joins every river flowing into it.

Joining features keeps the largest one's id and relabels the nodes of the others ("union by
size"), so a lookup stays one dict access and each node is relabelled O(log n) times over a game
instead of the whole feature being rewritten on every tile. What a tile type in one rotation
contributes (which neighbour segment each of its segments meets, which regions a lake ties
together, its icons) is worked out once per oriented tile (``shapes.shape_of``).
"""

from __future__ import annotations

from typing import Any

from games.carcassonne_hg.analysis import Analysis, Group
from games.carcassonne_hg.board import DELTA, OPPOSITE, Node, Square
from games.carcassonne_hg.shapes import shape_of
from games.carcassonne_hg.tiles import DIRECTIONS, RIVER, Tile


def _join(components: list[tuple[list[int], set[int]]]) -> list[tuple[list[int], set[int]]]:
    """Merge components (tile regions, board feature ids) that share a board feature, transitively.

    ``components`` come in the order of their first region; the result keeps
    that order (a merged component sits where its earliest part was) and lists
    regions in tile order.
    """
    seen: set[int] = set()
    for _, roots in components:
        if not seen.isdisjoint(roots):
            break
        seen |= roots
    else:
        return components  # the usual case: no two of them share a board feature
    joined: list[tuple[list[int], set[int]]] = []
    for members, roots in components:
        hits = [c for c in joined if not roots.isdisjoint(c[1])] if roots else []
        if not hits:
            joined.append((members, roots))
            continue
        first = hits[0]
        for other in hits[1:]:
            first[0].extend(other[0])
            first[1].update(other[1])
            joined.remove(other)
        first[0].extend(members)
        first[0].sort()
        first[1].update(roots)
    return joined


def border(an: Analysis, square: Square) -> tuple[tuple, tuple]:
    """Return, for each of the 12 segments (SEGMENTS) of empty ``square``, the zone and the system id it meets.

    None where no tile is next to it (and no system for forests and meadows).
    Every rotation of the tile tried on a square meets the same border, so it is
    kept per square (``Analysis.borders``, forgotten when the board changes).
    """
    found = an.borders.get(square)
    if found is None:
        x, y = square
        zones: list[int | None] = []
        systems: list[int | None] = []
        for d, opposite in zip(DIRECTIONS, _OPPOSITE_SEGMENTS):
            dx, dy = DELTA[d]
            other = an.index.get((x + dx, y + dy))
            if other is None:
                zones += (None, None, None)
                systems += (None, None, None)
                continue
            for segment in opposite:  # segment (d, i) meets (opposite d, 2 - i)
                node = (x + dx, y + dy, other.by_segment[segment])
                zones.append(an.zone_of[node])
                systems.append(an.system_of.get(node))
        found = an.borders[square] = (tuple(zones), tuple(systems))
    return found


_OPPOSITE_SEGMENTS = tuple(tuple((OPPOSITE[d], 2 - i) for i in range(3)) for d in DIRECTIONS)


def groups(an: Analysis, square: Square, tile: Tile) -> tuple[list[Group], list[Group]]:
    """Return the zone groups and system groups that ``tile`` placed on ``square`` would form.

    Regions of the new tile that touch the same board feature (or each
    other, for a lake and its rivers) fall into one group.
    """
    shape = shape_of(tile)
    zone_roots, system_roots = border(an, square)
    zone_components = []
    river_roots: dict[int, set[int]] = {}  # river position -> system ids it touches
    for part in shape.zone_parts:
        roots = {zone_roots[slot] for slot in part.slots}
        roots.discard(None)
        zone_components.append(([part.at], roots))
        if part.river:
            found = {system_roots[slot] for slot in part.slots}
            found.discard(None)
            river_roots[part.at] = found
    ids = shape.ids
    regions = tile.regions
    zone_groups = [
        Group(regions[members[0]].kind, tuple([ids[at] for at in members]), frozenset(roots))
        for members, roots in _join(zone_components)
    ]
    system_components = []
    for members, rivers in shape.system_parts:
        roots = set()
        for part in rivers:
            roots.update(river_roots[part.at])
        system_components.append((list(members), roots))
    system_groups = [
        Group(RIVER, tuple([ids[at] for at in members]), frozenset(roots))
        for members, roots in _join(system_components)
    ]
    return zone_groups, system_groups


def _absorb(totals: dict[int, Any], of: dict[Node, int], roots: frozenset[int], new_nodes: tuple[Node, ...],
            an: Analysis) -> tuple[int, tuple[Node, ...], list[Any]]:
    """Join features ``roots`` and ``new_nodes`` into one feature; return its id, all its nodes, the old totals.

    The largest old feature keeps its id; the nodes of the others and the new
    ones are relabelled (union by size), and the others' totals are dropped.
    """
    olds = [totals[root] for root in roots]
    if not olds:
        an.next_id += 1
        keep, nodes, moved = an.next_id, new_nodes, new_nodes
    else:
        keep = max(roots, key=lambda root: (len(totals[root][0]), root))
        nodes = totals[keep][0]
        moved = new_nodes
        for root in roots:
            if root != keep:
                moved = moved + totals.pop(root)[0]
        nodes = nodes + moved
    for node in moved:
        of[node] = keep
    return keep, nodes, olds


def add_tile(an: Analysis, square: Square, tile: Tile) -> None:
    """Place ``tile`` on ``square`` in ``an`` (which must be a private copy)."""
    shape = shape_of(tile)
    zone_groups, system_groups = groups(an, square, tile)
    # Only the features the tile touches change (their open edges among them): only theirs are needed.
    an.ensure({root for group in zone_groups for root in group.roots},
              {root for group in system_groups for root in group.roots})
    zone_roots = border(an, square)[0]
    x, y = square
    index = an.index
    parts = shape.parts
    for group in zone_groups:
        keep, nodes, olds = _absorb(an.zone_totals, an.zone_of, group.roots,
                                    tuple((x, y, r) for r in group.regions), an)
        opened = menhirs = mushrooms = fish = 0
        lakes: frozenset[Node] = frozenset()
        for old in olds:
            opened += old[2]
            menhirs += old[3]
            mushrooms += old[4]
            fish += old[5]
            if old[6]:
                lakes = lakes | old[6]
        for region_id in group.regions:
            part = parts[region_id]
            for slot in part.slots:  # a segment facing a tile closes one open edge there, else opens one
                opened += 1 if zone_roots[slot] is None else -1
            menhirs += part.menhir
            mushrooms += part.mushrooms
            fish += part.fish
            if part.lake:
                lakes = lakes | {(x, y, part.lake)}
        an.zone_totals[keep] = (nodes, group.kind, opened, menhirs, mushrooms, fish, lakes)
    for group in system_groups:
        keep, nodes, olds = _absorb(an.system_totals, an.system_of, group.roots,
                                    tuple((x, y, r) for r in group.regions), an)
        fish = sum(t[1] for t in olds) + sum(shape.system_fish[r] for r in group.regions)
        lakes = frozenset((x, y, r) for r in group.regions if r in shape.lakes).union(*(t[2] for t in olds))
        raft = any(t[3] for t in olds) or any(r in shape.rafts for r in group.regions)
        an.system_totals[keep] = (nodes, fish, lakes, raft)
    index[square] = tile
    needs = an.needs
    needs.pop(square, None)
    for dx, dy, slot, edge in shape.sides:
        other = (x + dx, y + dy)
        if other in index:
            continue
        need = list(needs.get(other, (None, None, None, None)))
        need[slot] = edge
        needs[other] = tuple(need)
    an.forget()  # features changed: forget the Zone/System objects and borders made before


def with_tile(an: Analysis, square: Square, tile: Tile) -> Analysis:
    """Return a new analysis: ``an`` plus ``tile`` on ``square``."""
    new = an.copy()
    add_tile(new, square, tile)
    return new
