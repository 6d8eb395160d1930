"""The worked examples of the rules file's §9 ("usable as tests, from the classic rulebook"), played as games.

Each example is an actual game: a scripted land stack (engine-internal ``tiles``, ``bonus_tiles`` and
``first_player`` options) and the players' moves in turn, then the exact scores §9 gives. The examples
come from the classic rulebook, so they run in the classic edition (classic-approx tile set, §12.3:
revised land geometry, gold nuggets for menhirs, no river fish, the volcano start tile C-S00-start
with a mammoth in its north meadow, a nugget forest east and south, and a river west into a 1-fish
lake). Where §9 also states a revised value, the same game is played in the revised edition too.

Seats: Alice plays "red" (the majority), Bob "blue"/"yellow"; Alice starts.
"""

from __future__ import annotations

import pytest

from games.carcassonne_hg import ENGINE

from . import ALICE, BOB, CAROL, game, kinds, only, play

CLASSIC = {"edition": "classic"}


# -- rivers (§6: 1 per tile + fish in the end lakes) --------------------------------------------------


def test_a_river_of_3_tiles_between_lakes_of_1_and_2_fish_scores_3_plus_3():
    """River of 3 tiles ending in lakes with 1 and 2 fish: 3 + 3 = 6.

    The start's river (its lake: 1 fish) runs west through R-L46 (Alice's fisherman) into R-L00's
    2-fish lake, which Bob places.
    """
    state = game(["R-L46", "R-L00"], bonus=[], **CLASSIC)
    state, _ = play(state, "place -1,0 r0 fisherman river")
    state, events = play(state, "place -2,0 r90")
    done = only(events, "feature_completed").data
    assert (done["feature"], done["tiles"], done["lakes"], done["fish"]) == ("river", 3, 2, 1 + 2)
    assert done["points"] == 3 + 3 == 6 and done["scorers"] == [ALICE]
    assert state["scores"] == [6, 0] and state["pieces"] == []


def test_a_river_of_2_tiles_ending_in_a_1_fish_lake_scores_3_for_the_fisherman_not_the_placer():
    """Completed river of 2 tiles whose end lake holds 1 fish: 2 + 1 = 3.

    Alice's fisherman is on R-L02's river (flowing into its 1-fish lake) north of the start; Bob
    closes the river's other end with R-L68's source. Bob placed the completing tile, Alice scores.
    """
    state = game(["R-L02", "R-L68"], bonus=[], **CLASSIC)
    state, _ = play(state, "place 0,1 r180 fisherman river")
    state, events = play(state, "place -1,1 r270")
    done = only(events, "feature_completed").data
    assert (done["feature"], done["tiles"], done["lakes"], done["fish"]) == ("river", 2, 1, 1)
    assert done["points"] == 2 + 1 == 3 and done["scorers"] == [ALICE]
    assert only(events, "tile_placed").data["seat"] == BOB
    assert state["scores"] == [3, 0]


# -- forests (§6: 2 per tile; §4.4 classic gold-nugget bonus) ----------------------------------------


def test_a_forest_of_2_tiles_scores_4():
    """Forest of 2 tiles: 4. R-L37's forest (north edge only) closed by R-L36's (south edge only)."""
    state = game(["R-L37", "R-L36"], bonus=[], **CLASSIC)
    state, _ = play(state, "place 0,1 r0 gatherer forest")
    state, events = play(state, "place 0,2 r0")
    done = only(events, "feature_completed").data
    assert (done["feature"], done["tiles"], done["menhirs"], done["points"]) == ("forest", 2, 0, 4)
    assert done["scorers"] == [ALICE] and state["scores"] == [4, 0]
    assert "bonus_earned" not in kinds(events)  # no gold nugget in this forest


def test_a_forest_of_4_tiles_with_gold_nuggets_scores_8_and_its_closer_gets_the_bonus_tile():
    """Forest of 4 tiles with gold nuggets: 8 to the gatherer majority, the bonus tile to the closer.

    The start's nugget forest (east and south) runs through R-L39 (a nugget, Alice's gatherer) on 1,0
    to R-L34 on 2,0; Bob closes it with R-L37 on 0,-1 and, though he has no gatherer there, draws the
    bonus tile and plays it at once.
    """
    state = game(["R-L39", "R-L34", "R-L62", "R-L37"], bonus=["C-B-fire", "C-B-mushrooms"], **CLASSIC)
    state, _ = play(state, "place 1,0 r0 gatherer forest", "place 2,0 r0", "place 0,1 r0")
    state, events = play(state, "place 0,-1 r0")
    done = only(events, "feature_completed").data
    assert (done["feature"], done["tiles"], done["menhirs"]) == ("forest", 4, 2)
    assert done["points"] == 8 and done["scorers"] == [ALICE] and state["scores"] == [8, 0]
    assert only(events, "bonus_earned").data["seat"] == BOB
    assert ENGINE.to_move(state) == [BOB] and state["bonus"] is True and state["tile"] == "C-B-fire"
    state, events = play(state, "place 1,1 r0")
    placed = only(events, "tile_placed").data
    assert (placed["seat"], placed["tile"], placed["bonus"]) == (BOB, "C-B-fire", True)
    assert state["phase"] == "over" and state["scores"] == [8, 0]


