"""Carcassonne: Hunters and Gatherers bots: ``basic`` weighs what each placement does to the held features.

Everything comes from the seat's view: the board (placements are public), the
pieces, the covered meadow regions, the supplies and the stack size. The bot
rebuilds the board's features with the engine's pure helpers
(``features.analyse`` / ``features.with_tile``) and values every feature that
holds a piece with ``scoring`` (the engine's own forest, river, meadow and
river-system values), from its seat's point of view::

    value = Σ over the feature's leaders (ties score in full):  +V for us, −OPPONENT × V for another seat

    forest / river, complete:   V = its points now (plus BONUS_TILE for a menhir bonus turn);
                                our tribe members there come home (+ the piece value each)
    forest / river, open:       V = p × (points now + growth per open edge), p = the chance it closes
                                before the stack runs out (fewer open edges, more tiles left: higher);
                                our members there come home with chance p
    meadow (hunters):           V = ``meadow_score`` now (tigers eat deer, fire, pit trap, covered
                                animals) + growth per open edge while tiles remain
    river system (huts):        V = ``system_points`` now + growth per open river end while tiles remain

A move's score is the change it makes to the features its tile joins (and
the one a shaman recall leaves), plus the logboat / hunting-trap points it
scores at once, minus the value of the piece it takes from the supply (more
for the last pieces, nothing once too few turns remain to use them). Only the
features a placement touches change, so each placement costs one
``with_tile`` and a handful of feature values. Ties go to the rng.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from games.bots import best_index
from games.carcassonne_hg import features, scoring, tiles
from games.carcassonne_hg.tiles import FOREST, MEADOW, REVISED, RIVER

TRIBE = ("gatherer", "fisherman", "hunter")
HUT = "hut"
LAND_TILES = 78  # land tiles in either edition's stack (§3)

OPPONENT = {2: 1.0}  # weight of an opponent's points against ours (2 players); more players: OPPONENT_MANY
OPPONENT_MANY = 0.6
CLOSE_BASE = 0.6  # chance factor per open edge that a forest or river gets closed
TILES_PER_EDGE = 3.0  # tiles still to come per open edge for a fair chance of closing it
FOREST_GROWTH = 1.5  # points a forest gains per open edge before it closes
RIVER_GROWTH = 1.5  # points a river gains per open end (tiles and the lake's fish)
MEADOW_GROWTH = 0.5  # animal points a meadow gains per open edge over a whole game
SYSTEM_GROWTH = 1.0  # fish a river system gains per open river end over a whole game
MEADOW_EDGES_CAP = 10  # a meadow grows by this many open edges at most
BONUS_TILE = 3.0  # a menhir (gold nugget) bonus turn
MEMBER_COST = {0: 0.0, 1: 12.0, 2: 8.0, 3: 5.0, 4: 3.6, 5: 2.8}  # by members left before deploying
HUT_COST = {0: 0.0, 1: 3.0, 2: 2.0, 3: 1.5}  # by huts left before deploying
SUPPLY_TURNS = 8.0  # own turns left from which a piece in the supply is worth its full cost

Node = tuple[int, int, str]


def _node(piece: dict[str, Any]) -> Node:
    return (piece["x"], piece["y"], piece["region"])


class Position:
    """The seat's picture of the game, rebuilt from the view, with the feature values the bot needs."""

    def __init__(self, view: dict[str, Any]):
        self.edition = view["edition"]
        self.opts = view["options"]
        self.me = view["you"]
        seats = view["seats"]
        playing = [s for s in seats if not s["left"]] or seats
        self.opponent = OPPONENT.get(len(playing), OPPONENT_MANY)
        self.board = [entry[:4] for entry in view["board"]]  # [x, y, tile, rot] in placement order
        self.an = features.analyse(self.edition, self.board)
        self.an.ensure_all()  # every placement weighed asks for the features it touches and those near them
        self.pieces = [p for p in view["pieces"] if p["seat"] is not None]
        self.cancelled = {tuple(node) for node in view.get("cancelled") or []}
        self.left = view["stack_count"]  # land tiles still to come after this one
        self.time = min(1.0, self.left / LAND_TILES)
        my_turns = self.left / max(1, len(playing))
        usable = min(1.0, my_turns / SUPPLY_TURNS)
        mine = seats[self.me]
        self.member_cost = MEMBER_COST[min(mine["members"], 5)] * usable
        self.hut_cost = HUT_COST[min(mine["huts"], 3)] * usable
        self.can_bonus = not view.get("bonus_turn") and view.get("bonus_stack_count", 0) > 0
        self.powers = self.edition == REVISED
        self.parts = bool(self.opts.get("forest_parts_count_separately"))
        self.river_fish = self.edition == REVISED and self.opts.get("river_fish_for_fishermen") == "river_and_lakes"
        self.wildfire_tiger = bool(self.opts.get("wildfire_tile_tiger_counts"))
        self.needs_member = self.edition == REVISED and self.opts.get("menhir_needs_occupied_forest", True)
        self.zone_pieces: dict[int, list[dict[str, Any]]] = {}
        self.system_pieces: dict[int, list[dict[str, Any]]] = {}
        for piece in self.pieces:
            if piece["kind"] == HUT:
                self.system_pieces.setdefault(self.an.system_of[_node(piece)], []).append(piece)
            else:
                self.zone_pieces.setdefault(self.an.zone_of[_node(piece)], []).append(piece)
        self.zone_memo: dict[int, float] = {}
        self.system_memo: dict[int, float] = {}

    # -- feature values ----------------------------------------------------------

    def share(self, leaders: list[int], value: float) -> float:
        """Return what ``value`` scored by ``leaders`` is worth to us."""
        return sum(1.0 if seat == self.me else -self.opponent for seat in leaders) * value

    def chance(self, edges: int) -> float:
        """Return the chance that a forest or river with ``edges`` open edges closes before the end."""
        if edges <= 0:
            return 1.0
        return CLOSE_BASE ** edges * min(1.0, self.left / (TILES_PER_EDGE * edges))

    def closing(self, zone) -> float:
        """Return the chance that a forest or river closes before the end (1 once it has)."""
        if zone.complete:
            return 1.0
        return self.chance(-(-zone.open // 3) if zone.kind == FOREST else zone.open)

    def zone_value(self, an, zone, holders: list[dict[str, Any]], cancelled: set) -> float:
        """Return a zone's worth to us, given the tribe members in it."""
        if not holders:
            return 0.0
        counts = Counter(p["seat"] for p in holders)
        leaders = scoring.majority(dict(counts))
        if zone.kind == MEADOW:
            shrine = sorted({p["seat"] for p in holders if an.region(_node(p)).special == tiles.SHRINE})
            if shrine:
                leaders = shrine
            points = scoring.meadow_score(self.edition, an, zone, cancelled, self.wildfire_tiger)["points"]
            edges = min(zone.open / 2.5, MEADOW_EDGES_CAP)
            return self.share(leaders, points + MEADOW_GROWTH * edges * self.time)
        mine = counts.get(self.me, 0)
        if zone.kind == FOREST:
            points = scoring.forest_points(self.edition, zone, self.parts)
            edges = -(-zone.open // 3)
            growth = FOREST_GROWTH * edges
        else:
            points = scoring.river_points(an, zone, self.river_fish)
            edges = zone.open
            growth = RIVER_GROWTH * edges
        if zone.complete:
            value = self.share(leaders, points) + mine * self.member_cost
            if zone.kind == FOREST and zone.menhirs and self.can_bonus and (holders or not self.needs_member):
                value += BONUS_TILE
            return value
        p = self.chance(edges)
        return p * (self.share(leaders, points + growth) + mine * self.member_cost)

    def system_value(self, an, system, huts: list[dict[str, Any]]) -> float:
        """Return a river system's worth to us, given the huts on it."""
        if not huts:
            return 0.0
        leaders = scoring.majority(dict(Counter(p["seat"] for p in huts)))
        points = scoring.system_points(self.edition, system)
        ends = 0
        seen = set()
        for node in system.nodes:
            root = an.zone_of.get(node)
            if root is not None and root not in seen:
                seen.add(root)
                ends += an.zones[root].open
        return self.share(leaders, points + SYSTEM_GROWTH * ends * self.time)

    def before_zone(self, root: int) -> float:
        """Return the worth of a zone of the board as it stands (memoised: every placement asks)."""
        found = self.zone_memo.get(root)
        if found is None:
            holders = self.zone_pieces.get(root, [])
            found = self.zone_memo[root] = self.zone_value(self.an, self.an.zones[root], holders, self.cancelled)
        return found

    def before_system(self, root: int) -> float:
        """Return the worth of a river system of the board as it stands (memoised)."""
        found = self.system_memo.get(root)
        if found is None:
            huts = self.system_pieces.get(root, [])
            found = self.system_memo[root] = self.system_value(self.an, self.an.systems[root], huts)
        return found

    # -- moves --------------------------------------------------------------------

    def placement_scores(self, tile_id: str, x: int, y: int, rot: int, recall, options: list) -> list[float]:
        """Return the score of each ``(piece, region)`` option (None: no piece) of one placement."""
        an = self.an
        square = (x, y)
        tile = tiles.oriented(self.edition, tile_id, rot)
        after = features.with_tile(an, square, tile)
        zone_groups, system_groups = features.groups(an, square, tile)
        pieces = self.pieces
        if recall is not None:
            pieces = [p for p in pieces if not (p["x"] == recall["x"] and p["y"] == recall["y"] and p["kind"] in TRIBE)]
        gained = self.member_cost if recall is not None else 0.0

        # The zones and systems this placement touches, before and after.
        before_zones = {root for g in zone_groups for root in g.roots}
        before_systems = {root for g in system_groups for root in g.roots}
        after_zones = {after.zone_of[(x, y, r)] for g in zone_groups for r in g.regions}
        after_systems = {after.system_of[(x, y, r)] for g in system_groups for r in g.regions}
        if recall is not None:
            node = next(_node(p) for p in self.pieces if (p["x"], p["y"]) == (recall["x"], recall["y"]))
            before_zones.add(an.zone_of[node])
            after_zones.add(after.zone_of[node])

        cancelled = self.cancelled
        immediate = 0.0
        if self.powers:
            special = tile.special
            if special == tiles.LOGBOAT:
                lake = next(r for r in tile.regions if r.special == tiles.LOGBOAT)
                immediate += 2 * len(after.system((x, y, lake.id)).lakes)
            elif special == tiles.HUNTING_TRAP:
                trap = next(r for r in tile.regions if r.special == tiles.HUNTING_TRAP)
                zone = after.zone((x, y, trap.id))
                points, area, _, _ = scoring.hunting_trap_score(
                    self.edition,
                    after,
                    zone,
                    square,
                    cancelled,
                    fire_protects=bool(self.opts.get("fire_affects_hunting_trap")),
                    wildfire_tiger=self.wildfire_tiger,
                )
                if self.opts.get("hunting_trap_scorer", "placer") == "placer":
                    scorers = [self.me]
                else:
                    hunters = Counter(
                        p["seat"] for p in pieces if p["kind"] == "hunter" and after.zone_of[_node(p)] == after.zone_of[(x, y, trap.id)]
                    )
                    scorers = scoring.majority(dict(hunters))
                immediate += self.share(scorers, points)
                cancelled = cancelled | {tuple(n) for n in area}

        before = sum(self.before_zone(root) for root in before_zones)
        before += sum(self.before_system(root) for root in before_systems)

        zone_holders: dict[int, list] = {root: [] for root in after_zones}
        system_huts: dict[int, list] = {root: [] for root in after_systems}
        for p in pieces:
            node = _node(p)
            if p["kind"] == HUT:
                root = after.system_of[node]
                if root in system_huts:
                    system_huts[root].append(p)
            else:
                root = after.zone_of[node]
                if root in zone_holders:
                    zone_holders[root].append(p)
        zone_values = {root: self.zone_value(after, after.zones[root], h, cancelled) for root, h in zone_holders.items()}
        system_values = {root: self.system_value(after, after.systems[root], h) for root, h in system_huts.items()}
        base = immediate + sum(zone_values.values()) + sum(system_values.values()) - before + gained

        scores = []
        for option in options:
            if option is None:
                scores.append(base)
                continue
            piece, region = option
            mine = {"seat": self.me, "kind": piece, "x": x, "y": y, "region": region}
            if piece == HUT:
                root = after.system_of[(x, y, region)]
                value = self.system_value(after, after.systems[root], system_huts[root] + [mine])
                scores.append(base - system_values[root] + value - self.hut_cost)
            else:
                root = after.zone_of[(x, y, region)]
                value = self.zone_value(after, after.zones[root], zone_holders[root] + [mine], cancelled)
                scores.append(base - zone_values[root] + value - self.member_cost)
        return scores


class BasicBot:
    """Play the move that most improves the value of the held features for us; see the module docstring."""

    def choose(self, view, moves, history, rng: random.Random):
        return moves[best_index(((value, i) for i, value in self.placement_order(view, moves)), rng)]

    def scored(self, view, moves) -> list[float]:
        """Return each move's score (the strong bot's order of the moves, ``strong.py``)."""
        scores = [0.0] * len(moves)
        for i, value in self.placement_order(view, moves):
            scores[i] = value
        return scores

    def placement_order(self, view, moves):
        """Yield ``(index, score)`` for every move, placement by placement (the order ties are drawn from), each
        score rounded so that equal placements tie exactly."""
        position = Position(view)
        by_placement: dict[tuple, list[int]] = {}
        for i, move in enumerate(moves):
            recall = move.get("recall")
            key = (move["x"], move["y"], move["rot"], None if recall is None else (recall["x"], recall["y"]))
            by_placement.setdefault(key, []).append(i)
        for (x, y, rot, _), indices in by_placement.items():
            recall = moves[indices[0]].get("recall")
            options = [(moves[i]["piece"], moves[i]["region"]) if "piece" in moves[i] else None for i in indices]
            for i, score in zip(indices, position.placement_scores(view["tile"], x, y, rot, recall, options)):
                yield i, round(score, 6)
