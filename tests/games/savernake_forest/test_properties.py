"""Property tests: random legal play always ends after 15 rounds and keeps the invariants of rules file §13."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from games.base import IllegalMove
from games.savernake_forest import ENGINE, cards, scoring

from . import NAMES

MOVE_CAP = 200  # 15 rounds × 4 players = 60 turns at most


@st.composite
def tables(draw):
    players = draw(st.integers(2, 4))
    resolution = draw(st.sampled_from(["immediate", "end_of_game"]))
    market = draw(st.sampled_from(["discard", "persistent"])) if players == 2 else "discard"
    return players, {"shared_path_resolution": resolution, "two_player_market": market}


def check_invariants(state: dict) -> None:
    """Assert the §13 invariants of a state in play."""
    n = len(state["players"])
    market = [card for card in state["market"].values() if card is not None]
    placed = [e["card"] for forest in state["forests"] for e in forest]
    everything = placed + market + state["discard"] + state["path_deck"] + state["animal_deck"]
    assert Counter(everything) == Counter(cards.ALL_IDS), "cards are conserved"
    turns_done = n - len(state["order"])
    for seat, forest in enumerate(state["forests"]):
        cells = [(e["x"], e["y"]) for e in forest]
        assert len(set(cells)) == len(cells)
        expected = state["round"] + (1 if seat not in state["order"] else 0)
        assert len(forest) == expected, "after round k every forest has k + 1 cards"
        xs, ys = [x for x, _ in cells], [y for _, y in cells]
        assert max(xs) - min(xs) < 4 and max(ys) - min(ys) < 4
        reached, todo = {cells[0]}, [cells[0]]
        while todo:
            x, y = todo.pop()
            for dx, dy in scoring.DELTA.values():
                if (x + dx, y + dy) in cells and (x + dx, y + dy) not in reached:
                    reached.add((x + dx, y + dy))
                    todo.append((x + dx, y + dy))
        assert reached == set(cells), "every forest is orthogonally connected"
        for entry in forest:
            if "up" in entry:
                assert len(set(entry["drops"])) == len(entry["drops"]), "one drop per corner"
                assert entry["up"] or (entry["drops"] == [] and entry["burrows"] == 0)
        if state["options"]["shared_path_resolution"] == "immediate":
            assert scoring.shared(forest) == [], "no path holds two face-up animals"
    drops = sum(len(e.get("drops", [])) for forest in state["forests"] for e in forest)
    burrows = sum(e.get("burrows", 0) for forest in state["forests"] for e in forest)
    assert drops + state["supply"]["drops"] == 15 and burrows + state["supply"]["burrows"] == 15
    assert 0 <= turns_done < n


@settings(max_examples=60, deadline=None)
@given(table=tables(), seed=st.integers(0, 2**32), choices=st.integers(0, 2**32))
def test_random_legal_play_always_ends_after_15_rounds_with_full_forests(table, seed, choices):
    players, options = table
    state = ENGINE.setup(NAMES[:players], options, seed)
    rng = random.Random(choices)
    for _ in range(MOVE_CAP):
        if ENGINE.is_over(state):
            break
        check_invariants(state)
        (seat,) = ENGINE.to_move(state)
        moves = ENGINE.legal_moves(state, seat)
        assert moves, "a legal placement always exists before the forest is full"
        state, _ = ENGINE.apply(state, seat, rng.choice(moves))
    result = ENGINE.result(state)
    assert result is not None, "the game did not end within the move cap"
    assert state["round"] == 15 and state["turn"] == 15 * players
    for forest in state["forests"]:
        assert len(forest) == 16
        assert len({e["x"] for e in forest}) == 4 and len({e["y"] for e in forest}) == 4
        assert scoring.shared(forest) == []
    sheets = [scoring.forest_scores(forest) for forest in state["forests"]]
    assert result["scores"] == [sheet["total"] for sheet in sheets]
    assert result["winners"] == scoring.winners(result["scores"], result["stored"])
    assert sorted(result["ranking"]) == list(range(players)) and result["summary"]


def random_candidates(rng: random.Random, state: dict, count: int) -> list[dict]:
    """Return move objects drawn from the whole move space, mostly illegal."""
    animals = list(cards.ANIMAL_IDS)
    found = []
    for _ in range(count):
        move = {"slot": rng.choice(cards.SLOTS), "x": rng.randint(-4, 4), "y": rng.randint(-4, 4)}
        move["rot"] = rng.randint(0, 3)
        if rng.random() < 0.3:
            move["keep"] = rng.sample(animals, rng.randint(1, 2))
        roll = rng.random()
        if roll < 0.3:
            move["token"] = {"animal": rng.choice(animals), "food": rng.choice(cards.FOODS)}
        elif roll < 0.6:
            move["token"] = {"animal": rng.choice(animals)}
        found.append(move)
    return found


@settings(max_examples=30, deadline=None)
@given(table=tables(), seed=st.integers(0, 2**32), steps=st.integers(0, 50))
def test_apply_accepts_exactly_the_legal_moves(table, seed, steps):
    players, options = table
    rng = random.Random(seed)
    state = ENGINE.setup(NAMES[:players], options, seed)
    for _ in range(steps):
        if ENGINE.is_over(state):
            return
        (seat,) = ENGINE.to_move(state)
        state, _ = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_moves(state, seat)))
    if ENGINE.is_over(state):
        return
    (seat,) = ENGINE.to_move(state)
    legal = ENGINE.legal_moves(state, seat)
    # keep is a set of survivors: apply accepts it in any order, legal_moves lists it sorted.
    canonical = [dict(move, keep=sorted(move["keep"])) if "keep" in move else move for move in legal]
    near = [dict(move, rot=(move["rot"] + 1) % 4) for move in rng.sample(legal, min(20, len(legal)))]
    for move in random_candidates(rng, state, 150) + near + legal:
        try:
            ENGINE.apply(state, seat, move)
            accepted = True
        except IllegalMove:
            accepted = False
        normal = dict(move, keep=sorted(move["keep"])) if "keep" in move else move
        assert accepted == (normal in canonical), move


@settings(max_examples=20, deadline=None)
@given(table=tables(), seed=st.integers(0, 2**32), choices=st.integers(0, 2**32))
def test_random_play_with_resignations_always_ends_with_a_player_still_in_the_game_winning(table, seed, choices):
    players, options = table
    state = ENGINE.setup(NAMES[:players], options, seed)
    rng = random.Random(choices)
    left: set[int] = set()
    for _ in range(MOVE_CAP):
        if ENGINE.is_over(state):
            break
        if rng.random() < 0.03:
            seat = rng.choice([s for s in range(players) if s not in left])
            left.add(seat)
            state, _ = ENGINE.play(state, seat, {"resign": True})
            continue
        (seat,) = ENGINE.to_move(state)
        assert seat not in left
        state, _ = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_moves(state, seat)))
    result = ENGINE.result(state)
    assert result is not None
    assert result["winners"] and not set(result["winners"]) & left
    assert set(result["ranking"][players - len(left):]) == left and result["resigned"] == sorted(left)
