"""Halali!'s ``strong`` bot (issue 48): its playout's rule of thumb, its judge, and the search choosing from the root
the basic bot's best moves. Its strength is measured by benchmarks/bots.py, not here."""

from __future__ import annotations

import random

from games.bots import bot_move
from games.halali import board, strong
from games.halali.engine import HalaliEngine

from .test_bots import start

ENGINE = HalaliEngine()


def playout_choice(state) -> dict:
    seat = state["current"]
    return strong.threat_playout(ENGINE, state, seat, ENGINE.legal_moves(state, seat), random.Random(1))


def test_the_playout_takes_the_most_valuable_capture():
    state, _ = start({"c4": "hunter:E", "e4": "bear", "d5": "hunter:S", "d3": "fox"}, ["c4", "e4", "d5", "d3", "a7"])
    assert state["current"] == 1
    assert playout_choice(state) == {"from": "c4", "to": "e4"}  # the Bear (10) rather than the Fox (5)


def test_the_playout_does_not_walk_a_fox_into_a_hunters_line_for_a_duck():
    state, _ = start({"c5": "hunter:E", "d3": "fox", "d5": "duck"}, ["c5", "a7", "d3", "d5"])
    assert state["current"] == 0 and {"from": "d3", "to": "d5"} in ENGINE.legal_moves(state, 0)
    assert playout_choice(state) != {"from": "d3", "to": "d5"}


def test_the_playout_saves_a_tile_in_reach_of_a_hunter():
    # The Hunter on c4 aims east across the empty centre at the Fox on e4; two squares north of the Fox are cleared
    # (a world is a state: the playout reads its board), so the Fox may step out of the line.
    state, _ = start({"c4": "hunter:E", "e4": "fox"}, ["c4", "e4", "a7", "b7"])
    assert state["current"] == 0
    for square in ("e5", "e6"):
        state["board"][board.INDEX[square]] = None
    move = playout_choice(state)
    assert move.get("from") == "e4" and move["to"] in ("e5", "e6"), move


def test_the_judge_is_symmetric_and_counts_points_and_the_capture_at_hand():
    state, history = start({"c4": "hunter:E", "e4": "bear"}, ["c4", "e4", "a7"])
    worth = strong.judge(ENGINE, state)
    assert abs(sum(worth) - 1) < 1e-9
    assert worth[1] > 0.5  # Brown, to move, may shoot the Bear
    after, _ = ENGINE.apply(state, 1, {"from": "c4", "to": "e4"})
    assert strong.judge(ENGINE, after)[1] > worth[1]  # the Bear in Brown's pile is surer than the shot


def test_the_judge_reads_the_match_points_every_player_sees():
    rng = random.Random(7)
    state = ENGINE.setup(["a", "b"], ENGINE.validate_options(2, {}), "points")
    while not ENGINE.is_over(state):
        assert strong.match_points(state) == ENGINE.public_scores(state)
        seat = ENGINE.to_move(state)[0]
        state, _ = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_moves(state, seat)))


def test_the_strong_bot_takes_the_bear():
    state, history = start({"c4": "hunter:E", "e4": "bear", "d5": "hunter:S", "d3": "fox"}, ["c4", "e4", "d5", "d3", "a7"])
    assert bot_move(ENGINE, "strong", state, 1, history, seed="bear") == {"from": "c4", "to": "e4"}
