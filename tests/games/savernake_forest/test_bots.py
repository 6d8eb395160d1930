"""Savernake Forest ``basic`` bot: greedy on its own forest's live score, worked out from the view."""

from __future__ import annotations

import random

import pytest

from games.bots import bot_move
from games.savernake_forest import scoring
from games.savernake_forest.bots import after, forest_of
from games.savernake_forest.engine import SavernakeForestEngine

ENGINE = SavernakeForestEngine()


def test_basic_feeds_its_animal_and_waters_the_food_it_stores():
    # Seat 0 starts with the Fox (eggs 4, capacity 2, den exit north); the goat offers a straight E E path.
    deck = {"paths": ["CU01", "ST08", "DC12"], "animals": ["AN01", "AN02", "AN03"]}
    options = ENGINE.validate_options(2, {"deck": deck, "first_player": 0})
    state = ENGINE.setup(["a", "b"], options, "bots")
    move = bot_move(ENGINE, "basic", state, 0, [], seed="bots")
    assert move["slot"] == "goat" and (move["x"], move["y"]) == (0, -1) and move["rot"] in (0, 2)
    assert move["token"] == {"animal": "AN01", "food": "E"}
    after_move, _ = ENGINE.apply(state, 0, move)
    assert ENGINE.view(after_move, 0)["seats"][0]["score"] == 4 + 2 * (4 + 1)


@pytest.mark.parametrize("resolution", ["immediate", "end_of_game"])
def test_every_move_is_scored_from_the_view_as_the_engine_scores_it(resolution):
    options = ENGINE.validate_options(2, {"shared_path_resolution": resolution})
    state = ENGINE.setup(["a", "b"], options, f"score-{resolution}")
    rng = random.Random(5)
    for _ in range(12):
        seat = ENGINE.to_move(state)[0]
        state, _ = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_moves(state, seat)))
    seat = ENGINE.to_move(state)[0]
    view = ENGINE.view(state, seat)
    forest = forest_of(view, seat)
    market = {entry["slot"]: entry["card"] for entry in view["market"]}
    for move in ENGINE.legal_moves(state, seat):
        predicted = scoring.live_scores(after(forest, market[move["slot"]], move, resolution == "immediate"))
        actual = ENGINE.view(ENGINE.apply(state, seat, move)[0], seat)["seats"][seat]
        assert (predicted["total"], predicted["stored"]) == (actual["score"], actual["stored"]), move


def test_basic_scores_at_least_what_random_play_scores():
    totals = {"basic": 0, "random": 0}
    for number in range(4):
        bots = ["basic", "random"] if number % 2 == 0 else ["random", "basic"]
        state = ENGINE.setup(["a", "b"], ENGINE.validate_options(2, {}), f"greedy-{number}")
        history = []
        while not ENGINE.is_over(state):
            seat = ENGINE.to_move(state)[0]
            state, events = ENGINE.apply(state, seat, bot_move(ENGINE, bots[seat], state, seat, history, seed=number))
            history.extend(events)
        for seat, score in enumerate(ENGINE.result(state)["scores"]):
            totals[bots[seat]] += score
    assert totals["basic"] > totals["random"]
