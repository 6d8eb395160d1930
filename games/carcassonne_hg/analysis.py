"""The features of one Carcassonne: Hunters and Gatherers board, as the engine reads them (rules file §2).

An ``Analysis`` holds two partitions of the placed regions: **zones** (forests, meadows, rivers:
what a gatherer, hunter or fisherman claims) and **systems** (rivers and the lakes joining them:
what a hut claims). It is built by ``flood_fill.add_tile`` or read back from the state's labels
(``labels.from_labels``), memoised by ``features.analyse``, and never changed once returned.

Speed (issue 6: legal moves on an ~80-tile board in at most 5 ms, even with nothing memoised)
shapes the representation:

* every node (x, y, region id) maps straight to the id of its feature (``zone_of`` /
  ``system_of``), and each feature keeps only running totals (its nodes as a tuple, open edges,
  icons: ``totals.ZoneTotals`` / ``totals.SystemTotals``), worked out from the tiles
  (``totals.totals_of``) only for the features something asks for;
* the ``Zone`` / ``System`` objects (frozensets of nodes and squares) are only made when asked
  for — scoring asks for a handful, legal moves for none.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Callable, NamedTuple

from games.carcassonne_hg import totals
from games.carcassonne_hg.board import Node, Square
from games.carcassonne_hg.tiles import Tile
from games.carcassonne_hg.totals import SystemTotals, ZoneTotals


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


def _make_zone(found: ZoneTotals) -> Zone:
    nodes, kind, opened, menhirs, mushrooms, fish, lakes = found
    return Zone(kind, frozenset(nodes), frozenset((x, y) for x, y, _ in nodes), opened, menhirs, mushrooms, fish, lakes)


def _make_system(found: SystemTotals) -> System:
    nodes, fish, lakes, raft = found
    return System(frozenset(nodes), fish, lakes, raft)


class _Features(Mapping):
    """``{feature id: Zone or System}``, each made from its running totals on first access (then kept).

    A feature's totals are added up when it is first asked for; going through all of them adds up every one.
    """

    def __init__(self, an: Analysis, systems: bool, make: Callable[[Any], Any]):
        self._an = an
        self._systems = systems
        # The analysis's own dict of totals: ``ensure`` and ``ensure_all`` add to it, never replace it.
        self._totals = an.system_totals if systems else an.zone_totals
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
    part they may write to). ``zone_totals`` / ``system_totals`` (the running
    totals known so far, by feature id), ``borders`` and ``next_id`` are what
    ``flood_fill`` keeps up to date while it builds the analysis.
    """

    __slots__ = ("edition", "index", "zone_of", "system_of", "_needs", "next_id", "zone_totals", "system_totals",
                 "_complete", "_zones", "_systems", "borders", "derived")

    def __init__(self, edition: str):
        self.edition = edition
        self.index: dict[Square, Tile] = {}
        self.zone_of: dict[Node, int] = {}
        self.system_of: dict[Node, int] = {}
        self._needs: dict[Square, tuple[str | None, ...]] | None = {}  # None: not worked out yet (``needs``)
        self.next_id = 0
        # The running totals known so far, by feature id; ``_complete``: of every feature.
        self.zone_totals: dict[int, ZoneTotals] = {}
        self.system_totals: dict[int, SystemTotals] = {}
        self._complete = True
        self.forget()

    def forget(self) -> None:
        """Drop what is derived on demand (after a change, or for a copy)."""
        self._zones: Mapping[int, Zone] | None = None
        self._systems: Mapping[int, System] | None = None
        self.borders: dict[Square, tuple[tuple, tuple]] = {}  # see flood_fill.border
        # Callers' own results worked out from this board, by their key (a view's held features):
        # kept as long as the analysis is memoised, never copied to a board with another tile.
        self.derived: dict[tuple, Any] = {}

    def defer_totals(self) -> None:
        """Leave the frontier and every feature's running totals to be worked out when first asked for.

        For a partition filled in from outside (``labels.from_labels``): a view of the position asks
        only for its held features, and only placing a tile asks for the frontier.
        """
        self._needs = None
        self._complete = False

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
            self.zone_totals.update(zones)  # in place: the ``zones`` and ``systems`` mappings read these dicts
            self.system_totals.update(systems)
            self._complete = True

    def ensure(self, zone_roots: Iterable[int], system_roots: Iterable[int]) -> None:
        """Work out the running totals of these zones and systems from their own tiles, if not known yet.

        Asking for several features at once costs one pass over the partition for all of them.
        """
        if self._complete:
            return
        zones = {root for root in zone_roots if root not in self.zone_totals}
        systems = {root for root in system_roots if root not in self.system_totals}
        if zones or systems:
            found_zones, found_systems = totals.totals_of(self, zones, systems)
            self.zone_totals.update(found_zones)
            self.system_totals.update(found_systems)

    def copy(self) -> Analysis:
        new = Analysis.__new__(Analysis)
        new.edition = self.edition
        new.index = dict(self.index)
        new.zone_of = dict(self.zone_of)
        new.system_of = dict(self.system_of)
        new._needs = dict(self.needs)
        new.next_id = self.next_id
        new.zone_totals = dict(self.zone_totals)
        new.system_totals = dict(self.system_totals)
        new._complete = self._complete
        new.forget()
        return new

    def zone(self, node: Node) -> Zone:
        return self.zones[self.zone_of[node]]

    def system(self, node: Node) -> System:
        return self.systems[self.system_of[node]]

    def region(self, node: Node):
        return self.index[(node[0], node[1])].region(node[2])
