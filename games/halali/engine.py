"""Halali! / Tally Ho! rules: the Kosmos 2000 two-player game, played as a two-leg match.

Follows docs/rules/halali.md (the rules file): setup of §3, turns of §4,
captures of §5, scoring of §6, the final phase and exits of §7, the end and
tie-breaks of §8, the two-game match of §9 and every "Adopt" of §10. Rule
algorithms are module functions working on a copy of the state;
``HalaliEngine`` is the thin contract adapter around them.

Hidden information: a face-down tile's kind and rifle direction live only in
the state. Everything that leaves the engine (views, events, legal moves,
notation, error texts) names face-down tiles by square alone.
"""

from __future__ import annotations

import copy
from collections import Counter
from typing import Any

from games.base import Engine, Event, IllegalMove, InvalidOptions, OptionSpec, State, seeded_rng
from games.halali import board, breakdown, notation, player_view, tiles
from games.halali.board import DIRECTION_WORDS, EXITS, name
from games.halali.player_view import match_totals, pile_points
from games.halali.tiles import AIMED, BLUE, BROWN, POINTS, RANGE, SHARED, title

MAIN = "main"  # at least one face-down tile remains
FINAL = "final"  # the last tile was turned over: five turns each (§7)
OVER = "over"  # both legs are finished

LEGS = 2
FINAL_TURNS = 5
INTERNAL_OPTIONS = ("layout", "first_blue")

OPTION_SPECS = (
    OptionSpec(
        name="no_return_neutral",
        label="Back-and-forth ban for ducks and pheasants",
        choices=(
            (False, "No: the ban covers only your own-coloured tiles (rules file)"),
            (True, "Yes: also a duck or pheasant you moved on your previous turn"),
        ),
        default=False,
        help="Whether the no-return rule also stops a duck or pheasant you just moved from going straight back.",
    ),
    OptionSpec(
        name="no_return_capture",
        label="Back-and-forth ban applies to captures",
        choices=(
            (True, "Yes: a tile may not go straight back even to capture (rules file)"),
            (False, "No: going straight back is allowed when it captures"),
        ),
        default=True,
        help="Whether the no-return rule still applies when the square left last turn now holds prey.",
    ),
    OptionSpec(
        name="stall_limit",
        label="Flip-forcing safety valve (not part of the rules)",
        choices=((0, "Off (official rules)"), (20, "After 20 quiet turns"), (50, "After 50 quiet turns")),
        default=0,
        help="After this many turns in a row without a flip, capture or exit, the player to move must turn a tile over.",
    ),
    OptionSpec(
        name="exits_anytime",
        label="House rule: exits open all game",
        choices=((False, "No: exits only in the final phase (rules file)"), (True, "Yes (unofficial house rule)")),
        default=False,
        help="Let bears, foxes, hunters and lumberjacks leave through the exits before the last tile is turned over.",
    ),
)
DEFAULTS = {spec.name: spec.default for spec in OPTION_SPECS}


# -- options and setup ---------------------------------------------------------


def validate_options(players: int, options: dict[str, Any] | None) -> dict[str, Any]:
    """Return the complete options or raise ``InvalidOptions``."""
    options = {} if options is None else options
    if not isinstance(options, dict):
        raise InvalidOptions("Options must be an object")
    if isinstance(players, bool) or players != 2:
        raise InvalidOptions(f"Halali! is for exactly 2 players, not {players}")
    known = set(DEFAULTS) | set(INTERNAL_OPTIONS)
    unknown = sorted(str(key) for key in options if key not in known)
    if unknown:
        raise InvalidOptions(f"Unknown option(s) for Halali!: {', '.join(unknown)}")
    result = dict(DEFAULTS)
    for key in ("no_return_neutral", "no_return_capture", "exits_anytime"):
        if key in options:
            if not isinstance(options[key], bool):
                raise InvalidOptions(f"{key} must be true or false")
            result[key] = options[key]
    if "stall_limit" in options:
        limit = options["stall_limit"]
        if isinstance(limit, bool) or not isinstance(limit, int) or not 0 <= limit <= 1000:
            raise InvalidOptions("stall_limit must be a whole number of turns from 0 (off) to 1000")
        result["stall_limit"] = limit
    if options.get("layout") is not None:
        result["layout"] = _validated_layouts(options["layout"])
    if options.get("first_blue") is not None:
        first = options["first_blue"]
        if isinstance(first, bool) or first not in (0, 1):
            raise InvalidOptions("first_blue must be the seat (0 or 1) that plays Blue in leg 1")
        result["first_blue"] = first
    return result


