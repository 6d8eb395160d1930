"""A game stored by engine version 1 (board entries without feature labels) goes on under version 2 (issue 11).

``v1_states.json`` holds states written by version 1 itself, with the seed and moves that made them
and a digest of every seat's view of each: the upcast state must equal the replay of those moves
under version 2, show every seat exactly what version 1 showed, and play on. (Version 1's views
carried the drawings of the tiles in use as ``art`` and each board entry as a dict; views now name
the asset holding every drawing, ``art_asset``, and list each entry's fields, and the comparison
puts both back as they were.)
"""

from __future__ import annotations

import copy
import hashlib
import json
from pathlib import Path

import pytest

from games.carcassonne_hg import ENGINE
from games.carcassonne_hg.upcast import VERSION, upcast

GAMES = json.loads((Path(__file__).parent / "v1_states.json").read_text())["games"]
STORED = [(game, key) for game in GAMES for key in game["states"]]
IDS = [f"{game['seed']}-move{key}" for game, key in STORED]


def replay(game: dict, moves: int) -> dict:
    state = ENGINE.setup(game["players"], game["options"], game["seed"])
    for seat, move in game["moves"][:moves]:
        state, _ = ENGINE.play(state, seat, move)
    return state


def digest(value) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True).encode()).hexdigest()[:16]


def as_version_1_showed_it(view: dict) -> dict:
    """Return a view in version 1's shape: the drawings of its tiles inline, as ``art``, instead of the
    asset's name, and each board entry as ``{x, y, tile, rot, placed_by}`` instead of a list."""
    drawings = ENGINE.assets()[view["art_asset"]]
    used = [tile_id for _, _, tile_id, *_ in view["board"]] + ([view["tile"]] if view["tile"] else [])
    shown = {key: value for key, value in view.items() if key != "art_asset"}
    board = [dict(zip(("x", "y", "tile", "rot", "placed_by"), entry)) for entry in view["board"]]
    return {**shown, "board": board, "art": {tile_id: drawings[tile_id] for tile_id in used}}


def test_the_engine_is_version_2():
    assert ENGINE.version == VERSION == 2


@pytest.mark.parametrize(("game", "key"), STORED, ids=IDS)
def test_a_version_1_state_upcasts_to_the_replay_of_its_moves(game, key):
    old = game["states"][key]
    assert all(len(entry) == 5 for entry in old["board"]), "the fixture holds the old shape"
    untouched = copy.deepcopy(old)
    assert upcast(old) == replay(game, int(key))
    assert old == untouched


@pytest.mark.parametrize(("game", "key"), STORED, ids=IDS)
def test_every_seat_sees_a_version_1_state_as_version_1_showed_it(game, key):
    old = game["states"][key]
    seats = [None, *range(len(game["players"]))]
    assert [digest(as_version_1_showed_it(ENGINE.view(old, seat))) for seat in seats] == game["views"][key]
    seat = ENGINE.to_move(old)[0]
    assert ENGINE.legal_moves(old, seat) == ENGINE.legal_moves(replay(game, int(key)), seat)


@pytest.mark.parametrize(("game", "key"), STORED, ids=IDS)
def test_a_version_1_game_plays_on(game, key):
    state = game["states"][key]
    for seat, move in game["moves"][int(key):]:
        state, _ = ENGINE.play(state, seat, move)
    assert upcast(state) == replay(game, len(game["moves"]))


def test_a_current_state_is_left_as_it_is():
    state = ENGINE.setup(["Ann", "Ben"], {}, "current")
    assert upcast(state) is state
