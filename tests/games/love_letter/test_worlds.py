"""Worlds for a search bot (``Engine.sample_world``, ``worlds.py``): a state drawn from one seat's view and the events
it saw in the latest ``world_history_moves`` moves, as the platform hands them.

A world must show the seat exactly its view, play on to the end of the game (later rounds shuffled from a seed of
its own), keep every card the seat knows where it is, and arrange the rest as a uniform shuffle of the cards the
seat has not seen: the real hidden cards no likelier than any others.
"""

from __future__ import annotations

import itertools
import json
import math
import random
from collections import Counter

import pytest

from games.love_letter import ENGINE, cards, worlds

from . import deal, play

WINDOW = ENGINE.world_history_moves
MOVE_CAP = 3000


def random_game(players: int, edition: str, seed: int, resign: float = 0.0) -> list[tuple[dict, list[list]]]:
    """Return every position of a seeded random game with the events of each move before it (a seat may resign)."""
    rng = random.Random(seed)
    state = ENGINE.setup([f"P{seat}" for seat in range(players)], {"edition": edition}, f"worlds-{seed}")
    moves: list[list] = []
    positions = [(state, [])]
    while ENGINE.to_move(state):
        staying = [seat for seat in range(players) if not state["left"][seat]]
        if rng.random() < resign:
            state, events = ENGINE.resign(state, rng.choice(staying))
        else:
            seat = ENGINE.to_move(state)[0]
            state, events = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_moves(state, seat)))
        moves = [*moves, events]
        positions.append((state, moves))
    return positions


def seen(state: dict, moves: list[list], seat: int) -> tuple[dict, list[dict]]:
    """Return the seat's view and visible history as a bot receives them: JSON, the window's latest moves only."""
    view = json.loads(json.dumps(ENGINE.view(state, seat)))
    recent = moves[len(moves) - WINDOW:] if len(moves) > WINDOW else moves
    return view, [event.to_json() for events in recent for event in events if event.visible_for(seat)]


def play_out(world: dict, rng: random.Random) -> dict:
    for _move in range(MOVE_CAP):
        if not ENGINE.to_move(world):
            return world
        seat = ENGINE.to_move(world)[0]
        world, _events = ENGINE.apply(world, seat, rng.choice(ENGINE.legal_moves(world, seat)))
    raise AssertionError("the world did not end")


def real_fits(state: dict, plan) -> bool:
    """Tell whether the real hidden cards meet everything the plan holds the seat knows (any order within a hand)."""
    base: list = [None] * len(plan.base)
    if plan.set_aside is not None:
        base[plan.set_aside] = state["set_aside"]
    base[plan.deck:] = state["deck"]
    hands = [list(itertools.permutations(state["hands"][other])) for other, _first, _count in plan.hands]
    for orders in itertools.product(*hands):
        real = list(base)
        for (_other, first, count), order in zip(plan.hands, orders):
            real[first:first + count] = order
        if all(card is None or real[i] == card for i, card in enumerate(plan.base)) \
                and all(real[i] in kinds for i, kinds in plan.unary) \
                and all(real[i] == real[j] for i, j in plan.pairs) \
                and _groups_fit(real, plan.base, plan.groups):
            return True
    return False


def _groups_fit(real: list, base: list, groups: list) -> bool:
    if not groups:
        return True
    (card, members), rest = groups[0], groups[1:]
    return any(real[i] == card and base[i] is None and _groups_fit(real, [*base[:i], card, *base[i + 1:]], rest)
               for i in members)


TABLES = [
    pytest.param(2, "classic", 1, 0.0, id="classic-2p"),
    pytest.param(3, "classic", 2, 0.0, id="classic-3p"),
    pytest.param(4, "classic", 3, 0.0, id="classic-4p"),
    pytest.param(2, "2019", 4, 0.0, id="2019-2p"),
    pytest.param(3, "2019", 5, 0.0, id="2019-3p"),
    pytest.param(4, "2019", 6, 0.0, id="2019-4p"),
    pytest.param(6, "2019", 7, 0.01, id="2019-6p-resigning"),
]