def _validated_layouts(layout: Any) -> list[list[str]]:
    """Return scripted layouts as per-leg lists of 48 specs in square order, or raise ``InvalidOptions``.

    One layout is a list of 48 tile specs in reading order (a7..g7, a6..g6, ...,
    a1..g1, skipping d4) or a mapping of those 48 squares to specs. A list of one
    or two layouts scripts the legs in turn.
    """
    if isinstance(layout, dict) or (isinstance(layout, list) and len(layout) == len(board.START_SQUARES)):
        legs = [layout]
    elif isinstance(layout, list) and 1 <= len(layout) <= LEGS and all(isinstance(x, (list, dict)) for x in layout):
        legs = layout
    else:
        raise InvalidOptions(
            "layout must be 48 tile specs in square order (a7..g1 without d4), a mapping square -> spec, "
            "or a list of one such layout per leg"
        )
    return [_validated_layout(number, one) for number, one in enumerate(legs, start=1)]


def _validated_layout(leg: int, layout: list | dict) -> list[str]:
    """Return one leg's layout as 48 canonical specs in square order, or raise ``InvalidOptions``."""
    where = f"layout for leg {leg}"
    if isinstance(layout, dict):
        squares = {str(key).lower() for key in layout}
        wanted = {name(i) for i in board.START_SQUARES}
        if squares != wanted or len(layout) != len(wanted):
            missing, extra = sorted(wanted - squares), sorted(squares - wanted)
            raise InvalidOptions(f"{where} must name every square but d4 once (missing {missing}, extra {extra})")
        by_square = {str(key).lower(): value for key, value in layout.items()}
        layout = [by_square[name(i)] for i in board.START_SQUARES]
    if len(layout) != len(board.START_SQUARES):
        raise InvalidOptions(f"{where} must hold exactly 48 tiles, not {len(layout)}")
    cells = []
    for position, text in zip(board.START_SQUARES, layout):
        try:
            cells.append(tiles.parse_spec(text))
        except ValueError as error:
            raise InvalidOptions(f"{where}, square {name(position)}: {error}") from None
    counted, wanted_kinds = Counter(cell["kind"] for cell in cells), Counter(tiles.full_set())
    if counted != wanted_kinds:
        missing, extra = wanted_kinds - counted, counted - wanted_kinds
        raise InvalidOptions(
            f"{where} must be exactly the 48 tiles of the game "
            f"(missing {dict(sorted(missing.items()))}, extra {dict(sorted(extra.items()))})"
        )
    return [tiles.spec(cell) for cell in cells]


def new_game(players: list[str], options: dict[str, Any], seed: int | str) -> State:
    """Return the state of a new match with leg 1 laid out and Blue to move."""
    if not isinstance(players, list) or not all(isinstance(player, str) for player in players):
        raise InvalidOptions("players must be a list of display names")
    opts = validate_options(len(players), options)
    first_blue = opts.get("first_blue")
    if first_blue is None:
        # §9: who is Blue in game 1 is drawn from the table's seed.
        first_blue = seeded_rng(seed, "first_blue").randrange(2)
    state: State = {
        "players": list(players),
        "options": opts,
        "seed": seed,
        "leg": 0,
        "blue": None,
        "phase": MAIN,
        "current": None,
        "turn": 0,
        "board": [],
        "locked": None,
        "last_own": [None, None],
        "final_left": None,
        "quiet": 0,
        "piles": [[], []],
        "last": None,
        "legs": [],
        "winners": None,
    }
    _start_leg(state, first_blue, [])
    return state


