"""Every word the Halali! board shows, in the reader's language: the engine's ``board_data``.

The board template (``turnbased/web/templates/games/halali/board.html``) holds markup, names and
numbers only and prints what this returns: ``words`` (the fixed texts), labels and titles per
square, per gate, per destination and per seat, and ``script`` (the texts the board script writes,
read from the page as JSON). A text with markup in it (``"Leg <strong>1</strong> of 2"``) is escaped
here and gets only numbers and our own tags, never a name, so the template may print it as is.

Built from the view and the legal moves alone: nothing hidden reaches it. The fixed texts are
worded once per language and kept; the rest costs a few lookups per tile.
"""

from __future__ import annotations

import html
import json
from functools import cache
from typing import Any

from games.halali import tiles
from games.halali.names import (
    aim,
    counted,
    exit_name,
    the_moved,
    the_object,
    the_subject,
    through_exit,
    tile_name,
    tile_word,
)
from games.i18n import catalog_of, current_language

_ = catalog_of(__name__)

DIRECTIONS = ("N", "E", "S", "W")


def _html(message: str, **values: Any) -> str:
    """Return ``message`` escaped for HTML with ``values`` (numbers, or markup made here) put in its placeholders."""
    return html.escape(message, quote=False).format(**values)


def _strong(value: Any) -> str:
    return f"<strong>{int(value)}</strong>"


@cache
def _fixed(language: str) -> dict[str, Any]:
    """Return the board's texts that no position changes, worded in ``language`` (the reader's, when called)."""
    words = {
        "board": _("Halali board, a7 north-west to g1 south-east"),
        "idle_flip": _("Click a face-down tile to turn it over, or one of your tiles to see where it can go."),
        "idle_move": _("Click one of your tiles to see where it can go."),
        "over": _("The match is over."),
        "replay": _("A position of the replay."),
        "waiting": _("Waiting for the other player."),
        "buttons": _("Choose your move with the buttons below."),
        "pass": _("Pass: you have no legal move"),
        "confirm": _("Confirm"),
        "cancel": _("Cancel"),
        "legend_last": _("last move"),
        "legend_locked": _("locked bird (opponent may not move it this turn)"),
        "legend_no_return": _("no straight back"),
        "legend_exit": _("exit (d7, g4, d1, a4; open in the final phase)"),
        "final_left": _("Final phase · turns left:"),
        "exits_open": _("exits open"),
        "match_over": _("Match over"),
        "not_yet_title": _(
            "When the last tile is turned over, each player gets five more turns and may leave through the exits"
        ),
        "not_yet": _("Final phase: not yet (5 turns each)"),
        "house_rule": _("exits open (house rule)"),
        "you": _("(you)"),
        "to_move": _("to move"),
        "side_blue": _("Blue · bears & foxes"),
        "side_brown": _("Brown · hunters & lumberjacks"),
        "no_tiles": _("no tiles yet"),
        "revealed": _("Revealed after the game:"),
        "revealed_some": _("each face-down tile shows, small on its back, what it is"),
        "revealed_none": _("no tile was face down at this moment"),
        "all_up": _("Every tile is face up"),
        "glance": _("rules at a glance"),
        "finished_legs": _("finished legs"),
        "rules": _(
            "Blue moves bears (1 square) and foxes; Brown moves hunters and lumberjacks (1 square); either moves "
            "ducks and pheasants; trees never move. Bears take hunters and lumberjacks, foxes take ducks and "
            "pheasants, hunters take bears, foxes and birds in their rifle's direction only, lumberjacks take "
            "trees. Points: bear 10, fox, hunter, lumberjack 5, pheasant 3, duck and tree 2."
        ),
    }
    script = {
        "flip": _("Turn over the face-down tile on {square}: this cannot be undone."),
        "move": _("Move {tile} from {start} to {end}."),
        "take": _("{tile} on {start} takes {prey} on {end}."),
        "leave": _("{tile} on {start} leaves the forest through {exit}, and you keep it."),
        "ask": _("{what} Confirm?"),
        "confirm_or_cancel": _("Confirm or cancel your move."),
        "pick_another": _("Pick another destination, or Esc to choose another tile."),
        "sending": _("Sending your move…"),
        "subject": {kind: the_subject(kind) for kind in tiles.KINDS},
        "moved": {kind: the_moved(kind) for kind in tiles.KINDS},
        "object": {kind: the_object(kind) for kind in tiles.KINDS},
        "exits": {direction: through_exit(direction) for direction in DIRECTIONS},
    }
    return {"words": words, "script": script}


