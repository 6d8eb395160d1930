"""Text notation and move objects: parse_move, describe_move, notation_help and move normalisation."""

from __future__ import annotations

import random

import pytest

from games.base import BadNotation, IllegalMove
from games.halali import ENGINE

from . import ALICE, act, picture, position


@pytest.fixture
def state():
    return position(picture({"c5": "F", "c2": "D", "a1": "t"}))


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("flip c5", {"flip": "c5"}),
        ("FLIP C5", {"flip": "c5"}),
        ("turn over b2", {"flip": "b2"}),
        ("  c5 ", {"flip": "c5"}),
        ("c5-c2", {"from": "c5", "to": "c2"}),
        ("C5XC2", {"from": "c5", "to": "c2"}),
        ("c5 x c2", {"from": "c5", "to": "c2"}),
        ("c5 c2", {"from": "c5", "to": "c2"}),
        ("c5 to c2", {"from": "c5", "to": "c2"}),
        ("c5–c2", {"from": "c5", "to": "c2"}),
        ("d7 out", {"from": "d7", "to": "out", "exit": "N"}),
        ("D7 Out", {"from": "d7", "to": "out", "exit": "N"}),
        ("a4 out", {"from": "a4", "to": "out", "exit": "W"}),
        ("g4 exit", {"from": "g4", "to": "out", "exit": "E"}),
        ("d1-out", {"from": "d1", "to": "out", "exit": "S"}),
        ("d5 out n", {"from": "d5", "to": "out", "exit": "N"}),
        ("d5 out North", {"from": "d5", "to": "out", "exit": "N"}),
        ("d5 out d1", {"from": "d5", "to": "out", "exit": "S"}),
        ("a4 out E", {"from": "a4", "to": "out", "exit": "E"}),
        ("pass", {"pass": True}),
        ("PASS", {"pass": True}),
    ],
)
def test_parse_move_reads_the_notation(state, text, move):
    assert ENGINE.parse_move(text, state, ALICE) == move


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "Write a move"),
        ("h1-h2", "No such square"),
        ("c8", "No such square"),
        ("flip", "Cannot read"),
        ("jump c5", "Cannot read"),
        ("d5 out", "Name the exit"),
        ("d5 out up", "Unknown exit 'up'"),
        ("c5-c2-c1", "Cannot read"),
    ],
)
def test_parse_move_explains_unreadable_text(state, text, reason):
    with pytest.raises(BadNotation, match=reason):
        ENGINE.parse_move(text, state, ALICE)


def test_describe_move_writes_the_canonical_forms(state):
    assert ENGINE.describe_move(state, {"flip": "a1"}) == "flip a1"
    assert ENGINE.describe_move(state, {"from": "c5", "to": "c3"}) == "c5-c3"
    assert ENGINE.describe_move(state, {"from": "c5", "to": "c2"}) == "c5xc2"  # onto a face-up tile
    assert ENGINE.describe_move(state, {"from": "a2", "to": "a1"}) == "a2-a1"  # a face-down tile: never an x
    assert ENGINE.describe_move(state, {"from": "d7", "to": "out", "exit": "N"}) == "d7 out"
    assert ENGINE.describe_move(state, {"from": "d5", "to": "out", "exit": "S"}) == "d5 out S"
    assert ENGINE.describe_move(state, {"pass": True}) == "pass"


@pytest.mark.parametrize("seed", range(6))
def test_every_legal_move_of_random_play_round_trips_through_notation(seed):
    rng = random.Random(seed)
    state = ENGINE.setup(["Alice", "Bob"], {"exits_anytime": seed % 2 == 0}, seed=seed)
    while not ENGINE.is_over(state):
        (seat,) = ENGINE.to_move(state)
        moves = ENGINE.legal_moves(state, seat)
        for move in moves:
            text = ENGINE.describe_move(state, move)
            assert ENGINE.parse_move(text, state, seat) == move, text
            assert ENGINE.parse_move(text.upper(), state, seat) == move, text
        state, _ = ENGINE.apply(state, seat, rng.choice(moves))


def test_apply_accepts_move_objects_case_insensitively_and_an_exit_square_without_exit():
    state = position(picture({"d7": "B", "c3": "F", "a1": "HN"}))
    _, events = act(state, {"from": "D7", "to": "OUT"})
    assert events[0].data["exit"] == "N"
    with pytest.raises(IllegalMove, match="Say which exit"):
        act(state, {"from": "c3", "to": "out"})


@pytest.mark.parametrize(
    ("move", "reason"),
    [
        ("flip c5", "JSON object"),
        ({"flip": "z9"}, "square from a1 to g7"),
        ({"flip": 3}, "square from a1 to g7"),
        ({"from": "c5"}, "A move is"),
        ({"from": "c5", "to": "c2", "exit": "N"}, "Only a move"),
        ({"from": "d7", "to": "out", "exit": "up"}, "exit must be"),
        ({"pass": False}, "pass is written"),
        ({"card": "guard"}, "A move is"),
    ],
)
def test_malformed_move_objects_raise_illegal_move(state, move, reason):
    with pytest.raises(IllegalMove, match=reason):
        ENGINE.apply(state, ALICE, move)


def test_notation_help_covers_every_form():
    text = ENGINE.notation_help()
    for form in ("flip c5", "c5-c2", "c5xc2", "d7 out", "d5 out N", "pass"):
        assert form in text