def layout_for(state: State, leg: int) -> list[dict]:
    """Return the 49 cells of a leg's starting board (scripted, or shuffled from the seed)."""
    # One scripted layout serves every leg; a list of layouts scripts the legs in turn.
    scripted = state["options"].get("layout") or []
    specs = scripted[0] if len(scripted) == 1 else (scripted[leg - 1] if leg <= len(scripted) else None)
    if specs is not None:
        cells = [tiles.parse_spec(text) for text in specs]
    else:
        # §3 and §10.8: a fresh shuffle per leg; each hunter's direction is uniform and independent.
        rng = seeded_rng(state["seed"], "leg", leg)
        kinds = tiles.full_set()
        rng.shuffle(kinds)
        cells = [
            {"kind": kind, "up": False, "dir": rng.choice(tiles.DIRECTIONS)}
            if kind == tiles.HUNTER
            else {"kind": kind, "up": False}
            for kind in kinds
        ]
    grid: list[dict | None] = [None] * (board.SIZE * board.SIZE)
    for position, cell in zip(board.START_SQUARES, cells):
        grid[position] = cell
    return grid


def _start_leg(state: State, blue: int, events: list[Event]) -> None:
    """Lay out the next leg with ``blue`` playing Blue and moving first (§3, §9)."""
    leg = state["leg"] + 1
    state.update(
        leg=leg,
        blue=blue,
        phase=MAIN,
        current=blue,
        turn=0,
        board=layout_for(state, leg),
        locked=None,
        last_own=[None, None],
        final_left=None,
        quiet=0,
        piles=[[], []],
        last=None,
    )
    if leg > 1:
        _emit(events, "leg_started", {"leg": leg, "blue": blue, "brown": 1 - blue})


# -- small queries -------------------------------------------------------------


def _emit(events: list[Event], kind: str, data: dict[str, Any]) -> None:
    """Record a public event (Halali! has no private facts: face-down tiles are secret from both)."""
    events.append(Event(kind, data))


def side(state: State, seat: int) -> str:
    """Return the side ``seat`` plays in the current leg."""
    return BLUE if seat == state["blue"] else BROWN


def face_down(state: State) -> list[int]:
    """Return the squares holding a face-down tile."""
    return [i for i, cell in enumerate(state["board"]) if cell is not None and not cell["up"]]


def _has_tiles(state: State, colour: str) -> bool:
    return any(cell is not None and tiles.owner(cell["kind"]) == colour for cell in state["board"])


def _exits_open(state: State) -> bool:
    return state["phase"] == FINAL or state["options"]["exits_anytime"]


def _must_flip(state: State) -> bool:
    """Tell whether the safety valve (§10.4, off by default) now forces a flip."""
    limit = state["options"]["stall_limit"]
    return bool(limit) and state["quiet"] >= limit and state["phase"] == MAIN


def _name(state: State, seat: int) -> str:
    return state["players"][seat]


# -- legality (§4, §5, §7) -------------------------------------------------------


def _why_immovable(state: State, seat: int, square: int) -> str | None:
    """Return why ``seat`` may not move the tile on ``square`` now, or None if it may."""
    cell = state["board"][square]
    where = name(square)
    if cell is None:
        return f"There is no tile on {where}"
    if not cell["up"]:
        return f"The tile on {where} is face down: turn it over instead"
    kind = cell["kind"]
    owner = tiles.owner(kind)
    if owner is not None:
        if owner != side(state, seat):
            return f"The {title(kind)} belongs to {owner.capitalize()}: you play {side(state, seat).capitalize()}"
        return None
    if kind not in SHARED:
        return "Trees never move"
    if state["locked"] == square:
        return (
            f"The {title(kind)} on {where} was just turned over or moved by your opponent: "
            "you may not move it this turn"
        )
    return None


def _returns(state: State, seat: int, start: int, end: int, capture: bool) -> bool:
    """Tell whether moving ``start`` -> ``end`` undoes this seat's previous move (§4.B.6, §10.2)."""
    last = state["last_own"][seat]
    if last is None or last["to"] != name(start) or last["from"] != name(end):
        return False
    return not capture or state["options"]["no_return_capture"]