def test_two_forests_joined_with_one_gatherer_each_both_score_8_for_4_tiles():
    """Two forests joined, 1 red + 1 blue gatherer, 4 tiles: both score 8.

    Alice's forest (R-L42 on 0,1, north and east) and Bob's (R-L67 on 1,0, its north part) are joined
    by R-L30 on 1,1; Bob closes the whole with R-L36 on 0,2.
    """
    state = game(["R-L42", "R-L67", "R-L30", "R-L36"], bonus=[], **CLASSIC)
    state, _ = play(state, "place 0,1 r0 gatherer forest", "place 1,0 r270 gatherer forest N")
    # Bob's gatherer is in R-L67's north part (f1), not in its west part, which joined the start's forest.
    pieces = [(p["seat"], p["x"], p["y"], p["region"]) for p in state["pieces"]]
    assert pieces == [(ALICE, 0, 1, "f0"), (BOB, 1, 0, "f1")]
    state, events = play(state, "place 1,1 r0")
    assert "feature_completed" not in kinds(events)
    state, events = play(state, "place 0,2 r0")
    done = only(events, "feature_completed").data
    assert (done["feature"], done["tiles"], done["points"]) == ("forest", 4, 8)
    assert done["scorers"] == [ALICE, BOB] and state["scores"] == [8, 8]


def test_two_red_gatherers_against_one_blue_score_10_for_red_alone_in_a_forest_of_5_tiles():
    """2 red vs 1 blue, 5 tiles: red alone 10.

    §9 gives only the counts, so the layout is ours: a tribe member never enters an occupied forest, so
    Alice's two gatherers stand in two forests of their own — R-L42 (0,1) and R-L34 (2,1) — and Bob's
    in R-L67's north part (1,0); R-L63 on 1,1 joins all three and closes them at once (R-L36 on 0,2 had
    closed R-L42's north side).
    """
    stack = ["R-L42", "R-L67", "R-L62", "R-L36", "R-L34", "R-L63"]
    state = game(stack, bonus=[], **CLASSIC)
    state, events = play(
        state,
        "place 0,1 r0 gatherer forest",
        "place 1,0 r270 gatherer forest N",
        "place 2,0 r0",
        "place 0,2 r0",
        "place 2,1 r0 gatherer forest",
    )
    assert "feature_completed" not in kinds(events)
    state, events = play(state, "place 1,1 r180")
    done = only(events, "feature_completed").data
    assert (done["feature"], done["tiles"], done["points"]) == ("forest", 5, 10)
    assert done["scorers"] == [ALICE] and state["scores"] == [10, 0]
    assert len(done["returned"]) == 3 and state["pieces"] == []


# -- meadows (§7: classic 2 per deer, aurochs, mammoth; each tiger eats a deer) ---------------------


def test_a_meadow_with_1_deer_scores_2():
    """Meadow: 1 deer → 2. R-L37 south of the start: its meadow (one deer) is cut off by forest."""
    state = game(["R-L37", "R-L33"], bonus=[], **CLASSIC)
    state, events = play(state, "place 0,-1 r0 hunter meadow", "place 0,1 r0")
    meadow = only(events, "meadow_scored").data
    assert (meadow["deer"], meadow["aurochs"], meadow["mammoth"], meadow["tiger"]) == (1, 0, 0, 0)
    assert meadow["points"] == 2 and meadow["scorers"] == [ALICE] and state["scores"] == [2, 0]


