"""Text notation: every move has one, it parses back, and players may write it loosely."""

from __future__ import annotations

import random

import pytest

from games.base import BadNotation
from games.carcassonne_hg import ENGINE

from . import ALICE, game, position

MEADOWS = [(0, 1, "R-L62", 0)]


def test_describe_move_parses_back_for_every_legal_move_of_random_positions():
    for seed in range(3):
        state = ENGINE.setup(["A", "B", "C"], {}, seed=seed)
        rng = random.Random(seed)
        for _ in range(25):
            (seat,) = ENGINE.to_move(state)
            legal = ENGINE.legal_moves(state, seat)
            for move in legal:
                assert ENGINE.parse_move(ENGINE.describe_move(state, move), state, seat) == move
            state, _ = ENGINE.apply(state, seat, rng.choice(legal))


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("place -1,0 r90", {"x": -1, "y": 0, "rot": 90}),
        ("PLACE -1,0 R90 NO MEEPLE", {"x": -1, "y": 0, "rot": 90}),
        ("-1, 0 rot 90 none", {"x": -1, "y": 0, "rot": 90}),
        ("place (-1,0) 90", {"x": -1, "y": 0, "rot": 90}),
        ("place -1,0 r90 hunter meadow S", {"x": -1, "y": 0, "rot": 90, "piece": "hunter", "region": "m2"}),
        ("place -1,0 r90 hunter on the meadow s.", {"x": -1, "y": 0, "rot": 90, "piece": "hunter", "region": "m2"}),
        ("place -1,0 r90 hunter S", {"x": -1, "y": 0, "rot": 90, "piece": "hunter", "region": "m2"}),
        ("place -1,0 r90 meadow NE", {"x": -1, "y": 0, "rot": 90, "piece": "hunter", "region": "m0"}),
        ("place -1,0 r90 gatherer forest W", {"x": -1, "y": 0, "rot": 90, "piece": "gatherer", "region": "f3"}),
        ("place -1,0 r90 fisher river", {"x": -1, "y": 0, "rot": 90, "piece": "fisherman", "region": "r1"}),
        ("place -1,0 r90 fishing hut on the lake", {"x": -1, "y": 0, "rot": 90, "piece": "hut", "region": "l8"}),
        ("place -1,0 r90 hut", {"x": -1, "y": 0, "rot": 90, "piece": "hut", "region": "l8"}),
        ("place -1,0 r90 hunter m2", {"x": -1, "y": 0, "rot": 90, "piece": "hunter", "region": "m2"}),
    ],
)
def test_loose_spellings_read_as_the_same_move(text, move):
    state = game(["R-L00"])
    assert ENGINE.parse_move(text, state, ALICE) == move


def test_the_shaman_recall_is_written_before_the_deployment():
    state = position(MEADOWS, "R-B88-shaman", pieces=[(ALICE, "hunter", 0, 1, "m0")], bonus_turn=True)
    move = {"x": -1, "y": 0, "rot": 0, "recall": {"x": 0, "y": 1}, "piece": "hunter", "region": "m2"}
    assert ENGINE.describe_move(state, move) == "place -1,0 r0 recall 0,1 hunter meadow NE"
    assert ENGINE.parse_move("Place -1,0 r0 recall 0,1 then hunter meadow NE", state, ALICE) == move
    assert ENGINE.parse_move("place -1,0 r0 recall 0,1", state, ALICE) == {
        "x": -1,
        "y": 0,
        "rot": 0,
        "recall": {"x": 0, "y": 1},
    }


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "Write a move"),
        ("pass", "There is no pass"),
        ("place here", "the square as x,y"),
        ("place 1,0 r45", "rotation"),
        ("place -1,0 r90 hunter meadow", "Which one?"),
        ("place -1,0 r90 hunter meadow Q", "Unknown side"),
        ("place -1,0 r90 gatherer meadow", "A gatherer goes on a forest"),
        ("place -1,0 r90 gatherer forest S", "no forest like that"),
        ("place -1,0 r90 wizard", "Say which piece"),
    ],
)
def test_unreadable_text_is_refused_with_a_hint(text, reason):
    state = game(["R-L00"])
    with pytest.raises(BadNotation) as error:
        ENGINE.parse_move(text, state, ALICE)
    assert reason in error.value.reason


def test_notation_help_mentions_every_part_of_a_move():
    text = ENGINE.notation_help()
    for word in ("place", "r90", "gatherer", "fisherman", "hunter", "hut", "recall", "no meeple", "N E S W"):
        assert word in text
