"""The final score by category (§10): the animals' base points and their stored food, with the food items beside
(the tie-break, when the table plays one)."""

from __future__ import annotations

import random

import pytest

from games.savernake_forest.engine import SavernakeForestEngine

ENGINE = SavernakeForestEngine()


@pytest.mark.parametrize(("tie_break", "label"), [
    ("stored_food", "Food items stored (the tie-break)"),
    ("shared", "Food items stored"),
])
def test_base_and_food_points_add_up_and_the_stored_items_are_beside(tie_break, label):
    rng = random.Random(4)
    state = ENGINE.setup(["Ann", "Bob"], ENGINE.validate_options(2, {"tie_break": tie_break}), "savernake-breakdown")
    while ENGINE.to_move(state):
        seat = ENGINE.to_move(state)[0]
        state, _ = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_moves(state, seat)))
    result = ENGINE.result(state)
    rows = {row["label"]: row for row in ENGINE.score_breakdown(state)}
    base, food = rows["Animals (base points)"]["points"], rows["Food stored (points)"]["points"]
    assert [b + f for b, f in zip(base, food)] == result["scores"]
    assert rows[label]["points"] == result["stored"]
    assert not rows[label]["counts"] and sum(food) > 0
