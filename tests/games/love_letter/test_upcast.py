"""A game stored by engine version 1 (a round log in the state) goes on under version 2 (issue 11).

``v1_states.json`` holds states written by version 1 itself, with the seed and moves that made them
and a digest of every seat's view of each (without the card tracker, which since issue 12 counts only
public cards and the viewer's own hand): the upcast state must equal the replay of those moves under
version 2, show every seat exactly what version 1 showed, and play on. Version 1's views carried each
private log entry's English line (``text``); views hold no words since, so the check words each
entry in English again, as version 1 did, before taking the digest.
"""

from __future__ import annotations

import copy
import hashlib
import json
from pathlib import Path

import pytest

from games.i18n import in_english
from games.love_letter import ENGINE
from games.love_letter.player_view import private_lines
from games.love_letter.upcast import VERSION, upcast

GAMES = json.loads((Path(__file__).parent / "v1_states.json").read_text())["games"]
STORED = [(game, key) for game in GAMES for key in game["states"]]
IDS = [f"{game['seed']}-move{key}" for game, key in STORED]


def replay(game: dict, moves: int) -> dict:
    state = ENGINE.setup(game["players"], game["options"], game["seed"])
    for seat, move in game["moves"][:moves]:
        state, _ = ENGINE.play(state, seat, move)
    return state


def as_version_1_showed_it(view: dict) -> dict:
    """Return the view without what issue 12 changed (the tracker, the new ``last_play``), each private entry worded.

    Version 1 sent each private log entry's English line as its ``text``; the view no longer holds words.
    """
    shown = {key: value for key, value in view.items() if key not in ("tracker", "last_play")}
    with in_english():
        lines = private_lines(view)
    shown["private_log"] = [{**entry, "text": line["text"]} for entry, line in zip(view["private_log"], lines)]
    return shown


def digest(value) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True).encode()).hexdigest()[:16]


def test_the_engine_is_version_2():
    assert ENGINE.version == VERSION == 2


@pytest.mark.parametrize(("game", "key"), STORED, ids=IDS)
def test_a_version_1_state_upcasts_to_the_replay_of_its_moves(game, key):
    old = game["states"][key]
    assert "log" in old, "the fixture holds the old shape"
    untouched = copy.deepcopy(old)
    assert upcast(old) == replay(game, int(key))
    assert old == untouched


@pytest.mark.parametrize(("game", "key"), STORED, ids=IDS)
def test_every_seat_sees_a_version_1_state_as_version_1_showed_it(game, key):
    old = game["states"][key]
    seats = [None, *range(len(game["players"]))]
    assert [digest(as_version_1_showed_it(ENGINE.view(old, seat))) for seat in seats] == game["views"][key]
    assert ENGINE.result(old) == ENGINE.result(replay(game, int(key)))


@pytest.mark.parametrize(("game", "key"), STORED, ids=IDS)
def test_a_version_1_game_plays_on(game, key):
    state = game["states"][key]
    for seat, move in game["moves"][int(key):]:
        assert move in ENGINE.legal_moves(state, seat) or move == {"resign": True}
        state, _ = ENGINE.play(state, seat, move)
    assert upcast(state) == replay(game, len(game["moves"]))  # the same object once a move was played


def test_a_current_state_is_left_as_it_is():
    state = ENGINE.setup(["Ann", "Ben"], {}, "current")
    assert upcast(state) is state
