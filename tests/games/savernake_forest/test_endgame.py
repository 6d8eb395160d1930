"""The end after 15 rounds, final scoring and tie-breaks (rules file §9, §10, §11, §13)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from games.base import IllegalMove
from games.savernake_forest import ENGINE, cards, scoring

from . import NAMES, act, animal, only, path, with_forest


def random_game(n: int, seed: int, stop_before_last: bool = False, **options) -> dict:
    """Play seeded random legal moves; stop at the very last turn of round 15 if asked."""
    state = ENGINE.setup(NAMES[:n], options, seed)
    rng = random.Random(seed)
    while not ENGINE.is_over(state):
        if stop_before_last and state["round"] == cards.ROUNDS and len(state["order"]) == 1:
            return state
        (seat,) = ENGINE.to_move(state)
        state, _ = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_moves(state, seat)))
    return state


@pytest.mark.parametrize("n", [2, 3, 4])
def test_the_game_ends_after_15_rounds_with_full_4x4_forests(n):
    state = random_game(n, seed=n)
    assert state["round"] == 15 and state["turn"] == 15 * n
    for forest in state["forests"]:
        cells = {(e["x"], e["y"]) for e in forest}
        xs, ys = {x for x, _ in cells}, {y for _, y in cells}
        assert len(forest) == 16 and len(cells) == 16 and len(xs) == 4 and len(ys) == 4
    assert state["path_deck"] == [] and len(state["animal_deck"]) == 19 - n - 15
    placed = [e["card"] for forest in state["forests"] for e in forest]
    assert Counter(placed + state["discard"] + state["animal_deck"]) == Counter(cards.ALL_IDS)
    assert all(card is None for card in state["market"].values())
    result = ENGINE.result(state)
    sheets = [scoring.forest_scores(forest) for forest in state["forests"]]
    assert result["scores"] == [sheet["total"] for sheet in sheets]
    assert result["stored"] == [sheet["stored"] for sheet in sheets]
    assert result["ranking"][0] in result["winners"] and result["draw"] is False
    assert ENGINE.to_move(state) == [] and ENGINE.legal_moves(state, 0) == []
    with pytest.raises(IllegalMove, match="The game is over"):
        ENGINE.apply(state, 0, {"slot": "rooster", "x": 0, "y": 0, "rot": 0})
    view = ENGINE.view(state, None)
    assert view["phase"] == "over" and view["result"] == result and view["current"] is None


def finish(forests: list[list[dict]], n: int = 2, **options) -> tuple[dict, list, dict]:
    """Replace every forest just before the last turn, then play a food-less card that joins nothing."""
    state = random_game(n, seed=11, stop_before_last=True, **options)
    (last,) = ENGINE.to_move(state)
    for seat, forest in enumerate(forests):
        state = with_forest(state, seat, forest)
    market = {"rooster": "DC12", "goat": None, "armadillo": None, "rabbit": None}
    state = with_forest(state, last, forests[last], market=market)
    after, events = act(state, {"slot": "rooster", "x": 0, "y": 1, "rot": 0})
    return after, events, state


FOX_6_ONE = [animal("AN01"), path("ST02", 0, -1)]  # 4 + 2, one food stored
HEDGEHOG_6_ONE = [animal("AN05"), path("ST01", 0, -1)]  # 5 + 1, one food stored
SKUNK_6_TWO = [animal("AN04"), path("ST07", 0, -1)]  # 2 + 2 + 2, two foods stored
OWL_11 = [animal("AN06"), path("ST14", 0, -1)]  # 5 + 3 + 3


def test_the_highest_score_wins():
    state, events, _ = finish([OWL_11, SKUNK_6_TWO])
    result = ENGINE.result(state)
    assert result["scores"] == [11, 6] and result["winners"] == [0] and result["ranking"] == [0, 1]
    assert result["summary"] == "Alice wins with 11 points (Bob 6)"
    assert only(events, "game_scored").data == {"scores": [11, 6], "stored": [2, 2], "winners": [0], "ranking": [0, 1]}


def test_with_the_stored_food_tie_break_tied_points_go_to_the_player_who_stored_more_food():
    state, events, _ = finish([FOX_6_ONE, SKUNK_6_TWO], tie_break="stored_food")
    result = ENGINE.result(state)
    assert result["scores"] == [6, 6] and result["stored"] == [1, 2]
    assert result["winners"] == [1] and result["ranking"] == [1, 0] and result["shared"] is False
    assert result["summary"] == "Bob wins with 6 points, on stored food (2–1) (Alice 6)"
    assert only(events, "game_scored").data["winners"] == [1]


def test_by_default_equal_totals_share_the_win_as_the_original_text_names_only_the_highest_total():
    state, events, _ = finish([FOX_6_ONE, SKUNK_6_TWO])
    result = ENGINE.result(state)
    assert result["scores"] == [6, 6] and result["stored"] == [1, 2]
    assert result["winners"] == [0, 1] and result["ranking"] == [0, 1] and result["shared"] is True
    assert result["draw"] is False
    assert result["summary"] == "Alice and Bob share the victory with 6 points each"
    assert only(events, "game_scored").data == {"scores": [6, 6], "stored": [1, 2], "winners": [0, 1],
                                                "ranking": [0, 1]}
    text = ENGINE.describe_event(only(events, "game_scored"), NAMES[:2], None)
    assert text == "Final scores: Alice 6, Bob 6. Alice and Bob share the victory."


@pytest.mark.parametrize("tie_break", ["stored_food", "shared"])
def test_still_tied_players_share_the_victory(tie_break):
    state, events, _ = finish([FOX_6_ONE, HEDGEHOG_6_ONE, OWL_11[:1]], n=3, tie_break=tie_break)
    result = ENGINE.result(state)
    assert result["scores"] == [6, 6, 5] and result["winners"] == [0, 1]
    assert result["shared"] is True and result["draw"] is False
    assert result["summary"] == "Alice and Bob share the victory with 6 points and 1 stored food each (Carol 5)"
    text = ENGINE.describe_event(only(events, "game_scored"), NAMES[:3], 1)
    assert text == "Final scores: Alice 6, Bob 6, Carol 5. Alice and You share the victory."


def test_end_of_game_resolution_keeps_the_best_animal_and_loses_its_rivals_tokens():
    shared = [animal("AN01", 0, 0, 1, drops="B", burrows=1), path("ST07", 1, 0, 1), animal("AN06", 2, 0, 3)]
    state, events, before = finish([shared, FOX_6_ONE], shared_path_resolution="end_of_game")
    flip = only(events, "animal_turned_down").data
    assert flip == {"seat": 0, "card": "AN01", "survivor": "AN06", "drops": 1, "burrows": 1, "final": True}
    assert ENGINE.result(state)["scores"] == [11, 6]
    assert next(e for e in state["forests"][0] if e["card"] == "AN01")["up"] is False
    assert state["supply"] == before["supply"]  # lost, not returned to the supply
    assert "At final scoring" in ENGINE.describe_event(only(events, "animal_turned_down"), NAMES[:2], None)
