"""The final score by category: points during play, meadows and river systems, as the board's table shows them."""

from __future__ import annotations

import random

from games.carcassonne_hg.engine import CarcassonneHGEngine
from games.carcassonne_hg.player_view import public_extras

ENGINE = CarcassonneHGEngine()


def test_the_rows_match_the_boards_final_table_and_add_up_to_the_scores():
    for seed in range(2):
        rng = random.Random(seed)
        state = ENGINE.setup(["Ann", "Bob", "Cy"], ENGINE.validate_options(3, {}), f"hg-breakdown-{seed}")
        while ENGINE.to_move(state):
            seat = ENGINE.to_move(state)[0]
            state, _ = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_moves(state, seat)))
        rows = ENGINE.score_breakdown(state)
        board = public_extras(state)["breakdown"]
        assert [row["points"] for row in rows] == [
            [entry[column] for entry in board] for column in ("play", "meadows", "river_systems")
        ]
        assert [sum(row["points"][seat] for row in rows) for seat in range(3)] == state["scores"]
