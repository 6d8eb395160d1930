"""Hidden information: the deck orders and the seed leave the engine nowhere (rules file §12, issue 7).

Two games that differ only in cards still in the decks must give every viewer
identical views, events, legal moves, move notation, history lines and error
texts until those cards are dealt.
"""

from __future__ import annotations

import json
import random
import re

import pytest

from games.base import IllegalMove
from games.savernake_forest import ENGINE, cards

from . import NAMES, deck

STARTS = ["AN01", "AN02", "AN03"]
ROWS = [("ST07", "CU12", "CU05", "AN06"), ("DC01", "ST14", "CU18", "AN09")]


def two_games(seed_a="same", seed_b="same") -> tuple[dict, dict]:
    """Return two 3-player games with the same dealt cards and different undealt deck orders."""
    a = ENGINE.validate_options(3, {"deck": deck(STARTS, ROWS)})["deck"]  # both full orders
    b = {"paths": a["paths"][:6] + a["paths"][6:][::-1], "animals": a["animals"][:5] + a["animals"][5:][::-1]}
    one = ENGINE.setup(NAMES[:3], {"deck": a, "first_player": 0}, seed_a)
    two = ENGINE.setup(NAMES[:3], {"deck": b, "first_player": 0}, seed_b)
    return one, two


def fingerprint(state: dict) -> str:
    """Return everything any viewer can learn from ``state``, as one JSON text."""
    n = len(state["players"])
    moves = {seat: ENGINE.legal_moves(state, seat) for seat in range(n)}
    return json.dumps(
        {
            "views": [ENGINE.view(state, viewer) for viewer in (None, *range(n))],
            "to_move": ENGINE.to_move(state),
            "moves": moves,
            "texts": {seat: [ENGINE.describe_move(state, m) for m in moves[seat]] for seat in range(n)},
            "result": ENGINE.result(state),
        },
        sort_keys=True,
    )


def errors(state: dict) -> list[str]:
    """Return the error texts of a few illegal attempts by every seat."""
    found = []
    for seat in range(len(state["players"])):
        attempts = (
            {"slot": "goat", "x": 5, "y": 5, "rot": 0},
            {"slot": "rabbit", "x": 0, "y": -1, "rot": 0, "token": {}},
        )
        for move in attempts:
            try:
                ENGINE.apply(state, seat, move)
                found.append("ok")
            except IllegalMove as error:
                found.append(error.reason)
    return found


def events_json(events) -> str:
    lines = [[ENGINE.describe_event(e, NAMES[:3], viewer) for viewer in (None, 0, 1, 2)] for e in events]
    return json.dumps([[e.to_json() for e in events], lines], sort_keys=True)


@pytest.mark.parametrize("choices", range(4))
@pytest.mark.parametrize("seeds", [("same", "same"), ("seed-one", "seed-two")])
def test_games_differing_only_in_undealt_cards_or_seed_look_identical_to_everyone(choices, seeds):
    a, b = two_games(*seeds)
    assert a != b
    rng = random.Random(choices)
    # Round 1 and round 2 but its last turn (that one deals row 3, which differs).
    for _ in range(5):
        assert fingerprint(a) == fingerprint(b)
        assert errors(a) == errors(b)
        (seat,) = ENGINE.to_move(a)
        move = rng.choice(ENGINE.legal_moves(a, seat))
        a, events_a = ENGINE.apply(a, seat, move)
        b, events_b = ENGINE.apply(b, seat, move)
        assert events_json(events_a) == events_json(events_b)
    assert fingerprint(a) == fingerprint(b)
    assert a["round"] == 2 and a["path_deck"] != b["path_deck"]


@pytest.mark.parametrize("n", [2, 3, 4])
def test_no_output_names_an_undealt_card_or_the_seed(n):
    secret = f"secret-seed-{n}"
    state = ENGINE.setup(NAMES[:n], {}, secret)
    rng = random.Random(n)
    ids = re.compile(r"\b(?:AN|ST|CU|DC)\d\d\b")
    while not ENGINE.is_over(state):
        undealt = set(state["path_deck"]) | set(state["animal_deck"])
        for viewer in (None, *range(n)):
            text = json.dumps(ENGINE.view(state, viewer))
            assert secret not in text
            assert not undealt & set(ids.findall(text)), "a view names an undealt card"
        (seat,) = ENGINE.to_move(state)
        state, events = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_moves(state, seat)))
        undealt = set(state["path_deck"]) | set(state["animal_deck"])
        for event in events:
            assert event.visible_to is None  # everything that happens is public
            assert not undealt & set(ids.findall(json.dumps(event.to_json())))
            for viewer in (None, *range(n)):
                assert not undealt & set(ids.findall(ENGINE.describe_event(event, NAMES[:n], viewer)))


def test_every_seat_sees_the_same_picture_but_for_you():
    state, _ = two_games()
    views = [ENGINE.view(state, viewer) for viewer in (None, 0, 1, 2)]
    assert [v.pop("you") for v in views] == [None, 0, 1, 2]
    assert all(v == views[0] for v in views)
    assert views[0]["decks"] == {"paths": 45 - 3, "animals": 19 - 4}
    assert set(views[0]["cards"]) == {"AN01", "AN02", "AN03", "ST07", "CU12", "CU05", "AN06"}
    assert all(cards.exists(card) for card in views[0]["cards"])
