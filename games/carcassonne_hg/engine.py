"""Carcassonne: Hunters and Gatherers rules: the revised edition (Hans im Glück 2020, as Board Game Arena plays it)
and, as a table option, the classic edition (2002) on the rules file's reconstructed "classic-approx" tile set.

Follows docs/rules/carcassonne-hunters-gatherers.md (the rules file):
setup of §3, turns of §4 (placement, deployment, completion scoring, the
menhir / gold-nugget bonus turn, the revised bonus-tile powers), the end of
§5, scoring of §6–§8, the edition differences of §10 and every flag of §11
as a table option with the documented defaults (the "bga" column for the
revised edition, the "classic" column for the classic one).

A turn is one move: place the drawn tile and optionally deploy one piece on
it (with the shaman tile, optionally recall a tribe member first). Drawing is
automatic: the tile drawn for the next player is public, the order of the
stacks is not. The table options are in ``options.py``, the words of refusals in ``reasons.py``.
Rule algorithms are module functions that build new states
without touching their input; ``CarcassonneHGEngine`` is the thin contract
adapter around them.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from games.base import Engine, Event, IllegalMove, InvalidOptions, State, seeded_rng
from games.carcassonne_hg import board, board_words, breakdown, email_text, features, history, notation, player_view
from games.carcassonne_hg import reasons, scoring, terms, tiles, web_art
from games.carcassonne_hg.board import ROTATIONS, hut_spots, region_names
from games.carcassonne_hg.features import Analysis, Group, Node, analyse, labelled
from games.carcassonne_hg.options import END_TURN, NAME, OPTION_SPECS, PLACER, REDRAW, RIVER_AND_LAKES, N_, validate_options
from games.carcassonne_hg.tiles import BONUS, CLASSIC, FOREST, LAKE, LAND, MEADOW, REVISED, RIVER
from games.carcassonne_hg.upcast import VERSION, upcast

PLAY = "play"
OVER = "over"

GATHERER, FISHERMAN, HUNTER, HUT = "gatherer", "fisherman", "hunter", "hut"
PIECES = (GATHERER, FISHERMAN, HUNTER, HUT)
TRIBE = (GATHERER, FISHERMAN, HUNTER)
ROLE = {FOREST: GATHERER, RIVER: FISHERMAN, MEADOW: HUNTER}  # what a tribe member becomes where it stands
PLACE_FOR = {GATHERER: (FOREST,), FISHERMAN: (RIVER,), HUNTER: (MEADOW,), HUT: (LAKE, RIVER)}
MEMBERS = 5  # tribe members in play per player (§1)
HUTS = {REVISED: 3, CLASSIC: 2}

# -- setup ---------------------------------------------------------------------


def new_game(players: list[str], options: dict[str, Any], seed: int | str) -> State:
    """Return the state of a new game: start tile placed, stacks shuffled, first player's tile drawn."""
    if not isinstance(players, list) or not all(isinstance(player, str) for player in players):
        raise InvalidOptions(reasons.players_not_names())
    opts = validate_options(len(players), options)
    edition = opts["edition"]
    stack = opts.get("tiles")
    if stack is None:
        stack = tiles.deck(edition, LAND)
        seeded_rng(seed, "land").shuffle(stack)
    bonus = opts.get("bonus_tiles")
    if bonus is None:
        bonus = tiles.deck(edition, BONUS)
        seeded_rng(seed, "bonus").shuffle(bonus)
    first = opts.get("first_player")
    if first is None:
        first = seeded_rng(seed, "first_player").randrange(len(players))
    n = len(players)
    state: State = {
        "players": list(players),
        "options": opts,
        "seed": seed,
        "edition": edition,
        "phase": PLAY,
        "turn": 0,
        "current": None,
        "tile": None,
        "bonus": False,
        "stack": list(stack),
        "bonus_stack": list(bonus),
        "board": [[0, 0, tiles.start_tile(edition), 0, None]],  # labelled below
        "pieces": [],
        "supply": [{"members": MEMBERS, "huts": HUTS[edition]} for _ in range(n)],
        "scores": [0] * n,
        "left": [False] * n,
        "cancelled": [],
        "discarded": [],
        "last": None,
        "final": None,
        "winners": None,
    }
    an = analyse(edition, state["board"])
    state["board"] = labelled(state["board"], an)
    _draw_land(state, first, an, [])
    return state


