"""Scripted-board helpers for the Halali! engine tests.

A board picture has 7 rows, north (rank 7) first, 7 tokens each:
``.`` empty; ``B F L P D T`` a face-up bear, fox, lumberjack, pheasant, duck,
tree; ``HN HE HS HW`` a face-up hunter aiming north/east/south/west. The same
tokens in lower case are face-down tiles.
"""

from __future__ import annotations

from functools import partial

from games.halali import ENGINE, tiles
from tests.games import scripting
from tests.games.scripting import clone, kinds, only  # noqa: F401 (the game's tests import them from here)

NAMES = ["Alice", "Bob"]
ALICE, BOB = 0, 1

CODES = {code: kind for kind, code in tiles.SHORT.items()}

# A legal full layout (reading order a7..g1 without d4): every tile kind, hunters aiming all four ways.
LAYOUT = [
    *["bear"] * 2,
    *["fox"] * 6,
    *["lumberjack"] * 2,
    "hunter:N",
    "hunter:E",
    "hunter:S",
    "hunter:W",
    "hunter:N",
    "hunter:E",
    "hunter:S",
    "hunter:W",
    *["pheasant"] * 8,
    *["duck"] * 7,
    *["tree"] * 15,
]


def cell(token: str) -> dict | None:
    """Return the board cell a picture token stands for."""
    if token == ".":
        return None
    kind = CODES[token[0].upper()]
    result = {"kind": kind, "up": token[0].isupper()}
    if kind == tiles.HUNTER:
        result["dir"] = token[1].upper()
    return result


def cells(picture: str) -> list:
    """Return the 49 board cells of a picture."""
    rows = [line.split() for line in picture.strip().splitlines()]
    assert len(rows) == 7 and all(len(row) == 7 for row in rows), picture
    return [cell(token) for row in rows for token in row]


def picture(grid: dict[str, str]) -> str:
    """Return a board picture with ``grid``'s tokens on their squares and the rest empty."""
    rows = [" ".join(grid.get(f"{file}{rank}", ".") for file in "abcdefg") for rank in range(7, 0, -1)]
    return "\n".join(rows)


def position(
    picture: str,
    *,
    blue: int = ALICE,
    current: int | None = None,
    phase: str | None = None,
    final_left: list[int] | None = None,
    seed: int | str = 0,
    **options,
) -> dict:
    """Return a match in leg 1 whose board is ``picture`` (test surgery on a scripted setup).

    With no face-down tile in the picture the leg is in its final phase
    (``final_left`` defaults to five turns each).
    """
    state = ENGINE.setup(NAMES, {"first_blue": blue, "layout": LAYOUT, **options}, seed)
    state["board"] = cells(picture)
    state["current"] = blue if current is None else current
    hidden = any(c is not None and not c["up"] for c in state["board"])
    state["phase"] = phase or ("main" if hidden else "final")
    if state["phase"] == "final":
        state["final_left"] = list(final_left or [5, 5])
    return state


def destinations(state: dict, square: str, seat: int | None = None) -> set[str]:
    """Return where the tile on ``square`` may legally go now ("out N" for an exit)."""
    seat = ENGINE.to_move(state)[0] if seat is None else seat
    found = set()
    for move in ENGINE.legal_moves(state, seat):
        if move.get("from") == square:
            found.add(f"out {move['exit']}" if move["to"] == "out" else move["to"])
    return found


# Scripted play, the same for every game (tests/games/scripting.py).
act = partial(scripting.act, ENGINE)
play = partial(scripting.play, ENGINE)
texts = partial(scripting.legal_texts, ENGINE)