@pytest.mark.parametrize(("players", "edition", "seed", "resign"), TABLES)
def test_at_every_move_every_seat_gets_its_view_back_and_the_world_plays_to_the_end(players, edition, seed, resign):
    positions = random_game(players, edition, seed, resign)
    followed = 0
    for index, (state, moves) in enumerate(positions):
        for seat in range(players):
            view, history = seen(state, moves, seat)
            world = ENGINE.sample_world(view, history, seat, random.Random(f"{seed}:{index}:{seat}"))
            assert ENGINE.view(world, seat) == view, (index, seat)
            assert json.loads(json.dumps(world)) == world
            assert "deck" not in world["options"] and world["seed"] != state["seed"]
            assert Counter(world["deck"] + [world["set_aside"]] + sum(world["hands"], [])) \
                == Counter(state["deck"] + [state["set_aside"]] + sum(state["hands"], []))
            if state["phase"] != "over":
                # The window always holds the round, and what the seat is taken to know is true of the real cards.
                assert worlds.follow_round(view, history, seat) is not None, (index, seat)
                assert real_fits(state, worlds.plan(view, history, seat)), (index, seat)
                followed += 1
            if (index + seat) % 3 == 0 or index == len(positions) - 2:
                end = play_out(world, random.Random(index * 10 + seat))
                assert ENGINE.result(end) is not None
    assert followed > 40


def test_positions_with_knowledge_of_other_hands_are_common_and_true():
    """Looks, Chancellor cards, Guard misses and Baron ties all occur in these games, and the real cards fit them."""
    found = Counter()
    for seed in range(8):
        edition = cards.EDITIONS[seed % 2]
        for state, moves in random_game(2 + seed % 3, edition, 100 + seed)[::2]:
            if state["phase"] == "over":
                continue
            for seat in range(len(state["players"])):
                view, history = seen(state, moves, seat)
                plan = worlds.plan(view, history, seat)
                found["known card"] += any(card is not None for card in plan.base)
                found["excluded kinds"] += bool(plan.unary)
                found["card in one of"] += bool(plan.groups)
                assert real_fits(state, plan)
    assert found["known card"] > 50 and found["excluded kinds"] > 50, found


def test_a_world_is_the_same_for_the_same_rng_and_depends_on_nothing_else():
    state, moves = random_game(3, "2019", 11)[20]
    seat = ENGINE.to_move(state)[0]
    view, history = seen(state, moves, seat)
    first = ENGINE.sample_world(view, history, seat, random.Random(5))
    random.seed(99)  # the global generator is never read
    again = ENGINE.sample_world(json.loads(json.dumps(view)), list(history), seat, random.Random(5))
    assert first == again
    assert ENGINE.sample_world(view, history, seat, random.Random(6)) != first


def test_worlds_share_nothing_with_the_view_and_playing_one_leaves_the_others_alone():
    state, moves = random_game(4, "classic", 12)[15]
    seat = ENGINE.to_move(state)[0]
    view, history = seen(state, moves, seat)
    kept = json.loads(json.dumps(view))
    rng = random.Random(1)
    one, other = ENGINE.sample_world(view, history, seat, rng), ENGINE.sample_world(view, history, seat, rng)
    before = json.loads(json.dumps(other))
    play_out(one, random.Random(2))
    assert view == kept and other == before and ENGINE.view(other, seat) == view


def test_without_the_round_in_the_history_the_view_alone_is_used():
    state, moves = random_game(3, "classic", 13)[30]
    seat = ENGINE.to_move(state)[0]
    view, _history = seen(state, moves, seat)
    assert view["round"] > 1
    assert worlds.follow_round(view, [], seat) is None
    world = ENGINE.sample_world(view, [], seat, random.Random(0))
    assert ENGINE.view(world, seat) == view
    assert ENGINE.result(play_out(world, random.Random(0))) is not None


