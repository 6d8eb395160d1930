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

The state keeps the partition itself (issue 11: a worker that has not seen
the board must not flood-fill it again): each board entry carries, for its
regions, the zone and the river system they belong to (``labelled``). A
feature's label is the position of its first node among all zone (or system)
nodes in placement order, so labels depend on the board alone and an entry's
labels change only when its features merge with others. ``analyse`` reads
them back (``_from_labels``) in one pass; the running totals of a feature
(open edges, icons...) are worked out from its own tiles (``totals.py``) only
when something asks for that feature (a new tile joining it, its ``Zone``): listing legal
moves never does, a view adds up only the features that hold pieces, and a
placement only those its tile touches, so neither costs a pass over every
region of a late board.

Speed (issue 6: legal moves on an ~80-tile board in at most 5 ms, even with
nothing memoised) shapes the representation:

* every node (x, y, region id) maps straight to the id of its feature
  (``zone_of`` / ``system_of``), and each feature keeps only running totals
  (its nodes as a tuple, open edges, icons). Joining features keeps the
  largest one's id and relabels the nodes of the others ("union by size"),
  so a lookup is one dict access and each node is relabelled O(log n) times
  over a game instead of the whole feature being rewritten on every tile;
* the ``Zone`` / ``System`` objects (frozensets of nodes and squares) are only
  made when asked for — scoring asks for a handful, legal moves for none;
