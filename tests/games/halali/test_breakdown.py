"""The final score of a match by kind of tile (§8, §9), with the tie-break and each leg beside it."""

from __future__ import annotations

import random

from games.halali.engine import HalaliEngine
from games.halali.tiles import POINTS

ENGINE = HalaliEngine()


def test_the_kinds_add_up_over_both_legs_and_the_tiles_and_legs_are_shown_beside():
    rng = random.Random(5)
    state = ENGINE.setup(["Ann", "Bob"], ENGINE.validate_options(2, {}), "halali-breakdown")
    while ENGINE.to_move(state):
        seat = ENGINE.to_move(state)[0]
        state, _ = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_moves(state, seat)))
    result = ENGINE.result(state)
    rows = ENGINE.score_breakdown(state)
    counted = [row for row in rows if row["counts"]]
    assert [sum(row["points"][seat] for row in counted) for seat in (0, 1)] == result["scores"]
    for row in counted:
        each = int(row["label"].split("(")[1].split(" ")[0])
        assert each in POINTS.values() and all(points % each == 0 for points in row["points"])
    aside = {row["label"]: row["points"] for row in rows if not row["counts"]}
    assert aside["Tiles collected (the tie-break)"] == result["tiles"]
    assert [aside["Leg 1"], aside["Leg 2"]] == [leg["points"] for leg in result["legs"]]
