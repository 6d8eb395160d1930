"""Love Letter ``basic`` bot: the key heuristics, each from a scripted deal (classic unless told)."""

from __future__ import annotations

import random

import pytest

from games.bots import bot_move
from games.love_letter import cards
from games.love_letter.bots import BasicBot, follow_looks
from games.love_letter.engine import LoveLetterEngine

ENGINE = LoveLetterEngine()


def deal(top: list[str], *, edition: str = "classic") -> list[str]:
    """Return a full deck starting with ``top`` (set-aside, face-up cards, deal, draws), the rest in value order."""
    rest = cards.full_deck(edition)
    for card in top:
        rest.remove(card)
    return [*top, *rest]


def start(top: list[str], *, edition: str = "classic", players: int = 2, seed: str = "bots"):
    deck = deal(top, edition=edition)
    options = ENGINE.validate_options(players, {"edition": edition, "deck": deck, "first_player": 0})
    return ENGINE.setup([f"p{seat}" for seat in range(players)], options, seed)


def run(state, script):
    """Apply ``(seat, move)`` pairs; return the state and the events."""
    history = []
    for seat, move in script:
        state, events = ENGINE.apply(state, seat, move)
        history.extend(events)
    return state, history


def ask(state, history=(), seed="bots"):
    seat = ENGINE.to_move(state)[0]
    return bot_move(ENGINE, "basic", state, seat, list(history), seed=seed)


# set-aside, the three face-up cards of a 2-player round, seat 0's card, seat 1's card, seat 0's draw
REMOVED = ["prince", "guard", "guard", "guard"]


def test_basic_names_the_card_it_saw_with_the_priest():
    state = start([*REMOVED, "priest", "baron", "guard", "priest", "handmaid"])
    # Seat 0 looks at seat 1's Baron; seat 1 plays its other card (a Priest) and keeps the Baron.
    state, history = run(state, [(0, {"card": "priest", "target": 1}), (1, {"card": "priest", "target": 0})])
    assert state["hands"][0] == ["guard", "handmaid"]
    assert ask(state, history) == {"card": "guard", "target": 1, "guess": "baron"}


def test_a_look_goes_stale_when_the_seen_card_may_have_been_played():
    state = start(["prince", "baron", "baron", "handmaid", "priest", "guard", "countess", "guard"])
    # Seat 0 sees a Guard; seat 1 drew a second Guard and played one: it may have kept either card.
    state, history = run(
        state, [(0, {"card": "priest", "target": 1}), (1, {"card": "guard", "target": 0, "guess": "king"})]
    )
    view = ENGINE.view(state, 0)
    assert follow_looks(view, [event.to_json() for event in history]) == {}


def test_basic_never_plays_the_princess_when_it_has_another_card():
    checked = 0
    for number in range(60):
        edition = "2019" if number % 2 else "classic"
        players = 2 + number % 3
        options = ENGINE.validate_options(players, {"edition": edition})
        state = ENGINE.setup([f"p{seat}" for seat in range(players)], options, f"princess-{number}")
        history = []
        while not ENGINE.is_over(state):
            seat = ENGINE.to_move(state)[0]
            moves = ENGINE.legal_moves(state, seat)
            move = bot_move(ENGINE, "basic", state, seat, history, seed=number)
            if "princess" in state["hands"][seat] and any(m.get("card") not in (None, "princess") for m in moves):
                checked += 1
                assert move.get("card") != "princess", (state["hands"][seat], moves)
            state, events = ENGINE.apply(state, seat, move)
            history.extend(events)
    assert checked > 20


def test_basic_plays_the_countess_next_to_the_princess():
    state = start([*REMOVED, "princess", "baron", "countess"])
    assert ask(state) == {"card": "countess"}


def test_basic_keeps_the_baron_when_its_other_card_is_low():
    state = start([*REMOVED, "baron", "handmaid", "guard"])
    move = ask(state)
    assert move["card"] == "guard" and move["guess"] != "guard"


def test_basic_plays_the_baron_when_its_other_card_is_high():
    state = start([*REMOVED, "baron", "handmaid", "countess"])
    assert ask(state) == {"card": "baron", "target": 1}


def test_basic_plays_the_prince_on_a_known_princess():
    state = start([*REMOVED, "priest", "princess", "baron", "guard", "prince"])
    # Seat 0 sees the Princess; seat 1 misses with its Guard and still holds her.
    state, history = run(
        state, [(0, {"card": "priest", "target": 1}), (1, {"card": "guard", "target": 0, "guess": "king"})]
    )
    assert sorted(state["hands"][0]) == ["baron", "prince"]
    assert ask(state, history) == {"card": "prince", "target": 1}


def test_basic_aims_its_guard_at_the_token_leader():
    state = start(["prince", "guard", "princess", "guard"], players=3)
    state["tokens"] = [0, 1, 3]
    move = ask(state)
    assert move["card"] == "guard" and move["target"] == 2


def test_chancellor_keeps_the_best_card_and_buries_the_higher_one_deepest():
    # 2019, 2 players: set-aside, three face-up cards, seat 0, seat 1, seat 0's draw, then the two Chancellor draws.
    top = ["spy", "guard", "guard", "guard", "chancellor", "baron", "guard", "countess", "priest"]
    state = start(top, edition="2019")
    state, history = run(state, [(0, {"card": "chancellor"})])
    assert sorted(state["hands"][0]) == ["countess", "guard", "priest"]
    assert ask(state, history) == {"keep": "countess", "bottom": ["guard", "priest"]}


def test_basic_is_deterministic_for_a_seed():
    state = start([*REMOVED, "priest", "baron", "guard"])
    view, moves = ENGINE.view(state, 0), ENGINE.legal_moves(state, 0)
    picks = {str(BasicBot().choose(view, moves, [], random.Random(7))) for _ in range(5)}
    assert len(picks) == 1
    assert ask(state, seed=3) == ask(state, seed=3)


@pytest.mark.parametrize("players", [2, 6])
def test_basic_plays_the_2019_edition_to_the_end(players):
    options = ENGINE.validate_options(players, {"edition": "2019"})
    state = ENGINE.setup([f"p{seat}" for seat in range(players)], options, f"2019-{players}")
    history = []
    while not ENGINE.is_over(state):
        seat = ENGINE.to_move(state)[0]
        move = bot_move(ENGINE, "basic", state, seat, history, seed=players)
        state, events = ENGINE.apply(state, seat, move)
        history.extend(events)
    assert ENGINE.result(state)["winners"]
