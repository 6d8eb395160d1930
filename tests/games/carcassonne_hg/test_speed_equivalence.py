"""The fast feature analysis and legal-move listing give exactly what the original (slow) code gave.

``games/carcassonne_hg/features.py`` was rewritten for speed (issue 6: legal moves on an ~80-tile
board in at most 5 ms with nothing memoised). This file keeps the original implementation as the
reference: ``_REFERENCE_FEATURES_SOURCE`` is that module's source verbatim (git e859d7b), loaded as a
separate module with its own memo, and ``_reference_legal_moves`` is the original ``legal_moves``
with the piece helpers it used. Seeded random games (both editions, 2–5 players, random table
options, bonus stacks that put the power tiles — shaman included — first) are played, and at every
position the test checks that

* every node's zone and river system (as ``Zone`` / ``System`` values, and as a partition), the
  frontier requirements, the fitting placements and the placeability of every tile are the same;
* ``legal_moves`` returns the same list (same order) as the reference;
* ``apply`` of the chosen move and of a few other legal moves gives the same state and events as
  ``apply`` running on the reference analysis, and an illegal piece is refused with the same message.
"""

from __future__ import annotations

import copy
import random
import sys
import types
from collections import Counter
from typing import Any

import pytest

from games.base import IllegalMove
from games.carcassonne_hg import ENGINE, engine, features, tiles
from games.carcassonne_hg.board import hut_spots, region_names
from games.carcassonne_hg.engine import HUNTER, HUT, PLACE_FOR, ROLE, TRIBE
from games.carcassonne_hg.pieces import node_of as _node, recallable as _recallable

from . import NAMES

_REFERENCE_FEATURES_SOURCE = r'''"""Features of a Carcassonne: Hunters and Gatherers board (both editions): flood fill of regions (rules file §2).

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
'''


def _load_reference() -> types.ModuleType:
    module = types.ModuleType("_reference_carcassonne_hg_features")
    sys.modules[module.__name__] = module  # dataclasses look their module up while building
    exec(compile(_REFERENCE_FEATURES_SOURCE, "<reference features.py>", "exec"), module.__dict__)
    return module


ref = _load_reference()


# -- the original legal_moves and the piece helpers it used (engine.py at git e859d7b) ----------------


class _ReferenceClaims:
    def __init__(self, state, seat, an, recalled):
        pieces = [p for p in state["pieces"] if p is not recalled]
        self.tribe = {an.zone_of[_node(p)] for p in pieces if p["kind"] in TRIBE}
        self.huts = {an.system_of[_node(p)] for p in pieces if p["kind"] == HUT}
        supply = state["supply"][seat]
        self.members = supply["members"] + (1 if recalled is not None else 0)
        self.hut_supply = supply["huts"]


def _reference_piece_error(state, claims, tile, piece, region_id, zone_group, system_group):
    region = tile.by_id.get(region_id)
    if region is None:
        return f"The tile {tile.id} has no region {region_id!r}"
    where = region_names(state["edition"], tile.id, tile.rot)[region_id]
    if region.kind not in PLACE_FOR[piece]:
        wanted = " or ".join(PLACE_FOR[piece])
        return f"A {piece} goes on a {wanted}, not on the {where}"
    if piece == HUT:
        if region.kind == tiles.RIVER and region.lake is not None:
            lake = region_names(state["edition"], tile.id, tile.rot)[region.lake]
            return f"That river flows into the {lake} on this tile: put the hut on the lake"
        if claims.hut_supply <= 0:
            return "You have no huts left"
        if system_group[region_id].roots & claims.huts:
            return f"The river system of the {where} already has a hut"
        return None
    if claims.members <= 0:
        return "You have no tribe members left in your supply"
    free_shrine = (
        piece == HUNTER and region.special == tiles.SHRINE and not state["options"]["shrine_requires_free_meadow"]
    )
    if zone_group[region_id].roots & claims.tribe and not free_shrine:
        return f"The {region.kind} of the {where} already holds a tribe member"
    return None


