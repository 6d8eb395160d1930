"""Features of a Carcassonne: Hunters and Gatherers board (both editions): flood fill of regions (rules file §2).

Two partitions of the placed regions are kept:

* **zones**: forests, meadows and rivers, joined through matching edge
  segments. A lake ends a river, so rivers never join through a lake (what a
  gatherer, hunter or fisherman claims).
* **systems**: rivers and lakes, where a lake joins every river flowing into
  it (what a hut claims).

An ``Analysis`` is built tile by tile in placement order. Analyses are memoised
by board content (a board only ever grows), so the many queries on one
position share one flood fill; an ``Analysis`` is never changed once built.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.carcassonne_hg import tiles
from games.carcassonne_hg.board import OPPOSITE, Square, neighbour
from games.carcassonne_hg.tiles import DIRECTIONS, LAKE, RIVER, Tile

Node = tuple[int, int, str]  # (x, y, region id)


@dataclass(frozen=True)
class Zone:
    """A forest, meadow or river on the board."""

    kind: str
    nodes: frozenset[Node]
    tiles: frozenset[Square]
    open: int  # edge segments of this zone that face an empty square
    menhirs: int = 0  # forests: regions with the bonus icon (menhir / gold nugget)
    mushrooms: int = 0  # forests: regions with mushrooms
    fish: int = 0  # rivers: fish drawn on the river itself
    lakes: frozenset[Node] = frozenset()  # rivers: the lakes that end it

    @property
    def complete(self) -> bool:
        """Tell whether no segment faces an empty square (forests and rivers, §2)."""
        return self.open == 0


@dataclass(frozen=True)
class System:
    """A river system: rivers plus the lakes joining them."""

    nodes: frozenset[Node]
    fish: int  # fish in its rivers and lakes
    lakes: frozenset[Node]
    raft: bool


@dataclass(frozen=True)
class Group:
    """Regions of a tile being placed that end up in one zone or system, and the board features they join."""

    kind: str
    regions: tuple[str, ...]
    roots: frozenset[int]


@dataclass
class Analysis:
    """The features of one board. Treat as read-only once returned."""

    edition: str
    index: dict[Square, Tile] = field(default_factory=dict)
    zone_of: dict[Node, int] = field(default_factory=dict)
    zones: dict[int, Zone] = field(default_factory=dict)
    system_of: dict[Node, int] = field(default_factory=dict)
    systems: dict[int, System] = field(default_factory=dict)
    needs: dict[Square, tuple[str | None, ...]] = field(default_factory=dict)  # frontier: edge kinds required
    next_id: int = 0

    def copy(self) -> "Analysis":
        return Analysis(
            edition=self.edition,
            index=dict(self.index),
            zone_of=dict(self.zone_of),
            zones=dict(self.zones),
            system_of=dict(self.system_of),
            systems=dict(self.systems),
            needs=dict(self.needs),
            next_id=self.next_id,
        )

    def zone(self, node: Node) -> Zone:
        return self.zones[self.zone_of[node]]

    def system(self, node: Node) -> System:
        return self.systems[self.system_of[node]]

    def region(self, node: Node):
        return self.index[(node[0], node[1])].region(node[2])


# -- building --------------------------------------------------------------------


def _across(an: Analysis, square: Square, direction: str, index: int) -> Node | None:
    """Return the neighbour's node that segment ``(direction, index)`` of ``square`` meets, if a tile is there."""
    other = neighbour(square, direction)
    tile = an.index.get(other)
    if tile is None:
        return None
    return (other[0], other[1], tile.by_segment[(OPPOSITE[direction], 2 - index)])


def groups(an: Analysis, square: Square, tile: Tile) -> tuple[list[Group], list[Group]]:
    """Return the zone groups and system groups that ``tile`` placed on ``square`` would form.

    Regions of the new tile that touch the same board feature (or each
    other, for a lake and its rivers) fall into one group.
    """
    parent: dict[Any, Any] = {}

    def find(item):
        parent.setdefault(item, item)
        while parent[item] != item:
            parent[item] = parent[parent[item]]
            item = parent[item]
        return item

    def union(a, b):
        parent[find(a)] = find(b)

    zone_roots: dict[str, set[int]] = {}
    system_roots: dict[str, set[int]] = {}
    for region in tile.regions:
        if region.kind == LAKE:
            system_roots[region.id] = set()
            find(("s", region.id))
            for river in region.rivers:
                union(("s", river), ("s", region.id))
            continue
        zone_roots[region.id] = set()
        find(("z", region.id))
        if region.kind == RIVER:
            system_roots[region.id] = set()
            find(("s", region.id))
        for direction, i in region.segments:
            node = _across(an, square, direction, i)
            if node is None:
                continue
            root = an.zone_of[node]
            zone_roots[region.id].add(root)
            union(("z", region.id), ("zr", root))
            if region.kind == RIVER:
                sroot = an.system_of[node]
                system_roots[region.id].add(sroot)
                union(("s", region.id), ("sr", sroot))

    def collect(prefix: str, roots: dict[str, set[int]]) -> list[Group]:
        by_root: dict[Any, list[str]] = {}
        for region_id in roots:
            by_root.setdefault(find((prefix, region_id)), []).append(region_id)
        result = []
        for members in by_root.values():
            kind = tile.region(members[0]).kind if prefix == "z" else RIVER
            found = frozenset(r for m in members for r in roots[m])
            result.append(Group(kind, tuple(members), found))
        return result

    return collect("z", zone_roots), collect("s", system_roots)