def _check_step(state: State, seat: int, start: int, end: int) -> str | None:
    """Return the kind captured by moving ``start`` -> ``end`` (None: a plain move); raise ``IllegalMove``."""
    reason = _why_immovable(state, seat, start)
    if reason:
        raise IllegalMove(reason)
    cell = state["board"][start]
    kind = cell["kind"]
    line = board.line_between(start, end)
    if line is None:
        if start == end:
            raise IllegalMove("A tile must move at least one square")
        raise IllegalMove("Tiles move in a straight line north, east, south or west")
    direction, distance = line
    if distance > RANGE[kind]:
        raise IllegalMove(f"A {title(kind)} moves only 1 square")
    for square in board.ray(start, direction)[: distance - 1]:
        if state["board"][square] is not None:
            raise IllegalMove(f"The way is blocked at {name(square)}: tiles never jump")
    target = state["board"][end]
    captured = None
    if target is not None:
        if not target["up"]:
            raise IllegalMove(f"{name(end)} holds a face-down tile: it is an obstacle, not prey")
        prey = target["kind"]
        if not tiles.PREY[kind]:
            raise IllegalMove(f"A {title(kind)} never captures, and {name(end)} is occupied")
        if not tiles.can_capture(kind, prey):
            raise IllegalMove(f"A {title(kind)} cannot capture a {title(prey)}")
        if kind in AIMED and direction != cell["dir"]:
            raise IllegalMove(f"This Hunter aims {DIRECTION_WORDS[cell['dir']]}: it captures only in that direction")
        captured = prey
    if _returns(state, seat, start, end, captured is not None):
        raise IllegalMove(
            f"You moved this {title(kind)} from {name(end)} on your previous turn: it may not go straight back"
        )
    return captured


def _check_exit(state: State, seat: int, start: int, direction: str) -> None:
    """Raise ``IllegalMove`` unless ``seat`` may move the tile on ``start`` out through exit ``direction``."""
    reason = _why_immovable(state, seat, start)
    if reason:
        raise IllegalMove(reason)
    kind = state["board"][start]["kind"]
    gate = name(EXITS[direction])
    if tiles.owner(kind) is None:
        raise IllegalMove("Only your own bears, foxes, hunters and lumberjacks may leave the board")
    if not _exits_open(state):
        raise IllegalMove("The exits open only in the final phase, once the last tile is turned over")
    path = board.exit_path(start, direction)
    if path is None:
        raise IllegalMove(f"{name(start)} is not on the way out through the {DIRECTION_WORDS[direction]} exit ({gate})")
    if len(path) + 1 > RANGE[kind]:
        raise IllegalMove(f"A {title(kind)} moves only 1 square: it must stand on {gate} to leave")
    for square in path:
        if state["board"][square] is not None:
            raise IllegalMove(f"The way out is blocked at {name(square)}")


def _tile_moves(state: State, seat: int, start: int) -> list[dict[str, Any]]:
    """Return every legal move of the tile on ``start`` for ``seat`` (directions N, E, S, W)."""
    if _why_immovable(state, seat, start):
        return []
    cell = state["board"][start]
    kind = cell["kind"]
    grid = state["board"]
    moves: list[dict[str, Any]] = []
    for direction in tiles.DIRECTIONS:
        for square in board.ray(start, direction)[: RANGE[kind]]:
            target = grid[square]
            if target is None:
                if not _returns(state, seat, start, square, False):
                    moves.append({"from": name(start), "to": name(square)})
                continue
            if (
                target["up"]
                and tiles.can_capture(kind, target["kind"])
                and (kind not in AIMED or direction == cell["dir"])
                and not _returns(state, seat, start, square, True)
            ):
                moves.append({"from": name(start), "to": name(square)})
            break
        if tiles.owner(kind) is not None and _exits_open(state):
            path = board.exit_path(start, direction)
            if path is not None and len(path) + 1 <= RANGE[kind] and all(grid[sq] is None for sq in path):
                moves.append({"from": name(start), "to": "out", "exit": direction})
    return moves


def legal_moves(state: State, seat: int) -> list[dict[str, Any]]:
    """Return every legal move for ``seat``: flips in square order, then tile moves by start square."""
    if state["phase"] == OVER or seat != state["current"]:
        return []
    moves: list[dict[str, Any]] = [{"flip": name(square)} for square in face_down(state)]
    if not _must_flip(state) or not moves:
        for square, cell in enumerate(state["board"]):
            if cell is not None and cell["up"]:
                moves.extend(_tile_moves(state, seat, square))
    # §10.3: a forced pass, only when no legal action exists (final phase only in practice).
    return moves or [{"pass": True}]


# -- moves as data ---------------------------------------------------------------


def _square(value: Any, what: str) -> int:
    """Return the board index of a square given in a move, or raise ``IllegalMove``."""
    if not isinstance(value, str) or value.lower() not in board.INDEX:
        raise IllegalMove(f'{what} must be a square from a1 to g7, such as "c5", not {value!r}')
    return board.index(value.lower())


