"""Features of a Carcassonne: Hunters and Gatherers board (both editions): ``analyse``, memoised (rules file §2).

Two partitions of the placed regions are kept:

* **zones**: forests, meadows and rivers, joined through matching edge
  segments. A lake ends a river, so rivers never join through a lake (what a
  gatherer, hunter or fisherman claims).
* **systems**: rivers and lakes, where a lake joins every river flowing into
  it (what a hut claims).

An ``Analysis`` (``analysis.py``) is built tile by tile in placement order
(``flood_fill.py``). Analyses are memoised here by board content (a board only
ever grows), so the many queries on one position share one flood fill; an
``Analysis`` is never changed once built.

The state keeps the partition itself (``labels.py``), so a worker that has not
seen the board reads it back in one pass instead of flood-filling it; the
running totals of a feature (open edges, icons...) are worked out from its own
tiles (``totals.py``) only when something asks for that feature (a new tile
joining it, its ``Zone``): listing legal moves never does, a view adds up only
the features that hold pieces, and a placement only those its tile touches, so
neither costs a pass over every region of a late board. Where a tile fits is
``fitting.py``.

This module is the package's way in to all of them: the names the engine, the
view, the bots and the tests use are importable from here.
"""

from __future__ import annotations

from games.carcassonne_hg import tiles
from games.carcassonne_hg.analysis import Analysis, Group, System, Zone
from games.carcassonne_hg.board import Node
from games.carcassonne_hg.fitting import fitting, placeable
from games.carcassonne_hg.flood_fill import add_tile, border, groups, with_tile
from games.carcassonne_hg.labels import LABELLED, from_labels, labelled

__all__ = [
    "LABELLED",
    "Analysis",
    "Group",
    "Node",
    "System",
    "Zone",
    "add_tile",
    "analyse",
    "board_key",
    "border",
    "fitting",
    "groups",
    "labelled",
    "placeable",
    "with_tile",
]

_CACHE: dict[tuple, Analysis] = {}
_CACHE_SIZE = 64


def board_key(edition: str, board: list[list]) -> tuple:
    """Return the memo key of a board: its edition and placements (x, y, tile, rot) in order."""
    return (edition, *((p[0], p[1], p[2], p[3]) for p in board))


def analyse(edition: str, board: list[list]) -> Analysis:
    """Return the features of ``board`` (a list of ``[x, y, tile id, rot, ...]`` in placement order).

    Memoised; otherwise built from the board before the last tile if that is
    memoised, read back from the entries' labels if every entry has them
    (``labelled``), or flood-filled tile by tile.
    """
    key = board_key(edition, board)
    found = _CACHE.get(key)
    if found is not None:
        return found
    parent = _CACHE.get(key[:-1]) if len(key) > 2 else None
    if parent is not None:
        # One tile more than a memoised board: copying it costs less than reading the labels again.
        x, y, tile_id, rot = key[-1]
        found = with_tile(parent, (x, y), tiles.oriented(edition, tile_id, rot))
    elif all(len(entry) == LABELLED for entry in board):
        found = from_labels(edition, board)
    else:
        found = Analysis(edition)
        for x, y, tile_id, rot in key[1:]:
            add_tile(found, (x, y), tiles.oriented(edition, tile_id, rot))
    if len(_CACHE) >= _CACHE_SIZE:
        _CACHE.clear()
    _CACHE[key] = found
    return found
