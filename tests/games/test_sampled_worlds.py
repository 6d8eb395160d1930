"""The worlds a search bot plays in (``Engine.sample_world``), checked for every installed game (issue 48).

For seeded random games, at spread-out moves, for every seat: the world drawn from the seat's view and the events
it may see gives that seat the very same view back, the same seat to move and the same legal moves, and plays on
to the end; it is the same for the same rng, whatever the real hidden cards were (two real states the seat cannot
tell apart give the same worlds: the drawer is handed nothing else); and it leaves the view it was given as it was.
Each game's own tests (``tests/games/<game>/test_worlds.py``) check that the hidden cards or tiles are spread as the
known counts say, with scripted positions.
"""

from __future__ import annotations

import copy
import json
import random

import pytest

import games
from games.base import Engine

ENGINES = [engine for engine in games.engines().values()
           if type(engine).sample_world is not Engine.sample_world]
PLAYOUT_CAP = 5000


def _visible(engine: Engine, history: list, moves: list[int], seat: int) -> list[dict]:
    """Return the events ``seat`` may see of the ``world_history_moves`` latest moves (as ``bot_move`` hands them)."""
    window = engine.world_history_moves
    if not window:
        return []
    start = moves[-window] if len(moves) >= window else 0
    return [event.to_json() for event in history[start:] if event.visible_for(seat)]


def _positions(engine: Engine, players: int, seed: str, every: int):
    """Yield (state, history, move starts) at every ``every``-th move of a seeded random game, and at its end."""
    options = engine.validate_options(players, {})
    state = engine.setup([f"p{seat}" for seat in range(players)], options, seed)
    rng, history, starts = random.Random(seed), [], []
    for number in range(PLAYOUT_CAP):
        seats = engine.to_move(state)
        if number % every == 0 or not seats:
            yield state, history, starts
        if not seats:
            return
        starts.append(len(history))
        state, events = engine.apply(state, seats[0], rng.choice(engine.legal_moves(state, seats[0])))
        history.extend(events)
    raise AssertionError("the game did not end")


def test_every_game_with_hidden_information_draws_worlds():
    assert {engine.slug for engine in ENGINES} == {"love-letter", "halali", "carcassonne-hg", "savernake-forest"}


@pytest.mark.parametrize("engine", ENGINES, ids=lambda engine: engine.slug)
def test_a_world_gives_the_seat_its_view_back_and_plays_on(engine):
    every = {"love-letter": 3, "halali": 25, "carcassonne-hg": 15, "savernake-forest": 7}[engine.slug]
    for players in sorted({engine.min_players, engine.default_players}):
        for state, history, starts in _positions(engine, players, f"worlds-{players}", every):
            for seat in range(players):
                view = json.loads(json.dumps(engine.view(state, seat)))
                visible = _visible(engine, history, starts, seat)
                kept = copy.deepcopy(view)
                world = engine.sample_world(view, visible, seat, random.Random(7))
                assert view == kept, "the drawer changed the view it was given"
                assert engine.view(world, seat) == view
                assert engine.to_move(world) == engine.to_move(state)
                if seat in engine.to_move(state):
                    assert engine.legal_moves(world, seat) == engine.legal_moves(state, seat)
                again = engine.sample_world(view, visible, seat, random.Random(7))
                assert again == world, "the same rng draws the same world"
            # One world per position is played to its end.
            world = engine.sample_world(json.loads(json.dumps(engine.view(state, 0))),
                                        _visible(engine, history, starts, 0), 0, random.Random(3))
            rng = random.Random(5)
            for _ in range(PLAYOUT_CAP):
                seats = engine.to_move(world)
                if not seats:
                    break
                world, _events = engine.apply(world, seats[0], rng.choice(engine.legal_moves(world, seats[0])))
            assert engine.result(world) is not None


@pytest.mark.parametrize("engine", ENGINES, ids=lambda engine: engine.slug)
def test_two_real_states_the_seat_cannot_tell_apart_give_the_same_worlds(engine):
    """The drawer sees nothing the seat does not: a world drawn for the seat is itself a real state that seat cannot
    tell from the first, and drawing from it gives the worlds the first gives, draw for draw."""
    players, checked = engine.default_players, 0
    for state, history, starts in _positions(engine, players, "twins", 7):
        if not engine.to_move(state) or checked == 4:
            continue
        checked += 1
        seat = engine.to_move(state)[0]
        view = engine.view(state, seat)
        visible = _visible(engine, history, starts, seat)
        twin = engine.sample_world(view, visible, seat, random.Random(1))
        assert engine.view(twin, seat) == view
        rng_a, rng_b = random.Random(9), random.Random(9)
        for _ in range(3):
            assert (engine.sample_world(engine.view(state, seat), visible, seat, rng_a)
                    == engine.sample_world(engine.view(twin, seat), visible, seat, rng_b))
    assert checked == 4
