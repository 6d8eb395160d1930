"""Halali! worlds for a search bot: whole states drawn from what a seat may know (``Engine.sample_world``).

Nobody knows a face-down tile (rules file §10.10), so every seat's view is the spectator's: the hidden part
of a state is the same for both players and is exactly

* the kind of every face-down tile, and the rifle of every face-down hunter;
* the next leg's layout, which the engine shuffles from the table's seed (or reads from a scripted ``layout``
  option, which no view shows).

The tiles are shuffled face down and turned over only by choice of square, and nobody can choose by a kind they
cannot see, so what is still face down is a uniform shuffle of the tiles not yet seen (the view's
``unrevealed`` counts) over the face-down squares; each hunter's rifle is uniform and independent (§3, §10.8).
The world gets a seed of its own drawn from ``rng``, from which the engine will shuffle the next leg.

Everything else in the state the view shows outright, except the no-return memory of the seat that just acted
(the view shows only the memory of the seat to move). That memory is the last action, which the view shows
(``last``), so no history is needed (``world_history_moves`` stays 0).
"""

from __future__ import annotations

import random
from typing import Any

from games.halali.board import INDEX, SIZE
from games.halali.rules import OVER
from games.halali.tiles import DIRECTIONS, HUNTER, KINDS, SHARED, owner

_CELLS = SIZE * SIZE


def sample_world(view: dict[str, Any], history: list[dict[str, Any]], seat: int,
                 rng: random.Random) -> dict[str, Any]:
    """Return a whole match state ``seat`` cannot tell from the real one, drawn with ``rng`` alone.

    ``history`` is not read: the view holds everything a seat knows (see the module). Nothing of ``view`` is
    shared with the world, so playing or changing one never touches the other.
    """
    grid: list[dict | None] = [None] * _CELLS
    for tile in view["tiles"]:
        cell = {"kind": tile["kind"], "up": True}
        if "dir" in tile:
            cell["dir"] = tile["dir"]
        grid[INDEX[tile["square"]]] = cell

    # The unseen multiset, shuffled onto the face-down squares: every arrangement of it equally likely.
    unrevealed = view["unrevealed"]
    hidden = [kind for kind in KINDS for _copy in range(unrevealed[kind])]
    squares = view["face_down"]
    if len(hidden) != len(squares):  # a view this module misreads would give a world the engine misplays
        raise ValueError(f"{len(squares)} face-down squares but {len(hidden)} unseen tiles")
    rng.shuffle(hidden)
    getrandbits = rng.getrandbits
    for square, kind in zip(squares, hidden):
        # getrandbits(2) is an exactly uniform one of four (choice() costs more, thousands of times a move).
        grid[INDEX[square]] = {"kind": kind, "up": False, "dir": DIRECTIONS[getrandbits(2)]} if kind == HUNTER \
            else {"kind": kind, "up": False}

    # The public options are every option play reads: a scripted ``layout`` (hidden) falls back to the world's seed,
    # and a version-1 game, whose stored options lack ``lock_on_move``, plays the rule its view shows under the key.
    options = dict(view["options"])
    current = view["current"]
    last = None if view["last"] is None else dict(view["last"])
    last_own: list[dict | None] = [None, None]
    no_return = view["no_return"]
    if no_return is not None:
        last_own[no_return["seat"]] = {"kind": no_return["kind"], "from": no_return["banned"],
                                       "to": no_return["square"]}
    if current is not None and last is not None and last["kind"] == "moved" and last["seat"] != current:
        # The seat that just acted remembers its move (engine ``_step``) when the tile is its own, or a bird under
        # ``no_return_neutral``; the tile still stands on ``to``, face up, since nothing has happened since.
        kind = grid[INDEX[last["to"]]]["kind"]
        if owner(kind) is not None or (kind in SHARED and options["no_return_neutral"]):
            last_own[last["seat"]] = {"kind": kind, "from": last["from"], "to": last["to"]}

    seats = view["seats"]
    state: dict[str, Any] = {
        "players": [entry["name"] for entry in seats],
        "options": options,
        # The seed only shuffles legs to come; the real one is never in a view, so this is the world's own.
        "seed": getrandbits(64),
        "leg": view["leg"],
        "legs": [dict(record, cleared=list(record["cleared"]), points=list(record["points"]),
                      tiles=list(record["tiles"]), winners=list(record["winners"]),
                      piles=[list(pile) for pile in record["piles"]]) for record in view["legs"]],
        "winners": None if view["winners"] is None else list(view["winners"]),
        "blue": view["blue"],
        "phase": view["phase"],
        "current": current,
        "turn": view["turn"],
        "board": grid,
        "locked": None if view["locked"] is None else INDEX[view["locked"]],
        "last_own": last_own,
        "final_left": None if view["final_turns_left"] is None else list(view["final_turns_left"]),
        "quiet": view["quiet_turns"],
        "piles": [[dict(entry) for entry in shown["pile"]] for shown in seats],
        "last": last,
    }
    if view["phase"] == OVER and len(view["legs"]) < view["leg"]:
        # Only a resignation ends the match before its last leg is recorded (engine ``resign``): the loser is known.
        state["resigned"] = 1 - view["winners"][0]
    return state
