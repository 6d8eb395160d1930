"""The classic edition option (rules file §10, classic seed) on the classic-approx tile set (§12.3)."""

from __future__ import annotations

import pytest

from games.base import IllegalMove
from games.carcassonne_hg import ENGINE

from . import ALICE, BOB, act, game, kinds, legal_texts, only, play, position

CLASSIC = {"edition": "classic"}


def test_classic_setup_uses_the_volcano_start_tile_two_huts_and_twelve_bonus_tiles():
    state = ENGINE.setup(["A", "B"], CLASSIC, seed=3)
    assert [entry[:5] for entry in state["board"]] == [[0, 0, "C-S00-start", 0, None]]  # then its feature labels
    assert state["supply"] == [{"members": 5, "huts": 2}] * 2
    assert len(state["stack"]) == 77 and len(state["bonus_stack"]) == 12
    view = ENGINE.view(state, 0)
    assert view["edition"] == "classic" and view["tile_set"] == "classic-approx"
    assert view["options"]["forest_parts_count_separately"] is False
    assert view["options"]["unplaceable_tile"] == "redraw"


def test_a_gold_nugget_forest_gives_the_bonus_even_without_a_gatherer():
    state = game(["R-L34", "R-L37", "R-L62"], bonus=["C-B-fire"], **CLASSIC)
    state, events = play(state, "place 1,0 r0", "place 0,-1 r0")
    assert "bonus_earned" in kinds(events) and state["tile"] == "C-B-fire" and ENGINE.to_move(state) == [BOB]


def test_classic_meadows_score_2_for_every_deer_aurochs_and_mammoth():
    # The classic start meadow shows a mammoth; R-L62 a deer; R-L36 an aurochs.
    placed = [(0, 1, "R-L62", 0), (1, 1, "R-L36", 0)]
    state = position(placed, "R-L37", pieces=[(ALICE, "hunter", 0, 1, "m0")], **CLASSIC)
    state, events = act(state, "place 0,-1 r0")
    meadow = only(events, "meadow_scored").data
    assert (meadow["deer"], meadow["aurochs"], meadow["mammoth"], meadow["points"]) == (1, 1, 1, 6)


def test_classic_mushrooms_add_2_and_forests_count_tiles():
    placed = [(1, 0, "C-B-mushrooms", 90), (0, -1, "R-L37", 0)]
    pieces = [(BOB, "gatherer", 1, 0, "f1")]
    state = position(placed, "R-L35", pieces=pieces, stack=["R-L62"], bonus=[], **CLASSIC)
    state, events = act(state, "place 1,-1 r270")
    done = only(events, "feature_completed").data
    assert (done["tiles"], done["mushrooms"], done["points"]) == (4, 1, 4 * 2 + 2)


def test_classic_rivers_have_no_fish_of_their_own():
    state = game(["R-L19", "R-L00", "R-L62"], **CLASSIC)
    state, _ = play(state, "place -1,0 r0 fisherman river", "place -1,-1 r0")
    assert state["scores"] == [3 + 1 + 2, 0]  # R-L19's river fish is not in the classic set


def test_a_hunter_on_the_shrine_wins_its_meadow_alone():
    # The shrine tile on 0,1 (turned 270: meadow W and S) joins the start meadow; Bob has two hunters there, Alice one on the shrine.
    placed = [(0, 1, "C-B-shrine", 270), (-1, 1, "R-L62", 0), (-2, 1, "R-L62", 0)]
    pieces = [(ALICE, "hunter", 0, 1, "m0"), (BOB, "hunter", -1, 1, "m0"), (BOB, "hunter", -2, 1, "m0")]
    state = position(placed, "R-L37", pieces=pieces, **CLASSIC)
    state, events = act(state, "place 0,-1 r0")
    meadow = only(events, "meadow_scored").data
    assert meadow["shrine"] and meadow["scorers"] == [ALICE] and state["scores"][BOB] == 0


@pytest.mark.parametrize("free", [True, False])
def test_the_shrine_needs_a_free_meadow_unless_the_option_says_otherwise(free):
    # Bob's hunter stands in the start meadow; the shrine tile goes north of the start.
    pieces = [(BOB, "hunter", 0, 0, "m0")]
    state = position([], "C-B-shrine", pieces=pieces, bonus_turn=True, shrine_requires_free_meadow=free, **CLASSIC)
    move = "place 0,1 r270 hunter meadow"
    assert (move in legal_texts(state)) is not free
    if free:
        with pytest.raises(IllegalMove, match="already holds a tribe member"):
            act(state, move)


def test_the_classic_fire_keeps_the_tigers_away():
    placed = [(0, 1, "C-B-fire", 0), (-1, 1, "R-L31", 0)]
    state = position(placed, "R-L37", pieces=[(ALICE, "hunter", 0, 1, "m0")], **CLASSIC)
    state, events = act(state, "place 0,-1 r0")
    meadow = only(events, "meadow_scored").data
    assert meadow["fire"] and meadow["eaten"] == 0


def test_classic_bonus_tiles_have_no_immediate_powers():
    state = position([], "R-B93-logboat", bonus_turn=True, stack=["R-L62"], **CLASSIC)
    state, events = act(state, "place -1,0 r0")
    assert "logboat_scored" not in kinds(events) and state["scores"] == [0, 0]