# -- small queries -------------------------------------------------------------


def _name(state: State, seat: int) -> str:
    return state["players"][seat]


def _next_seat(state: State, seat: int) -> int:
    """Return the next seat clockwise that has not left the game."""
    n = len(state["players"])
    for step in range(1, n + 1):
        other = (seat + step) % n
        if not state["left"][other]:
            return other
    return seat


def _node(piece: dict[str, Any]) -> Node:
    return (piece["x"], piece["y"], piece["region"])


def _current_tile(state: State, rot: int = 0) -> tiles.Tile:
    return tiles.oriented(state["edition"], state["tile"], rot)


def _powers(state: State) -> bool:
    """Tell whether bonus-tile powers act (revised edition only, §4.5)."""
    return state["edition"] == REVISED


def _recallable(state: State, seat: int) -> list[dict[str, Any]]:
    """Return the seat's tribe members a shaman may call back, in board order (§4.5)."""
    return [p for p in state["pieces"] if p["seat"] == seat and p["kind"] in TRIBE]


class _Claims:
    """Who holds which features before a piece is deployed: tribe members by zone, huts by river system."""

    def __init__(self, state: State, seat: int, an: Analysis, recalled: dict[str, Any] | None):
        pieces = [p for p in state["pieces"] if p is not recalled]
        self.tribe = {an.zone_of[_node(p)] for p in pieces if p["kind"] in TRIBE}
        self.huts = {an.system_of[_node(p)] for p in pieces if p["kind"] == HUT}
        supply = state["supply"][seat]
        self.members = supply["members"] + (1 if recalled is not None else 0)
        self.hut_supply = supply["huts"]


def _piece_error(
    state: State,
    claims: _Claims,
    tile: tiles.Tile,
    piece: str,
    region_id: str,
    zone_group: dict[str, Group],
    system_group: dict[str, Group],
) -> str | None:
    """Return why ``piece`` may not go on ``region_id`` of the tile being placed, or None if it may (§4.2)."""
    region = tile.by_id.get(region_id)
    if region is None:
        return reasons.no_such_region(tile.id, region_id)
    if region.kind not in PLACE_FOR[piece]:
        return reasons.wrong_feature(piece, _where(state, tile, region_id))
    if piece == HUT:
        if region.kind == RIVER and region.lake is not None:
            return reasons.hut_on_river_into_lake(_where(state, tile, region.lake))
        if claims.hut_supply <= 0:
            return reasons.no_huts_left()
        if system_group[region_id].roots & claims.huts:
            return reasons.hut_taken(_where(state, tile, region_id))
        return None
    if claims.members <= 0:
        return reasons.no_members_left()
    free_shrine = (
        piece == HUNTER and region.special == tiles.SHRINE and not state["options"]["shrine_requires_free_meadow"]
    )
    if zone_group[region_id].roots & claims.tribe and not free_shrine:
        return reasons.member_taken(region.kind, _where(state, tile, region_id))
    return None


def _where(state: State, tile: tiles.Tile, region_id: str) -> str:
    """Return the name of a region of the tile being placed, for a reason (only a refusal needs it)."""
    return region_names(state["edition"], tile.id, tile.rot)[region_id]


def _deployments(state: State, claims: _Claims, tile: tiles.Tile) -> list[tuple[str, str, str | None]]:
    """Return every (piece, region, check) the seat might deploy on ``tile`` wherever it goes, in region order.

    Everything ``_piece_error`` asks that does not depend on the square is
    settled here, once per rotation; ``check`` says what is left to ask per
    square: whether the region's zone (``"zone"``) or river system
    (``"system"``) already holds a claim, or nothing (None: the shrine).
    """
    found: list[tuple[str, str, str | None]] = []
    spots = set(hut_spots(tile))
    free_shrine_allowed = not state["options"]["shrine_requires_free_meadow"]
    for region in tile.regions:
        if region.kind in ROLE and claims.members > 0:
            piece = ROLE[region.kind]
            free_shrine = piece == HUNTER and region.special == tiles.SHRINE and free_shrine_allowed
            found.append((piece, region.id, None if free_shrine else "zone"))
        if region.id in spots and claims.hut_supply > 0:
            found.append((HUT, region.id, "system"))
    return found


