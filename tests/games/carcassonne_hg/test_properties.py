"""Property tests: random legal play from random seeds always ends, keeps the pieces consistent, never raises."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from games.base import IllegalMove
from games.carcassonne_hg import ENGINE
from games.carcassonne_hg.engine import HUTS, MEMBERS

from . import NAMES

MOVE_CAP = 200  # 78 land tiles + at most 16 bonus tiles

option_sets = st.fixed_dictionaries(
    {
        "edition": st.sampled_from(["revised", "classic"]),
        "menhir_needs_occupied_forest": st.booleans(),
        "unplaceable_tile": st.sampled_from(["edition", "end_turn", "redraw"]),
        "hunting_trap_scorer": st.sampled_from(["placer", "hunters"]),
        "fire_affects_hunting_trap": st.booleans(),
        "wildfire_tile_tiger_counts": st.booleans(),
        "shrine_requires_free_meadow": st.booleans(),
        "river_fish_for_fishermen": st.sampled_from(["river_and_lakes", "lakes_only"]),
        "forest_parts_count_separately": st.sampled_from(["edition", True, False]),
    }
)


def check_pieces(state: dict) -> None:
    """Assert every piece is on the board or in its owner's supply, and no tile holds two pieces."""
    edition = state["edition"]
    for seat, supply in enumerate(state["supply"]):
        mine = Counter(p["kind"] == "hut" for p in state["pieces"] if p["seat"] == seat)
        assert supply["members"] + mine[False] == MEMBERS
        assert supply["huts"] + mine[True] == HUTS[edition]
    squares = [(p["x"], p["y"]) for p in state["pieces"]]
    assert len(squares) == len(set(squares))


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    choices=st.integers(0, 2**32),
    players=st.integers(2, 5),
    options=option_sets,
)
def test_random_legal_play_always_ends_within_the_cap_and_never_raises(seed, choices, players, options):
    state = ENGINE.setup(NAMES[:players], options, seed)
    rng = random.Random(choices)
    for _ in range(MOVE_CAP):
        if ENGINE.is_over(state):
            break
        (seat,) = ENGINE.to_move(state)
        moves = ENGINE.legal_moves(state, seat)
        assert moves, "the seat to move always has a placement (unplaceable tiles are set aside)"
        before = list(state["scores"])
        state, _ = ENGINE.apply(state, seat, rng.choice(moves))
        assert all(after >= was for after, was in zip(state["scores"], before)), "scores never go down"
        check_pieces(state)
    result = ENGINE.result(state)
    assert result is not None, "the game did not end within the move cap"
    assert result["winners"] == [s for s, score in enumerate(result["scores"]) if score == max(result["scores"])]
    placed = len(state["board"]) - 1 + len(state["discarded"])
    assert placed >= 78 and not state["stack"]


def random_candidates(state: dict, rng: random.Random, count: int) -> list[dict]:
    """Return move objects near the board, mostly illegal."""
    squares = [(x, y) for x, y, *_ in state["board"]]
    found = []
    for _ in range(count):
        x, y = rng.choice(squares)
        move = {"x": x + rng.randint(-1, 1), "y": y + rng.randint(-1, 1), "rot": rng.choice([0, 90, 180, 270])}
        roll = rng.random()
        if roll < 0.6:
            move["piece"] = rng.choice(["gatherer", "fisherman", "hunter", "hut"])
            move["region"] = rng.choice(["m0", "m1", "m2", "f1", "f3", "r1", "r3", "l8", "m4"])
        if roll > 0.9:
            px, py = rng.choice(squares)
            move["recall"] = {"x": px, "y": py}
        found.append(move)
    return found


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 60), edition=st.sampled_from(["revised", "classic"]))
def test_apply_accepts_exactly_the_legal_moves(seed, steps, edition):
    rng = random.Random(seed)
    state = ENGINE.setup(NAMES[:3], {"edition": edition}, seed)
    for _ in range(steps):
        if ENGINE.is_over(state):
            return
        (seat,) = ENGINE.to_move(state)
        state, _ = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_moves(state, seat)))
    if ENGINE.is_over(state):
        return
    (seat,) = ENGINE.to_move(state)
    legal = ENGINE.legal_moves(state, seat)
    for move in random_candidates(state, rng, 150) + legal:
        try:
            ENGINE.apply(state, seat, move)
            accepted = True
        except IllegalMove:
            accepted = False
        assert accepted == (move in legal), move