def _kind_word(kind: str, direction: str | None) -> str:
    """Return "fox", or "hunter aiming west": a tile as a label says it."""
    if kind == tiles.HUNTER and direction:
        return _("{tile} aiming {direction}").format(tile=tile_word(kind), direction=aim(direction))
    return tile_word(kind)


def _kind_title(kind: str, direction: str | None) -> str:
    """Return "Fox", or "Hunter, rifle aimed west": a tile as a title names it."""
    if kind == tiles.HUNTER and direction:
        return _("{tile}, rifle aimed {direction}").format(tile=tile_name(kind), direction=aim(direction))
    return tile_name(kind)


def _face_up(view: dict[str, Any], moves: list[dict[str, Any]]) -> dict[str, dict[str, str]]:
    """Return each face-up tile's label, title and (for a tile the reader may move) the hint its click shows."""
    places: dict[str, list[str]] = {}
    for entry in moves:
        move = entry["move"]
        if "from" in move:
            places.setdefault(move["from"], []).append(move["to"])
    found = {}
    movers = {seat["side"]: seat["name"] for seat in view["seats"]}
    for tile in view["tiles"]:
        square, kind, direction = tile["square"], tile["kind"], tile.get("dir")
        label = _("{tile} at {square}").format(tile=_kind_word(kind, direction), square=square)
        # Whose it is: the player of its side moves it; a green tile is nobody's.
        side = tiles.owner(kind)
        label = (_("{label}, moved by {player}").format(label=label, player=movers[side]) if side in movers
                 else _("{label}, neutral").format(label=label))
        title = _("{tile} ({square})").format(tile=_kind_title(kind, direction), square=square)
        if view["locked"] == square:
            label = _("{label}, locked").format(label=label)
            title = _("{title}: just flipped or moved, the other player may not move it this turn").format(title=title)
        shown = {"label": label, "title": title}
        if square in places:
            count = len(places[square])
            if "out" in places[square]:
                hint = _.ngettext(
                    "{tile} on {square} can go to {count} place: click a highlighted square or exit "
                    "(Esc or click it again to cancel).",
                    "{tile} on {square} can go to {count} places: click a highlighted square or exit "
                    "(Esc or click it again to cancel).",
                    count,
                )
            else:
                hint = _.ngettext(
                    "{tile} on {square} can go to {count} place: click a highlighted square "
                    "(Esc or click it again to cancel).",
                    "{tile} on {square} can go to {count} places: click a highlighted square "
                    "(Esc or click it again to cancel).",
                    count,
                )
            shown["hint"] = hint.format(tile=the_subject(kind), square=square, count=count)
        found[square] = shown
    return found


def _face_down(view: dict[str, Any]) -> dict[str, dict[str, str]]:
    """Return each face-down tile's label and title (after the end, what it was)."""
    revealed = (view.get("revealed") or {}).get("face_down") or {}
    found = {}
    for square in view["face_down"]:
        title = _("Face-down tile ({square})").format(square=square)
        shown = revealed.get(square)
        if shown:
            title = _("Face-down tile ({square}): {tile}, revealed after the game").format(
                square=square, tile=_kind_word(shown["kind"], shown.get("dir"))
            )
        found[square] = {"label": _("face-down tile at {square}").format(square=square), "title": title}
    return found


def _destinations(view: dict[str, Any], moves: list[dict[str, Any]]) -> dict[str, str]:
    """Return the label of each move's destination marker, by the move's JSON."""
    kinds = {tile["square"]: tile["kind"] for tile in view["tiles"]}
    found = {}
    for entry in moves:
        move = entry["move"]
        if "from" not in move:
            continue
        key = json.dumps(move, sort_keys=True)
        text = entry.get("text", "")
        if move["to"] == "out":
            found[key] = _("leave through {exit} ({move})").format(exit=through_exit(move["exit"]), move=text)
        elif move["to"] in kinds:
            found[key] = _("capture {prey} on {square} ({move})").format(
                prey=the_object(kinds[move["to"]]), square=move["to"], move=text
            )
        else:
            found[key] = _("move to {square} ({move})").format(square=move["to"], move=text)
    return found