def _by_region(groups: list[Group]) -> dict[str, Group]:
    return {region: group for group in groups for region in group.regions}


# -- legal moves ----------------------------------------------------------------


def legal_moves(state: State, seat: int) -> list[dict[str, Any]]:
    """Return every legal move: placements by x, y, rotation; for each, no piece first, then pieces by region."""
    if state["phase"] == OVER or seat != state["current"]:
        return []
    edition = state["edition"]
    an = analyse(edition, state["board"])
    recalls: list[dict[str, Any] | None] = [None]
    if _powers(state) and _current_tile(state).special == tiles.SHAMAN:
        recalls += _recallable(state, seat)
    claims = [(recall, _Claims(state, seat, an, recall)) for recall in recalls]
    deployments: dict[int, list] = {}  # rotation -> per claim: the deployments to check on each square
    moves: list[dict[str, Any]] = []
    for square, rot in features.fitting(an, state["tile"]):
        tile = tiles.oriented(edition, state["tile"], rot)
        if rot not in deployments:
            deployments[rot] = [_deployments(state, claim, tile) for _, claim in claims]
        # Which features around the square are claimed is the same for every rotation: a region can only be
        # refused if the square touches a claimed feature, and only then are the tile's groups worked out.
        zone_border, system_border = features.border(an, square)
        by_region = None
        for (recall, claim), choices in zip(claims, deployments[rot]):
            base: dict[str, Any] = {"x": square[0], "y": square[1], "rot": rot}
            if recall is not None:
                base["recall"] = {"x": recall["x"], "y": recall["y"]}
            moves.append(base)
            tribe_near = not claim.tribe.isdisjoint(zone_border)
            huts_near = not claim.huts.isdisjoint(system_border)
            for piece, region, check in choices:
                if (check == "zone" and tribe_near) or (check == "system" and huts_near):
                    if by_region is None:
                        by_region = [_by_region(found) for found in features.groups(an, square, tile)]
                    claimed = claim.tribe if check == "zone" else claim.huts
                    if not claimed.isdisjoint(by_region[check == "system"][region].roots):
                        continue
                moves.append({**base, "piece": piece, "region": region})
    return moves


# -- moves as data ---------------------------------------------------------------


def _int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise IllegalMove(reasons.not_a_whole_number(what, value))
    return value


def normalize(move: Any) -> dict[str, Any]:
    """Return the canonical form of a move object, or raise ``IllegalMove`` if it is malformed."""
    if not isinstance(move, dict):
        raise IllegalMove(reasons.not_an_object())
    extra = sorted(str(key) for key in set(move) - {"x", "y", "rot", "piece", "region", "recall"})
    if extra or not {"x", "y", "rot"} <= set(move):
        raise IllegalMove(reasons.wrong_fields())
    result: dict[str, Any] = {"x": _int(move["x"], "x"), "y": _int(move["y"], "y"), "rot": _int(move["rot"], "rot")}
    if result["rot"] not in ROTATIONS:
        raise IllegalMove(reasons.wrong_rotation(move["rot"]))
    if ("piece" in move) != ("region" in move):
        raise IllegalMove(reasons.piece_without_region())
    if "piece" in move:
        if move["piece"] not in PIECES:
            raise IllegalMove(reasons.unknown_piece(PIECES, move["piece"]))
        if not isinstance(move["region"], str):
            raise IllegalMove(reasons.region_not_an_id(move["region"]))
        result.update(piece=move["piece"], region=move["region"])
    if "recall" in move:
        recall = move["recall"]
        if not isinstance(recall, dict) or set(recall) != {"x", "y"}:
            raise IllegalMove(reasons.recall_not_a_square())
        result["recall"] = {"x": _int(recall["x"], "recall x"), "y": _int(recall["y"], "recall y")}
    return result