def test_the_older_engine_version_plays_a_world_too():
    state, moves = random_game(2, "classic", 14)[9]
    seat = ENGINE.to_move(state)[0]
    world = ENGINE.sample_world(*seen(state, moves, seat), seat, random.Random(0))
    old = ENGINE.at_version(1)
    assert old.view(world, seat) == ENGINE.view(state, seat)
    old.apply(world, seat, old.legal_moves(world, seat)[0])


# -- what the seat saw stays where it is -------------------------------------------------------------------------


def scripted(state: dict, events: list, seat: int, count: int = 300, seed: int = 0) -> list[dict]:
    """Return ``count`` worlds for ``seat`` after a scripted game (the game's whole history is in the window)."""
    view = json.loads(json.dumps(ENGINE.view(state, seat)))
    history = [event.to_json() for event in events if event.visible_for(seat)]
    rng = random.Random(seed)
    drawn = [ENGINE.sample_world(view, history, seat, rng) for _ in range(count)]
    assert all(ENGINE.view(world, seat) == view for world in drawn[:20])
    return drawn


def priest_look():
    """Alice looks at Bob's Baron; Bob plays the Prince on Carol and keeps the Baron; Carol's Guard misses Bob."""
    state = deal(["guard", "baron", "handmaid"], ["priest", "prince", "guard", "guard", "countess"])
    return play(state, {"card": "priest", "target": 1}, {"card": "prince", "target": 2},
                {"card": "guard", "target": 1, "guess": "princess"})


def test_a_card_seen_with_the_priest_stays_in_the_hand_in_every_world():
    state, events = priest_look()
    assert state["current"] == 0 and state["hands"][1] == ["baron"]
    assert all(world["hands"][1] == ["baron"] for world in scripted(state, events, 0))
    # Carol saw nothing: Bob's card is anything but the Princess she named (drawn among the cards she has not seen).
    held = Counter(world["hands"][1][0] for world in scripted(state, events, 2, 600))
    assert "princess" not in held and len(held) >= 4 and held["baron"] < 300


def test_a_look_is_dropped_once_the_seen_card_may_have_been_played():
    state = deal(["priest", "guard", "handmaid"], ["guard", "guard", "countess"])
    state, events = play(state, {"card": "priest", "target": 1}, {"card": "guard", "target": 2, "guess": "king"})
    # Alice saw a Guard; Bob drew a second Guard and played one: he holds either.
    assert state["hands"][1] == ["guard"]
    held = Counter(world["hands"][1][0] for world in scripted(state, events, 0, 600))
    assert held["guard"] < 500 and len(held) >= 4


def test_the_king_and_the_baron_tell_both_sides_what_the_other_holds():
    state = deal(["guard", "handmaid", "priest"], ["king", "baron", "countess"])
    state, events = play(state, {"card": "king", "target": 1})  # Alice gives Bob her Guard and takes his Handmaid
    assert state["hands"][1] == ["guard", "baron"]  # and Bob has drawn
    assert all(world["hands"][1][0] == "guard" for world in scripted(state, events, 0, 100))
    state, events2 = play(state, {"card": "baron", "target": 0})  # Bob (Guard) against Alice (Handmaid): Bob is out
    assert not state["in_round"][1]
    worlds_ = scripted(state, events + events2, 2, 300)  # Carol saw only that Alice's card beat a Guard
    assert all(cards.value("classic", world["hands"][0][0]) > 1 for world in worlds_)


def test_the_cards_the_seat_put_under_the_deck_stay_there_in_its_order():
    state = deal(["spy", "guard"], ["chancellor", "priest", "baron", "handmaid", "guard"], edition="2019")
    state, events = play(state, {"card": "chancellor"}, {"keep": "spy", "bottom": ["priest", "baron"]},
                         {"card": "handmaid"})
    assert state["current"] == 0 and state["deck"][-2:] == ["priest", "baron"]
    drawn = scripted(state, events, 0)
    assert all(world["deck"][-2:] == ["priest", "baron"] for world in drawn)
    assert len({tuple(world["deck"][:-2]) for world in drawn}) > 250  # the rest of the deck is shuffled
    # Bob saw two cards go under the deck, not which: to him the bottom is as unknown as the rest.
    assert len({world["deck"][-1] for world in scripted(state, events, 1, 300)}) >= 5


