"""Worlds for a search bot (``Engine.sample_world``, ``worlds.py``): a state drawn from one seat's view alone.

Only the two deck orders are hidden (rules file §12). A world must show the seat exactly its view, be playable
to the end (later rows dealt from its own decks), and order each deck as a uniform shuffle of the cards the seat
has not seen, drawn from the rng it is given and nothing else.
"""

from __future__ import annotations

import json
import math
import random
from collections import Counter

import pytest

from games.savernake_forest import ENGINE, cards

from . import NAMES, deck

MOVE_CAP = 100  # 15 rounds × 4 players = 60 turns at most

# Tables covering every player count and every option, both engine versions and a seat that resigned.
TABLES = [
    pytest.param(2, {}, 1, None, id="2p-defaults"),
    pytest.param(2, {"two_player_market": "persistent", "shared_path_resolution": "immediate"}, 2, None,
                 id="2p-persistent-immediate"),
    pytest.param(3, {"shared_path_resolution": "immediate", "two_exit_den": "path_per_exit"}, 3, None,
                 id="3p-immediate-per-exit"),
    pytest.param(3, {"tie_break": "stored_food", "two_exit_den": "path_per_exit"}, 4, 17, id="3p-resign"),
    pytest.param(4, {"tie_break": "stored_food"}, 5, None, id="4p-stored-food"),
    pytest.param(4, {"shared_path_resolution": "immediate"}, 6, 30, id="4p-immediate-resign"),
    pytest.param(3, {"version": 1}, 7, None, id="3p-version-1"),
]


def random_game(players: int, options: dict, seed: int, resign_at: int | None = None) -> tuple[object, list[dict]]:
    """Return the engine and every state of a seeded random game (the seat to move resigns at move ``resign_at``)."""
    options = dict(options)
    engine = ENGINE.at_version(options.pop("version", ENGINE.version))
    state = engine.setup(NAMES[:players], options, f"worlds-{seed}")
    rng = random.Random(seed)
    states = [state]
    while engine.to_move(state) and len(states) < MOVE_CAP:
        seat = engine.to_move(state)[0]
        if len(states) == resign_at:
            state, _events = engine.resign(state, seat)
        else:
            state, _events = engine.apply(state, seat, rng.choice(engine.legal_moves(state, seat)))
        states.append(state)
    assert engine.result(state) is not None
    return engine, states


def seen_view(engine, state: dict, seat: int) -> dict:
    """Return ``seat``'s view as a bot receives it: JSON, sharing nothing with the state."""
    return json.loads(json.dumps(engine.view(state, seat)))


def play_out(engine, world: dict, rng: random.Random) -> dict:
    """Play ``world`` to its end with random legal moves and return the last state."""
    for _turn in range(MOVE_CAP):
        if not engine.to_move(world):
            return world
        seat = engine.to_move(world)[0]
        world, _events = engine.apply(world, seat, rng.choice(engine.legal_moves(world, seat)))
    raise AssertionError("the world did not end")


@pytest.mark.parametrize(("players", "options", "seed", "resign_at"), TABLES)
def test_a_world_shows_each_seat_its_view_and_plays_to_the_end(players, options, seed, resign_at):
    engine, states = random_game(players, options, seed, resign_at)
    assert engine.world_history_moves == 0
    assert any(states[-1]["left"]) == (resign_at is not None)
    # Every ninth position, the first round's and the last (the game over) included.
    moments = sorted({*range(0, len(states), 9), 1, 2, len(states) - 2, len(states) - 1})
    for index in moments:
        state = states[index]
        for seat in range(players):
            view = seen_view(engine, state, seat)
            world = engine.sample_world(view, [], seat, random.Random(f"{seed}:{index}:{seat}"))
            assert engine.view(world, seat) == view
            # The decks hold the very cards the real ones do (what the seat has not seen), in an order of their own.
            assert sorted(world["path_deck"]) == sorted(state["path_deck"])
            assert sorted(world["animal_deck"]) == sorted(state["animal_deck"])
            assert "deck" not in world["options"] and "first_player" not in world["options"]
            end = play_out(engine, world, random.Random(index * 10 + seat))
            result = engine.result(end)
            assert result is not None and end["round"] == cards.ROUNDS
            assert all(len(forest) == cards.FOREST_SIZE for other, forest in enumerate(end["forests"])
                       if not end["left"][other])


@pytest.mark.parametrize("seed", range(100, 103))  # 3, 4 and 2 players
def test_at_every_move_of_more_games_every_seat_gets_its_view_back(seed):
    rng = random.Random(seed)
    players = 2 + seed % 3
    options = {"shared_path_resolution": rng.choice(["immediate", "end_of_game"]),
               "two_exit_den": rng.choice(["one_path", "path_per_exit"]),
               "tie_break": rng.choice(["shared", "stored_food"])}
    if players == 2:
        options["two_player_market"] = rng.choice(["discard", "persistent"])
    engine, states = random_game(players, options, seed)
    for index, state in enumerate(states):
        for seat in range(players):
            view = seen_view(engine, state, seat)
            world = engine.sample_world(view, [], seat, random.Random(f"{seed}:{index}:{seat}"))
            assert engine.view(world, seat) == view
            unseen = state["path_deck"] + state["animal_deck"]
            assert sorted(world["path_deck"] + world["animal_deck"]) == sorted(unseen)


