"""Card tracker (rules §8): counts and odds from one viewer's knowledge only."""

from __future__ import annotations

import random

import pytest

from games.love_letter import ENGINE

from . import act, deal, private_texts
from .test_visibility import GAMES, perturbed, random_game


def tracker(state: dict, seat: int | None) -> dict:
    return ENGINE.view(state, seat)["tracker"]


def rows(track: dict) -> dict[str, dict]:
    return {row["card"]: row for row in track["cards"]}


def opponent(track: dict, seat: int) -> dict:
    return next(entry for entry in track["opponents"] if entry["seat"] == seat)


def test_given_new_two_player_round_then_unseen_counts_exclude_face_up_and_own_hand():
    state = deal(["guard", "priest"], ["baron"])  # set aside: Princess; face up: Countess, King, Prince
    track = tracker(state, 0)
    # Unknown to Alice: 9 deck cards, Bob's card and the set-aside card.
    assert track["unknown_cards"] == 11
    assert {card: row["unseen"] for card, row in rows(track).items()} == {
        "guard": 4,
        "priest": 2,
        "baron": 1,
        "handmaid": 2,
        "prince": 1,
        "king": 0,
        "countess": 0,
        "princess": 1,
    }
    assert rows(track)["guard"] == {"card": "guard", "value": 1, "copies": 5, "unseen": 4, "probability": 4 / 11}
    assert opponent(track, 1) == {
        "seat": 1,
        "unknown_count": 1,
        "probabilities": {row["card"]: row["probability"] for row in track["cards"]},
    }


@pytest.mark.parametrize("seat", [None, 0, 1, 2])
def test_unseen_counts_add_up_to_the_unknown_cards_and_odds_to_one(seat):
    state = deal(["guard", "priest", "baron"], ["priest", "guard"], edition="2019")
    state, _ = act(state, {"card": "priest", "target": 1})
    track = tracker(state, seat)
    assert sum(row["unseen"] for row in track["cards"]) == track["unknown_cards"]
    assert sum(row["probability"] for row in track["cards"]) == pytest.approx(1.0)


def test_given_spectator_then_tracker_uses_public_information_only():
    state = deal(["guard", "priest", "baron"], ["priest"])
    state, _ = act(state, {"card": "priest", "target": 1})
    track = tracker(state, None)
    # Deck, the three hands (Bob's 2 during his turn) and the set-aside card are unknown.
    assert track["unknown_cards"] == len(state["deck"]) + 4 + 1
    assert rows(track)["priest"]["unseen"] == 1  # only the played Priest is accounted for


def keys(value) -> set[str]:
    """Return every dict key anywhere in a JSON value."""
    if isinstance(value, dict):
        return set(value) | set().union(*(keys(item) for item in value.values()))
    if isinstance(value, list):
        return set().union(*(keys(item) for item in value))
    return set()


def test_given_priest_look_then_king_trade_then_no_view_states_what_anyone_knows_of_another_hand():
    # Alice holds Guard + Priest, Bob the Baron (then draws the King), Carol the Handmaid.
    state = deal(["guard", "baron", "handmaid"], ["priest", "king", "guard"])
    state, _ = act(state, {"card": "priest", "target": 1})  # Alice sees Bob's Baron
    state, _ = act(state, {"card": "king", "target": 2})  # Bob trades it to Carol for her Handmaid
    assert state["hands"] == [["guard"], ["handmaid"], ["baron", "guard"]]
    for seat in (None, 0, 1, 2):
        view = ENGINE.view(state, seat)
        # Rules §7.4: nothing in the view claims a card in another hand, however it was learnt.
        assert not {"known", "certain"} & keys(view)
        for entry in view["tracker"]["opponents"]:
            hand_count = view["seats"][entry["seat"]]["hand_count"]
            assert entry == {"seat": entry["seat"], "unknown_count": hand_count, "probabilities": entry["probabilities"]}
        # Only discards, the viewer's own hand (and face-up cards, none at three) are accounted for.
        own = view["hand"] or []
        for card, row in rows(view["tracker"]).items():
            discarded = sum(entry["card"] == card for seat_view in view["seats"] for entry in seat_view["discards"])
            assert row["unseen"] == row["copies"] - discarded - own.count(card), (seat, card)
        assert ENGINE.view(perturbed(state, seat, random.Random(seat or 0)), seat)["tracker"] == view["tracker"]
    # The two Barons: Alice saw one (now traded to Carol) and Bob gave it away; both still count it unseen.
    assert rows(tracker(state, 0))["baron"]["unseen"] == 2
    assert rows(tracker(state, 1))["baron"]["unseen"] == 2
    assert rows(tracker(state, 2))["baron"]["unseen"] == 1  # Carol holds it
    # What the look and the trade showed stays in the private logs, as moments in time.
    assert private_texts(ENGINE.view(state, 0), "priest_saw") == ["You saw Bob's card: Baron."]
    assert private_texts(ENGINE.view(state, 1), "king_traded") == [
        "King trade: You received the Handmaid, Carol received the Baron."
    ]
    assert "Baron 2" in ENGINE.view_text(ENGINE.view(state, 0))  # the email's count agrees


def test_given_baron_tie_then_the_tracker_still_counts_only_public_cards():
    state = deal(["guard", "guard", "priest"], ["baron"])
    state, _ = act(state, {"card": "baron", "target": 1})
    # Both saw a Guard in the other's hand; the tracker counts only the viewer's own Guard and the Baron.
    assert rows(tracker(state, 0))["guard"]["unseen"] == 4
    assert state["hands"][1] == ["guard", "guard"]  # Bob has drawn another: his own two only
    assert rows(tracker(state, 1))["guard"]["unseen"] == 3
    assert [entry["unknown_count"] for entry in tracker(state, 0)["opponents"]] == [2, 1]  # Bob's two, Carol's one


def test_given_states_differing_only_in_hidden_cards_then_tracker_is_the_same():
    state = deal(["guard", "baron", "guard"], ["priest", "handmaid"])
    state, _ = act(state, {"card": "priest", "target": 1})
    rng = random.Random(3)
    for seat in (None, 0, 1, 2):
        for _ in range(5):
            assert tracker(perturbed(state, seat, rng), seat) == tracker(state, seat)


@pytest.mark.parametrize(("edition", "players", "seed"), GAMES[:4])
def test_over_random_games_tracker_is_consistent_for_every_viewer(edition, players, seed):
    for state, _ in random_game(seed, edition, players):
        for seat in [None, *range(players)]:
            track = tracker(state, seat)
            assert all(row["unseen"] >= 0 for row in track["cards"])
            assert sum(row["unseen"] for row in track["cards"]) == track["unknown_cards"]
            assert [entry["unknown_count"] for entry in track["opponents"]] == [
                len(state["hands"][other]) for other in range(players) if other != seat and state["in_round"][other]
            ]