def _placement_error(an: Analysis, tile: tiles.Tile, square: tuple[int, int]) -> str | None:
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


# -- apply ---------------------------------------------------------------------


def apply_move(state: State, seat: int, move: Any) -> tuple[State, list[Event]]:
    """Return the state after ``seat`` plays ``move`` and the events; never mutate ``state``."""
    if state["phase"] == OVER:
        raise IllegalMove(reasons.game_over())
    n = len(state["players"])
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
        raise IllegalMove(reasons.no_seat(seat))
    if seat != state["current"]:
        raise IllegalMove(reasons.not_your_turn(_name(state, state["current"])))
    move = normalize(move)
    edition = state["edition"]
    an = analyse(edition, state["board"])
    square = (move["x"], move["y"])
    tile = tiles.oriented(edition, state["tile"], move["rot"])
    reason = _placement_error(an, tile, square)
    if reason:
        raise IllegalMove(reason)
    recalled = None
    if "recall" in move:
        if not (_powers(state) and tile.special == tiles.SHAMAN):
            raise IllegalMove(reasons.not_a_shaman_tile())
        at = (move["recall"]["x"], move["recall"]["y"])
        recalled = next((p for p in _recallable(state, seat) if (p["x"], p["y"]) == at), None)
        if recalled is None:
            raise IllegalMove(reasons.nothing_to_recall(board.name(at)))
    zone_groups, system_groups = features.groups(an, square, tile)
    if "piece" in move:
        claims = _Claims(state, seat, an, recalled)
        reason = _piece_error(
            state, claims, tile, move["piece"], move["region"], _by_region(zone_groups), _by_region(system_groups)
        )
        if reason:
            raise IllegalMove(reason)

    new = dict(state)
    new["scores"] = list(state["scores"])
    new["supply"] = [dict(s) for s in state["supply"]]
    events: list[Event] = []
    placed = state["board"] + [[square[0], square[1], tile.id, tile.rot, seat]]
    # Built from ``an`` (memoised) and memoised in turn: the view of the new position reads it back.
    after = analyse(edition, placed)
    new["board"] = labelled(placed, after)
    was_bonus = state["bonus"]
    names = region_names(edition, tile.id, tile.rot)
    events.append(
        Event(
            "tile_placed",
            {"seat": seat, "tile": tile.id, "x": square[0], "y": square[1], "rot": tile.rot, "bonus": was_bonus},
        )
    )
    if recalled is not None:
        new["pieces"] = [p for p in state["pieces"] if p is not recalled]
        new["supply"][seat]["members"] += 1
        events.append(Event("piece_recalled", {"seat": seat, **recalled}))
    if _powers(state):
        _logboat(new, seat, square, tile, after, events)
        _hunting_trap(new, seat, square, tile, after, events)
    if "piece" in move:
        piece = {"seat": seat, "kind": move["piece"], "x": square[0], "y": square[1], "region": move["region"]}
        new["pieces"] = new["pieces"] + [piece]
        new["supply"][seat]["huts" if move["piece"] == HUT else "members"] -= 1
        events.append(Event("piece_placed", {**piece, "feature": names[move["region"]]}))
    earned = _score_completed(new, seat, square, tile, after, zone_groups, events)
    new["last"] = {key: move[key] for key in ("x", "y", "rot", "piece", "region") if key in move}
    new["last"].update(seat=seat, tile=tile.id, bonus=was_bonus)
    new["bonus"] = False
    new["tile"] = None
    if earned and not was_bonus:
        events.append(Event("bonus_earned", {"seat": seat, "available": len(new["bonus_stack"])}))
        if _draw_bonus(new, seat, after, events):
            return new, events
    if not new["stack"]:
        _finish(new, after, events)
        return new, events
    _draw_land(new, _next_seat(new, seat), after, events)
    return new, events


