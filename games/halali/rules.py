"""Halali! legality (rules file §4, §5, §7): who may move which tile where, the legal moves, and moves as data.

Module functions on the state; ``engine.py`` applies what these allow. Every ``IllegalMove``
reason is worded in the reader's language, and names a face-down tile by its square alone.
"""

from __future__ import annotations

from typing import Any

from games.base import IllegalMove, State
from games.halali import board, tiles
from games.halali.board import EXITS, name
from games.halali.names import any_object, any_subject, aim, the_object, the_subject, through_exit
from games.halali.tiles import AIMED, BLUE, BROWN, RANGE, SHARED
from games.i18n import catalog_of

_ = catalog_of(__name__)

MAIN = "main"  # at least one face-down tile remains
FINAL = "final"  # the last tile was turned over: five turns each (§7)
OVER = "over"  # both legs are finished


def side(state: State, seat: int) -> str:
    """Return the side ``seat`` plays in the current leg."""
    return BLUE if seat == state["blue"] else BROWN


def face_down(state: State) -> list[int]:
    """Return the squares holding a face-down tile."""
    return [i for i, cell in enumerate(state["board"]) if cell is not None and not cell["up"]]


def exits_open(state: State) -> bool:
    return state["phase"] == FINAL or state["options"]["exits_anytime"]


def must_flip(state: State) -> bool:
    """Tell whether the safety valve (§10.4, off by default) now forces a flip."""
    limit = state["options"]["stall_limit"]
    return bool(limit) and state["quiet"] >= limit and state["phase"] == MAIN


def _why_immovable(state: State, seat: int, square: int) -> str | None:
    """Return why ``seat`` may not move the tile on ``square`` now, or None if it may."""
    cell = state["board"][square]
    where = name(square)
    if cell is None:
        return _("There is no tile on {square}").format(square=where)
    if not cell["up"]:
        return _("The tile on {square} is face down: turn it over instead").format(square=where)
    kind = cell["kind"]
    owner = tiles.owner(kind)
    if owner is not None:
        if owner != side(state, seat):
            if owner == BLUE:
                return _("{tile} belongs to Blue: you play Brown").format(tile=the_subject(kind))
            return _("{tile} belongs to Brown: you play Blue").format(tile=the_subject(kind))
        return None
    if kind not in SHARED:
        return _("Trees never move")
    if state["locked"] == square:
        # The last play says how the bird came to be locked (a flip always locks; a move only under lock_on_move).
        if (state.get("last") or {}).get("kind") == "moved":
            return _("{tile} on {square} was just moved by your opponent: you may not move it this turn").format(
                tile=the_subject(kind), square=where)
        return _("{tile} on {square} was just turned over by your opponent: you may not move it this turn").format(
            tile=the_subject(kind), square=where)
    return None


def returns(state: State, seat: int, start: int, end: int, capture: bool) -> bool:
    """Tell whether moving ``start`` -> ``end`` undoes this seat's previous move (§4.B.6, §10.2)."""
    last = state["last_own"][seat]
    if last is None or last["to"] != name(start) or last["from"] != name(end):
        return False
    return not capture or state["options"]["no_return_capture"]


def check_step(state: State, seat: int, start: int, end: int) -> str | None:
    """Return the kind captured by moving ``start`` -> ``end`` (None: a plain move); raise ``IllegalMove``."""
    reason = _why_immovable(state, seat, start)
    if reason:
        raise IllegalMove(reason)
    cell = state["board"][start]
    kind = cell["kind"]
    line = board.line_between(start, end)
    if line is None:
        if start == end:
            raise IllegalMove(_("A tile must move at least one square"))
        raise IllegalMove(_("Tiles move in a straight line north, east, south or west"))
    direction, distance = line
    if distance > RANGE[kind]:
        raise IllegalMove(_("{tile} moves only 1 square").format(tile=any_subject(kind)))
    for square in board.ray(start, direction)[: distance - 1]:
        if state["board"][square] is not None:
            raise IllegalMove(_("The way is blocked at {square}: tiles never jump").format(square=name(square)))
    target = state["board"][end]
    captured = None
    if target is not None:
        if not target["up"]:
            raise IllegalMove(_("{square} holds a face-down tile: it is an obstacle, not prey").format(square=name(end)))
        prey = target["kind"]
        if not tiles.PREY[kind]:
            raise IllegalMove(
                _("{tile} never captures, and {square} is occupied").format(tile=any_subject(kind), square=name(end))
            )
        if not tiles.can_capture(kind, prey):
            raise IllegalMove(_("{tile} cannot capture {prey}").format(tile=any_subject(kind), prey=any_object(prey)))
        if kind in AIMED and direction != cell["dir"]:
            raise IllegalMove(
                _("This Hunter aims {direction}: it captures only in that direction").format(direction=aim(cell["dir"]))
            )
        captured = prey
    if returns(state, seat, start, end, captured is not None):
        raise IllegalMove(
            _("You moved {tile} from {square} on your previous turn: it may not go straight back").format(
                tile=the_object(kind), square=name(end)
            )
        )
    return captured


