"""Worlds for a search bot (``worlds.py``): each looks exactly like the seat's view, plays on to the end, and holds
the hidden stacks in a uniform random order drawn from the seat's rng alone, never leaning to the real order.

Whole games cost tens of milliseconds here, so positions are sampled along seeded random games rather than taken
at every move. Every check uses fixed seeds: the spread tests are deterministic, never flaky.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from functools import partial

import pytest

from games.carcassonne_hg import ENGINE, tiles

from . import NAMES, act, game, position

# (players, options): both editions, every option away from its default somewhere, a scripted (partial) stack.
SUBSET = tiles.deck("revised", "land")[::3]
CONFIGS = [
    (2, {}),
    (3, {"edition": "classic"}),
    (4, {"unplaceable_tile": "redraw", "menhir_needs_occupied_forest": False, "hunting_trap_scorer": "hunters",
         "fire_affects_hunting_trap": True, "wildfire_tile_tiger_counts": True,
         "river_fish_for_fishermen": "lakes_only", "forest_parts_count_separately": False}),
    (5, {"edition": "classic", "unplaceable_tile": "end_turn", "shrine_requires_free_meadow": False,
         "forest_parts_count_separately": True}),
    (2, {"tiles": SUBSET, "bonus_tiles": tiles.deck("revised", "bonus")[:5], "menhir_needs_occupied_forest": False}),
]


def positions(players: int, options: dict, seed: int, every: int = 11, resign_at: int | None = None) -> list[dict]:
    """Return every ``every``-th position of a seeded random game, and its last two (the end included).

    ``resign_at``: the seat to move resigns at that move (its tile passes on, or a two-player game ends).
    """
    rng = random.Random(seed)
    state = ENGINE.setup(NAMES[:players], options, seed=f"real-{seed}")
    found, move = [], 0
    while True:
        if move % every == 0:
            found.append(state)
        if ENGINE.is_over(state):
            break
        (seat,) = ENGINE.to_move(state)
        if move == resign_at:
            state, _ = ENGINE.resign(state, seat)
        else:
            before = state
            state, _ = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_moves(state, seat)))
        move += 1
    return found + ([before] if before is not found[-1] else []) + ([state] if state is not found[-1] else [])


def world_of(state: dict, seat: int, seed: int) -> dict:
    """Return a world drawn for ``seat`` from its view alone, as a search bot gets one."""
    view = json.loads(json.dumps(ENGINE.view(state, seat)))
    return ENGINE.sample_world(view, [], seat, random.Random(seed))


def play_out(state: dict, rng: random.Random) -> dict:
    """Play random legal moves to the end; return the result."""
    for _ in range(200):  # 78 land tiles and at most 16 bonus tiles
        if ENGINE.is_over(state):
            return ENGINE.result(state)
        (seat,) = ENGINE.to_move(state)
        moves = ENGINE.legal_moves(state, seat)
        assert moves, "the seat to move always has a placement"
        state, _ = ENGINE.apply(state, seat, rng.choice(moves))
    raise AssertionError("the world's game did not end")


@pytest.mark.parametrize("index", range(len(CONFIGS)))
def test_every_seat_gets_worlds_with_its_own_view_that_play_on_to_the_end(index):
    players, options = CONFIGS[index]
    resign_at = {2: 30, 4: 12}.get(index)  # a seat leaves: its tile passes on / a two-player game ends
    for n, state in enumerate(positions(players, options, seed=index, resign_at=resign_at)):
        view = ENGINE.view(state, None)
        for seat in range(players):
            world = world_of(state, seat, seed=100 * n + seat)
            assert ENGINE.view(world, seat) == ENGINE.view(state, seat)
            assert ENGINE.to_move(world) == ENGINE.to_move(state)
            for other in range(players):
                assert ENGINE.legal_moves(world, other) == ENGINE.legal_moves(state, other)
            assert world["seed"] != state["seed"]
            # The stacks hold tiles the view does not show, as many as it says.
            assert len(world["stack"]) == view["stack_count"]
            assert len(world["bonus_stack"]) == view["bonus_stack_count"]
            # With the full sets (and no tile in hand dropped by a game a resignation ended), exactly the real ones.
            if "tiles" not in options and not any(state["left"]):
                assert Counter(world["stack"]) == Counter(state["stack"])
                assert Counter(world["bonus_stack"]) == Counter(state["bonus_stack"])
        if not ENGINE.is_over(state):
            seat = n % players  # one playout per position keeps the file fast
            result = play_out(world_of(state, seat, seed=n), random.Random(n))
            assert result is not None and len(result["scores"]) == players


def full(first: list[str], deck: str, without: tuple[str, ...] = ()) -> list[str]:
    """Return a scripted stack of the whole revised ``deck``: ``first`` on top, the rest (less ``without``) shuffled."""
    rest = list((Counter(tiles.deck("revised", deck)) - Counter(first) - Counter(without)).elements())
    random.Random(len(first)).shuffle(rest)
    return first + rest


def bonus_turn_after_a_discarded_bonus_tile() -> dict:
    # test_bonus.py: closing the start's menhir forest earns Bob a bonus tile; R-B83 (rivers all round) fits nowhere.
    state = game(full(["R-L34", "R-L37"], "land", ("R-L00",)),
                 bonus=full(["R-B83-plain-two-lakes", "R-B84-plain-mammoth"], "bonus"), players=3)
    state["board"].append([-1, 0, "R-L00", 90, None])  # close the start's river into a lake (surgery)
    state, _ = act(state, "place 1,0 r0 gatherer forest")
    state, _ = act(state, "place 0,-1 r0")
    assert state["bonus"] and state["discarded"] == ["R-B83-plain-two-lakes"]
    return state


def land_tile_discarded(mode: str) -> dict:
    # test_placement.py: next to a board showing no river edge, R-L13 (rivers all round) fits nowhere.
    state = position([(-1, 0, "R-L00", 90)], "R-L62", stack=full(["R-L13"], "land", ("R-L00", "R-L62")), players=3,
                     unplaceable_tile=mode)
    state["bonus_stack"] = full([], "bonus")
    state, _ = act(state, "place 0,1 r0")
    assert state["discarded"] == ["R-L13"]
    return state


def left_holding_a_bonus_tile() -> dict:
    state = bonus_turn_after_a_discarded_bonus_tile()
    state, _ = ENGINE.resign(state, ENGINE.to_move(state)[0])  # the bonus tile leaves the game; the next seat draws
    assert state["discarded"][-1] == "R-B84-plain-mammoth" and not ENGINE.is_over(state)
    return state


def animals_covered_by_the_hunting_trap() -> dict:
    # test_powers.py: the trap on 0,2 scores the meadow's deer, mammoth and tiger around it, then covers them.
    field = [(0, 1, "R-L62", 0), (1, 1, "R-L61", 0), (-1, 1, "R-L31", 0)]
    trap = "R-B94-hunting-trap"
    state = position(field, trap, pieces=[(1, "hunter", 1, 1, "m0")], bonus_turn=True, players=3,
                      stack=full([], "land", ("R-L62", "R-L61", "R-L31")))
    state["bonus_stack"] = full([], "bonus", (trap,))
    state, _ = act(state, "place 0,2 r0")
    assert len(state["cancelled"]) == 4
    return state


@pytest.mark.parametrize("moment", [bonus_turn_after_a_discarded_bonus_tile, partial(land_tile_discarded, "end_turn"),
                                    partial(land_tile_discarded, "redraw"), left_holding_a_bonus_tile,
                                    animals_covered_by_the_hunting_trap],
                         ids=["bonus-turn", "set-aside-end-turn", "set-aside-redraw", "left-with-bonus-tile", "trap"])
def test_worlds_of_bonus_turns_set_aside_tiles_and_leavers_look_the_same_and_play_on(moment):
    state = moment()
    for seat in range(3):
        world = world_of(state, seat, seed=seat)
        assert ENGINE.view(world, seat) == ENGINE.view(state, seat)
        assert Counter(world["stack"]) == Counter(state["stack"])
        assert Counter(world["bonus_stack"]) == Counter(state["bonus_stack"])
        (mover,) = ENGINE.to_move(state)
        assert ENGINE.legal_moves(world, mover) == ENGINE.legal_moves(state, mover)
        assert play_out(world, random.Random(seat)) is not None


def test_a_scripted_stack_is_drawn_from_the_tiles_the_view_does_not_show():
    # The view does not say which part of the set a scripted stack uses: a world draws any unseen tiles.
    state = positions(2, {"tiles": SUBSET}, seed=7)[2]
    shown = Counter([entry[2] for entry in state["board"]] + state["discarded"] + [state["tile"]])
    unseen = Counter(tiles.deck("revised", "land")) - shown
    drawn: Counter = Counter()
    for seed in range(40):
        world = world_of(state, 0, seed)
        assert not Counter(world["stack"]) - unseen and len(world["stack"]) == len(state["stack"])
        drawn.update(world["stack"])
    assert set(drawn) - set(SUBSET), "tiles outside the scripted part are drawn too"


def test_the_same_rng_gives_the_same_world_and_the_real_order_is_never_read():
    state = positions(3, {}, seed=3)[3]
    twin = json.loads(json.dumps(state))
    random.Random(0).shuffle(twin["stack"])
    random.Random(0).shuffle(twin["bonus_stack"])
    twin["seed"] = "another"
    assert twin["stack"] != state["stack"]
    assert world_of(state, 1, seed=5) == world_of(twin, 1, seed=5)
    assert world_of(state, 1, seed=5)["stack"] != world_of(state, 1, seed=6)["stack"]


def test_changing_a_world_changes_neither_the_view_nor_the_next_world():
    state = positions(2, {}, seed=4)[4]
    view = ENGINE.view(state, 0)
    kept = json.dumps(view)
    world = ENGINE.sample_world(view, [], 0, random.Random(1))
    world["pieces"].append({"seat": 0, "kind": "hut", "x": 9, "y": 9, "region": "r0"})
    world["cancelled"].append([9, 9, "r0"])
    world["supply"][0]["members"] = 0
    world["board"].append([9, 9, "R-L62", 0, 0, [], []])
    assert json.dumps(view) == kept
    assert ENGINE.view(ENGINE.sample_world(view, [], 0, random.Random(1)), 0) == view


def chi_square(observed: Counter, weights: Counter, draws: int) -> tuple[float, int]:
    """Return the chi-square statistic of ``observed`` against ``draws`` spread as ``weights``, and its degrees."""
    total = sum(weights.values())
    assert not set(observed) - set(weights), "a tile that is not unseen was drawn"
    stat = sum((observed[kind] - draws * w / total) ** 2 / (draws * w / total) for kind, w in weights.items())
    return stat, len(weights) - 1


def bound(degrees: int) -> float:
    """A chi-square value a fair draw exceeds with odds around one in a million (mean plus about 5 sd)."""
    return degrees + 5 * (2 * degrees) ** 0.5


@pytest.mark.parametrize(("players", "options", "at"), [(3, {}, 2), (4, {"edition": "classic"}, 5)])
def test_the_top_and_bottom_of_each_stack_spread_over_the_unseen_tiles_as_their_counts_say(players, options, at):
    state = positions(players, options, seed=11, every=4)[at]
    view = json.loads(json.dumps(ENGINE.view(state, 0)))
    rng = random.Random(2024)
    draws = 3000
    tops: Counter = Counter()
    bottoms: Counter = Counter()
    bonus_tops: Counter = Counter()
    for _ in range(draws):
        world = ENGINE.sample_world(view, [], 0, rng)
        tops[world["stack"][0]] += 1
        bottoms[world["stack"][-1]] += 1
        bonus_tops[world["bonus_stack"][0]] += 1
    # With the full sets, the unseen tiles are exactly the real stacks' tiles.
    for observed, weights in ((tops, Counter(state["stack"])), (bottoms, Counter(state["stack"])),
                              (bonus_tops, Counter(state["bonus_stack"]))):
        stat, degrees = chi_square(observed, weights, draws)
        assert stat < bound(degrees), (stat, degrees)
    # The tiles the set has twice come up about twice as often as the others.
    weights = Counter(state["stack"])
    twice = sum(tops[kind] for kind, n in weights.items() if n == 2) / sum(1 for n in weights.values() if n == 2)
    once = sum(tops[kind] for kind, n in weights.items() if n == 1) / sum(1 for n in weights.values() if n == 1)
    assert 1.6 < twice / once < 2.5


def test_the_real_next_tiles_are_not_favoured():
    draws, hits, expected = 300, 0, 0.0
    for seed in range(3):
        for state in positions(2 + seed, {}, seed=20 + seed, every=9)[:-2]:
            view = json.loads(json.dumps(ENGINE.view(state, 0)))
            rng = random.Random(seed)
            real, stack = state["stack"][0], state["stack"]
            hits += sum(ENGINE.sample_world(view, [], 0, rng)["stack"][0] == real for _ in range(draws))
            expected += draws * stack.count(real) / len(stack)
    # A fair draw lands near the expectation (a few hundred hits); one leaning to the real order lands far above.
    assert abs(hits - expected) < 4 * expected**0.5, (hits, expected)
