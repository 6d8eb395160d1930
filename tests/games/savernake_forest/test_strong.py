"""Savernake Forest's ``strong`` bot: a search over its best moves to the round's end, the basic bot playing the rest
of the round, each forest judged by what it scores and what the rounds left may bring (issue 48)."""

from __future__ import annotations

import dataclasses
import random

import pytest

from games import search
from games.bots import bot_move
from games.savernake_forest import strong
from games.savernake_forest.bots import BasicBot
from games.savernake_forest.engine import SavernakeForestEngine

ENGINE = SavernakeForestEngine()


def positions(resolution: str = "end_of_game", players: int = 3, count: int = 45):
    """Yield each position of a game between basic bots, with the seat to move."""
    options = ENGINE.validate_options(players, {"shared_path_resolution": resolution})
    state = ENGINE.setup([f"p{seat}" for seat in range(players)], options, f"strong-{resolution}")
    for number in range(count):
        if not ENGINE.to_move(state):
            return
        seat = ENGINE.to_move(state)[0]
        yield state, seat
        state, _events = ENGINE.apply(state, seat, bot_move(ENGINE, "basic", state, seat, [], seed=number))


@pytest.mark.parametrize("resolution", ["immediate", "end_of_game"])
def test_the_playout_scores_a_world_as_the_basic_bot_scores_the_seats_view(resolution):
    basic = BasicBot()
    for state, seat in positions(resolution, count=20):
        moves = ENGINE.legal_moves(state, seat)
        assert basic.scored(strong.world_view(state, seat), moves) == basic.scored(ENGINE.view(state, seat), moves)


