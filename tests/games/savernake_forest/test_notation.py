"""Text notation: every move has a short form that parses back to it (rules file §5.2, issue 7)."""

from __future__ import annotations

import random

import pytest

from games.base import BadNotation
from games.savernake_forest import ENGINE

from . import ALICE, animal, deal, path, with_forest

TWO = ["AN01", "AN02"]


def parse(text: str, state: dict | None = None) -> dict:
    state = deal(TWO, [("ST07", "CU12", "CU05", "AN06")]) if state is None else state
    return ENGINE.parse_move(text, state, ALICE)


@pytest.mark.parametrize(
    ("text", "move"),
    [
        (
            "take goat 1,0 r90 keep AN06 drop AN05 W",
            {"slot": "goat", "x": 1, "y": 0, "rot": 1, "keep": ["AN06"], "token": {"animal": "AN05", "food": "W"}},
        ),
        (
            "take armadillo -1,2 r0 burrow AN05",
            {"slot": "armadillo", "x": -1, "y": 2, "rot": 0, "token": {"animal": "AN05"}},
        ),
        ("take rooster 1,1 r270", {"slot": "rooster", "x": 1, "y": 1, "rot": 3}),
        ("take rabbit 0,1 r180 keep AN06,AN09", {"slot": "rabbit", "x": 0, "y": 1, "rot": 2, "keep": ["AN06", "AN09"]}),
    ],
)
def test_the_documented_forms_parse(text, move):
    assert parse(text) == move
    assert ENGINE.describe_move(deal(TWO), move) == text


def goat(x: int, y: int, rot: int, animal: str, food: str) -> dict:
    return {"slot": "goat", "x": x, "y": y, "rot": rot, "token": {"animal": animal, "food": food}}


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("TAKE GOAT 1,0 R90 DROP an05 w", goat(1, 0, 1, "AN05", "W")),
        ("Take goat at (1, 0) 90° water hedgehog worms", goat(1, 0, 1, "AN05", "W")),
        ("goat 1,0 r 180 drop eggs fox", goat(1, 0, 2, "AN01", "E")),
        ("take CU12 -1,0 rot90 drop fox acorns", goat(-1, 0, 1, "AN01", "N")),
        ("take an06 0,+1", {"slot": "rabbit", "x": 0, "y": 1, "rot": 0}),
        ("t arm 0,-1 burrow Wild Boar", {"slot": "armadillo", "x": 0, "y": -1, "rot": 0, "token": {"animal": "AN14"}}),
        ("ra 2,0 r270 keep owl, pine-marten", {"slot": "rabbit", "x": 2, "y": 0, "rot": 3, "keep": ["AN06", "AN15"]}),
        ("take roo 0,-1 r0", {"slot": "rooster", "x": 0, "y": -1, "rot": 0}),
    ],
)
def test_case_aliases_and_spacing_are_forgiven(text, move):
    assert parse(text) == move


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "Write a move"),
        ("take", "Write a move"),
        ("take owl 1,0", "Unknown slot"),
        ("take r 1,0", "could be rooster or rabbit"),
        ("take goat", "Give the cell"),
        ("take goat r90", "Give the cell"),
        ("take goat 1,0 r45", "r0, r90, r180 or r270"),
        ("take goat 1,0 r90 drop AN05", "A drop names an animal and a food"),
        ("take goat 1,0 r90 drop W", "Name one animal after drop"),
        ("take armadillo 1,0 r90 burrow AN05 W", "A burrow names only the animal"),
        ("take goat 1,0 r90 keep", "Write keep once"),
        ("take goat 1,0 r90 keep unicorn", "Unknown animal 'unicorn'"),
        ("take goat 1,0 r90 drop AN05 W burrow AN05", "at most one token"),
        ("take goat 1,0 r90 jump", "Cannot read 'jump'"),
        ("take ST01 1,0", "ST01 is not in the market"),
    ],
)
def test_unreadable_text_raises_bad_notation_with_a_reason(text, reason):
    with pytest.raises(BadNotation, match=reason):
        parse(text)


def test_non_text_is_bad_notation():
    with pytest.raises(BadNotation):
        ENGINE.parse_move(None, deal(TWO), ALICE)


def test_every_legal_move_including_keeps_and_tokens_round_trips():
    state = deal(TWO, [(None, "DC12", None, "AN06")], shared_path_resolution="immediate")
    state = with_forest(state, ALICE, [animal("AN01", 0, 0, 1), path("ST07", 1, 0, 1), animal("AN05", 0, 1)])
    moves = ENGINE.legal_moves(state, ALICE)
    assert any("keep" in m for m in moves) and any("food" in m.get("token", {}) for m in moves)
    for move in moves:
        text = ENGINE.describe_move(state, move)
        assert ENGINE.parse_move(text, state, ALICE) == move
        assert ENGINE.parse_move(text.upper(), state, ALICE) == move


def test_random_games_round_trip_their_moves():
    state = ENGINE.setup(["A", "B", "C"], {}, seed=3)
    rng = random.Random(3)
    for _ in range(20):
        (seat,) = ENGINE.to_move(state)
        move = rng.choice(ENGINE.legal_moves(state, seat))
        assert ENGINE.parse_move(ENGINE.describe_move(state, move), state, seat) == move
        state, _ = ENGINE.apply(state, seat, move)


def test_notation_help_explains_every_part():
    text = ENGINE.notation_help()
    for word in ("rooster", "goat", "armadillo", "rabbit", "keep", "drop", "burrow", "r90", "x grows east"):
        assert word in text
