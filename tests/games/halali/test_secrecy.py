"""Hidden information: a face-down tile's kind and rifle direction leave the engine nowhere (§10.10).

Two layouts that differ only in tiles still face down must give every viewer
identical views, events, legal moves, move notation, history lines and error
texts.
"""

from __future__ import annotations

import json
import random

import pytest

from games.base import IllegalMove
from games.halali import ENGINE, board, tiles

from . import LAYOUT, NAMES

VIEWERS = (None, 0, 1)


def swapped_layout() -> tuple[list[str], set[str]]:
    """Return LAYOUT with a bear/tree swap and a hunter turned round, and the squares that differ."""
    other = list(LAYOUT)
    bear, tree, hunter = other.index("bear"), other.index("tree"), other.index("hunter:N")
    other[bear], other[tree] = other[tree], other[bear]
    other[hunter] = "hunter:S"
    secret = {board.name(board.START_SQUARES[i]) for i in (bear, tree, hunter)}
    return other, secret


def fingerprint(state: dict) -> str:
    """Return everything any viewer can learn from ``state``, as one JSON text."""
    seats = ENGINE.to_move(state)
    moves = {seat: ENGINE.legal_moves(state, seat) for seat in (0, 1)}
    return json.dumps(
        {
            "views": [ENGINE.view(state, viewer) for viewer in VIEWERS],
            "to_move": seats,
            "moves": moves,
            "texts": {seat: [ENGINE.describe_move(state, m) for m in moves[seat]] for seat in (0, 1)},
            "result": ENGINE.result(state),
        },
        sort_keys=True,
    )


def errors(state: dict) -> list[str]:
    """Return the error text of trying to move every face-down tile and onto every face-down square."""
    seat = ENGINE.to_move(state)[0]
    found = []
    for square in [board.name(i) for i, c in enumerate(state["board"]) if c and not c["up"]]:
        for attempt in ({"from": square, "to": "d4"}, {"from": "d4", "to": square}, {"from": square, "to": "out"}):
            try:
                ENGINE.apply(state, seat, attempt)
                found.append("ok")
            except IllegalMove as error:
                found.append(error.reason)
    return found


def events_json(events) -> str:
    lines = [[ENGINE.describe_event(e, NAMES, viewer) for viewer in VIEWERS] for e in events]
    return json.dumps([[e.to_json() for e in events], lines], sort_keys=True)


@pytest.mark.parametrize("seed", range(4))
def test_two_layouts_differing_only_in_face_down_tiles_look_identical_to_everyone(seed):
    other, secret = swapped_layout()
    a = ENGINE.setup(NAMES, {"layout": LAYOUT, "first_blue": 0}, seed="s")
    b = ENGINE.setup(NAMES, {"layout": other, "first_blue": 0}, seed="s")
    assert a != b
    rng = random.Random(seed)
    for _ in range(120):
        assert fingerprint(a) == fingerprint(b)
        assert errors(a) == errors(b)
        (seat,) = ENGINE.to_move(a)
        choices = [m for m in ENGINE.legal_moves(a, seat) if m.get("flip") not in secret]
        move = rng.choice(choices)
        a, events_a = ENGINE.apply(a, seat, move)
        b, events_b = ENGINE.apply(b, seat, move)
        assert events_json(events_a) == events_json(events_b)
    assert {square for square in secret if not a["board"][board.index(square)]["up"]} == secret


def perturbed(state: dict, rng: random.Random) -> dict:
    """Return a copy with every face-down tile reshuffled among the face-down squares, hunters re-aimed."""
    other = json.loads(json.dumps(state))
    hidden = [i for i, c in enumerate(other["board"]) if c and not c["up"]]
    kinds = [other["board"][i]["kind"] for i in hidden]
    rng.shuffle(kinds)
    for i, kind in zip(hidden, kinds):
        cell = {"kind": kind, "up": False}
        if kind == tiles.HUNTER:
            cell["dir"] = rng.choice(tiles.DIRECTIONS)
        other["board"][i] = cell
    return other


@pytest.mark.parametrize("seed", range(3))
def test_over_whole_random_games_hidden_tiles_never_change_what_anyone_sees(seed):
    rng = random.Random(seed)
    state = ENGINE.setup(NAMES, {}, seed=f"secret-{seed}")
    while not ENGINE.is_over(state):
        twin = perturbed(state, rng)
        assert fingerprint(twin) == fingerprint(state)
        for viewer in VIEWERS:
            view = ENGINE.view(state, viewer)
            assert f"secret-{seed}" not in json.dumps(view)
            assert not {"board", "seed", "layout", "piles_hidden"} & set(view)
            assert all(isinstance(square, str) for square in view["face_down"])
            assert not set(view["face_down"]) & {tile["square"] for tile in view["tiles"]}
        (seat,) = ENGINE.to_move(state)
        move = rng.choice(ENGINE.legal_moves(state, seat))
        after, events = ENGINE.apply(state, seat, move)
        if "flip" not in move:
            twin_after, twin_events = ENGINE.apply(twin, seat, move)
            assert events_json(twin_events) == events_json(events)
            if after["leg"] == state["leg"]:
                assert fingerprint(twin_after) == fingerprint(after)
        state = after


def test_every_event_is_public_and_a_flip_reveals_only_the_flipped_tile():
    state = ENGINE.setup(NAMES, {"layout": LAYOUT, "first_blue": 0}, seed=3)
    state, events = ENGINE.apply(state, 0, {"flip": "a7"})
    assert [e.visible_to for e in events] == [None]
    text = json.dumps([e.to_json() for e in events])
    assert "a7" in text and sum(text.count(kind) for kind in tiles.KINDS) == 1


def test_unrevealed_counts_come_from_public_facts_only():
    state = ENGINE.setup(NAMES, {"layout": LAYOUT, "first_blue": 0}, seed=3)
    assert ENGINE.view(state, 0)["unrevealed"] == tiles.COUNTS
    state, _ = ENGINE.apply(state, 0, {"flip": "a7"})  # a bear
    assert ENGINE.view(state, 1)["unrevealed"]["bear"] == 1