def _logboat(state: State, seat: int, square, tile: tiles.Tile, after: Analysis, events: list[Event]) -> None:
    """Score 2 points per lake of the logboat's river system for the placer (§4.5)."""
    lake = next((r for r in tile.regions if r.special == tiles.LOGBOAT), None)
    if lake is None:
        return
    system = after.system((square[0], square[1], lake.id))
    points = 2 * len(system.lakes)
    state["scores"][seat] += points
    events.append(Event("logboat_scored", {"seat": seat, "lakes": len(system.lakes), "points": points}))


def _hunting_trap(state: State, seat: int, square, tile: tiles.Tile, after: Analysis, events: list[Event]) -> None:
    """Score the animals around the hunting trap in its meadow, then cancel them for good (§4.5)."""
    trap = next((r for r in tile.regions if r.special == tiles.HUNTING_TRAP), None)
    if trap is None:
        return
    opts = state["options"]
    zone = after.zone((square[0], square[1], trap.id))
    cancelled = {tuple(node) for node in state["cancelled"]}
    points, area, found, eaten = scoring.hunting_trap_score(
        state["edition"],
        after,
        zone,
        square,
        cancelled,
        fire_protects=opts["fire_affects_hunting_trap"],
        wildfire_tiger=opts["wildfire_tile_tiger_counts"],
    )
    if opts["hunting_trap_scorer"] == PLACER:
        scorers = [seat]
    else:
        hunters = Counter(p["seat"] for p in state["pieces"] if p["kind"] == HUNTER and _node(p) in zone.nodes)
        scorers = scoring.majority(dict(hunters))
    for scorer in scorers:
        state["scores"][scorer] += points
    state["cancelled"] = state["cancelled"] + [list(node) for node in area]
    events.append(
        Event(
            "hunting_trap_scored",
            {
                "seat": seat,
                "scorers": scorers,
                "points": points,
                "animals": {animal: found[animal] for animal in tiles.ANIMALS},
                "eaten": eaten,
                "cancelled": [list(node) for node in area],
            },
        )
    )


def _score_completed(
    state: State, seat: int, square, tile: tiles.Tile, after: Analysis, zone_groups: list[Group], events: list[Event]
) -> bool:
    """Score the forests and rivers this tile completed, return their tribe members; tell if a bonus is earned."""
    opts = state["options"]
    edition = state["edition"]
    earned = False
    x, y = square
    for group in sorted(zone_groups, key=lambda g: tile.regions.index(tile.region(g.regions[0]))):
        if group.kind not in (FOREST, RIVER):
            continue
        zone = after.zone((x, y, group.regions[0]))
        if not zone.complete:
            continue
        inside = [p for p in state["pieces"] if p["kind"] in TRIBE and _node(p) in zone.nodes]
        counts = Counter(p["seat"] for p in inside)
        winners = scoring.majority(dict(counts))
        data: dict[str, Any] = {"feature": group.kind, "tiles": len(zone.tiles), "x": x, "y": y}
        if group.kind == FOREST:
            points = scoring.forest_points(edition, zone, opts["forest_parts_count_separately"])
            data.update(parts=len(zone.nodes), mushrooms=zone.mushrooms, menhirs=zone.menhirs)
            needs_member = edition == REVISED and opts["menhir_needs_occupied_forest"]
            if zone.menhirs and (inside or not needs_member):
                earned = True
        else:
            river_fish = edition == REVISED and opts["river_fish_for_fishermen"] == RIVER_AND_LAKES
            points = scoring.river_points(after, zone, river_fish)
            data.update(fish=scoring.river_fish(after, zone, river_fish), lakes=len(zone.lakes))
        for winner in winners:
            state["scores"][winner] += points
        returned = [{"seat": p["seat"], "kind": p["kind"], "x": p["x"], "y": p["y"]} for p in inside]
        data.update(points=points, scorers=winners, returned=returned)
        events.append(Event("feature_completed", data))
        if inside:
            state["pieces"] = [p for p in state["pieces"] if p not in inside]
            for p in inside:
                state["supply"][p["seat"]]["members"] += 1
    return earned