def test_a_meadow_with_1_deer_1_mammoth_and_1_tiger_scores_2_for_each_of_two_tied_hunters():
    """Meadow with 1 deer, 1 mammoth, 1 tiger, one yellow and one red hunter → both 2.

    Alice's hunter on R-L62 (deer) joins the start's north meadow (mammoth); Bob's is in R-L31's
    meadow (tiger) on 1,0; R-L33 on 1,1 joins the two meadows.
    """
    state = game(["R-L62", "R-L31", "R-L33"], bonus=[], **CLASSIC)
    state, events = play(state, "place 0,1 r0 hunter meadow", "place 1,0 r270 hunter meadow", "place 1,1 r90")
    assert sorted(p["seat"] for p in state["pieces"] if p["kind"] == "hunter") == [ALICE, BOB]
    meadow = only(events, "meadow_scored").data
    assert meadow["tiles"] == 4
    assert (meadow["deer"], meadow["aurochs"], meadow["mammoth"], meadow["tiger"]) == (1, 0, 1, 1)
    assert meadow["eaten"] == 1 and meadow["points"] == 2
    assert meadow["scorers"] == [ALICE, BOB] and state["scores"] == [2, 2]


@pytest.mark.parametrize("edition, points", [("classic", 8), ("revised", 6 + 2 + 1)])
def test_a_meadow_with_2_deer_2_mammoths_1_aurochs_and_1_tiger_scores_8_classic_9_revised_for_the_majority(
    edition, points
):
    """Meadow with 2 deer, 2 mammoths, 1 aurochs, 1 tiger, red has most hunters → red 8 (revised 9).

    Three players. Alice's hunters: R-L37 (deer) on 0,-1 and R-L36 (aurochs) on 2,-1; Bob's: R-L35
    (mammoth) on 1,0, whose meadow Carol extends with R-L31 (tiger) on 2,0. Bob joins the three
    meadows with R-L61 (mammoth) on 1,-1 and Carol adds R-L62 (deer) on 1,-2. The meadow keeps clear
    of the start's north meadow, whose animal differs by edition, so both editions score the same
    animals: classic 2 × (1 uneaten deer + 2 mammoths + 1 aurochs) = 8, revised 1 + 3 × 2 + 2 = 9.
    """
    stack = ["R-L37", "R-L35", "R-L31", "R-L36", "R-L61", "R-L62"]
    state = game(stack, bonus=[], players=3, edition=edition)
    state, events = play(
        state,
        "place 0,-1 r0 hunter meadow",
        "place 1,0 r180 hunter meadow",
        "place 2,0 r180",
        "place 2,-1 r180 hunter meadow",
        "place 1,-1 r0",
        "place 1,-2 r0",
    )
    assert sorted(p["seat"] for p in state["pieces"] if p["kind"] == "hunter") == [ALICE, ALICE, BOB]
    meadow = only(events, "meadow_scored").data
    assert (meadow["deer"], meadow["aurochs"], meadow["mammoth"], meadow["tiger"]) == (2, 1, 2, 1)
    assert meadow["tiles"] == 6 and meadow["eaten"] == 1 and meadow["points"] == points
    assert meadow["scorers"] == [ALICE] and state["scores"][ALICE] == points
    assert state["scores"][BOB] == state["scores"][CAROL] == 0


def test_a_meadow_with_1_deer_and_2_tigers_scores_0_never_negative():
    """Meadow with 1 deer and 2 tigers → 0, never negative.

    Alice's hunter on R-L37 (deer) south of the start; R-L65 (tiger) and R-L31 (tiger) join its meadow.
    """
    state = game(["R-L37", "R-L65", "R-L31"], bonus=[], **CLASSIC)
    state, events = play(state, "place 0,-1 r0 hunter meadow", "place 1,-1 r90", "place -1,-1 r0")
    meadow = only(events, "meadow_scored").data
    assert (meadow["deer"], meadow["aurochs"], meadow["mammoth"], meadow["tiger"]) == (1, 0, 0, 2)
    assert meadow["tiles"] == 3 and meadow["eaten"] == 1 and meadow["points"] == 0
    assert meadow["scorers"] == [ALICE] and state["scores"] == [0, 0]


# -- huts (§7: the hut majority scores 1 per fish of the river system) ------------------------------


def test_the_only_hut_on_a_river_system_with_5_fish_scores_5():
    """Hut on a system with 5 fish, only hut → 5.

    The start's lake (1 fish) → R-L01's lake (3 fish, Alice's hut) → R-L02's lake (1 fish).
    """
    state = game(["R-L01", "R-L02"], bonus=[], **CLASSIC)
    state, events = play(state, "place -1,0 r0 hut lake", "place -2,0 r0")
    system = only(events, "river_system_scored").data
    assert (system["lakes"], system["fish"], system["points"]) == (3, 5, 5)
    assert system["scorers"] == [ALICE] and state["scores"] == [5, 0]