def _reference_piece_choices(state, claims, tile, zone_group, system_group):
    choices = []
    spots = set(hut_spots(tile))
    for region in tile.regions:
        candidates = ([ROLE[region.kind]] if region.kind in ROLE else []) + ([HUT] if region.id in spots else [])
        for piece in candidates:
            if _reference_piece_error(state, claims, tile, piece, region.id, zone_group, system_group) is None:
                choices.append((piece, region.id))
    return choices


def _reference_by_region(groups):
    return {region: group for group in groups for region in group.regions}


def _reference_legal_moves(state: dict, seat: int) -> list[dict[str, Any]]:
    if state["phase"] == engine.OVER or seat != state["current"]:
        return []
    edition = state["edition"]
    an = ref.analyse(edition, state["board"])
    recalls: list[dict[str, Any] | None] = [None]
    if edition == tiles.REVISED and tiles.oriented(edition, state["tile"], 0).special == tiles.SHAMAN:
        recalls += _recallable(state, seat)
    claims = [(recall, _ReferenceClaims(state, seat, an, recall)) for recall in recalls]
    moves: list[dict[str, Any]] = []
    for square, rot in ref.fitting(an, state["tile"]):
        tile = tiles.oriented(edition, state["tile"], rot)
        zone_groups, system_groups = ref.groups(an, square, tile)
        zone_group, system_group = _reference_by_region(zone_groups), _reference_by_region(system_groups)
        for recall, claim in claims:
            base: dict[str, Any] = {"x": square[0], "y": square[1], "rot": rot}
            if recall is not None:
                base["recall"] = {"x": recall["x"], "y": recall["y"]}
            moves.append(base)
            for piece, region in _reference_piece_choices(state, claim, tile, zone_group, system_group):
                moves.append({**base, "piece": piece, "region": region})
    return moves


def _reference_apply(state: dict, seat: int, move: dict):
    """Run the engine's ``apply`` with the reference feature analysis in place of the fast one."""
    saved = engine.features, engine.analyse
    engine.features, engine.analyse = ref, ref.analyse
    try:
        return engine.apply_move(state, seat, move)
    finally:
        engine.features, engine.analyse = saved


def _outcome(function, state, seat, move):
    """Return (state, events as JSON) or the refusal message."""
    try:
        new, events = function(state, seat, move)
    except IllegalMove as error:
        return ("illegal", str(error))
    return new, [event.to_json() for event in events]


# -- comparisons ------------------------------------------------------------------------------------


def _plain(feature) -> tuple:
    """Return a Zone or System as plain values (the reference module has its own classes)."""
    return (type(feature).__name__, *vars(feature).values())


def _partition(zone_of: dict, features_by_id) -> dict:
    """Return {node: the feature holding it} as values, so two analyses with other ids compare equal."""
    return {node: _plain(features_by_id[root]) for node, root in zone_of.items()}


def _same_analysis(state: dict) -> None:
    edition, board = state["edition"], state["board"]
    fast, slow = features.analyse(edition, board), ref.analyse(edition, board)
    assert fast.index == slow.index and fast.needs == slow.needs
    assert _partition(fast.zone_of, fast.zones) == _partition(slow.zone_of, slow.zones)
    assert _partition(fast.system_of, fast.systems) == _partition(slow.system_of, slow.systems)
    # the same nodes share a feature id in both (the ids themselves may differ): map fast ids to slow ones
    maps = []
    for fast_of, slow_of, slow_features in ((fast.zone_of, slow.zone_of, slow.zones),
                                            (fast.system_of, slow.system_of, slow.systems)):
        assert fast_of.keys() == slow_of.keys()
        pairs = {(fast_of[node], slow_of[node]) for node in slow_of}
        assert len(pairs) == len({a for a, _ in pairs}) == len({b for _, b in pairs}) == len(slow_features)
        maps.append(dict(pairs))
    for fast_features, slow_features in ((fast.zones, slow.zones), (fast.systems, slow.systems)):
        assert Counter(map(_plain, fast_features.values())) == Counter(map(_plain, slow_features.values()))
    for tile_id in dict.fromkeys(tiles.deck(edition, tiles.LAND) + tiles.deck(edition, tiles.BONUS)):
        assert features.placeable(fast, tile_id) == ref.placeable(slow, tile_id)
    if state["tile"] is not None:
        assert features.fitting(fast, state["tile"]) == ref.fitting(slow, state["tile"])
        for square, rot in features.fitting(fast, state["tile"]):
            tile = tiles.oriented(edition, state["tile"], rot)
            for mine, theirs, ids in zip(features.groups(fast, square, tile), ref.groups(slow, square, tile), maps):
                assert [(g.kind, g.regions, frozenset(ids[r] for r in g.roots)) for g in mine] == [
                    (g.kind, g.regions, g.roots) for g in theirs
                ]