# -- drawing, turns and the end (§3, §4.1, §4.4, §4.6) ------------------------------


def _draw_land(state: State, seat: int, an: Analysis, events: list[Event]) -> None:
    """Start ``seat``'s turn: draw the top land tile; unplaceable tiles leave the game (§11); end when none is left."""
    mode = state["options"]["unplaceable_tile"]
    first = True
    while state["stack"]:
        if first or mode == END_TURN:
            state["turn"] += 1
        first = False
        tile_id, state["stack"] = state["stack"][0], state["stack"][1:]
        events.append(Event("tile_drawn", {"seat": seat, "tile": tile_id, "bonus": False, "left": len(state["stack"])}))
        if features.placeable(an, tile_id):
            state.update(current=seat, tile=tile_id, bonus=False)
            return
        state["discarded"] = state["discarded"] + [tile_id]
        events.append(Event("tile_discarded", {"seat": seat, "tile": tile_id, "bonus": False, "then": mode}))
        if mode == END_TURN:
            seat = _next_seat(state, seat)
    _finish(state, an, events)


def _draw_bonus(state: State, seat: int, an: Analysis, events: list[Event]) -> bool:
    """Draw the seat's bonus tile, discarding unplaceable ones; tell whether one is now to be placed."""
    while state["bonus_stack"]:
        tile_id, state["bonus_stack"] = state["bonus_stack"][0], state["bonus_stack"][1:]
        events.append(
            Event("tile_drawn", {"seat": seat, "tile": tile_id, "bonus": True, "left": len(state["bonus_stack"])})
        )
        if features.placeable(an, tile_id):
            state.update(current=seat, tile=tile_id, bonus=True)
            return True
        state["discarded"] = state["discarded"] + [tile_id]
        events.append(Event("tile_discarded", {"seat": seat, "tile": tile_id, "bonus": True, "then": REDRAW}))
    return False


def _finish(state: State, an: Analysis, events: list[Event]) -> None:
    """Score meadows (hunters) and river systems (huts), then end the game (§5, §7)."""
    opts = state["options"]
    edition = state["edition"]
    cancelled = {tuple(node) for node in state["cancelled"]}
    final: list[dict[str, Any]] = []
    by_zone: dict[int, list[dict]] = {}
    by_system: dict[int, list[dict]] = {}
    for piece in state["pieces"]:
        if piece["kind"] == HUNTER:
            by_zone.setdefault(an.zone_of[_node(piece)], []).append(piece)
        elif piece["kind"] == HUT:
            by_system.setdefault(an.system_of[_node(piece)], []).append(piece)
    scores = list(state["scores"])
    for root, hunters in sorted(by_zone.items(), key=lambda item: min(map(_node, item[1]))):
        zone = an.zones[root]
        detail = scoring.meadow_score(edition, an, zone, cancelled, opts["wildfire_tile_tiger_counts"])
        shrine = [p for p in hunters if an.region(_node(p)).special == tiles.SHRINE]
        if shrine:
            scorers = sorted({p["seat"] for p in shrine})  # §7.5: a hunter on the shrine wins the meadow alone
        else:
            scorers = scoring.majority(dict(Counter(p["seat"] for p in hunters)))
        for scorer in scorers:
            scores[scorer] += detail["points"]
        at = min(map(_node, hunters))
        entry = {"feature": MEADOW, "x": at[0], "y": at[1], "region": at[2], "tiles": len(zone.tiles)}
        entry.update(detail, scorers=scorers, shrine=bool(shrine))
        final.append(entry)
        events.append(Event("meadow_scored", entry))
    for root, huts in sorted(by_system.items(), key=lambda item: min(map(_node, item[1]))):
        system = an.systems[root]
        scorers = scoring.majority(dict(Counter(p["seat"] for p in huts)))
        points = scoring.system_points(edition, system)
        for scorer in scorers:
            scores[scorer] += points
        at = min(map(_node, huts))
        raft = system.raft and edition == REVISED
        entry = {
            "feature": "river_system",
            "x": at[0],
            "y": at[1],
            "region": at[2],
            "fish": system.fish,
            "lakes": len(system.lakes),
            "raft": raft,
            "points": points,
            "scorers": scorers,
        }
        final.append(entry)
        events.append(Event("river_system_scored", entry))
    unscored = [
        {"seat": p["seat"], "kind": p["kind"], "x": p["x"], "y": p["y"]}
        for p in state["pieces"]
        if p["kind"] in (GATHERER, FISHERMAN)
    ]
    staying = [seat for seat in range(len(scores)) if not state["left"][seat]]
    best = max(scores[seat] for seat in staying)
    winners = [seat for seat in staying if scores[seat] == best]
    state.update(
        phase=OVER, current=None, tile=None, bonus=False, scores=scores, final=final, winners=winners
    )
    events.append(Event("game_ended", {"scores": scores, "winners": winners, "unscored": unscored}))


