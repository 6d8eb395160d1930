"""Per-seat projection of a Halali! match and event wording.

Halali! has no private facts: a face-down tile is unknown to both players
(rules file §10.10). Every seat and spectator therefore gets the same public
picture, and a face-down tile appears only as its square.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from games.base import Event
from games.halali import board, tiles
from games.halali.board import DIRECTION_WORDS, EXITS
from games.halali.tiles import POINTS, title

PUBLIC_OPTIONS = ("no_return_neutral", "no_return_capture", "stall_limit", "exits_anytime")


def view(state: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """Return what ``seat`` (None: a spectator) may know about ``state``, and nothing more."""
    if seat is not None and (isinstance(seat, bool) or seat not in (0, 1)):
        raise ValueError(f"no seat {seat!r}")
    grid = state["board"]
    face_up = []
    seen: Counter[str] = Counter()
    for i, cell in enumerate(grid):
        if cell is not None and cell["up"]:
            tile = {"square": board.name(i), "kind": cell["kind"], "colour": tiles.COLOUR[cell["kind"]]}
            if cell["kind"] == tiles.HUNTER:
                tile["dir"] = cell["dir"]
            face_up.append(tile)
            seen[cell["kind"]] += 1
    for pile in state["piles"]:
        seen.update(entry["kind"] for entry in pile)
    # Counted from public facts only (the full set minus everything seen), never from the hidden tiles.
    unrevealed = {kind: tiles.COUNTS[kind] - seen[kind] for kind in tiles.KINDS}
    totals, tile_totals = match_totals(state)
    over = state["winners"] is not None
    current = state["current"]
    no_return = None
    if current is not None and state["last_own"][current] is not None:
        last = state["last_own"][current]
        no_return = {"seat": current, "kind": last["kind"], "square": last["to"], "banned": last["from"]}
    return {
        "game": "halali",
        "options": {key: state["options"][key] for key in PUBLIC_OPTIONS},
        "you": seat,
        "your_side": None if seat is None else _side(state, seat),
        "leg": state["leg"],
        "legs_total": 2,
        "phase": state["phase"],
        "turn": state["turn"],
        "current": current,
        "blue": state["blue"],
        "brown": 1 - state["blue"],
        "tiles": face_up,
        "face_down": [board.name(i) for i, cell in enumerate(grid) if cell is not None and not cell["up"]],
        "empty": [board.name(i) for i, cell in enumerate(grid) if cell is None],
        "exits": {direction: board.name(gate) for direction, gate in EXITS.items()},
        "unrevealed": unrevealed,
        "locked": None if state["locked"] is None else board.name(state["locked"]),
        "no_return": no_return,
        "final_turns_left": None if state["final_left"] is None else list(state["final_left"]),
        "quiet_turns": state["quiet"],
        "last": None if state["last"] is None else dict(state["last"]),
        "seats": [
            {
                "seat": other,
                "name": state["players"][other],
                "side": _side(state, other),
                "pile": [dict(entry) for entry in state["piles"][other]],
                "points": pile_points(state["piles"][other]),
                "tiles": len(state["piles"][other]),
                "match_points": totals[other],
                "match_tiles": tile_totals[other],
            }
            for other in (0, 1)
        ],
        "legs": [dict(record, piles=[list(p) for p in record["piles"]]) for record in state["legs"]],
        "winners": list(state["winners"]) if over else None,
    }


def view_after_end(state: dict[str, Any]) -> dict[str, Any]:
    """Return the spectator's view with every face-down tile shown (its kind and rifle): the replay after the end.

    The rules file, §10 (hidden information): once the match is over, the tiles that were still face down at any step
    may be shown, as a tile turned over would have shown them.
    """
    shown = view(state, None)
    hidden = {}
    for i, cell in enumerate(state["board"]):
        if cell is not None and not cell["up"]:
            tile = {"kind": cell["kind"], "colour": tiles.COLOUR[cell["kind"]]}
            if cell["kind"] == tiles.HUNTER:
                tile["dir"] = cell["dir"]
            hidden[board.name(i)] = tile
    shown["revealed"] = {"face_down": hidden}
    return shown


def _side(state: dict[str, Any], seat: int) -> str:
    return tiles.BLUE if seat == state["blue"] else tiles.BROWN


def pile_points(pile: list[dict[str, str]]) -> int:
    return sum(POINTS[entry["kind"]] for entry in pile)


def match_totals(state: dict[str, Any]) -> tuple[list[int], list[int]]:
    """Return (points, tiles) per seat over the finished legs plus the leg in progress."""
    points = [sum(record["points"][seat] for record in state["legs"]) for seat in (0, 1)]
    counts = [sum(record["tiles"][seat] for record in state["legs"]) for seat in (0, 1)]
    if len(state["legs"]) < state["leg"]:
        for seat in (0, 1):
            points[seat] += pile_points(state["piles"][seat])
            counts[seat] += len(state["piles"][seat])
    return points, counts


# -- event wording ---------------------------------------------------------------


def describe_event(event: Event, players: list[str], viewer: int | None) -> str:
    """Return one English line describing ``event`` as ``viewer`` should read it."""
    d = event.data

    def who(seat: int) -> str:
        return "You" if seat == viewer else players[seat]

    def verb(seat: int, plain: str, third: str) -> str:
        return plain if seat == viewer else third

    def points(value: int) -> str:
        return f"{value} point{'s' if value != 1 else ''}"

    kind = event.kind
    if kind == "resigned":
        return f"{who(d['seat'])} resigned: {who(d['winners'][0])} {verb(d['winners'][0], 'win', 'wins')} the match."
    if kind == "flipped":
        what = title(d["kind"])
        if d["kind"] == tiles.HUNTER:
            what += f" aiming {DIRECTION_WORDS[d['dir']]}"
        text = f"{who(d['seat'])} turned over {d['square']}: {what}."
        if d["locked"]:
            text += " It is locked for the opponent's next turn."
        return text + f" {d['face_down']} face down."
    if kind == "moved":
        text = f"{who(d['seat'])} moved the {title(d['kind'])} {d['from']}–{d['to']}"
        if d.get("captured"):
            text += f", capturing the {title(d['captured'])} ({points(d['points'])})"
        return text + "."
    if kind == "exited":
        return (
            f"{who(d['seat'])} brought the {title(d['kind'])} out from {d['from']} "
            f"through the {DIRECTION_WORDS[d['exit']]} exit ({points(d['points'])})."
        )
    if kind == "passed":
        text = f"{who(d['seat'])} had no legal move and {verb(d['seat'], 'pass', 'passes')}"
        return text + (f" ({d['final_left']} final turns left)." if d["final_left"] is not None else ".")
    if kind == "final_phase_started":
        return (
            f"The last tile is face up: final phase, {d['turns']} turns each; "
            f"{who(d['first'])} {verb(d['first'], 'move', 'moves')} first. Exits are open."
        )
    if kind == "flip_required":
        return f"No flip, capture or exit for {d['quiet']} turns: {who(d['seat'])} must turn a tile over."
    if kind == "leg_ended":
        if d["reason"] == "side_cleared":
            sides = " and ".join(colour.capitalize() for colour in d["cleared"])
            why = f"{sides} {'has' if len(d['cleared']) == 1 else 'have'} no tiles left on the board"
        else:
            why = "the final turns are played"
        score = f"{players[0]} {d['points'][0]}, {players[1]} {d['points'][1]}"
        return f"Leg {d['leg']} ends ({why}): {score}; {_outcome(d['winners'], d['points'], d['tiles'], who)}."
    if kind == "leg_started":
        return (
            f"Leg {d['leg']} begins with the roles swapped: {who(d['blue'])} "
            f"{verb(d['blue'], 'play', 'plays')} Blue and {verb(d['blue'], 'move', 'moves')} first."
        )
    if kind == "match_ended":
        score = f"{players[0]} {d['points'][0]}, {players[1]} {d['points'][1]}"
        return f"The match is over: {score}; {_outcome(d['winners'], d['points'], d['tiles'], who)}."
    return kind.replace("_", " ").capitalize() + "."


def _outcome(winners: list[int], points: list[int], counts: list[int], who) -> str:
    """Word the winner of a leg or the match, naming the tile tie-break when it decided."""
    if not winners:
        return f"a draw (tiles {counts[0]}–{counts[1]})"
    winner = winners[0]
    text = f"{who(winner)} {'win' if who(winner) == 'You' else 'wins'}"
    if points[0] == points[1]:
        text += f" on tiles collected ({counts[winner]}–{counts[1 - winner]})"
    return text


_LETTERS = {"bear": "B", "fox": "F", "hunter": "H", "lumberjack": "L", "pheasant": "P", "duck": "D", "tree": "T"}
_ARROWS = {"N": "^", "E": ">", "S": "v", "W": "<"}


def view_text(view: dict[str, Any]) -> str:
    """Render a view as plain text for an email: the board as a grid, then the scores."""
    tiles_at = {tile["square"]: tile for tile in view["tiles"]}
    face_down = set(view["face_down"])
    columns = "abcdefg"
    lines = [f"Halali!, leg {view['leg']} of {view['legs_total']}, turn {view['turn']}."]
    lines.append("     " + "   ".join(columns))
    for row in range(7, 0, -1):
        cells = []
        for column in columns:
            square = f"{column}{row}"
            if square in tiles_at:
                tile = tiles_at[square]
                cells.append(_LETTERS[tile["kind"]] + _ARROWS.get(tile.get("dir", ""), " "))
            elif square in face_down:
                cells.append("##")
            else:
                cells.append("..")
        lines.append(f"  {row}  " + "  ".join(cells))
    lines.append("")
    lines.append("B bear, F fox, H hunter (^ > v < its rifle), L lumberjack, P pheasant, D duck, T tree, "
                 "## face down, .. empty. Exits: d7 (N), g4 (E), d1 (S), a4 (W).")
    if view.get("final_turns_left") is not None:
        lines.append(f"Final phase: {view['final_turns_left']} turns left.")
    for seat in view["seats"]:
        you = " (you)" if seat["seat"] == view["you"] else ""
        turn = ", to move" if seat["seat"] == view["current"] else ""
        lines.append(
            f"  {seat['name']}{you}: {seat['side']}{turn}; this leg {seat['points']} points from {seat['tiles']} "
            f"tiles; match {seat['match_points']} points, {seat['match_tiles']} tiles"
        )
    return "\n".join(lines)
