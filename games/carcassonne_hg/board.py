"""Board geometry for Carcassonne: Hunters and Gatherers (both editions): squares, rotations, edges, region names.

Squares are integer pairs ``(x, y)``: x grows to the east, y to the north,
and the start tile lies on ``(0, 0)``. Rotations are clockwise degrees
(0, 90, 180, 270) from the catalogue orientation. Segment ``(D, i)`` of one
tile meets segment ``(opposite(D), 2 - i)`` of its neighbour (rules file §2).
"""

from __future__ import annotations

from functools import cache

from games.carcassonne_hg import tiles
from games.carcassonne_hg.tiles import DIRECTIONS, LAKE, RIVER, Tile

ROTATIONS = (0, 90, 180, 270)
DELTA = {"N": (0, 1), "E": (1, 0), "S": (0, -1), "W": (-1, 0)}
OPPOSITE = {"N": "S", "E": "W", "S": "N", "W": "E"}
DIRECTION_WORDS = {"N": "north", "E": "east", "S": "south", "W": "west"}

# Where each edge segment lies on the tile, as a compass token a player can write (§2: segments
# run clockwise, so the left third of the north edge is by the north-west corner).
CORNER = {
    ("N", 0): "NW",
    ("N", 2): "NE",
    ("E", 0): "NE",
    ("E", 2): "SE",
    ("S", 0): "SE",
    ("S", 2): "SW",
    ("W", 0): "SW",
    ("W", 2): "NW",
}
TOKEN_ORDER = ("N", "E", "S", "W", "NE", "SE", "SW", "NW")

Square = tuple[int, int]
Node = tuple[int, int, str]  # (x, y, region id): one region of a placed tile


def neighbour(square: Square, direction: str) -> Square:
    """Return the square next to ``square`` towards ``direction``."""
    dx, dy = DELTA[direction]
    return square[0] + dx, square[1] + dy


def name(square: Square) -> str:
    """Return the notation of a square: ``3,-1``."""
    return f"{square[0]},{square[1]}"


def fits(tile: Tile, needs: tuple[str | None, str | None, str | None, str | None]) -> bool:
    """Tell whether ``tile`` (already oriented) matches the edge kinds a square requires (None: no neighbour)."""
    return all(need is None or need == have for need, have in zip(needs, tile.edges))


def region_tokens(tile: Tile, region_id: str) -> tuple[str, ...]:
    """Return the compass tokens of a region on an oriented tile, in ``TOKEN_ORDER``, then its segment names.

    A region covering a whole edge gets that edge's letter; a river's middle
    segment gets its edge's letter; a meadow strip beside a river gets the
    corner it lies by. A lake takes the tokens of the rivers flowing into it.
    """
    region = tile.region(region_id)
    if region.kind == LAKE:
        found = {token for river in region.rivers for token in region_tokens(tile, river) if token in TOKEN_ORDER}
        return tuple(token for token in TOKEN_ORDER if token in found)
    found: set[str] = set()
    for direction in DIRECTIONS:
        indices = {i for d, i in region.segments if d == direction}
        if indices == {0, 1, 2} or 1 in indices:
            found.add(direction)
        for i in indices - {1}:
            if indices != {0, 1, 2}:
                found.add(CORNER[(direction, i)])
    segments = tuple(f"{d}{i}" for d, i in region.segments)
    return tuple(token for token in TOKEN_ORDER if token in found) + segments


@cache
def region_names(edition: str, tile_id: str, rot: int) -> dict[str, str]:
    """Return ``{region id: name}`` for a tile as placed: ``meadow``, or ``meadow NE`` when it has siblings.

    The qualifier is the first compass token no other region of the same
    kind on the tile has (a segment name such as ``N0`` if every compass token
    is shared).
    """
    tile = tiles.oriented(edition, tile_id, rot)
    names = {}
    for region in tile.regions:
        siblings = [r for r in tile.regions if r.kind == region.kind and r.id != region.id]
        if not siblings:
            names[region.id] = region.kind
            continue
        taken = {token for r in siblings for token in region_tokens(tile, r.id)}
        mine = region_tokens(tile, region.id)
        token = next((t for t in mine if t not in taken), None)
        names[region.id] = f"{region.kind} {token}" if token else f"{region.kind} {region.id}"
    return names


def hut_spots(tile: Tile) -> list[str]:
    """Return the regions a hut may stand on: every lake, and every river that ends in no lake on this tile (§4.2)."""
    return [r.id for r in tile.regions if r.kind == LAKE or (r.kind == RIVER and r.lake is None)]
