"""Property tests: random legal play always ends, conserves tiles, and apply agrees with legal_moves."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from games.base import IllegalMove
from games.halali import ENGINE, board, tiles
from games.halali.engine import winners_by

from . import NAMES

MOVE_CAP = 3000

option_sets = st.fixed_dictionaries(
    {
        "lock_on_move": st.booleans(),
        "no_return_neutral": st.booleans(),
        "no_return_capture": st.booleans(),
        "stall_limit": st.sampled_from([0, 0, 5, 20]),
        "exits_anytime": st.booleans(),
    }
)


def tile_count(state: dict) -> Counter:
    on_board = Counter(cell["kind"] for cell in state["board"] if cell)
    return on_board + Counter(entry["kind"] for pile in state["piles"] for entry in pile)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), choices=st.integers(0, 2**32), options=option_sets)
def test_random_legal_play_from_any_seed_always_ends_with_a_consistent_result(seed, choices, options):
    state = ENGINE.setup(NAMES, options, seed)
    rng = random.Random(choices)
    full = Counter(tiles.full_set())
    for _ in range(MOVE_CAP):
        if ENGINE.is_over(state):
            break
        (seat,) = ENGINE.to_move(state)
        moves = ENGINE.legal_moves(state, seat)
        assert moves, "the seat to move always has a legal action"
        state, _ = ENGINE.apply(state, seat, rng.choice(moves))
        if state["phase"] != "over":
            assert tile_count(state) == full, "every tile is on the board or in a pile"
    result = ENGINE.result(state)
    assert result is not None, "the match did not end within the move cap"
    legs = result["legs"]
    assert len(legs) == 2 and legs[0]["blue"] == legs[1]["brown"] and legs[0]["brown"] == legs[1]["blue"]
    assert result["scores"] == [legs[0]["points"][s] + legs[1]["points"][s] for s in (0, 1)]
    assert result["winners"] == winners_by(result["scores"], result["tiles"])
    for leg in legs:
        assert leg["points"] == [sum(tiles.POINTS[k] for k in pile) for pile in leg["piles"]]


def random_candidates(rng: random.Random, count: int) -> list[dict]:
    """Return move objects drawn from the whole move space, mostly illegal."""
    squares = board.SQUARES
    found = []
    for _ in range(count):
        roll = rng.random()
        if roll < 0.2:
            found.append({"flip": rng.choice(squares)})
        elif roll < 0.35:
            found.append({"from": rng.choice(squares), "to": "out", "exit": rng.choice(tiles.DIRECTIONS)})
        elif roll < 0.4:
            found.append({"pass": True})
        else:
            found.append({"from": rng.choice(squares), "to": rng.choice(squares)})
    return found


def every_line_move(state: dict) -> list[dict]:
    """Return every move of a face-up tile along its row or column, and each way out: all the moves ``legal_moves``
    could list (it lists them by its own walk of the board, apart from ``apply``'s checks)."""
    found = []
    for start, cell in enumerate(state["board"]):
        if cell is None or not cell["up"]:
            continue
        for end in range(len(board.SQUARES)):
            if end != start and (end // board.SIZE == start // board.SIZE or end % board.SIZE == start % board.SIZE):
                found.append({"from": board.SQUARES[start], "to": board.SQUARES[end]})
        found.extend({"from": board.SQUARES[start], "to": "out", "exit": way} for way in tiles.DIRECTIONS)
    return found


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 200), options=option_sets)
def test_apply_accepts_exactly_the_legal_moves(seed, steps, options):
    rng = random.Random(seed)
    state = ENGINE.setup(NAMES, options, seed)
    for _ in range(steps):
        if ENGINE.is_over(state):
            return
        (seat,) = ENGINE.to_move(state)
        state, _ = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_moves(state, seat)))
    if ENGINE.is_over(state):
        return
    (seat,) = ENGINE.to_move(state)
    legal = ENGINE.legal_moves(state, seat)
    for move in random_candidates(rng, 150) + every_line_move(state) + legal:
        try:
            ENGINE.apply(state, seat, move)
            accepted = True
        except IllegalMove:
            accepted = False
        assert accepted == (move in legal), move