def game_result(state: State) -> dict[str, Any] | None:
    """Return the outcome once the game is over, else None (a tie for first is a shared win, §5)."""
    if state["phase"] != OVER:
        return None
    scores = list(state["scores"])
    ranking = sorted(range(len(scores)), key=lambda seat: (state["left"][seat], -scores[seat], seat))
    winners = list(state["winners"])
    names = state["players"]
    table = ", ".join(f"{names[seat]} {scores[seat]}" for seat in ranking)
    if len(winners) == 1:
        summary = f"{names[winners[0]]} wins ({table})"
    else:
        summary = f"{' and '.join(names[s] for s in winners)} share the win ({table})"
    return {
        "winners": winners,
        "scores": scores,
        "ranking": ranking,
        "summary": summary,
        "draw": False,
        "edition": state["edition"],
        "tile_set": player_view.tile_set(state["edition"]),
        "final": [dict(entry) for entry in state["final"]],
    }


def resign(state: State, seat: int) -> tuple[State, list[Event]]:
    """Return the state after ``seat`` leaves the game for good, and the events.

    The seat's turns are skipped from now on and it cannot win; its pieces
    stay on the board and still count for majorities. A tile it had drawn
    passes to the next player (a bonus tile leaves the game). When one player
    is left, the game ends at once and they win it.
    """
    if state["phase"] == OVER:
        raise IllegalMove(reasons.game_over())
    n = len(state["players"])
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
        raise IllegalMove(reasons.no_seat(seat))
    if state["left"][seat]:
        raise IllegalMove(reasons.already_left())
    new = dict(state)
    new["left"] = [gone or other == seat for other, gone in enumerate(state["left"])]
    events = [Event("player_left", {"seat": seat})]
    staying = [other for other in range(n) if not new["left"][other]]
    if len(staying) == 1:
        new.update(phase=OVER, current=None, tile=None, bonus=False, final=[], winners=staying)
        events.append(Event("game_ended", {"scores": list(new["scores"]), "winners": staying, "reason": "resigned"}))
        return new, events
    if state["current"] == seat:
        nxt = _next_seat(new, seat)
        if state["bonus"]:
            new.update(discarded=state["discarded"] + [state["tile"]], tile=None, bonus=False)
            an = analyse(state["edition"], state["board"])
            if not new["stack"]:
                _finish(new, an, events)
            else:
                _draw_land(new, nxt, an, events)
        else:
            new["current"] = nxt
            new["turn"] = state["turn"] + 1
            events.append(Event("tile_passed", {"seat": nxt, "tile": state["tile"]}))
    return new, events


