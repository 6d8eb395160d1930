"""Hidden information: the order of both stacks leaves the engine nowhere; the drawn tile is public.

Two games that differ only in the stacks beyond the tiles already drawn must
give every viewer identical views, legal moves, notation, results and events.
"""

from __future__ import annotations

import json
import random

import pytest

from games.carcassonne_hg import ENGINE, tiles

from . import NAMES

VIEWERS = (None, 0, 1, 2)


def fingerprint(state: dict) -> str:
    """Return everything any viewer can learn from ``state``, as one JSON text."""
    moves = {seat: ENGINE.legal_moves(state, seat) for seat in range(3)}
    return json.dumps(
        {
            "views": [ENGINE.view(state, viewer) for viewer in VIEWERS],
            "to_move": ENGINE.to_move(state),
            "moves": moves,
            "texts": {seat: [ENGINE.describe_move(state, m) for m in moves[seat]] for seat in moves},
            "result": ENGINE.result(state),
        },
        sort_keys=True,
    )


def events_json(events) -> str:
    lines = [[ENGINE.describe_event(e, NAMES[:3], viewer) for viewer in VIEWERS] for e in events]
    return json.dumps([[e.to_json() for e in events], lines], sort_keys=True)


def stacks(seed: int, shared: int) -> tuple[list[str], list[str]]:
    """Return two full land stacks with the same first ``shared`` tiles and different orders after them."""
    rng = random.Random(seed)
    land = tiles.deck("revised", "land")
    rng.shuffle(land)
    head, tail = land[:shared], land[shared:]
    other = list(tail)
    while other == tail:
        rng.shuffle(other)
    return head + tail, head + other


@pytest.mark.parametrize("seed", range(3))
def test_games_differing_only_in_the_hidden_land_stack_look_identical_until_a_tile_differs(seed):
    shared = 12
    one, two = stacks(seed, shared)
    bonus = tiles.deck("revised", "bonus")
    a = ENGINE.setup(NAMES[:3], {"tiles": one, "bonus_tiles": bonus, "first_player": 0}, seed="s")
    b = ENGINE.setup(NAMES[:3], {"tiles": two, "bonus_tiles": bonus, "first_player": 0}, seed="s")
    assert a["stack"] != b["stack"]
    rng = random.Random(seed)
    # Identical while the drawn tiles agree (the next draw comes from the shared head).
    while len(a["stack"]) > len(one) - shared and not ENGINE.is_over(a):
        assert fingerprint(a) == fingerprint(b)
        (seat,) = ENGINE.to_move(a)
        move = rng.choice(ENGINE.legal_moves(a, seat))
        a, events_a = ENGINE.apply(a, seat, move)
        b, events_b = ENGINE.apply(b, seat, move)
        if a["tile"] == b["tile"]:
            assert events_json(events_a) == events_json(events_b)


@pytest.mark.parametrize("seed", range(2))
def test_over_whole_games_reshuffling_the_hidden_stacks_never_changes_what_anyone_sees(seed):
    rng = random.Random(seed)
    state = ENGINE.setup(NAMES[:3], {}, seed=f"secret-{seed}")
    while not ENGINE.is_over(state):
        twin = json.loads(json.dumps(state))
        rng.shuffle(twin["stack"])
        rng.shuffle(twin["bonus_stack"])
        assert fingerprint(twin) == fingerprint(state)
        for viewer in VIEWERS:
            view = ENGINE.view(state, viewer)
            text = json.dumps(view)
            assert f"secret-{seed}" not in text
            assert not {"stack", "bonus_stack", "seed"} & set(view)
            assert view["stack_count"] == len(state["stack"])
            assert view["tile"] == state["tile"]  # the drawn tile is public
        (seat,) = ENGINE.to_move(state)
        state, _ = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_moves(state, seat)))


def test_every_event_is_public():
    state = ENGINE.setup(NAMES[:2], {}, seed=5)
    rng = random.Random(5)
    while not ENGINE.is_over(state):
        (seat,) = ENGINE.to_move(state)
        state, events = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_moves(state, seat)))
        assert all(event.visible_to is None for event in events)
        for event in events:
            if event.kind == "tile_drawn":
                assert set(event.data) == {"seat", "tile", "bonus", "left"}


def test_the_scripted_order_is_not_in_the_view_options():
    state = ENGINE.setup(NAMES[:2], {"tiles": ["R-L62", "R-L61"], "bonus_tiles": []}, seed=1)
    options = ENGINE.view(state, 0)["options"]
    assert "tiles" not in options and "bonus_tiles" not in options and "R-L61" not in json.dumps(ENGINE.view(state, 0))