def _gates(view: dict[str, Any]) -> dict[str, str]:
    """Return each exit's title: its name, its square, and whether it is open yet."""
    open_now = view["phase"] == "final" or view["options"].get("exits_anytime")
    found = {}
    for direction, square in view["exits"].items():
        if open_now:
            found[direction] = _("{exit}, from {square}").format(exit=exit_name(direction), square=square)
        else:
            found[direction] = _("{exit}, from {square} (opens in the final phase)").format(
                exit=exit_name(direction), square=square
            )
    return found


def _seats(view: dict[str, Any]) -> dict[int, dict[str, Any]]:
    """Return each seat's score lines (markup with numbers only), pile labels and the pile's own label."""
    found = {}
    left = view.get("final_turns_left")
    for seat in view["seats"]:
        tiles_now = seat["tiles"]
        score = _html(
            _.ngettext("{points} pts · {count} tile this leg", "{points} pts · {count} tiles this leg", tiles_now),
            points=f'<span class="hb-points">{int(seat["points"])}</span>',
            count=int(tiles_now),
        )
        match = _html(
            _.ngettext("Match: {points} pts · {count} tile", "Match: {points} pts · {count} tiles", seat["match_tiles"]),
            points=_strong(seat["match_points"]),
            count=int(seat["match_tiles"]),
        )
        if left is not None:
            turns = left[seat["seat"]]
            match += " · " + _html(
                _.ngettext("{count} final turn left", "{count} final turns left", turns), count=_strong(turns)
            )
        pile = []
        for entry in seat["pile"]:
            how = _.pgettext("pile", "exited") if entry["how"] == "exited" else _.pgettext("pile", "captured")
            pile.append({
                "kind": entry["kind"],
                "how": entry["how"],
                "label": _("{tile} ({how})").format(tile=tile_word(entry["kind"]), how=how),
                "title": _("{tile} ({how})").format(tile=tile_name(entry["kind"]), how=how),
            })
        found[seat["seat"]] = {
            "score": score,
            "match": match,
            "pile": pile,
            "pile_label": _("tiles collected by {player}").format(player=seat["name"]),
        }
    return found


def _legs(view: dict[str, Any]) -> list[str]:
    """Return one line per finished leg: its points by name, and who won it."""
    names = {seat["seat"]: seat["name"] for seat in view["seats"]}
    lines = []
    for record in view["legs"]:
        score = ", ".join(f"{names[seat]} {points}" for seat, points in enumerate(record["points"]))
        if record["winners"]:
            winner = ", ".join(names[seat] for seat in record["winners"])
            lines.append(_("Leg {leg}: {score} · won by {player}").format(leg=record["leg"], score=score, player=winner))
        else:
            lines.append(_("Leg {leg}: {score} · drawn").format(leg=record["leg"], score=score))
    return lines


def board_data(view: dict[str, Any], moves: list[dict[str, Any]]) -> dict[str, Any]:
    """Return the board's words for ``view`` and the reader's legal ``moves`` (``{move, text, json}``; [] in a replay)."""
    fixed = _fixed(current_language())
    face_down = len(view["face_down"])
    status = {
        "leg": _html(_("Leg {leg} of {total}"), leg=_strong(view["leg"]), total=int(view["legs_total"])),
        "turn": _("Turn {turn}").format(turn=view["turn"]),
        "main": _html(
            _.ngettext("Main phase · {count} face down", "Main phase · {count} face down", face_down),
            count=_strong(face_down),
        ),
        "still_down": _.ngettext("Still face down: {count} tile", "Still face down: {count} tiles", face_down).format(
            count=face_down
        ),
    }
    return {
        "words": fixed["words"],
        "script": fixed["script"],
        "status": status,
        "tiles": _face_up(view, moves),
        "down": _face_down(view),
        "dests": _destinations(view, moves),
        "gates": _gates(view),
        "seats": _seats(view),
        "legs": _legs(view),
        "no_return": (
            _("No straight back: the tile on {square} may not return to {banned} this turn").format(
                square=view["no_return"]["square"], banned=view["no_return"]["banned"]
            )
            if view.get("no_return")
            else ""
        ),
        "unrevealed": {kind: counted(kind, count) for kind, count in view["unrevealed"].items()},
        "revealed": {
            square: _("{square}: {tile}").format(square=square, tile=_kind_word(shown["kind"], shown.get("dir")))
            for square, shown in ((view.get("revealed") or {}).get("face_down") or {}).items()
        },
    }
