"""Halali! ``basic`` bot: captures by points, no tile left en prise for a bird, exits in the final phase."""

from __future__ import annotations

from collections import Counter

import pytest

import games
from games.bots import bot_move
from games.halali import board, tiles
from games.halali.bots import Position
from games.halali.engine import HalaliEngine

ENGINE = HalaliEngine()


def layout(placed: dict[str, str]) -> dict[str, str]:
    """Return a full layout with ``placed`` tiles; the other squares get the rest of the set (trees first)."""
    rest = Counter(tiles.full_set())
    for spec in placed.values():
        rest[tiles.parse_spec(spec)["kind"]] -= 1
    order = [kind for kind in (tiles.TREE, *tiles.KINDS) for _ in range(rest.pop(kind, 0))]
    squares = [board.name(i) for i in board.START_SQUARES if board.name(i) not in placed]
    assert len(order) == len(squares)
    filled = {square: (f"{kind}:N" if kind == tiles.HUNTER else kind) for square, kind in zip(squares, order)}
    return {**placed, **filled}


def start(placed: dict[str, str], flips: list[str]):
    """Set up leg 1 with seat 0 as Blue and turn ``flips`` over, the seats taking turns from Blue."""
    options = ENGINE.validate_options(2, {"layout": layout(placed), "first_blue": 0})
    state = ENGINE.setup(["blue", "brown"], options, "bots")
    history = []
    for square in flips:
        state, events = ENGINE.apply(state, state["current"], {"flip": square})
        history.extend(events)
    return state, history


def ask(state, history):
    return bot_move(ENGINE, "basic", state, state["current"], history, seed="bots")


def test_basic_takes_the_most_valuable_capture():
    state, history = start(
        {"c4": "hunter:E", "e4": "bear", "d5": "hunter:S", "d3": "fox"}, ["c4", "e4", "d5", "d3", "a7"]
    )
    assert state["current"] == 1  # Brown: c4 can shoot the Bear (10), d5 the Fox (5)
    moves = ENGINE.legal_moves(state, 1)
    assert {"from": "c4", "to": "e4"} in moves and {"from": "d5", "to": "d3"} in moves
    assert ask(state, history) == {"from": "c4", "to": "e4"}


def test_basic_does_not_take_a_duck_to_leave_its_fox_to_a_hunter():
    # The Hunter on c5 aims east at d5: a Fox taking the Duck there would be shot at once.
    state, history = start({"c5": "hunter:E", "d3": "fox", "d5": "duck"}, ["c5", "a7", "d3", "d5"])
    assert state["current"] == 0
    assert {"from": "d3", "to": "d5"} in ENGINE.legal_moves(state, 0)
    assert ask(state, history) != {"from": "d3", "to": "d5"}


def test_basic_takes_a_safe_capture():
    state, history = start({"d3": "fox", "d5": "duck"}, ["a7", "d5", "d3", "b7"])
    assert state["current"] == 0
    assert ask(state, history) == {"from": "d3", "to": "d5"}


def test_basic_leaves_through_an_exit_in_the_final_phase():
    # Every Blue tile is walled in by trees or its own kind; the Bear on d7 stands on the north exit.
    blue = {"a7": "fox", "b7": "fox", "a6": "fox", "b6": "fox", "f7": "fox", "g7": "fox", "d7": "bear", "g1": "bear"}
    walls = {square: "tree" for square in ("c7", "e7", "c6", "d6", "e6", "f6", "g6", "a5", "b5", "f1", "g2")}
    state, history = start({**blue, **walls}, [])
    for square in [board.name(i) for i in board.START_SQUARES]:
        state, events = ENGINE.apply(state, state["current"], {"flip": square})
        history.extend(events)
    assert state["phase"] == "final" and state["current"] == 0
    assert ask(state, history) == {"from": "d7", "to": "out", "exit": "N"}


def test_a_flip_is_scored_from_the_unrevealed_counts_only():
    state, _ = start({}, ["a7", "b7"])
    view = ENGINE.view(state, 0)
    position = Position(view)
    # Two face-down squares with the same public surroundings score the same, whatever lies under them.
    assert position.score({"flip": "a1"}) == position.score({"flip": "g1"})


@pytest.mark.parametrize("bots", [("basic", "basic"), ("basic", "random")])
def test_the_bots_play_whole_matches_with_legal_moves_under_the_flip_only_lock(bots):
    # The basic bot scores the legal moves it is handed and assumes no lock rule of its own (§10.1 option).
    engine = games.get_engine("halali")
    state = engine.setup(["a", "b"], engine.validate_options(2, {"lock_on_move": False}), "flip-only-1")
    history, unlocked_replies = [], 0
    for number in range(3000):
        if not engine.to_move(state):
            break
        seat = engine.to_move(state)[0]
        move = bot_move(engine, bots[seat], state, seat, history[-40:], seed=f"flip-only:{number}")
        assert move in engine.legal_moves(state, seat)
        last = state["last"]
        if last and last["kind"] == "moved" and move.get("from") == last["to"] and last["seat"] != seat:
            unlocked_replies += 1  # a bird the opponent just moved, moved again at once: the lock did not hold it
        state, events = engine.apply(state, seat, move)
        history.extend(events)
    assert engine.result(state) is not None
    assert unlocked_replies > 0