def _options(rng: random.Random, edition: str) -> dict:
    options = {
        "edition": edition,
        "menhir_needs_occupied_forest": rng.random() < 0.3,  # mostly off: more bonus turns
        "unplaceable_tile": rng.choice(["edition", "end_turn", "redraw"]),
        "hunting_trap_scorer": rng.choice(["placer", "hunters"]),
        "fire_affects_hunting_trap": rng.random() < 0.5,
        "wildfire_tile_tiger_counts": rng.random() < 0.5,
        "shrine_requires_free_meadow": rng.random() < 0.5,
        "river_fish_for_fishermen": rng.choice(["river_and_lakes", "lakes_only"]),
        "forest_parts_count_separately": rng.choice(["edition", True, False]),
    }
    bonus = tiles.deck(edition, tiles.BONUS)
    rng.shuffle(bonus)
    powers = [t for t in bonus if tiles.tile(edition, t).special]
    options["bonus_tiles"] = powers + [t for t in bonus if t not in powers]  # power tiles (shaman…) come first
    return options


GAMES = [(number, edition, 2 + number % 4) for number in range(8) for edition in (tiles.REVISED, tiles.CLASSIC)]
# make test plays four of the sixteen whole games: each number of players once, the editions in turn; make test-long
# plays them all.
QUICK = {(number, (tiles.REVISED, tiles.CLASSIC)[number % 2]) for number in range(4)}


@pytest.mark.parametrize("number,edition,players", [
    pytest.param(number, edition, players, marks=() if (number, edition) in QUICK else pytest.mark.long)
    for number, edition, players in GAMES])
def test_fast_analysis_and_moves_match_the_reference(number, edition, players):
    rng = random.Random(f"speed-equivalence-{number}-{edition}")
    state = ENGINE.setup(NAMES[:players], ENGINE.validate_options(players, _options(rng, edition)), number)
    positions = 0
    while not ENGINE.is_over(state):
        (seat,) = ENGINE.to_move(state)
        features._CACHE.clear() if rng.random() < 0.2 else None  # sometimes rebuilt from scratch
        _same_analysis(state)
        before = copy.deepcopy(state)
        moves = ENGINE.legal_moves(state, seat)
        assert moves == _reference_legal_moves(state, seat)
        placed = [m for m in moves if "piece" in m]
        move = rng.choice(placed if placed and rng.random() < 0.7 else moves)
        for other in [move] + rng.sample(moves, min(3, len(moves))):
            assert _outcome(ENGINE.apply, state, seat, other) == _outcome(_reference_apply, state, seat, other)
        wrong = {**moves[0], "piece": rng.choice(list(PLACE_FOR)), "region": rng.choice(
            [r.id for r in tiles.oriented(edition, state["tile"], moves[0]["rot"]).regions])}
        assert _outcome(ENGINE.apply, state, seat, wrong) == _outcome(_reference_apply, state, seat, wrong)
        assert state == before, "apply never changes its input"
        state, _ = ENGINE.apply(state, seat, move)
        positions += 1
    assert positions >= 40