def test_a_world_is_json_and_the_engine_plays_the_seats_moves_in_it():
    engine, states = random_game(3, {}, 11)
    state = states[13]
    seat = engine.to_move(state)[0]
    assert len(state["order"]) > 1  # not the round's last turn: no row is dealt
    world = engine.sample_world(seen_view(engine, state, seat), [], seat, random.Random(0))
    assert json.loads(json.dumps(world)) == world
    assert engine.legal_moves(world, seat) == engine.legal_moves(state, seat)
    for move in engine.legal_moves(state, seat)[::7]:
        mine, _events = engine.apply(world, seat, move)
        real, _events = engine.apply(state, seat, move)
        assert engine.view(mine, seat) == engine.view(real, seat)


# -- the spread of the hidden cards ----------------------------------------------------------------------------------

DRAWS = 6000


def chi_square_limit(df: int, z: float = 4.265) -> float:
    """Return the chi-square value a fair draw exceeds with probability about 1e-5 (Wilson–Hilferty)."""
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def spread_position() -> tuple[object, dict, int]:
    """Return a 4-player game in round 4: some cards dealt, taken and discarded, both decks still long."""
    engine, states = random_game(4, {}, 21)
    state = states[13]
    return engine, state, engine.to_move(state)[0]


def drawn_decks(view: dict, seat: int, seed: int = 2024) -> list[dict]:
    rng = random.Random(seed)
    return [ENGINE.sample_world(view, [], seat, rng) for _ in range(DRAWS)]


@pytest.fixture(scope="module")
def spread():
    engine, state, seat = spread_position()
    return state, drawn_decks(seen_view(engine, state, seat), seat)


@pytest.mark.parametrize("part", ["path_deck", "animal_deck"])
@pytest.mark.parametrize("place", [0, 1, -1])
def test_each_unseen_card_is_equally_likely_at_each_place_of_a_deck(spread, part, place):
    state, worlds = spread
    unseen = sorted(state[part])
    assert len(unseen) > 5
    counts = Counter(world[part][place] for world in worlds)
    assert set(counts) <= set(unseen)
    expected = DRAWS / len(unseen)
    chi = sum((counts[card] - expected) ** 2 / expected for card in unseen)
    assert chi < chi_square_limit(len(unseen) - 1), (chi, counts)
    assert all(sorted(world[part]) == unseen for world in worlds[:200])


@pytest.mark.parametrize("part", ["path_deck", "animal_deck"])
def test_the_real_top_card_is_not_favoured(spread, part):
    state, worlds = spread
    expected = DRAWS / len(state[part])
    real_top = sum(world[part][0] == state[part][0] for world in worlds)
    assert abs(real_top - expected) < 4.5 * math.sqrt(expected), (real_top, expected)
    # Nor is the real order: a world matching the next few real cards is as rare as chance makes it.
    follows = sum(world[part][:2] == state[part][:2] for world in worlds)
    assert follows < 4 * DRAWS / (len(state[part]) * (len(state[part]) - 1)) + 6


def test_games_differing_only_in_undealt_cards_give_the_same_worlds():
    starts, rows = ["AN01", "AN02", "AN03"], [("ST07", "CU12", "CU05", "AN06")]
    a = ENGINE.validate_options(3, {"deck": deck(starts, rows)})["deck"]
    b = {"paths": a["paths"][:3] + a["paths"][3:][::-1], "animals": a["animals"][:4] + a["animals"][4:][::-1]}
    one = ENGINE.setup(NAMES[:3], {"deck": a, "first_player": 0}, "one")
    two = ENGINE.setup(NAMES[:3], {"deck": b, "first_player": 0}, "two")
    assert one["path_deck"] != two["path_deck"]
    for seat in range(3):
        views = [seen_view(ENGINE, state, seat) for state in (one, two)]
        worlds = [ENGINE.sample_world(view, [], seat, random.Random(5)) for view in views]
        assert worlds[0] == worlds[1]


# -- the draw itself ---------------------------------------------------------------------------------------------


def test_the_draw_depends_on_the_rng_alone_and_leaves_the_view_alone():
    engine, states = random_game(3, {}, 31)
    state = states[20]
    view = seen_view(engine, state, 2)
    before = json.dumps(view, sort_keys=True)
    outside = random.getstate()
    first = engine.sample_world(view, [], 2, random.Random(9))
    again = engine.sample_world(view, [], 2, random.Random(9))
    other = engine.sample_world(view, [], 2, random.Random(10))
    assert first == again and first is not again
    assert (first["path_deck"], first["animal_deck"]) != (other["path_deck"], other["animal_deck"])
    assert random.getstate() == outside  # no global randomness
    # The world shares nothing with the view: playing it or changing it leaves the view as it was.
    first["forests"][0][0]["drops"].append("B")
    first["order"].clear()
    play_out(engine, again, random.Random(1))
    assert json.dumps(view, sort_keys=True) == before


def test_a_view_of_another_seat_or_a_forged_deck_count_is_refused():
    engine, states = random_game(2, {}, 41)
    view = seen_view(engine, states[6], 0)
    with pytest.raises(ValueError):
        engine.sample_world(view, [], 1, random.Random(0))
    view["decks"]["paths"] += 1
    with pytest.raises(ValueError):
        engine.sample_world(view, [], 0, random.Random(0))