def merged_zone(an: Analysis, square: Square, tile: Tile, group: Group) -> Zone:
    """Return the zone a group of the new tile forms with the board features it joins."""
    x, y = square
    old = [an.zones[root] for root in group.roots]
    nodes = frozenset((x, y, r) for r in group.regions).union(*(z.nodes for z in old))
    squares = frozenset([square]).union(*(z.tiles for z in old))
    opened = sum(z.open for z in old)
    menhirs = sum(z.menhirs for z in old)
    mushrooms = sum(z.mushrooms for z in old)
    fish = sum(z.fish for z in old)
    lakes = frozenset().union(*(z.lakes for z in old))
    for region_id in group.regions:
        region = tile.region(region_id)
        for direction, _ in region.segments:
            opened += 1 if neighbour(square, direction) not in an.index else -1
        menhirs += region.menhir
        mushrooms += region.mushrooms
        fish += region.fish
        if region.lake:
            lakes = lakes | {(x, y, region.lake)}
    return Zone(group.kind, nodes, squares, opened, menhirs, mushrooms, fish, lakes)


def merged_system(an: Analysis, square: Square, tile: Tile, group: Group) -> System:
    """Return the river system a group of the new tile forms with the systems it joins."""
    x, y = square
    old = [an.systems[root] for root in group.roots]
    nodes = frozenset((x, y, r) for r in group.regions).union(*(s.nodes for s in old))
    fish = sum(s.fish for s in old) + sum(tile.region(r).fish for r in group.regions)
    lakes = frozenset((x, y, r) for r in group.regions if tile.region(r).kind == LAKE).union(*(s.lakes for s in old))
    raft = any(s.raft for s in old) or any(tile.region(r).special == tiles.RAFT for r in group.regions)
    return System(nodes, fish, lakes, raft)


def add_tile(an: Analysis, square: Square, tile: Tile) -> None:
    """Place ``tile`` on ``square`` in ``an`` (which must be a private copy)."""
    zone_groups, system_groups = groups(an, square, tile)
    for group in zone_groups:
        zone = merged_zone(an, square, tile, group)
        an.next_id += 1
        for root in group.roots:
            del an.zones[root]
        an.zones[an.next_id] = zone
        for node in zone.nodes:
            an.zone_of[node] = an.next_id
    for group in system_groups:
        system = merged_system(an, square, tile, group)
        an.next_id += 1
        for root in group.roots:
            del an.systems[root]
        an.systems[an.next_id] = system
        for node in system.nodes:
            an.system_of[node] = an.next_id
    an.index[square] = tile
    an.needs.pop(square, None)
    for slot, direction in enumerate(DIRECTIONS):
        other = neighbour(square, direction)
        if other in an.index:
            continue
        need = list(an.needs.get(other, (None, None, None, None)))
        need[DIRECTIONS.index(OPPOSITE[direction])] = tile.edges[slot]
        an.needs[other] = tuple(need)


def with_tile(an: Analysis, square: Square, tile: Tile) -> Analysis:
    """Return a new analysis: ``an`` plus ``tile`` on ``square``."""
    new = an.copy()
    add_tile(new, square, tile)
    return new


_CACHE: dict[tuple, Analysis] = {}
_CACHE_SIZE = 64


def board_key(edition: str, board: list[list]) -> tuple:
    """Return the memo key of a board: its edition and placements (x, y, tile, rot) in order."""
    return (edition, *((p[0], p[1], p[2], p[3]) for p in board))


def analyse(edition: str, board: list[list]) -> Analysis:
    """Return the features of ``board`` (a list of ``[x, y, tile id, rot, ...]`` in placement order)."""
    key = board_key(edition, board)
    found = _CACHE.get(key)
    if found is not None:
        return found
    parent = _CACHE.get(key[:-1]) if len(key) > 2 else None
    if parent is not None:
        x, y, tile_id, rot = key[-1]
        found = with_tile(parent, (x, y), tiles.oriented(edition, tile_id, rot))
    else:
        found = Analysis(edition)
        for x, y, tile_id, rot in key[1:]:
            add_tile(found, (x, y), tiles.oriented(edition, tile_id, rot))
    if len(_CACHE) >= _CACHE_SIZE:
        _CACHE.clear()
    _CACHE[key] = found
    return found


# -- queries ---------------------------------------------------------------------


def fitting(an: Analysis, tile_id: str) -> list[tuple[Square, int]]:
    """Return every (square, rotation) where ``tile_id`` may be placed (§4.1), sorted by x, y, rotation."""
    result = []
    by_need: dict[tuple, list[int]] = {}
    for square, need in an.needs.items():
        rots = by_need.get(need)
        if rots is None:
            rots = [rot for rot in (0, 90, 180, 270) if _fits(tiles.oriented(an.edition, tile_id, rot).edges, need)]
            by_need[need] = rots
        result.extend((square, rot) for rot in rots)
    result.sort(key=lambda item: (item[0][0], item[0][1], item[1]))
    return result


def placeable(an: Analysis, tile_id: str) -> bool:
    """Tell whether ``tile_id`` fits anywhere on the board."""
    rotations = [tiles.oriented(an.edition, tile_id, rot).edges for rot in (0, 90, 180, 270)]
    return any(_fits(edges, need) for need in set(an.needs.values()) for edges in rotations)


def _fits(edges: tuple[str, ...], need: tuple[str | None, ...]) -> bool:
    return all(n is None or n == e for n, e in zip(need, edges))