* what a tile type in one rotation contributes (which neighbour segment each
  of its segments meets, which regions a lake ties together, its icons) is
  worked out once per oriented tile (``shapes.shape_of``), and which rotations fit a
  frontier square is memoised per tile type and edge requirement (``_rotations``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Callable, NamedTuple

from games.carcassonne_hg import tiles, totals
from games.carcassonne_hg.board import DELTA, OPPOSITE, Square
from games.carcassonne_hg.shapes import shape_of
from games.carcassonne_hg.tiles import DIRECTIONS, RIVER, Tile

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


class Group(NamedTuple):
    """Regions of a tile being placed that end up in one zone or system, and the board features they join.

    (A named tuple rather than a frozen dataclass: legal moves make one per region group of every
    candidate placement, and a tuple is several times cheaper to build.)
    """

    kind: str
    regions: tuple[str, ...]
    roots: frozenset[int]


# Running totals of one feature, kept per feature id (plain tuples: cheap to copy, never mutated).
# zone:   (nodes, kind, open, menhirs, mushrooms, fish, lakes)
# system: (nodes, fish, lakes, raft)
_ZoneTotals = tuple[tuple[Node, ...], str, int, int, int, int, frozenset[Node]]
_SystemTotals = tuple[tuple[Node, ...], int, frozenset[Node], bool]


def _make_zone(totals: _ZoneTotals) -> Zone:
    nodes, kind, opened, menhirs, mushrooms, fish, lakes = totals
    return Zone(kind, frozenset(nodes), frozenset((x, y) for x, y, _ in nodes), opened, menhirs, mushrooms, fish, lakes)


def _make_system(totals: _SystemTotals) -> System:
    nodes, fish, lakes, raft = totals
    return System(frozenset(nodes), fish, lakes, raft)


class _Features(Mapping):
    """``{feature id: Zone or System}``, each made from its running totals on first access (then kept).

    A feature's totals are added up when it is first asked for; going through all of them adds up every one.
    """

    def __init__(self, an: "Analysis", systems: bool, make: Callable[[Any], Any]):
        self._an = an
        self._systems = systems
        # The analysis's own dict of totals: ``ensure`` and ``ensure_all`` add to it, never replace it.
        self._totals = an._system_totals if systems else an._zone_totals
        self._make = make
        self._made: dict[int, Any] = {}

    def __getitem__(self, root: int):
        found = self._made.get(root)
        if found is None:
            if root not in self._totals:
                self._an.ensure((), (root,)) if self._systems else self._an.ensure((root,), ())
            found = self._made[root] = self._make(self._totals[root])
        return found

    def __iter__(self) -> Iterator[int]:
        self._an.ensure_all()
        return iter(self._totals)

    def __len__(self) -> int:
        self._an.ensure_all()
        return len(self._totals)


class Analysis:
    """The features of one board. Treat as read-only once returned.

    ``zone_of`` / ``system_of`` map each node to its feature id (lakes have no
    zone; forests and meadows no system); ``zones`` / ``systems`` map feature
    ids to ``Zone`` / ``System``; ``needs`` maps each empty square next to the
    board to the edge kinds it requires (N, E, S, W; None: no neighbour there);
    ``derived`` is a memo for what callers work out from this board (the only
    part they may write to).
    """

    __slots__ = ("edition", "index", "zone_of", "system_of", "_needs", "next_id", "_zone_totals", "_system_totals",
                 "_complete", "_zones", "_systems", "_borders", "derived")

    def __init__(self, edition: str):
        self.edition = edition
        self.index: dict[Square, Tile] = {}
        self.zone_of: dict[Node, int] = {}
        self.system_of: dict[Node, int] = {}
        self._needs: dict[Square, tuple[str | None, ...]] | None = {}  # None: not worked out yet (``needs``)
        self.next_id = 0
        # The running totals known so far, by feature id; ``_complete``: of every feature.
        self._zone_totals: dict[int, _ZoneTotals] = {}
        self._system_totals: dict[int, _SystemTotals] = {}
        self._complete = True
        self._forget()

    def _forget(self) -> None:
        """Drop what is derived on demand (after a change, or for a copy)."""
        self._zones: Mapping[int, Zone] | None = None
        self._systems: Mapping[int, System] | None = None
        self._borders: dict[Square, tuple[tuple, tuple]] = {}  # see border
        # Callers' own results worked out from this board, by their key (a view's held features):
        # kept as long as the analysis is memoised, never copied to a board with another tile.
        self.derived: dict[tuple, Any] = {}

    @property
    def needs(self) -> dict[Square, tuple[str | None, ...]]:
        """The empty squares next to the board and the edges each requires; worked out when first asked for.

        A board read back from labels leaves them for later: a view of the position (its held
        features) never asks, only placing a tile does.
        """
        if self._needs is None:
            self._needs = totals.needs_of(self.index)
        return self._needs

    @property
    def zones(self) -> Mapping[int, Zone]:
        if self._zones is None:
            self._zones = _Features(self, False, _make_zone)
        return self._zones

    @property
    def systems(self) -> Mapping[int, System]:
        if self._systems is None:
            self._systems = _Features(self, True, _make_system)
        return self._systems

    def ensure_all(self) -> None:
        """Work out every feature's running totals, if read back from labels without them.

        One pass over every region: cheaper than ``ensure`` feature by feature for a caller that will
        ask for most of them (a bot weighing every placement, the final scoring).
        """
        if not self._complete:
            zones, systems = totals.totals_of(self)
            self._zone_totals.update(zones)  # in place: the ``zones`` and ``systems`` mappings read these dicts
            self._system_totals.update(systems)
            self._complete = True

    def ensure(self, zone_roots: Iterable[int], system_roots: Iterable[int]) -> None:
        """Work out the running totals of these zones and systems from their own tiles, if not known yet.

        Asking for several features at once costs one pass over the partition for all of them.
        """
        if self._complete:
            return
        zones = {root for root in zone_roots if root not in self._zone_totals}
        systems = {root for root in system_roots if root not in self._system_totals}
        if zones or systems:
            found_zones, found_systems = totals.totals_of(self, zones, systems)
            self._zone_totals.update(found_zones)
            self._system_totals.update(found_systems)

    def copy(self) -> "Analysis":
        new = Analysis.__new__(Analysis)
        new.edition = self.edition
        new.index = dict(self.index)
        new.zone_of = dict(self.zone_of)
        new.system_of = dict(self.system_of)
        new._needs = dict(self.needs)
        new.next_id = self.next_id
        new._zone_totals = dict(self._zone_totals)
        new._system_totals = dict(self._system_totals)
        new._complete = self._complete
        new._forget()
        return new

    def zone(self, node: Node) -> Zone:
        return self.zones[self.zone_of[node]]

    def system(self, node: Node) -> System:
        return self.systems[self.system_of[node]]

    def region(self, node: Node):
        return self.index[(node[0], node[1])].region(node[2])


# -- building --------------------------------------------------------------------


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
    kept per square (``Analysis._borders``, forgotten when the board changes).
    """
    found = an._borders.get(square)
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
        found = an._borders[square] = (tuple(zones), tuple(systems))
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
        keep, nodes, olds = _absorb(an._zone_totals, an.zone_of, group.roots,
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
        an._zone_totals[keep] = (nodes, group.kind, opened, menhirs, mushrooms, fish, lakes)
    for group in system_groups:
        keep, nodes, olds = _absorb(an._system_totals, an.system_of, group.roots,
                                    tuple((x, y, r) for r in group.regions), an)
        fish = sum(t[1] for t in olds) + sum(shape.system_fish[r] for r in group.regions)
        lakes = frozenset((x, y, r) for r in group.regions if r in shape.lakes).union(*(t[2] for t in olds))
        raft = any(t[3] for t in olds) or any(r in shape.rafts for r in group.regions)
        an._system_totals[keep] = (nodes, fish, lakes, raft)
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
    an._forget()  # features changed: forget the Zone/System objects and borders made before


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
        found = _from_labels(edition, board)
    else:
        found = Analysis(edition)
        for x, y, tile_id, rot in key[1:]:
            add_tile(found, (x, y), tiles.oriented(edition, tile_id, rot))
    if len(_CACHE) >= _CACHE_SIZE:
        _CACHE.clear()
    _CACHE[key] = found
    return found


# -- the partition kept in the state ---------------------------------------------------

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


def _from_labels(edition: str, board: list[list]) -> Analysis:
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
    an._needs = None  # worked out when a placement asks (``Analysis.needs``)
    an.next_id = max(len(zone_of), len(system_of))  # labels are node positions: new ids stay clear of them
    an._complete = False  # each feature's totals are added up when it is asked for (``Analysis.ensure``)
    return an


# -- queries ---------------------------------------------------------------------

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