class CarcassonneHGEngine(Engine):
    """Carcassonne: Hunters and Gatherers, revised edition by default, classic edition as an option.

    Every method that takes a state reads it through ``upcast``, so a game
    stored by an older engine version goes on (see ``upcast.py``).
    """

    slug = "carcassonne-hg"
    name = NAME
    version = VERSION
    # Version 2 changed only the stored state's shape (``upcast.py``): it plays version 1's games to the same
    # events and result, so both are played by this code.
    supported_versions = (1, VERSION)
    min_players = 2
    max_players = 5
    option_specs = OPTION_SPECS
    default_players = 2
    summary = N_("Stone-age Carcassonne: lay land, send out gatherers, fishermen and hunters, build huts by the rivers.")

    # The rules live in this package's module functions; the contract's docstrings are in games/base.py.
    validate_options = staticmethod(validate_options)
    setup = staticmethod(new_game)
    upcast = staticmethod(upcast)

    def to_move(self, state: State) -> list[int]:
        """Return the seat to act; empty once the game is over."""
        state = upcast(state)
        return [] if state["phase"] == OVER else [state["current"]]

    def legal_moves(self, state: State, seat: int) -> list[dict[str, Any]]:
        return legal_moves(upcast(state), seat)

    def apply(self, state: State, seat: int, move: Any) -> tuple[State, list[Event]]:
        return apply_move(upcast(state), seat, move)

    def result(self, state: State) -> dict[str, Any] | None:
        return game_result(upcast(state))

    def resign(self, state: State, seat: int) -> tuple[State, list[Event]]:
        return resign(upcast(state), seat)

    def score_breakdown(self, state: State) -> list[dict[str, Any]]:
        """Return the points scored during play, from meadows and from river systems (``breakdown.py``)."""
        return breakdown.score_breakdown(upcast(state))

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return player_view.view(upcast(state), seat)

    def view_after_end(self, state: State) -> dict[str, Any]:
        """Return the land and bonus stacks in drawing order too (the rules file, §5.1)."""
        return player_view.view_after_end(upcast(state))

    def describe_move(self, state: State, move: dict[str, Any]) -> str:
        return notation.describe_move(upcast(state), move)

    def parse_move(self, text: str, state: State, seat: int) -> dict[str, Any]:
        return notation.parse_move(text, upcast(state), seat)

    view_text = staticmethod(email_text.view_text)

    def assets(self) -> dict[str, Any]:
        """Return the tile drawings of each edition (``art-revised``, ``art-classic``), named by ``view["art_asset"]``."""
        return web_art.assets()

    def board_data(self, view: dict[str, Any], moves: list[dict[str, Any]]) -> dict[str, Any] | None:
        """Return the board's compact picture (``web_art.board_data``) and its words (``board_words``).

        ``tile_name``: the drawn tile's name; ``latest`` (for the page without its script, which shows a
        line instead of the board): ``{x, y, name, by}`` of the last tile placed, ``by`` the placer's name
        (None: the start tile); ``words``, ``text``, ``script``: everything the board says, in the reader's
        language.
        """
        data = web_art.board_data(view, moves)
        if view.get("tile"):
            data["tile_name"] = terms.tile_name(view["tile"], view["edition"])
        x, y, tile_id, _, by = view["board"][-1]
        data["latest"] = {"x": x, "y": y, "name": terms.tile_name(tile_id, view["edition"]),
                          "by": None if by is None else view["seats"][by]["name"]}
        data.update(words=board_words.words(), text=board_words.text(view, moves), script=board_words.script_words(moves, view["edition"]))
        return data

    def view_picture(self, view: dict[str, Any]) -> bytes | None:
        """Return a PNG of the board around the latest placements, for turn e-mails (``picture.py``)."""
        from games.carcassonne_hg import picture  # Pillow is loaded only when a picture is wanted

        return picture.view_picture(view)

    def moves_summary(self, texts: list[str], limit: int = 40) -> list[str]:
        """Return the legal moves for an email: one line per placement with its piece choices."""
        return notation.moves_summary(texts, limit)

    describe_event = staticmethod(history.describe_event)

    def describe_result(self, result: dict[str, Any], players: list[str]) -> str:
        """Return who won, with the scores in ranking order, in the reader's language (``history.py``)."""
        return history.describe_result(result, players)

    notation_help = staticmethod(notation.notation_help)

    def bots(self) -> dict[str, Any]:
        """Return the bots this game offers: ``random`` and ``basic`` (see ``games/carcassonne_hg/bots.py``)."""
        from games.bots import RandomBot
        from games.carcassonne_hg.bots import BasicBot

        return {"random": RandomBot(), "basic": BasicBot()}
