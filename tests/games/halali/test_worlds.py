"""Worlds for the search bot (``sample_world``, games/halali/worlds.py): drawn from a seat's view alone.

A world must look exactly like the real match to the seat (its view), agree with it on everything public (the
no-return memory of the seat that just acted too, which no view shows), play on to the end of the match, and
spread the unseen tiles over the face-down squares as the counts say, whatever the real tiles are.
Every random number comes from a fixed seed: these tests never flake.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from games.halali import ENGINE, board, tiles
from games.halali.player_view import PUBLIC_OPTIONS
from games.i18n import in_english

from . import LAYOUT, NAMES

# Critical values of chi-square at p = 0.001 by degrees of freedom: a fair sampler stays under them.
CHI2_001 = {1: 10.83, 2: 13.82, 3: 16.27, 4: 18.47, 5: 20.52, 6: 22.46}

# (engine version, options, seed): the defaults, every option flipped, the safety valve, exits open all game,
# scripted layouts (the world must shuffle leg 2 itself) and a version-1 game (no ``lock_on_move`` stored).
GAMES = [
    (2, {}, 1),
    (2, {"lock_on_move": False, "no_return_neutral": True, "no_return_capture": False}, 2),
    (2, {"stall_limit": 5}, 3),
    (2, {"exits_anytime": True, "no_return_neutral": True, "layout": LAYOUT, "first_blue": 1}, 4),
    (2, {"layout": [LAYOUT, list(reversed(LAYOUT))], "first_blue": 0}, 5),
    (1, {"stall_limit": 20, "no_return_capture": False}, 6),
    (1, {}, 7),
]


@pytest.fixture(autouse=True)
def english():
    """Fix the language: ``legal_moves`` words why each tile it passes over cannot move, and asking Django's active
    language for each of those words would take most of this file's time (worlds and moves have no words)."""
    with in_english():
        yield


def draw(state: dict, seat: int, rng: random.Random, engine=ENGINE) -> dict:
    """Return a world drawn from ``seat``'s view of ``state`` (a JSON copy, as a bot receives it)."""
    view = json.loads(json.dumps(engine.view(state, seat)))
    return engine.sample_world(view, [], seat, rng)


def public_part(state: dict) -> dict:
    """Return ``state`` without what nobody knows: face-down tiles by square alone, no seed, the public options."""
    shown = json.loads(json.dumps({key: value for key, value in state.items() if key not in ("seed", "options")}))
    shown["board"] = ["?" if cell is not None and not cell["up"] else cell for cell in state["board"]]
    shown["options"] = {key: state["options"].get(key, True) for key in PUBLIC_OPTIONS}
    return shown


def hidden_kinds(state: dict) -> Counter:
    return Counter(cell["kind"] for cell in state["board"] if cell is not None and not cell["up"])


def play_out(engine, state: dict, rng: random.Random) -> dict:
    """Play random legal moves to the end of the match; return the final state."""
    for _ in range(3000):
        if engine.is_over(state):
            return state
        (seat,) = engine.to_move(state)
        moves = engine.legal_moves(state, seat)
        assert moves
        state, _ = engine.apply(state, seat, moves[rng.randrange(len(moves))])
    raise AssertionError("a world's match did not end")


@pytest.mark.parametrize("version, options, seed", GAMES)
def test_every_world_looks_like_the_match_to_its_seat_and_plays_on_to_the_end(version, options, seed):
    engine = ENGINE.at_version(version)
    state = engine.setup(NAMES, options, seed)
    moves_rng, worlds_rng = random.Random(seed), random.Random(-seed)
    step = 0
    while True:
        over = engine.is_over(state)
        for seat in (0, 1) if step % 3 == 0 or over else ():  # every third move and the end keep the file quick
            world = draw(state, seat, worlds_rng, engine)
            assert engine.view(world, seat) == engine.view(state, seat)
            # The view counts the unseen tiles from the face-up ones alone: the face-down ones must be exactly those.
            assert hidden_kinds(world) == +Counter(engine.view(state, seat)["unrevealed"])
            if over:  # a finished match forgets nothing, but no one moves again: the no-return memory is moot
                world["last_own"] = state["last_own"]
            assert public_part(world) == public_part(state)
            assert engine.to_move(world) == engine.to_move(state)
            assert engine.result(world) == engine.result(state)
            if not over:
                mover = engine.to_move(state)[0]
                assert engine.legal_moves(world, mover) == engine.legal_moves(state, mover)
            if step % 80 == 40 * seat:  # playing on is the slow part: now and then, for each seat
                ended = play_out(engine, world, worlds_rng)
                assert len(ended["legs"]) == 2 and engine.result(ended) is not None
        if over:
            break
        (mover,) = engine.to_move(state)
        moves = engine.legal_moves(state, mover)
        state, _ = engine.apply(state, mover, moves[moves_rng.randrange(len(moves))])
        step += 1
    assert state["leg"] == 2, "the game went through both legs"


def test_a_resigned_match_gives_worlds_with_the_same_result():
    for leg in (1, 2):  # before leg 1 is recorded, and after
        state = ENGINE.setup(NAMES, {}, 11)
        rng = random.Random(11)
        while state["leg"] < leg or state["turn"] < 30:
            (seat,) = ENGINE.to_move(state)
            state, _ = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_moves(state, seat)))
        assert len(state["legs"]) == leg - 1
        state, _ = ENGINE.resign(state, ENGINE.to_move(state)[0])
        for seat in (0, 1):
            world = draw(state, seat, rng)
            assert ENGINE.view(world, seat) == ENGINE.view(state, seat)
            assert ENGINE.result(world) == ENGINE.result(state)
            world["last_own"] = state["last_own"]  # moot once the match is over
            assert public_part(world) == public_part(state)