def normalize(move: Any) -> tuple[str, dict[str, Any]]:
    """Return (action, canonical move) for a move object, or raise ``IllegalMove`` if it is malformed."""
    if not isinstance(move, dict):
        raise IllegalMove('A move must be a JSON object such as {"flip": "c5"} or {"from": "c5", "to": "c2"}')
    keys = set(move)
    if keys == {"flip"}:
        return "flip", {"flip": name(_square(move["flip"], "flip"))}
    if keys == {"pass"}:
        if move["pass"] is not True:
            raise IllegalMove('A pass is written {"pass": true}')
        return "pass", {"pass": True}
    if keys in ({"from", "to"}, {"from", "to", "exit"}):
        start = _square(move["from"], "from")
        if isinstance(move["to"], str) and move["to"].lower() == "out":
            direction = move.get("exit")
            if direction is None:
                # An exit square names its own exit ({"from": "d7", "to": "out"} leaves northward).
                direction = next((d for d, gate in EXITS.items() if gate == start), None)
                if direction is None:
                    raise IllegalMove('Say which exit to use: "exit": "N", "E", "S" or "W"')
            if not isinstance(direction, str) or direction.upper() not in tiles.DIRECTIONS:
                raise IllegalMove(f'exit must be "N", "E", "S" or "W", not {direction!r}')
            return "exit", {"from": name(start), "to": "out", "exit": direction.upper()}
        if "exit" in keys:
            raise IllegalMove('Only a move with "to": "out" names an exit')
        return "step", {"from": name(start), "to": name(_square(move["to"], "to"))}
    raise IllegalMove(
        'A move is {"flip": "c5"}, {"from": "c5", "to": "c2"}, {"from": "d7", "to": "out", "exit": "N"} '
        'or {"pass": true}'
    )


# -- apply ---------------------------------------------------------------------


def apply_move(state: State, seat: int, move: Any) -> tuple[State, list[Event]]:
    """Return the state after ``seat`` makes ``move`` and the events; never mutate ``state``."""
    if state["phase"] == OVER:
        raise IllegalMove("The match is over")
    if isinstance(seat, bool) or seat not in (0, 1):
        raise IllegalMove(f"There is no seat {seat!r}")
    if seat != state["current"]:
        raise IllegalMove(f"It is not your turn: it is {_name(state, state['current'])}'s turn")
    action, move = normalize(move)
    forced = _must_flip(state) and bool(face_down(state))
    if forced and action != "flip":
        raise IllegalMove(
            f"No flip, capture or exit for {state['options']['stall_limit']} turns: "
            "you must turn a tile over (table safety valve)"
        )
    captured = None
    if action == "flip":
        square = board.index(move["flip"])
        cell = state["board"][square]
        if cell is None or cell["up"]:
            raise IllegalMove(f"There is no face-down tile on {move['flip']}")
    elif action == "step":
        captured = _check_step(state, seat, board.index(move["from"]), board.index(move["to"]))
    elif action == "exit":
        _check_exit(state, seat, board.index(move["from"]), move["exit"])
    elif legal_moves(state, seat) != [{"pass": True}]:
        raise IllegalMove("You may pass only when you have no legal move")

    new = copy.deepcopy(state)
    events: list[Event] = []
    was_final = new["phase"] == FINAL
    new["turn"] += 1
    if action == "flip":
        _flip(new, seat, board.index(move["flip"]), events)
    elif action == "step":
        _step(new, seat, board.index(move["from"]), board.index(move["to"]), captured, events)
    elif action == "exit":
        _exit(new, seat, board.index(move["from"]), move["exit"], events)
    else:
        new.update(locked=None, quiet=new["quiet"] + 1)
        new["last_own"][seat] = None
        left = new["final_left"][seat] - 1 if was_final else None
        _emit(events, "passed", {"seat": seat, "final_left": left})
        new["last"] = {"kind": "passed", "seat": seat}
    _end_turn(new, seat, was_final, events)
    return new, events


