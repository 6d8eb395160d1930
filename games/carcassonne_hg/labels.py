"""The partition of a Carcassonne: Hunters and Gatherers board as the state keeps it: each entry's feature labels.

Issue 11: a worker that has not seen the board must not flood-fill it again. Each board entry
carries, for its regions, the zone and the river system they belong to (``labelled``). A feature's
label is the position of its first node among all zone (or system) nodes in placement order, so
labels depend on the board alone and an entry's labels change only when its features merge with
others. ``from_labels`` reads them back in one pass.
"""

from __future__ import annotations

from games.carcassonne_hg import tiles
from games.carcassonne_hg.analysis import Analysis

LABELLED = 7  # a labelled board entry: [x, y, tile id, rot, placed by, zone labels, system labels]


def labelled(board: list[list], an: Analysis) -> list[list]:
    """Return ``board`` (placements in order) with each entry's zone and system labels, as ``an`` partitions it.

    An entry becomes ``[x, y, tile id, rot, placed by, zones, systems]``:
    ``zones`` has one label per region that is not a lake, ``systems`` one per
    river and lake, in the tile's region order. A label is the position, among
    every zone (or system) node of the board in placement order, of the first
    node of that feature. Only ``zone_of`` and ``system_of`` are read, so any
    analysis of the board gives the same labels.
    """
    edition = an.edition
    zone_of, system_of = an.zone_of, an.system_of
    zone_first: dict[int, int] = {}  # feature id -> label
    system_first: dict[int, int] = {}
    zone_nodes = system_nodes = 0
    result = []
    for entry in board:
        x, y, tile_id, rot = entry[0], entry[1], entry[2], entry[3]
        tile = tiles.oriented(edition, tile_id, rot)
        zones = []
        for region in tile.zone_ids:
            zones.append(zone_first.setdefault(zone_of[(x, y, region)], zone_nodes))
            zone_nodes += 1
        systems = []
        for region in tile.system_ids:
            systems.append(system_first.setdefault(system_of[(x, y, region)], system_nodes))
            system_nodes += 1
        result.append([x, y, tile_id, rot, entry[4], zones, systems])
    return result


def from_labels(edition: str, board: list[list]) -> Analysis:
    """Return the analysis of a labelled board (see ``labelled``), its running totals left for ``totals.totals_of``."""
    an = Analysis(edition)
    index, zone_of, system_of = an.index, an.zone_of, an.system_of
    for x, y, tile_id, rot, _, zones, systems in board:
        tile = tiles.oriented(edition, tile_id, rot)
        index[(x, y)] = tile
        for region, label in zip(tile.zone_ids, zones):
            zone_of[(x, y, region)] = label
        for region, label in zip(tile.system_ids, systems):
            system_of[(x, y, region)] = label
    an.next_id = max(len(zone_of), len(system_of))  # labels are node positions: new ids stay clear of them
    # The frontier is worked out when a placement asks (``Analysis.needs``), each feature's totals when it
    # is asked for (``Analysis.ensure``).
    an.defer_totals()
    return an
