"""Scripted-position helpers for the Carcassonne: Hunters and Gatherers engine tests.

Geometry reminders (rules file §2, engine README): x grows east, y north;
rotations are clockwise; the revised start tile R-S56 lies on 0,0 with a
meadow on its north edge (aurochs), one menhir forest on its east and south
edges, and a river on its west edge flowing into a lake with 1 fish.
"""

from __future__ import annotations

from functools import partial

from games.carcassonne_hg import ENGINE, features, tiles
from tests.games import scripting
from tests.games.scripting import clone, kinds, only  # noqa: F401 (the game's tests import them from here)

# A ring of forest north of the start, closed by R-L38 on 0,2 turned 0. R-L41 on 0,1 has two separate
# forest parts (east and west) that the ring joins: 6 tiles, 7 forest parts.
RING = [
    (0, 1, "R-L41", 0),
    (1, 1, "R-L33", 0),
    (1, 2, "R-L33", 270),
    (-1, 1, "R-L31", 90),
    (-1, 2, "R-L33", 180),
]
RING_CLOSER = ("R-L38", "place 0,2 r0")

# Four river corners in a square north of the start, closed into a loop by R-L19 (1 fish) on 1,2 turned 90.
LOOP = [(0, 1, "R-L15", 270), (1, 1, "R-L16", 180), (0, 2, "R-L18", 0)]
LOOP_CLOSER = ("R-L19", "place 1,2 r90")

NAMES = ["Alice", "Bob", "Carol", "Dave", "Erin"]
ALICE, BOB, CAROL = 0, 1, 2


def game(stack: list[str], bonus: list[str] | None = None, *, players: int = 2, first: int = 0, seed=0, **options):
    """Return a new game whose land stack is ``stack`` (top first) and bonus stack ``bonus``."""
    opts = {"tiles": stack, "first_player": first, **options}
    if bonus is not None:
        opts["bonus_tiles"] = bonus
    return ENGINE.setup(NAMES[:players], opts, seed)


def position(
    placed: list[tuple],
    tile: str,
    *,
    pieces: list[tuple] = (),
    stack: list[str] | None = None,
    bonus: list[str] | None = None,
    players: int = 2,
    current: int = 0,
    scores: list[int] | None = None,
    bonus_turn: bool = False,
    **options,
) -> dict:
    """Return a game (test surgery) with ``placed`` tiles on the board and ``tile`` drawn by ``current``.

    ``placed`` holds ``(x, y, tile id, rot)`` beyond the start tile, each of which must fit where it is
    put; ``pieces`` holds ``(seat, kind, x, y, region id)``. Supplies are what the pieces leave.
    ``stack`` is the land stack left after ``tile`` (default: none, so the game ends after this turn).
    """
    edition = options.get("edition", tiles.REVISED)
    state = ENGINE.setup(NAMES[:players], {"tiles": ["R-L62"], "first_player": current, **options}, 0)
    board = [[0, 0, tiles.start_tile(edition), 0, None]]
    for x, y, tile_id, rot in placed:
        an = features.analyse(edition, board)
        oriented = tiles.oriented(edition, tile_id, rot)
        assert (x, y) in an.needs and all(
            need is None or need == have for need, have in zip(an.needs[(x, y)], oriented.edges)
        ), f"{tile_id} r{rot} does not fit on {x},{y}"
        board.append([x, y, tile_id, rot, None])
    state["board"] = board
    state["pieces"] = [{"seat": s, "kind": k, "x": x, "y": y, "region": r} for s, k, x, y, r in pieces]
    huts = 3 if edition == tiles.REVISED else 2
    state["supply"] = [
        {
            "members": 5 - sum(1 for p in pieces if p[0] == seat and p[1] != "hut"),
            "huts": huts - sum(1 for p in pieces if p[0] == seat and p[1] == "hut"),
        }
        for seat in range(players)
    ]
    state["tile"] = tile
    state["current"] = current
    state["bonus"] = bonus_turn
    state["stack"] = list(stack or [])
    if bonus is not None:
        state["bonus_stack"] = list(bonus)
    if scores is not None:
        state["scores"] = list(scores)
    return state


def spots(state: dict) -> set[tuple[int, int, int]]:
    """Return the (x, y, rot) placements of the drawn tile."""
    return {(m["x"], m["y"], m["rot"]) for m in ENGINE.legal_moves(state, ENGINE.to_move(state)[0])}


# Scripted play, the same for every game (tests/games/scripting.py).
act = partial(scripting.act, ENGINE)
play = partial(scripting.play, ENGINE)
legal_texts = partial(scripting.legal_texts, ENGINE)
