"""Per-seat projection of a Halali! match, and the plain-text board of emails.

Halali! has no private facts: a face-down tile is unknown to both players
(rules file §10.10). Every seat and spectator therefore gets the same public
picture, and a face-down tile appears only as its square.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from games.halali import board, tiles
from games.halali.board import EXITS
from games.halali.names import grid_letter, side_name
from games.halali.options import locks_on_move
from games.halali.tiles import POINTS
from games.i18n import catalog_of

_ = catalog_of(__name__)

PUBLIC_OPTIONS = ("lock_on_move", "no_return_neutral", "no_return_capture", "stall_limit", "exits_anytime")


def _public_options(options: dict[str, Any]) -> dict[str, Any]:
    """Return the table options every view shows; a version-1 game's have no ``lock_on_move`` and played it on."""
    return {key: locks_on_move(options) if key == "lock_on_move" else options[key] for key in PUBLIC_OPTIONS}


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
        "options": _public_options(state["options"]),
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


# -- the plain-text board -------------------------------------------------------

_ARROWS = {"N": "^", "E": ">", "S": "v", "W": "<"}


def _points(count: int) -> str:
    return _.ngettext("{count} point", "{count} points", count).format(count=count)


def _cell(tile: dict[str, Any]) -> str:
    """Return a face-up tile in two characters: its letters, or a hunter's letter and its rifle's arrow."""
    letters = grid_letter(tile["kind"])
    if tile["kind"] == tiles.HUNTER:
        return letters[:1] + _ARROWS[tile["dir"]]
    return (letters + " ")[:2]


def view_text(view: dict[str, Any]) -> str:
    """Render a view as plain text for an email, in the reader's language: the board as a grid, then the scores."""
    tiles_at = {tile["square"]: tile for tile in view["tiles"]}
    face_down = set(view["face_down"])
    columns = "abcdefg"
    lines = [_("Halali!, leg {leg} of {total}, turn {turn}.").format(
        leg=view["leg"], total=view["legs_total"], turn=view["turn"])]
    lines.append("     " + "   ".join(columns))
    for row in range(7, 0, -1):
        cells = []
        for column in columns:
            square = f"{column}{row}"
            if square in tiles_at:
                cells.append(_cell(tiles_at[square]))
            elif square in face_down:
                cells.append("##")
            else:
                cells.append("..")
        lines.append(f"  {row}  " + "  ".join(cells))
    lines.append("")
    # Translators: the letters must be the "grid letter" ones; the exit letters those of the notation.
    lines.append(_("B bear, F fox, H hunter (^ > v < its rifle), L lumberjack, P pheasant, D duck, T tree, "
                   "## face down, .. empty. Exits: d7 (N), g4 (E), d1 (S), a4 (W)."))
    if view.get("final_turns_left") is not None:
        left = ", ".join(f"{seat['name']} {view['final_turns_left'][seat['seat']]}" for seat in view["seats"])
        lines.append(_("Final phase, turns left: {counts}.").format(counts=left))
    for seat in view["seats"]:
        who = _("{name} (you)").format(name=seat["name"]) if seat["seat"] == view["you"] else seat["name"]
        side = side_name(seat["side"])
        if seat["seat"] == view["current"]:
            side = _("{side}, to move").format(side=side)
        leg = _.ngettext("this leg {points} from {count} tile", "this leg {points} from {count} tiles",
                         seat["tiles"]).format(points=_points(seat["points"]), count=seat["tiles"])
        match = _.ngettext("match {points}, {count} tile", "match {points}, {count} tiles",
                           seat["match_tiles"]).format(points=_points(seat["match_points"]), count=seat["match_tiles"])
        lines.append("  " + _("{name}: {side}; {leg}; {match}").format(name=who, side=side, leg=leg, match=match))
    return "\n".join(lines)
