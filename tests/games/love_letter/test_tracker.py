"""Card tracker (rules §8): counts and odds from one viewer's knowledge only."""

from __future__ import annotations

import random

import pytest

from games.love_letter import ENGINE

from . import act, deal
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
        "known": None,
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
    assert all(entry["known"] is None for entry in track["opponents"])
    assert rows(track)["priest"]["unseen"] == 1  # only the played Priest is accounted for


def test_given_priest_look_then_card_is_known_until_the_target_plays():
    state = deal(["guard", "baron", "guard"], ["priest", "handmaid"])
    state, _ = act(state, {"card": "priest", "target": 1})
    # Bob has drawn (his turn): he still certainly holds the Baron, next to one unknown card.
    track = tracker(state, 0)
    assert opponent(track, 1)["known"] == "baron" and opponent(track, 1)["unknown_count"] == 1
    assert rows(track)["baron"]["unseen"] == 1
    assert opponent(tracker(state, 2), 1)["known"] is None  # Carol never saw it
    state, _ = act(state, {"card": "handmaid"})
    # Bob played: he may have played the seen card or kept it, so the look is stale (§8 note).
    assert opponent(tracker(state, 0), 1)["known"] is None


def test_given_king_trade_then_each_side_knows_the_card_it_gave():
    state = deal(["baron", "priest", "guard"], ["king"])
    state, _ = act(state, {"card": "king", "target": 1})
    assert opponent(tracker(state, 0), 1)["known"] == "baron"
    assert opponent(tracker(state, 1), 0)["known"] == "priest"
    assert opponent(tracker(state, 2), 0)["known"] is None


def test_given_baron_tie_then_both_sides_know_the_other_card():
    state = deal(["guard", "guard", "priest"], ["baron"])
    state, _ = act(state, {"card": "baron", "target": 1})
    assert opponent(tracker(state, 0), 1)["known"] == "guard"
    assert opponent(tracker(state, 1), 0)["known"] == "guard"
    assert opponent(tracker(state, 2), 1)["known"] is None


def test_given_prince_on_a_known_player_then_the_knowledge_is_dropped():
    state = deal(["guard", "baron", "guard", "guard"], ["priest", "guard", "prince"])
    state, _ = act(state, {"card": "priest", "target": 2})  # Alice sees Carol's Guard
    state, _ = act(state, {"card": "guard", "target": 3, "guess": "king"})  # Bob misses
    assert opponent(tracker(state, 0), 2)["known"] == "guard"
    state, _ = act(state, {"card": "prince", "target": 2})  # Carol on herself: discards the Guard
    assert opponent(tracker(state, 0), 2)["known"] is None


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
            for entry in track["opponents"]:
                if entry["known"] is not None:
                    assert entry["known"] in state["hands"][entry["seat"]]