def _flip(state: State, seat: int, square: int, events: list[Event]) -> None:
    """Turn a tile over where it lies; a duck or pheasant is locked for the opponent (§4.A)."""
    cell = state["board"][square]
    cell["up"] = True
    locked = cell["kind"] in SHARED
    state.update(locked=square if locked else None, quiet=0)
    state["last_own"][seat] = None
    data = {"seat": seat, "square": name(square), "kind": cell["kind"], "locked": locked}
    if cell["kind"] == tiles.HUNTER:
        data["dir"] = cell["dir"]
    data["face_down"] = len(face_down(state))
    _emit(events, "flipped", data)
    state["last"] = {"kind": "flipped", "seat": seat, "square": name(square)}


def _step(state: State, seat: int, start: int, end: int, captured: str | None, events: list[Event]) -> None:
    """Move a tile, capturing what stands on ``end`` (§4.B, §5, §6)."""
    grid = state["board"]
    cell = grid[start]
    kind = cell["kind"]
    grid[start], grid[end] = None, cell
    data: dict[str, Any] = {"seat": seat, "kind": kind, "from": name(start), "to": name(end)}
    if captured:
        state["piles"][seat].append({"kind": captured, "how": "captured"})
        data.update(captured=captured, points=POINTS[captured])
    own = tiles.owner(kind) is not None
    remembered = own or (kind in SHARED and state["options"]["no_return_neutral"])
    state["last_own"][seat] = {"kind": kind, "from": name(start), "to": name(end)} if remembered else None
    locked = kind in SHARED
    state.update(locked=end if locked else None, quiet=0 if captured else state["quiet"] + 1)
    data["locked"] = locked
    _emit(events, "moved", data)
    state["last"] = {"kind": "moved", "seat": seat, "from": name(start), "to": name(end)}


def _exit(state: State, seat: int, start: int, direction: str, events: list[Event]) -> None:
    """Move an own tile off the board through an exit into the mover's pile (§7)."""
    kind = state["board"][start]["kind"]
    state["board"][start] = None
    state["piles"][seat].append({"kind": kind, "how": "exited"})
    state.update(locked=None, quiet=0)
    state["last_own"][seat] = None
    gate = name(EXITS[direction])
    _emit(
        events,
        "exited",
        {"seat": seat, "kind": kind, "from": name(start), "exit": direction, "gate": gate, "points": POINTS[kind]},
    )
    state["last"] = {"kind": "exited", "seat": seat, "from": name(start), "gate": gate}


def _end_turn(state: State, seat: int, was_final: bool, events: list[Event]) -> None:
    """Run the end-of-action checks of §7–§8, then pass the turn (or end the leg)."""
    other = 1 - seat
    if was_final:
        state["final_left"][seat] -= 1
    if not face_down(state):
        cleared = [colour for colour in (BLUE, BROWN) if not _has_tiles(state, colour)]
        if cleared:
            _end_leg(state, events, "side_cleared", cleared)
            return
        if was_final and not any(state["final_left"]):
            _end_leg(state, events, "final_turns", [])
            return
        if not was_final:
            # §7: the opponent of the player who turned the last tile starts the final phase.
            state.update(phase=FINAL, final_left=[FINAL_TURNS, FINAL_TURNS])
            _emit(events, "final_phase_started", {"first": other, "last_flipper": seat, "turns": FINAL_TURNS})
    state["current"] = other
    limit = state["options"]["stall_limit"]
    if limit and state["phase"] == MAIN and state["quiet"] == limit:
        _emit(events, "flip_required", {"seat": other, "quiet": limit})


# -- scoring, legs and the match (§6, §8, §9) ------------------------------------


def winners_by(points: list[int], tiles_count: list[int]) -> list[int]:
    """Return the winner by points, then by tiles collected; [] for a draw (§8, §10.7)."""
    for values in (points, tiles_count):
        if values[0] != values[1]:
            return [0 if values[0] > values[1] else 1]
    return []


def _end_leg(state: State, events: list[Event], reason: str, cleared: list[str]) -> None:
    """Score the leg, then start the next one with the roles swapped, or end the match."""
    points = [pile_points(pile) for pile in state["piles"]]
    counts = [len(pile) for pile in state["piles"]]
    record = {
        "leg": state["leg"],
        "blue": state["blue"],
        "brown": 1 - state["blue"],
        "reason": reason,
        "cleared": cleared,
        "points": points,
        "tiles": counts,
        "winners": winners_by(points, counts),
        "piles": [[entry["kind"] for entry in pile] for pile in state["piles"]],
    }
    state["legs"].append(record)
    _emit(events, "leg_ended", {key: value for key, value in record.items() if key != "piles"})
    if state["leg"] < LEGS:
        _start_leg(state, 1 - state["blue"], events)
        return
    totals, tile_totals = match_totals(state)
    winners = winners_by(totals, tile_totals)
    state.update(phase=OVER, current=None, winners=winners, locked=None, final_left=None)
    _emit(events, "match_ended", {"winners": winners, "points": totals, "tiles": tile_totals})