def check_exit(state: State, seat: int, start: int, direction: str) -> None:
    """Raise ``IllegalMove`` unless ``seat`` may move the tile on ``start`` out through exit ``direction``."""
    reason = _why_immovable(state, seat, start)
    if reason:
        raise IllegalMove(reason)
    kind = state["board"][start]["kind"]
    gate = name(EXITS[direction])
    if tiles.owner(kind) is None:
        raise IllegalMove(_("Only your own bears, foxes, hunters and lumberjacks may leave the board"))
    if not exits_open(state):
        raise IllegalMove(_("The exits open only in the final phase, once the last tile is turned over"))
    path = board.exit_path(start, direction)
    if path is None:
        raise IllegalMove(
            _("{square} is not on the way out through {exit} ({gate})").format(
                square=name(start), exit=through_exit(direction), gate=gate
            )
        )
    if len(path) + 1 > RANGE[kind]:
        raise IllegalMove(
            _("{tile} moves only 1 square: it must stand on {gate} to leave").format(tile=any_subject(kind), gate=gate)
        )
    for square in path:
        if state["board"][square] is not None:
            raise IllegalMove(_("The way out is blocked at {square}").format(square=name(square)))


def legal_moves(state: State, seat: int) -> list[dict[str, Any]]:
    """Return every legal move for ``seat``: flips in square order, then tile moves by start square (for each, the
    directions N, E, S, W in turn: its moves along that line outward, then its exit that way)."""
    if state["phase"] == OVER or seat != state["current"]:
        return []
    grid = state["board"]
    moves: list[dict[str, Any]] = [{"flip": name(square)} for square in face_down(state)]
    if must_flip(state) and moves:
        return moves
    mine = side(state, seat)
    locked = state["locked"]
    exits = exits_open(state)
    # ``returns``, worked out once: the tile this seat moved last turn may not go straight back (nor capture there,
    # under ``no_return_capture``).
    last = state["last_own"][seat]
    moved_to = board.INDEX[last["to"]] if last is not None else None
    moved_from = board.INDEX[last["from"]] if last is not None else None
    back_capture = not state["options"]["no_return_capture"]
    for start, cell in enumerate(grid):
        if cell is None or not cell["up"]:
            continue
        # ``_why_immovable`` without the wording: the other side's tiles, the trees and a locked bird never move.
        kind = cell["kind"]
        colour = tiles.owner(kind)
        if colour is None:
            if kind not in SHARED or locked == start:
                continue
        elif colour != mine:
            continue
        here = name(start)
        reach = RANGE[kind]
        prey = tiles.PREY[kind]
        aim = cell["dir"] if kind in AIMED else None
        back = moved_from if start == moved_to else None
        leaves = exits and colour is not None
        for direction in tiles.DIRECTIONS:
            for square in board.RAYS[start, direction][:reach]:
                target = grid[square]
                if target is None:
                    if square != back:
                        moves.append({"from": here, "to": name(square)})
                    continue
                if (
                    target["up"]
                    and target["kind"] in prey
                    and (aim is None or direction == aim)
                    and (square != back or back_capture)
                ):
                    moves.append({"from": here, "to": name(square)})
                break
            if leaves:
                path = board.EXIT_PATHS[start, direction]
                if path is not None and len(path) + 1 <= reach and all(grid[sq] is None for sq in path):
                    moves.append({"from": here, "to": "out", "exit": direction})
    # §10.3: a forced pass, only when no legal action exists (final phase only in practice).
    return moves or [{"pass": True}]


# -- moves as data ---------------------------------------------------------------


def _square(value: Any, field: str) -> int:
    """Return the board index of a square given in a move, or raise ``IllegalMove``."""
    if not isinstance(value, str) or value.lower() not in board.INDEX:
        raise IllegalMove(
            _('{field} must be a square from a1 to g7, such as "c5", not {value}').format(field=field, value=repr(value))
        )
    return board.index(value.lower())


def normalize(move: Any) -> tuple[str, dict[str, Any]]:
    """Return (action, canonical move) for a move object, or raise ``IllegalMove`` if it is malformed."""
    if not isinstance(move, dict):
        raise IllegalMove(_('A move must be a JSON object such as {"flip": "c5"} or {"from": "c5", "to": "c2"}'))
    keys = set(move)
    if keys == {"flip"}:
        return "flip", {"flip": name(_square(move["flip"], "flip"))}
    if keys == {"pass"}:
        if move["pass"] is not True:
            raise IllegalMove(_('A pass is written {"pass": true}'))
        return "pass", {"pass": True}
    if keys in ({"from", "to"}, {"from", "to", "exit"}):
        start = _square(move["from"], "from")
        if isinstance(move["to"], str) and move["to"].lower() == "out":
            direction = move.get("exit")
            if direction is None:
                # An exit square names its own exit ({"from": "d7", "to": "out"} leaves northward).
                direction = next((d for d, gate in EXITS.items() if gate == start), None)
                if direction is None:
                    raise IllegalMove(_('Say which exit to use: "exit": "N", "E", "S" or "W"'))
            if not isinstance(direction, str) or direction.upper() not in tiles.DIRECTIONS:
                raise IllegalMove(_('exit must be "N", "E", "S" or "W", not {value}').format(value=repr(direction)))
            return "exit", {"from": name(start), "to": "out", "exit": direction.upper()}
        if "exit" in keys:
            raise IllegalMove(_('Only a move with "to": "out" names an exit'))
        return "step", {"from": name(start), "to": name(_square(move["to"], "to"))}
    raise IllegalMove(
        _('A move is {"flip": "c5"}, {"from": "c5", "to": "c2"}, {"from": "d7", "to": "out", "exit": "N"} '
          'or {"pass": true}')
    )
