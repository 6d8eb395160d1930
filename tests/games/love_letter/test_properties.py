"""Property test: random legal play from any seed, edition and player count ends with one winner."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.love_letter import ENGINE, cards

from . import NAMES

MOVE_CAP = 3000


@st.composite
def tables(draw):
    edition = draw(st.sampled_from(cards.EDITIONS))
    low, high = cards.player_range(edition)
    players = draw(st.integers(low, high))
    final_tie = draw(st.sampled_from(["all_win", "nobody"]))
    return edition, players, final_tie


@settings(max_examples=150, deadline=None)
@given(table=tables(), seed=st.integers(0, 2**32), choices=st.integers(0, 2**32))
def test_random_legal_play_always_ends_with_a_single_winner(table, seed, choices):
    edition, players, final_tie = table
    state = ENGINE.setup(NAMES[:players], {"edition": edition, "classic_final_tie": final_tie}, seed)
    rng = random.Random(choices)
    for _ in range(MOVE_CAP):
        if ENGINE.is_over(state):
            break
        (seat,) = ENGINE.to_move(state)
        moves = ENGINE.legal_moves(state, seat)
        assert moves, "the seat to move always has a legal move"
        state, _ = ENGINE.apply(state, seat, rng.choice(moves))
        assert any(state["in_round"]), "ruling 21: somebody is always in the round"
    result = ENGINE.result(state)
    assert result is not None, "the game did not end within the move cap"
    (winner,) = result["winners"]
    assert result["scores"][winner] >= result["target"]
    assert all(score < result["scores"][winner] for seat, score in enumerate(result["scores"]) if seat != winner)
    assert result["ranking"][0] == winner and sorted(result["ranking"]) == list(range(players))