# -- the spread of the hidden tiles ---------------------------------------------------------


def position(flips: int, seed: int = 21) -> dict:
    """Return a leg-1 position of a seeded match after random play that turned ``flips`` tiles over."""
    state = ENGINE.setup(NAMES, {"first_blue": 0}, seed)
    rng = random.Random(seed)
    while 48 - len(ENGINE.view(state, None)["face_down"]) < flips:
        (seat,) = ENGINE.to_move(state)
        state, _ = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_moves(state, seat)))
    return state


def chi_square(observed: Counter, expected: dict[str, float]) -> float:
    return sum((observed[key] - mean) ** 2 / mean for key, mean in expected.items())


@pytest.mark.parametrize("flips", [0, 14, 30])
def test_each_face_down_square_holds_each_kind_as_often_as_the_unseen_counts_say(flips):
    state = position(flips)
    view = ENGINE.view(state, 0)
    unseen = {kind: count for kind, count in view["unrevealed"].items() if count}
    total = sum(unseen.values())
    assert total == len(view["face_down"])
    draws = 3000
    rng = random.Random(flips)
    at: dict[str, Counter] = {square: Counter() for square in view["face_down"]}
    rifles: Counter = Counter()
    for _ in range(draws):
        world = ENGINE.sample_world(view, [], 0, rng)
        for square in view["face_down"]:
            cell = world["board"][board.index(square)]
            assert not cell["up"]
            at[square][cell["kind"]] += 1
            if cell["kind"] == tiles.HUNTER:
                rifles[cell["dir"]] += 1
    expected = {kind: draws * count / total for kind, count in unseen.items()}
    for square in view["face_down"][:12]:
        assert set(at[square]) <= set(unseen), "a kind that is all seen is never face down"
        if len(unseen) > 1:
            assert chi_square(at[square], expected) < CHI2_001[len(unseen) - 1], (square, at[square], expected)
    if unseen.get(tiles.HUNTER):
        hunters = sum(rifles.values())
        assert chi_square(rifles, {d: hunters / 4 for d in tiles.DIRECTIONS}) < CHI2_001[3], rifles


def test_the_real_tile_under_a_face_down_square_shows_only_at_its_share():
    state = position(14)
    view = ENGINE.view(state, 1)
    unseen = view["unrevealed"]
    total = len(view["face_down"])
    draws = 3000
    rng = random.Random(5)
    hits = Counter()
    for _ in range(draws):
        world = ENGINE.sample_world(view, [], 1, rng)
        for square in view["face_down"]:
            real, drawn = state["board"][board.index(square)], world["board"][board.index(square)]
            hits[square] += drawn["kind"] == real["kind"] and drawn.get("dir") == real.get("dir")
    for square in view["face_down"]:
        real = state["board"][board.index(square)]
        # The real tile's kind at its share; a hunter must also aim the real way, one time in four.
        share = unseen[real["kind"]] / total / (4 if real["kind"] == tiles.HUNTER else 1)
        spread = 4.5 * (share * (1 - share) / draws) ** 0.5
        assert abs(hits[square] / draws - share) < spread, (square, real, hits[square], share)
        assert hits[square] < draws / 2


def test_worlds_do_not_depend_on_the_real_hidden_tiles():
    # Two layouts differing in two tiles only: the same views, so the same worlds from the same draws.
    other = list(LAYOUT)
    bear, tree = other.index("bear"), other.index("tree")
    other[bear], other[tree] = other[tree], other[bear]
    a = ENGINE.setup(NAMES, {"layout": LAYOUT, "first_blue": 0}, "s")
    b = ENGINE.setup(NAMES, {"layout": other, "first_blue": 0}, "s")
    assert a != b
    for seat in (0, 1):
        assert draw(a, seat, random.Random(3)) == draw(b, seat, random.Random(3))


def test_worlds_are_determined_by_the_rng_alone():
    state = position(10)
    view = ENGINE.view(state, 0)
    first = ENGINE.sample_world(view, [], 0, random.Random(9))
    # The history is not read, and the view is neither kept nor changed.
    assert ENGINE.sample_world(json.loads(json.dumps(view)), [{"kind": "flipped"}], 0, random.Random(9)) == first
    assert view == ENGINE.view(state, 0)
    assert ENGINE.sample_world(view, [], 0, random.Random(10)) != first
    rng = random.Random(9)
    assert ENGINE.sample_world(view, [], 0, rng) == first
    assert ENGINE.sample_world(view, [], 0, rng) != first, "the next draw goes on from the rng"
    first["board"][0] = None
    assert ENGINE.view(state, 0) == view


def test_the_next_leg_is_shuffled_from_the_worlds_own_seed():
    # In leg 1's final phase nothing is face down: worlds differ only in the leg to come.
    state = ENGINE.setup(NAMES, {"first_blue": 0}, 31)
    rng = random.Random(31)
    while state["phase"] != "final":
        (seat,) = ENGINE.to_move(state)
        state, _ = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_moves(state, seat)))
    worlds = [draw(state, 0, random.Random(n)) for n in range(3)]
    assert all(world["board"] == state["board"] for world in worlds)
    while state["leg"] == 1:
        (seat,) = ENGINE.to_move(state)
        move = rng.choice(ENGINE.legal_moves(state, seat))
        state, _ = ENGINE.apply(state, seat, move)
        worlds = [ENGINE.apply(world, seat, move)[0] for world in worlds]
    boards = [json.dumps(world["board"]) for world in [state, *worlds]]
    assert len(set(boards)) == 4, "each world lays out leg 2 its own way, none the real way"
    for world in worlds:
        assert ENGINE.view(world, 1) == ENGINE.view(state, 1)
        assert Counter(cell["kind"] for cell in world["board"] if cell) == Counter(tiles.full_set())
