"""What one oriented tile of Carcassonne: Hunters and Gatherers contributes to the board's features.

Worked out once per tile type and rotation (``shape_of``, memoised by the
tile's identity): which edge segment each region covers (as positions in
``SEGMENTS``), the river systems on the tile alone (a lake with the rivers
flowing into it), its icons, and the edge kind it shows each neighbour.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.carcassonne_hg import tiles
from games.carcassonne_hg.board import DELTA, OPPOSITE
from games.carcassonne_hg.tiles import DIRECTIONS, LAKE, RIVER, Tile

SEGMENTS = tuple((d, i) for d in DIRECTIONS for i in range(3))  # the 12 edge segments of a square, clockwise


@dataclass(frozen=True)
class Part:
    """A forest, meadow or river region of an oriented tile."""

    at: int  # position in tile.regions
    id: str
    kind: str
    river: bool
    slots: tuple[int, ...]  # its edge segments, as positions in SEGMENTS
    menhir: int
    mushrooms: int
    fish: int
    lake: str | None  # the lake this river ends in, on this tile


@dataclass(frozen=True)
class Shape:
    zone_parts: tuple[Part, ...]  # forests, meadows, rivers in region order
    parts: dict[str, Part]  # the same by region id
    # River systems on the tile alone: each lake with the rivers flowing into it, each other river alone,
    # ordered by their first region; members are region positions, ``rivers`` the river parts among them.
    system_parts: tuple[tuple[tuple[int, ...], tuple[Part, ...]], ...]
    ids: tuple[str, ...]  # region id by position
    system_fish: dict[str, int]  # rivers and lakes: fish
    lakes: frozenset[str]
    rafts: frozenset[str]
    sides: tuple[tuple[int, int, int, str], ...]  # per direction: offset, slot it fills on that neighbour, edge kind


_SHAPES: dict[int, tuple[Tile, Shape]] = {}


def shape_of(tile: Tile) -> Shape:
    """Return what ``tile`` (oriented) contributes, memoised by identity (``tiles.oriented`` tiles live forever)."""
    found = _SHAPES.get(id(tile))
    if found is not None and found[0] is tile:
        return found[1]
    position = {r.id: at for at, r in enumerate(tile.regions)}
    parts = {}
    for at, r in enumerate(tile.regions):
        if r.kind == LAKE:
            continue
        slots = tuple(SEGMENTS.index(segment) for segment in r.segments)
        parts[r.id] = Part(at, r.id, r.kind, r.kind == RIVER, slots, int(r.menhir), int(r.mushrooms), r.fish,
                           r.lake)
    in_lake = {river for r in tile.regions if r.kind == LAKE for river in r.rivers}
    system_parts = []
    for r in tile.regions:
        if r.kind == LAKE:
            members = tuple(sorted([position[r.id]] + [position[river] for river in r.rivers]))
        elif r.kind == RIVER and r.id not in in_lake:
            members = (position[r.id],)
        else:
            continue
        rivers = tuple(parts[tile.regions[at].id] for at in members if tile.regions[at].kind == RIVER)
        system_parts.append((members, rivers))
    system_parts.sort(key=lambda item: item[0][0])
    shape = Shape(
        zone_parts=tuple(parts.values()),
        parts=parts,
        system_parts=tuple(system_parts),
        ids=tuple(r.id for r in tile.regions),
        system_fish={r.id: r.fish for r in tile.regions if r.kind in (RIVER, LAKE)},
        lakes=frozenset(r.id for r in tile.regions if r.kind == LAKE),
        rafts=frozenset(r.id for r in tile.regions if r.special == tiles.RAFT),
        sides=tuple(
            (*DELTA[d], DIRECTIONS.index(OPPOSITE[d]), tile.edges[slot]) for slot, d in enumerate(DIRECTIONS)
        ),
    )
    _SHAPES[id(tile)] = (tile, shape)
    return shape
