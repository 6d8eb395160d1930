"""What a Carcassonne: Hunters and Gatherers board's tiles add up to, worked out from the tiles when asked.

An analysis read back from the snapshot's labels (``labels.from_labels``) knows which feature
each region belongs to and nothing more: the running totals of a feature (its nodes, open edges,
icons) and the open squares round the board are added up here, only for what a caller asks for.
Both are passes over tiles of a late board, so they are kept lean: each tile type's regions are
read from a table made once per rotation (``_facts``), not through their attributes.

The shape of the totals is defined here, and what is read of an analysis is a ``Partition``, so this
module needs nothing of ``analysis.py``, which calls it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from games.carcassonne_hg import tiles
from games.carcassonne_hg.board import DELTA, OPPOSITE, Node, Square
from games.carcassonne_hg.tiles import DIRECTIONS, LAKE, RIVER, Tile

# Running totals of one feature, kept per feature id (plain tuples: cheap to copy, never mutated).
# zone:   (nodes, kind, open, menhirs, mushrooms, fish, lakes)
# system: (nodes, fish, lakes, raft)
ZoneTotals = tuple[tuple[Node, ...], str, int, int, int, int, frozenset[Node]]
SystemTotals = tuple[tuple[Node, ...], int, frozenset[Node], bool]


class Partition(Protocol):
    """What ``totals_of`` reads of a board's analysis (an ``analysis.Analysis``): its tiles and each node's feature id."""

    edition: str
    index: dict[Square, Tile]
    zone_of: dict[Node, int]
    system_of: dict[Node, int]

_DELTAS = tuple(DELTA[d] for d in DIRECTIONS)
_FACING = tuple(DIRECTIONS.index(OPPOSITE[d]) for d in DIRECTIONS)  # the slot a neighbour's edge fills


def needs_of(index: dict[Square, Tile]) -> dict[Square, tuple[str | None, ...]]:
    """Return each empty square next to the board of ``index`` and the edge kinds it requires (N, E, S, W)."""
    needs: dict[Square, tuple[str | None, ...]] = {}
    for (x, y), tile in index.items():
        for slot, (dx, dy) in enumerate(_DELTAS):
            other = (x + dx, y + dy)
            if other not in index:
                need = needs.get(other) or (None, None, None, None)
                needs[other] = need[:_FACING[slot]] + (tile.edges[slot],) + need[_FACING[slot] + 1:]
    return needs


# (edition, tile id, rotation) -> per region: id, kind, whether in a zone / a river system, the slot (0-3: N, E, S, W)
# of each of its edge segments, menhir, mushrooms, fish, its lake, raft. What ``totals_of`` reads of every
# region of a board, without the attribute look-ups: a handful of fields for some 80 tiles x 4 rotations.
_FACTS: dict[tuple[str, str, int], tuple[tuple, ...]] = {}


def _facts(edition: str, tile: Tile) -> tuple[tuple, ...]:
    key = (edition, tile.id, tile.rot)  # the editions share tile ids
    found = _FACTS.get(key)
    if found is None:
        found = _FACTS[key] = tuple(
            (region.id, region.kind, region.kind != LAKE, region.kind in (RIVER, LAKE),
             tuple(DIRECTIONS.index(d) for d, _ in region.segments), region.menhir, region.mushrooms, region.fish,
             region.lake, region.special == tiles.RAFT)
            for region in tile.regions
        )
    return found


def totals_of(
    an: Partition, zone_roots: set[int] | None = None, system_roots: set[int] | None = None
) -> tuple[dict[int, ZoneTotals], dict[int, SystemTotals]]:
    """Return the running totals of the zones and systems of ``an`` named (neither named: of every one).

    They are worked out from the tiles and the partition; with features named, only from the squares
    those features cover, taken in placement order.
    """
    zones: dict[int, list] = {}
    systems: dict[int, list] = {}
    edition, index, zone_of, system_of = an.edition, an.index, an.zone_of, an.system_of
    if zone_roots is None and system_roots is None:
        squares: Iterable[Square] = index
    else:
        zone_roots, system_roots = zone_roots or set(), system_roots or set()
        covered = {(x, y) for (x, y, _), root in zone_of.items() if root in zone_roots}
        covered.update((x, y) for (x, y, _), root in system_of.items() if root in system_roots)
        squares = [square for square in index if square in covered]
    for square in squares:
        x, y = square
        empty = None
        facts = _facts(edition, index[square])
        for region_id, kind, in_zone, in_system, slots, menhir, mushrooms, fish, lake, raft in facts:
            node = (x, y, region_id)
            if in_zone:
                root = zone_of[node]
                if zone_roots is None or root in zone_roots:
                    totals = zones.get(root)
                    if totals is None:
                        totals = zones[root] = [[], kind, 0, 0, 0, 0, set()]
                    totals[0].append(node)
                    if empty is None:
                        empty = [(x + dx, y + dy) not in index for dx, dy in _DELTAS]
                    for slot in slots:
                        totals[2] += empty[slot]
                    totals[3] += menhir
                    totals[4] += mushrooms
                    totals[5] += fish
                    if lake:
                        totals[6].add((x, y, lake))
            if in_system:
                root = system_of[node]
                if system_roots is None or root in system_roots:
                    totals = systems.get(root)
                    if totals is None:
                        totals = systems[root] = [[], 0, set(), False]
                    totals[0].append(node)
                    totals[1] += fish
                    if kind == LAKE:
                        totals[2].add(node)
                    totals[3] = totals[3] or raft
    return (
        {root: (tuple(t[0]), t[1], t[2], t[3], t[4], t[5], frozenset(t[6])) for root, t in zones.items()},
        {root: (tuple(t[0]), t[1], frozenset(t[2]), t[3]) for root, t in systems.items()},
    )