# -- the spread: each unseen card as likely as the counts make it ----------------------------------------------------

DRAWS = 3000


def chi_square_limit(df: int, z: float = 4.265) -> float:
    """Return the chi-square value a fair draw exceeds with probability about 1e-5 (Wilson–Hilferty)."""
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def assert_spread(found: Counter, unseen: dict[str, int]) -> None:
    total, draws = sum(unseen.values()), sum(found.values())
    assert set(found) <= {card for card, count in unseen.items() if count}
    expected = {card: draws * count / total for card, count in unseen.items() if count}
    statistic = sum((found[card] - e) ** 2 / e for card, e in expected.items())
    assert statistic < chi_square_limit(len(expected) - 1), (found, expected)


def spread_position() -> tuple[dict, list]:
    """Four players (classic): Alice played the Handmaid and Bob, to move, has seen nothing of another hand."""
    state = deal(["guard", "priest", "baron", "prince"], ["handmaid", "countess"])
    return play(state, {"card": "handmaid"})


def test_every_hidden_place_holds_each_unseen_card_as_often_as_the_counts_say():
    state, events = spread_position()
    drawn = scripted(state, events, 1, DRAWS, seed=7)
    view = ENGINE.view(state, 1)
    unseen = {row["card"]: row["unseen"] for row in view["tracker"]["cards"]}
    assert sum(unseen.values()) == 13
    places = {"Alice's hand": lambda w: w["hands"][0][0], "Carol's hand": lambda w: w["hands"][2][0],
              "Dave's hand": lambda w: w["hands"][3][0], "the set-aside card": lambda w: w["set_aside"],
              "the deck's top": lambda w: w["deck"][0], "the deck's bottom": lambda w: w["deck"][-1]}
    for place, card_at in places.items():
        assert_spread(Counter(card_at(world) for world in drawn), unseen)


def test_after_a_look_the_other_places_share_the_cards_the_seat_has_not_seen():
    state, events = priest_look()
    drawn = scripted(state, events, 0, DRAWS, seed=8)
    unseen = {row["card"]: row["unseen"] for row in ENGINE.view(state, 0)["tracker"]["cards"]}
    unseen["baron"] -= 1  # in Bob's hand, and Alice knows it
    for card_at in (lambda w: w["hands"][2][0], lambda w: w["deck"][0], lambda w: w["set_aside"]):
        assert_spread(Counter(card_at(world) for world in drawn), unseen)


def test_a_guard_that_missed_leaves_its_target_any_other_unseen_card_in_proportion():
    state = deal(["guard", "priest", "baron"], ["handmaid"])
    state, events = play(state, {"card": "guard", "target": 1, "guess": "king"})
    drawn = scripted(state, events, 2, DRAWS, seed=9)  # Carol watched the Guard miss
    unseen = {row["card"]: row["unseen"] for row in ENGINE.view(state, 2)["tracker"]["cards"]}
    unseen["king"] = 0
    assert_spread(Counter(world["hands"][1][0] for world in drawn), unseen)


def test_the_real_hidden_cards_are_not_favoured():
    state, events = spread_position()
    drawn = scripted(state, events, 1, DRAWS, seed=10)
    unseen = {row["card"]: row["unseen"] for row in ENGINE.view(state, 1)["tracker"]["cards"]}
    for seat in (0, 2, 3):
        real = state["hands"][seat][0]
        share = unseen[real] / 13
        hits = sum(world["hands"][seat] == state["hands"][seat] for world in drawn)
        # Within five standard deviations of its share (the real card is one of 13 unseen, no more).
        assert abs(hits - DRAWS * share) < 5 * math.sqrt(DRAWS * share * (1 - share)), (seat, real, hits)
    hidden = [(world["hands"][0], world["hands"][2], world["hands"][3], world["set_aside"], world["deck"])
              for world in drawn]
    real_hidden = (state["hands"][0], state["hands"][2], state["hands"][3], state["set_aside"], state["deck"])
    assert hidden.count(real_hidden) <= 1