def test_a_playout_weighs_a_bounded_draw_of_the_moves_fixed_by_the_position(monkeypatch):
    """A playout's basic bot scores at most PLAYOUT_MOVES forests a move, the same draw for the same position (so a
    search plays the same anywhere), and takes the best of them; with fewer moves, the best of all."""
    weighed = []
    scored = BasicBot.scored
    monkeypatch.setattr(BasicBot, "scored", lambda self, view, moves: weighed.append(len(moves)) or
                        scored(self, view, moves))
    basic, seen_many = BasicBot(), False
    for state, seat in positions(count=30):
        moves = ENGINE.legal_moves(state, seat)
        strong._playout_choices.cache_clear()
        weighed.clear()
        first = strong.playout(ENGINE, state, seat, moves, random.Random(1))
        assert weighed == [min(len(moves), strong.PLAYOUT_MOVES)]
        strong._playout_choices.cache_clear()
        assert strong.playout(ENGINE, state, seat, moves, random.Random(1)) == first
        values = dict((i, value) for value, i in scored(basic, strong.world_view(state, seat), moves))
        if len(moves) <= strong.PLAYOUT_MOVES:
            assert values[moves.index(first)] == max(values.values())
        else:
            seen_many = True
            assert values[moves.index(first)] >= sorted(values.values())[len(moves) // 2]
    assert seen_many


def test_the_prior_puts_first_the_move_whose_forest_is_worth_most():
    for state, seat in positions(count=12):
        view, moves = ENGINE.view(state, seat), ENGINE.legal_moves(state, seat)
        ranked = strong.prior(view, moves, [], random.Random(1))
        assert sorted(map(repr, ranked)) == sorted(map(repr, moves))
        forest = strong.forest_of(view, seat)
        market = {entry["slot"]: entry["card"] for entry in view["market"]}

        def worth(move):
            after = strong.after(forest, market[move["slot"]], move, False)
            total, stored = strong.worth(after, view["options"], strong.ROUNDS - view["round"])
            return total + (strong.ROOSTER if move["slot"] == "rooster" else 0.0), stored

        assert worth(ranked[0]) == max(map(worth, moves))
        assert worth(ranked[0]) >= worth(ranked[1]) >= worth(ranked[-1])


def test_prospects_count_free_places_on_open_paths_and_unclaimed_food_by_the_rounds_left():
    # The Fox (capacity 2) alone, its den's one exit open to the north; then a path of two eggs ends there.
    fox = [{"card": "AN01", "x": 0, "y": 0, "rot": 0, "up": True, "drops": [], "burrows": 0}]
    shape = strong.shape_of(fox)
    sheets = strong.sheets_of(fox, shape["groups"])
    assert strong.prospects(fox, shape, sheets, 0) == 0.0
    alone = strong.prospects(fox, shape, sheets, strong.ROUNDS)
    grow = strong.room_to_grow(fox, shape, sheets)
    assert alone == pytest.approx(grow + strong.FREE * 1)  # one open end: one free place of two may fill
    assert strong.prospects(fox, shape, sheets, strong.ROUNDS // 3) == pytest.approx(alone * (strong.ROUNDS // 3)
                                                                                   / strong.ROUNDS)
    path = [{"card": "ST08", "x": 5, "y": 5, "rot": 0}]  # a path far off, no animal on it: its foods unclaimed
    shape = strong.shape_of(path)
    foods = sum(len(group["foods"]) for group in shape["groups"])
    assert foods > 0
    assert strong.prospects(path, shape, {}, strong.ROUNDS) == pytest.approx(strong.UNCLAIMED * foods)


def test_the_judge_rates_each_forest_against_the_best_of_the_others():
    checked = 0
    for state, _seat in positions():
        same = dict(state, forests=[state["forests"][0]] * 3)
        assert strong.judge(ENGINE, same) == pytest.approx([0.5, 0.5, 0.5])
        worths = [strong.worth(forest, state["options"], strong.ROUNDS - state["round"])[0]
                  for forest in state["forests"]]
        judged = strong.judge(ENGINE, state)
        for seat in range(3):
            lead = worths[seat] - max(worths[other] for other in range(3) if other != seat)
            assert (judged[seat] > 0.5) == (lead > 0) and (judged[seat] < 0.5) == (lead < 0)
        checked += len(set(worths)) == 3
    assert checked > 10


def test_a_playout_ends_with_the_round():
    for state, seat in positions(count=7):
        after, _events = ENGINE.apply(state, seat, ENGINE.legal_moves(state, seat)[0])
        assert strong.round_over(state, after) == (after["round"] != state["round"])


def test_the_search_plays_one_of_its_best_moves_within_its_steps(monkeypatch):
    applied = []
    apply = ENGINE.apply

    def counted(state, seat, move):
        applied.append(move)
        return apply(state, seat, move)

    monkeypatch.setattr(ENGINE, "apply", counted)
    settings = dataclasses.replace(strong.SETTINGS, steps=24)  # the tests' own budget is a twentieth (conftest)
    bot = search.SearchBot(ENGINE, settings)
    for state, seat in list(positions(count=5))[1:4]:
        view, moves = ENGINE.view(state, seat), ENGINE.legal_moves(state, seat)
        applied.clear()
        move = bot.choose(view, moves, [], random.Random(3))
        best = strong.prior(view, moves, [], random.Random(3))[: strong.WIDTH]
        assert repr(move) in {repr(candidate) for candidate in best}
        # An iteration stops at the round's end: at most the three seats' moves past the last step counted.
        assert settings.steps <= len(applied) < settings.steps + 3


def test_the_strong_bot_is_offered_and_plays_a_whole_game():
    assert isinstance(ENGINE.bots()["strong"], search.SearchBot)
    state = ENGINE.setup(["a", "b"], ENGINE.validate_options(2, {}), "strong-whole")
    bots = ["strong", "basic"]
    for number in range(200):
        if not ENGINE.to_move(state):
            break
        seat = ENGINE.to_move(state)[0]
        state, _events = ENGINE.apply(state, seat, bot_move(ENGINE, bots[seat], state, seat, [], seed=number))
    assert ENGINE.result(state) is not None