def resign(state: State, seat: int) -> tuple[State, list[Event]]:
    """Return the state after ``seat`` gives up the match: the opponent wins it at once."""
    if state["phase"] == OVER:
        raise IllegalMove("The match is over")
    if seat not in (0, 1):
        raise IllegalMove(f"There is no seat {seat!r}")
    new = copy.deepcopy(state)
    events: list[Event] = []
    new.update(phase=OVER, current=None, winners=[1 - seat], locked=None, final_left=None, resigned=seat)
    _emit(events, "resigned", {"seat": seat, "winners": [1 - seat]})
    return new, events


def game_result(state: State) -> dict[str, Any] | None:
    """Return the outcome once both legs are over (or a player resigned), else None."""
    if state["phase"] != OVER:
        return None
    points, counts = match_totals(state)
    if state.get("resigned") is not None:
        loser = state["resigned"]
        return {
            "winners": [1 - loser],
            "scores": points,
            "ranking": [1 - loser, loser],
            "summary": f"{state['players'][1 - loser]} wins: {state['players'][loser]} resigned",
            "draw": False,
            "tiles": counts,
            "legs": copy.deepcopy(state["legs"]),
            "resigned": loser,
        }
    ranking = sorted((0, 1), key=lambda seat: (-points[seat], -counts[seat], seat))
    winners = state["winners"]
    names = state["players"]
    first = winners[0] if winners else 0  # scores read winner first, or in seat order for a draw
    legs = ", ".join(f"leg {r['leg']} {r['points'][first]}–{r['points'][1 - first]}" for r in state["legs"])
    if winners:
        winner = winners[0]
        score = f"{points[winner]}–{points[1 - winner]}"
        tie_break = "" if points[0] != points[1] else f" on tiles ({counts[winner]}–{counts[1 - winner]})"
        summary = f"{names[winner]} wins {score}{tie_break} ({legs})"
    else:
        summary = f"Draw {points[0]}–{points[1]}, tiles {counts[0]}–{counts[1]} ({legs})"
    return {
        "winners": list(winners),
        "scores": points,
        "ranking": ranking,
        "summary": summary,
        "draw": not winners,
        "tiles": counts,
        "legs": copy.deepcopy(state["legs"]),
    }


class HalaliEngine(Engine):
    """Halali! (Tally Ho!), Kosmos 2000: a two-leg match with the roles swapped."""

    slug = "halali"
    name = "Halali!"
    version = 1
    min_players = 2
    max_players = 2
    option_specs = OPTION_SPECS
    default_players = 2
    summary = "Bears and foxes against hunters and lumberjacks in a forest of face-down tiles; two legs, roles swapped."

    # The rules live in this package's module functions; the contract's docstrings are in games/base.py.
    validate_options = staticmethod(validate_options)
    setup = staticmethod(new_game)

    def to_move(self, state: State) -> list[int]:
        """Return the seat to act; empty once the match is over."""
        return [] if state["phase"] == OVER else [state["current"]]

    legal_moves = staticmethod(legal_moves)
    apply = staticmethod(apply_move)
    result = staticmethod(game_result)
    view = staticmethod(player_view.view)
    view_after_end = staticmethod(player_view.view_after_end)
    resign = staticmethod(resign)
    score_breakdown = staticmethod(breakdown.score_breakdown)
    view_text = staticmethod(player_view.view_text)
    describe_event = staticmethod(player_view.describe_event)
    describe_move = staticmethod(notation.describe_move)
    parse_move = staticmethod(notation.parse_move)
    notation_help = staticmethod(notation.notation_help)

    def bots(self) -> dict[str, Any]:
        """Return the bots this game offers: ``random`` and ``basic`` (see ``games/halali/bots.py``)."""
        from games.bots import RandomBot
        from games.halali.bots import BasicBot

        return {"random": RandomBot(), "basic": BasicBot()}
