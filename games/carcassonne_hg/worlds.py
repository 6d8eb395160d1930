"""Worlds for a search bot: whole Carcassonne: Hunters and Gatherers states one seat cannot tell from the real one.

``Engine.sample_world`` (games/base.py) asks for a state drawn at random among those consistent with
what ``seat`` knows. Here every seat knows the same (``player_view``): only the order of the land
stack and of the bonus stack is secret, and so is the seed (read only at setup). The view already
holds every tile that left a stack (on the board, discarded, or drawn and not yet placed), so the
history is not needed (``world_history_moves`` stays 0).

**The unseen tiles.** Each stack holds the tiles of its deck (``tiles.deck``) that the view does not
show. With the usual full decks that multiset has exactly as many tiles as the stack, and since the
real stacks were shuffled uniformly, the rest of each is a uniform random order of it: the world's
stack is a uniform shuffle of it, drawn with ``rng`` alone. A game set up with a scripted stack
(the internal ``tiles`` / ``bonus_tiles`` options, which the view does not show) uses only part of a
deck, and a game a resignation ended drops the tile in hand: then the unseen multiset is larger than
the stack, and the world's stack is a uniform random ordered draw of the stack's size from it (no
seat knows which part of the deck was chosen).

**Playable to the end.** A stack tile that fits nowhere when drawn is set aside by the engine
itself (``_draw_land``, ``_draw_bonus``), so any order is a game the engine plays on to the end.

**Cost.** A search calls this thousands of times per move on the same position. Rebuilding the
board's zone and river-system labels (the state keeps them, ``labels.py``) is the one costly part,
so the labelled board and the tiles it holds are kept for the last few boards (``_BOARDS``), keyed
by the board itself. Worlds share those board entries with each other: the engine never changes an
entry (a placement builds a new board, as ``apply_move`` always does), the same way successive
engine states share their pieces. Everything else is copied from the view, so changing a world
never changes the view nor another world.
"""

from __future__ import annotations

import copy
import random
from typing import Any

from games.carcassonne_hg import tiles
from games.carcassonne_hg.features import analyse, labelled
from games.carcassonne_hg.tiles import BONUS, LAND

_BOARDS: list[tuple[str, list[list], list[list], list[str], list[str]]] = []  # newest last; see _board
_BOARDS_KEPT = 8  # a search keeps asking about one position; a few spare slots serve several tables in one process


def _board(edition: str, shown: list[list]) -> tuple[list[list], list[str], list[str]]:
    """Return the labelled board for the view's ``shown`` board, and the unseen land and bonus tiles it leaves.

    The unseen tiles are the deck's tiles not on this board, in catalogue order (the caller removes the
    discarded tiles and the one in hand). Kept for the last few boards: comparing a view's board with a
    kept one is a C-level list comparison, far cheaper than labelling it again.
    """
    for kept_edition, kept_shown, board, land, bonus in reversed(_BOARDS):
        if kept_edition == edition and kept_shown == shown:
            return board, land, bonus
    own = [list(entry) for entry in shown]  # the caller's view may change later; the memo must not
    # ``analyse`` is the engine's memo: the real position's board is usually in it already (its legal moves).
    board = labelled(own, analyse(edition, own))
    placed: dict[str, int] = {}
    for entry in own:
        placed[entry[2]] = placed.get(entry[2], 0) + 1
    land, bonus = [], []
    for tile_id, (tile, count) in tiles.catalogue(edition).items():
        if tile.deck in (LAND, BONUS):
            (land if tile.deck == LAND else bonus).extend([tile_id] * (count - placed.get(tile_id, 0)))
    if len(_BOARDS) >= _BOARDS_KEPT:
        del _BOARDS[0]
    _BOARDS.append((edition, own, board, land, bonus))
    return board, land, bonus


def unseen(view: dict[str, Any]) -> tuple[list[str], list[str]]:
    """Return the land and bonus tiles the view does not show (one id per physical tile, catalogue order)."""
    _, land, bonus = _board(view["edition"], view["board"])
    return _less_shown(view, land, bonus)


def _less_shown(view: dict[str, Any], off_board_land: list[str], off_board_bonus: list[str]) -> tuple[list, list]:
    """Return copies of the tiles off the board less those the view shows elsewhere: discarded, or in hand."""
    edition = view["edition"]
    land, bonus = list(off_board_land), list(off_board_bonus)
    shown = list(view["discarded"])
    if view["tile"] is not None:
        shown.append(view["tile"])
    catalogue = tiles.catalogue(edition)
    for tile_id in shown:
        pool = land if catalogue[tile_id][0].deck == LAND else bonus
        try:
            pool.remove(tile_id)
        except ValueError:
            raise ValueError(f"the view shows {tile_id} more often than the {edition} set has it") from None
    return land, bonus


def sample_world(view: dict[str, Any], history: list[dict[str, Any]], seat: int, rng: random.Random) -> dict[str, Any]:
    """Return a whole state drawn with ``rng`` among those ``seat`` cannot tell from the real one (module docstring).

    ``history`` is not read: the view shows every tile that has left a stack.
    """
    edition = view["edition"]
    board, land, bonus = _board(edition, view["board"])
    land, bonus = _less_shown(view, land, bonus)
    if len(land) < view["stack_count"] or len(bonus) < view["bonus_stack_count"]:
        raise ValueError("the view's stacks hold more tiles than its set has unseen")
    seats = view["seats"]
    return {
        "players": [entry["name"] for entry in seats],
        # Only the public options: the internal ones (a scripted stack, the first player) are read at setup alone.
        "options": dict(view["options"]),
        "seed": f"world-{rng.getrandbits(64):016x}",  # read only at setup, but a state has one: never the real one
        "edition": edition,
        "phase": view["phase"],
        "turn": view["turn"],
        "current": view["current"],
        "tile": view["tile"],
        "bonus": view["bonus_turn"],
        # A uniform ordered draw: with as many tiles unseen as the stack holds, a uniform shuffle of them.
        "stack": rng.sample(land, view["stack_count"]),
        "bonus_stack": rng.sample(bonus, view["bonus_stack_count"]),
        "board": list(board),
        "pieces": [dict(piece) for piece in view["pieces"]],
        "supply": [{"members": entry["members"], "huts": entry["huts"]} for entry in seats],
        "scores": [entry["score"] for entry in seats],
        "left": [entry["left"] for entry in seats],
        "cancelled": [list(node) for node in view["cancelled"]],
        "discarded": list(view["discarded"]),
        "last": None if view["last"] is None else dict(view["last"]),
        "final": copy.deepcopy(view["final"]),  # set once the game is over (its entries hold lists of scorers)
        "winners": None if view["winners"] is None else list(view["winners"]),
    }
