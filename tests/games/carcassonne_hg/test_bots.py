"""The Carcassonne bots: ``basic`` scores what it leads, deploys where it pays, stays legal and sees only its view."""

from __future__ import annotations

import json
import random

import pytest

from games.bots import bot_move
from games.carcassonne_hg import ENGINE
from games.carcassonne_hg.bots import BasicBot, Position
from games.carcassonne_hg.strong import StrongBot

from . import ALICE, RING, RING_CLOSER, game, position


def choose(state: dict, seed: int = 0) -> dict:
    """Ask ``BasicBot`` for the move of the seat to move, with JSON copies of its view and legal moves only."""
    seat = ENGINE.to_move(state)[0]
    view = json.loads(json.dumps(ENGINE.view(state, seat)))
    moves = ENGINE.legal_moves(state, seat)
    choice = BasicBot().choose(view, json.loads(json.dumps(moves)), [], random.Random(seed))
    assert choice in moves
    return choice


def test_basic_closes_a_forest_it_leads():
    # Alice's gatherer holds the forest ring north of the start; R-L38 on 0,2 closes it (14 points).
    state = position(RING, RING_CLOSER[0], pieces=[(ALICE, "gatherer", 1, 2, "f0")], stack=["R-L62"], bonus=[])
    for seed in range(3):
        move = choose(state, seed)
        assert (move["x"], move["y"]) == (0, 2)
        after, _ = ENGINE.apply(state, ALICE, move)
        assert after["scores"][ALICE] >= 14


def test_basic_deploys_a_gatherer_on_the_forest_its_tile_closes():
    # Nobody holds the ring: a gatherer on the closing tile scores it at once and comes straight home.
    state = position(RING, RING_CLOSER[0], stack=["R-L62", "R-L61"], bonus=[])
    move = choose(state)
    assert (move["x"], move["y"], move.get("piece"), move.get("region")) == (0, 2, "gatherer", "f1")


def test_basic_does_not_close_an_opponents_forest_for_nothing():
    # Bob holds the ring: closing it would hand him 14 points, so Alice plays her tile elsewhere.
    state = position(RING, RING_CLOSER[0], pieces=[(1, "gatherer", 1, 2, "f0")], stack=["R-L62"], bonus=[])
    move = choose(state)
    assert (move["x"], move["y"]) != (0, 2)


@pytest.mark.parametrize("stack", [[], ["R-L62", "R-L35", "R-L36", "R-L51", "R-L76", "R-L24", "R-L53", "R-L08"]])
def test_basic_puts_a_hunter_on_a_rich_meadow(stack):
    # R-L61 (all meadow, a mammoth) fits only north of the start, joining the start's aurochs meadow.
    state = position([], "R-L61", stack=stack)
    move = choose(state)
    assert (move["x"], move["y"], move.get("piece")) == (0, 1, "hunter")
    if not stack:
        after, _ = ENGINE.apply(state, ALICE, move)
        assert after["phase"] == "over" and after["scores"][ALICE] == 2 + 3


def play(bots: list[str], seed: str, options: dict) -> dict:
    """Play a whole game through ``bot_move``; every choice must be a legal move."""
    state = ENGINE.setup([f"p{seat}" for seat in range(len(bots))], ENGINE.validate_options(len(bots), options), seed)
    history = []
    while ENGINE.to_move(state):
        seat = ENGINE.to_move(state)[0]
        move = bot_move(ENGINE, bots[seat], state, seat, history, seed=seed)
        assert move in ENGINE.legal_moves(state, seat)
        state, events = ENGINE.apply(state, seat, move)
        history.extend(events)
    return ENGINE.result(state)


@pytest.mark.parametrize(
    ("players", "edition"), [(2, "revised"), (3, "classic"), (4, "revised"), (2, "classic"), (3, "revised")]
)
def test_basic_plays_whole_games_with_legal_moves(players, edition):
    bots = ["basic" if seat % 2 == 0 else "random" for seat in range(players)]
    result = play(bots, f"bots-{players}-{edition}", {"edition": edition})
    assert result["winners"]


def test_the_engine_offers_random_basic_and_strong():
    assert set(ENGINE.bots()) == {"random", "basic", "strong"}
    assert isinstance(ENGINE.bots()["basic"], BasicBot)
    assert isinstance(ENGINE.bots()["strong"], StrongBot)


def test_two_games_differing_only_in_the_stack_order_get_the_same_choices():
    first = ["R-L35", "R-L36", "R-L51", "R-L76", "R-L24", "R-L38", "R-L61", "R-L53", "R-L08", "R-L62"]
    second = first[:5] + list(reversed(first[5:]))
    assert first != second
    chosen = []
    for stack in (first, second):
        state = game(stack, seed="same")
        history, moves = [], []
        for _ in range(5):  # the first five tiles are the same in both stacks
            seat = ENGINE.to_move(state)[0]
            move = bot_move(ENGINE, "basic", state, seat, history, seed="same")
            moves.append(move)
            state, events = ENGINE.apply(state, seat, move)
            history.extend(events)
        chosen.append(moves)
    assert chosen[0] == chosen[1]


def test_basic_is_quick_even_on_the_shaman_tile(monkeypatch):
    # Mid-game with pieces out, the shaman multiplies the placements by the members it may recall. What keeps the
    # bot quick is counted, not timed (a shared machine's clock is no budget): one evaluation of the board per
    # placement (x, y, rotation, recall), never one per move, whatever pieces each placement may take.
    state = ENGINE.setup(["a", "b", "c"], ENGINE.validate_options(3, {}), "shaman-speed")
    rng = random.Random(5)
    while len(state["board"]) < 40:
        seat = ENGINE.to_move(state)[0]
        moves = ENGINE.legal_moves(state, seat)
        with_piece = [m for m in moves if "piece" in m and m["piece"] != "hut"]
        state, _ = ENGINE.apply(state, seat, rng.choice(with_piece or moves))
    state = dict(state, tile="R-B88-shaman", bonus=True)
    seat = ENGINE.to_move(state)[0]
    moves = ENGINE.legal_moves(state, seat)
    assert len(moves) > 100 and any("recall" in m for m in moves)
    evaluated = []
    real = Position.placement_scores

    def counted(self, *args, **kwargs):
        evaluated.append(args[:4])
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Position, "placement_scores", counted)
    choose(state)
    placements = {(m["x"], m["y"], m["rot"], None if m.get("recall") is None else (m["recall"]["x"], m["recall"]["y"]))
                  for m in moves}
    assert len(evaluated) == len(placements) < len(moves)
