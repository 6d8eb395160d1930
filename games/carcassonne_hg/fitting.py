"""Where a Carcassonne: Hunters and Gatherers tile fits on a board (rules file §4.1).

A tile fits an empty square next to the board when every edge it shares with a neighbour is of
the same kind. Which rotations of a tile type fit an edge requirement is memoised per tile type
and requirement (``_rotations``): tile types and requirements are few, frontier squares many.
``placement_error`` says why a placement a player asked for does not fit.
"""

from __future__ import annotations

from games.carcassonne_hg import board, reasons, tiles
from games.carcassonne_hg.analysis import Analysis
from games.carcassonne_hg.board import Square

_ROTATIONS: dict[tuple, tuple[int, ...]] = {}  # (edition, tile id, need) -> fitting rotations: at most ~100 × 81 × 2


def _rotations(edition: str, tile_id: str, need: tuple[str | None, ...]) -> tuple[int, ...]:
    """Return the rotations of ``tile_id`` whose edges meet ``need`` (memoised: tile types and needs are few)."""
    key = (edition, tile_id, need)
    found = _ROTATIONS.get(key)
    if found is None:
        found = _ROTATIONS[key] = tuple(
            rot for rot in (0, 90, 180, 270) if _fits(tiles.oriented(edition, tile_id, rot).edges, need)
        )
    return found


def fitting(an: Analysis, tile_id: str) -> list[tuple[Square, int]]:
    """Return every (square, rotation) where ``tile_id`` may be placed (§4.1), sorted by x, y, rotation."""
    edition = an.edition
    return [(square, rot) for square, need in sorted(an.needs.items()) for rot in _rotations(edition, tile_id, need)]


def placeable(an: Analysis, tile_id: str) -> bool:
    """Tell whether ``tile_id`` fits anywhere on the board."""
    edition = an.edition
    return any(_rotations(edition, tile_id, need) for need in set(an.needs.values()))


def _fits(edges: tuple[str, ...], need: tuple[str | None, ...]) -> bool:
    return all(n is None or n == e for n, e in zip(need, edges))


def placement_error(an: Analysis, tile: tiles.Tile, square: Square) -> str | None:
    """Return why ``tile`` (oriented) may not go on ``square``, or None if it fits (§4.1)."""
    where = board.name(square)
    if square in an.index:
        return reasons.square_taken(where)
    need = an.needs.get(square)
    if need is None:
        return reasons.square_alone(where)
    for direction, wanted, have in zip(tiles.DIRECTIONS, need, tile.edges):
        if wanted is not None and wanted != have:
            return reasons.edge_mismatch(direction, have, wanted, board.name(board.neighbour(square, direction)))
    return None
