"""Carcassonne: Hunters and Gatherers' ``strong`` bot (issue 48): the judge's figures, what it foresees, and the bot
weighing the moves within its budget of engine steps. Its strength is measured by benchmarks/bots.py, not here."""

from __future__ import annotations

import random

import pytest

from games.bots import bot_move
from games.carcassonne_hg import ENGINE, judge, strong
from games.carcassonne_hg.strong import Budget, StrongBot

from . import ALICE, BOB, RING, RING_CLOSER, position

STACK = ["R-L62", "R-L35", "R-L36", "R-L51", "R-L76", "R-L24", "R-L53", "R-L08"]


def figures(state: dict) -> list[dict[str, float]]:
    rows = judge.components(ENGINE.view(state, ALICE))
    return [dict(zip(judge.NAMES, row)) for row in rows]


def test_the_figures_are_every_weighed_name_but_the_turn():
    assert set(judge.NAMES) | {"tempo"} == set(judge.WEIGHTS)


def test_a_held_forest_counts_for_its_holder_alone_by_its_chance_to_close():
    bare = figures(position(RING, RING_CLOSER[0], stack=STACK))
    held = figures(position(RING, RING_CLOSER[0], pieces=[(ALICE, "gatherer", 1, 2, "f0")], stack=STACK))
    alice, bob = held
    assert alice["forest_sure"] > 0 and alice["forest_unsure"] > 0  # one tile from closing, eight tiles to come
    assert alice["members_home"] + alice["members_stuck"] == pytest.approx(1)
    assert bob == bare[BOB]
    assert alice["supply"] < bare[ALICE]["supply"]  # the gatherer left her supply


def test_a_tie_counts_for_both_and_a_hunter_never_comes_home():
    pieces = [(ALICE, "gatherer", 1, 2, "f0"), (BOB, "gatherer", -1, 2, "f0"), (BOB, "hunter", 0, 0, "m0")]
    alice, bob = figures(position(RING, RING_CLOSER[0], pieces=pieces, stack=STACK))
    assert alice["forest_sure"] == bob["forest_sure"] > 0
    assert bob["hunters"] == 1 and alice["hunters"] == 0
    assert bob["meadow"] > 0 and alice["meadow"] == 0


def test_the_judge_is_the_difference_between_the_seats_and_the_turn():
    state = position(RING, RING_CLOSER[0], pieces=[(ALICE, "gatherer", 1, 2, "f0")], stack=STACK, scores=[5, 2])
    rows = judge.components(ENGINE.view(state, ALICE))
    assert judge.difference(rows, ALICE) == [-x for x in judge.difference(rows, BOB)]
    assert judge.worth(rows, ALICE, True) == pytest.approx(-judge.worth(rows, BOB, False))
    assert judge.worth(rows, ALICE, True) - judge.worth(rows, ALICE, False) == pytest.approx(2 * judge.WEIGHTS["tempo"])
    more = position(RING, RING_CLOSER[0], pieces=[(ALICE, "gatherer", 1, 2, "f0")], stack=STACK, scores=[9, 2])
    gained = judge.judged(ENGINE, more, ALICE) - judge.judged(ENGINE, state, ALICE)
    assert gained == pytest.approx(4 * judge.WEIGHTS["score"])


def test_a_game_that_is_over_is_judged_by_its_final_lead():
    state = position(RING, RING_CLOSER[0], pieces=[(ALICE, "gatherer", 1, 2, "f0")], scores=[3, 1])
    after, _ = ENGINE.apply(state, ALICE, ENGINE.legal_moves(state, ALICE)[0])
    assert ENGINE.is_over(after)
    final = after["scores"]
    assert judge.judged(ENGINE, after, ALICE) == final[ALICE] - final[BOB]
    assert judge.judged(ENGINE, after, BOB) == final[BOB] - final[ALICE]


def test_the_strong_bot_closes_a_forest_it_leads():
    state = position(RING, RING_CLOSER[0], pieces=[(ALICE, "gatherer", 1, 2, "f0")], stack=STACK)
    move = bot_move(ENGINE, "strong", state, ALICE, [], seed="ring")
    assert (move["x"], move["y"]) == (0, 2)


class Counting:
    """The engine, counting its applies (the bot's engine steps)."""

    def __init__(self) -> None:
        self.applied = 0

    def __getattr__(self, name):
        return getattr(ENGINE, name)

    def apply(self, state, seat, move):
        self.applied += 1
        return ENGINE.apply(state, seat, move)


@pytest.mark.parametrize("steps", [400, 20, 1])
def test_a_move_weighs_every_move_or_the_basic_bots_best_within_its_budget(monkeypatch, steps):
    monkeypatch.setattr(strong, "SETTINGS", Budget(steps=steps))
    state = position(RING, RING_CLOSER[0], stack=STACK * 3)
    moves = ENGINE.legal_moves(state, ALICE)
    view = ENGINE.view(state, ALICE)
    engine = Counting()
    choice = StrongBot(engine).choose(view, moves, [], random.Random(3))
    assert engine.applied == min(steps, len(moves)) and len(moves) > 20
    scores = strong.BASIC.scored(view, moves)
    weighed = sorted(scores, reverse=True)[: engine.applied]
    assert scores[moves.index(choice)] >= weighed[-1]  # among the basic bot's best ``steps``


def test_the_bot_plays_the_move_the_judge_likes_best(monkeypatch):
    monkeypatch.setattr(strong, "SETTINGS", Budget(steps=400))
    state = position(RING, "R-L62", stack=STACK * 3)
    moves = ENGINE.legal_moves(state, ALICE)
    world = ENGINE.sample_world(ENGINE.view(state, ALICE), [], ALICE, random.Random(0))
    worth = [judge.judged(ENGINE, ENGINE.apply(world, ALICE, move)[0], ALICE) for move in moves]
    choice = bot_move(ENGINE, "strong", state, ALICE, [], seed="best")
    assert worth[moves.index(choice)] == max(worth) and len(set(worth)) > 1


def test_the_same_seed_makes_the_same_move(monkeypatch):
    monkeypatch.setattr(strong, "SETTINGS", Budget(steps=400))
    state = position(RING, "R-L62", stack=STACK * 3)
    chosen = {repr(bot_move(ENGINE, "strong", state, ALICE, [], seed="same")) for _ in range(3)}
    assert len(chosen) == 1
