"""Text notation: parse_move, describe_move and notation_help."""

from __future__ import annotations

import pytest

from games.base import BadNotation
from games.love_letter import ENGINE

from . import act, deal


@pytest.fixture
def state():
    return deal(["guard", "priest", "baron"], ["guard"])


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("guard bob priest", {"card": "guard", "target": 1, "guess": "priest"}),
        ("Guard BOB Priests", {"card": "guard", "target": 1, "guess": "priest"}),
        ("guard #3 princess", {"card": "guard", "target": 2, "guess": "princess"}),
        ("guard, carol, king", {"card": "guard", "target": 2, "guess": "king"}),
        ("guard", {"card": "guard"}),
        ("priest carol", {"card": "priest", "target": 2}),
        ("baron bob", {"card": "baron", "target": 1}),
        ("prince self", {"card": "prince", "target": 0}),
        ("prince me", {"card": "prince", "target": 0}),
        ("prince bob", {"card": "prince", "target": 1}),
        ("king bob", {"card": "king", "target": 1}),
        ("handmaid", {"card": "handmaid"}),
        ("handmaiden", {"card": "handmaid"}),
        ("countess", {"card": "countess"}),
        ("princess", {"card": "princess"}),
        ("  HANDMAID  ", {"card": "handmaid"}),
    ],
)
def test_parse_move_reads_the_notation(state, text, move):
    assert ENGINE.parse_move(text, state, 0) == move


def test_parse_move_reads_2019_cards_and_chancellor_resolution():
    state = deal(["guard", "priest"], ["chancellor"], edition="2019")
    assert ENGINE.parse_move("spy", state, 0) == {"card": "spy"}
    assert ENGINE.parse_move("chancellor", state, 0) == {"card": "chancellor"}
    assert ENGINE.parse_move("guard bob spy", state, 0) == {"card": "guard", "target": 1, "guess": "spy"}
    assert ENGINE.parse_move("keep baron bottom guard priest", state, 0) == {
        "keep": "baron",
        "bottom": ["guard", "priest"],
    }
    assert ENGINE.parse_move("Keep Baron, bottom Guard", state, 0) == {"keep": "baron", "bottom": ["guard"]}


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "Write a move"),
        ("jester bob", "Unknown card 'jester'"),
        ("guard zoe priest", "No player called 'zoe'"),
        ("guard bob", "Name a card after the player"),
        ("guard bob wizard", "Unknown card 'wizard'"),
        ("handmaid bob", "chooses nobody"),
        ("spy", "no Spy in the classic edition"),
        ("priest #9", "no seat #9"),
        ("keep", "which card to keep"),
        ("keep baron guard", "bottom"),
    ],
)
def test_parse_move_rejects_unreadable_text_with_a_reason(state, text, reason):
    with pytest.raises(BadNotation, match=reason):
        ENGINE.parse_move(text, state, 0)


def test_describe_move_parses_back_for_every_legal_move_in_both_editions():
    for edition in ("classic", "2019"):
        state = deal(
            ["guard", "priest", "baron", "guard"],
            ["prince", "chancellor"] if edition == "2019" else ["prince"],
            edition=edition,
        )
        for move in ENGINE.legal_moves(state, 0):
            assert ENGINE.parse_move(ENGINE.describe_move(state, move), state, 0) == move
    assert ENGINE.describe_move(state, {"card": "guard", "target": 1, "guess": "priest"}) == "guard bob priest"
    assert ENGINE.describe_move(state, {"card": "prince", "target": 0}) == "prince self"


def test_describe_move_of_chancellor_resolution_parses_back():
    state = deal(["guard", "priest"], ["chancellor"], edition="2019")
    state, _ = act(state, {"card": "chancellor"})
    for move in ENGINE.legal_moves(state, 0):
        text = ENGINE.describe_move(state, move)
        assert text.startswith("keep ") and ENGINE.parse_move(text, state, 0) == move


@pytest.mark.parametrize("names", [["Mary Ann", "self", "#2"], ["Bob", "bob", "Guard"]])
def test_awkward_player_names_still_round_trip(names):
    state = ENGINE.setup(names, {"deck": _deck(), "first_player": 0}, seed=1)
    state["hands"] = [["guard", "king"], ["priest"], ["baron"]]  # surgery: Alice may target everyone
    state["current"] = 0
    for move in ENGINE.legal_moves(state, 0):
        assert ENGINE.parse_move(ENGINE.describe_move(state, move), state, 0) == move


def test_multi_word_names_and_seat_numbers_are_read():
    state = ENGINE.setup(["Mary Ann", "Bob"], {"deck": _deck(), "first_player": 1}, seed=1)
    assert ENGINE.parse_move("guard MARY  ann baron", state, 1) == {"card": "guard", "target": 0, "guess": "baron"}
    assert ENGINE.parse_move("king #1", state, 1) == {"card": "king", "target": 0}


def test_duplicate_names_must_use_seat_numbers():
    state = ENGINE.setup(["Bob", "bob"], {"deck": _deck(), "first_player": 0}, seed=1)
    with pytest.raises(BadNotation, match="#N"):
        ENGINE.parse_move("priest bob", state, 0)


def _deck():
    return [
        "princess",
        "guard",
        "guard",
        "guard",
        "priest",
        "baron",
        "guard",
        "guard",
        "priest",
        "baron",
        "handmaid",
        "handmaid",
        "prince",
        "prince",
        "king",
        "countess",
    ]


def test_notation_help_lists_how_to_write_each_kind_of_move():
    text = ENGINE.notation_help()
    for example in ("guard bob priest", "prince self", "handmaid", "keep baron bottom guard priest", "#N"):
        assert example in text
