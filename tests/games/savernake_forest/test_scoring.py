"""Scoring (rules file §8, §10): the worked examples of §10.1 and every edge case of §16."""

from __future__ import annotations

from games.savernake_forest import scoring

from . import ALICE, act, animal, deal, only, path, play, scored


def score_of(forest: list[dict], card: str) -> dict:
    return next(item for item in scoring.forest_scores(forest)["animals"] if item["card"] == card)


# -- worked examples (§10.1) -----------------------------------------------------


def test_example_a_the_seeds_hedgehog_stores_two_worms_and_an_egg():
    # Given the Hedgehog (capacity 3; B1 W3 E2) and a path worm, worm, berry, egg built through the engine.
    state = deal(["AN05", "AN02"], [("ST07", None, None, None), ("CU14", None, None, None)])
    state, _ = play(state, "take rooster 0,-1 r0", "take rabbit 1,0 r0", "take rooster 0,-2 r90", "take rabbit -1,0 r0")
    sheet = scored(state, ALICE, "AN05")
    # Then it stores 3 + 3 + 2 = 8 food points (the seed's example); the berry is over capacity.
    assert sheet["path_foods"] == ["B", "W", "W", "E"]
    assert sheet["stored"] == ["W", "W", "E"] and sheet["food_points"] == 8
    assert sheet["score"] == 13


def test_example_b_a_drop_on_berries_and_a_burrow_make_the_hedgehog_worth_15():
    state = deal(
        ["AN05", "AN02"],
        [("ST07", None, None, None), (None, "CU14", None, None), (None, None, "DC12", None)],
    )
    state, _ = play(state, "take rooster 0,-1 r0", "take rabbit 1,0 r0")
    state, events = play(state, "take goat 0,-2 r90 drop AN05 B", "take rabbit -1,0 r0")
    assert only(events, "water_drop_placed").data == {"seat": ALICE, "animal": "AN05", "food": "B"}
    assert scored(state, ALICE, "AN05")["score"] == 13  # berry now 2, still over capacity 3
    # Nobody took the rooster in round 2: Alice still goes first (Q16).
    assert state["order"][0] == ALICE
    state, events = act(state, "take armadillo 1,0 r0 burrow AN05")
    assert only(events, "burrow_placed").data == {"seat": ALICE, "animal": "AN05", "burrows": 1}
    sheet = scored(state, ALICE, "AN05")
    assert sheet["capacity"] == 4 and sheet["stored"] == ["W", "W", "B", "E"]
    assert sheet["score"] == 15
    assert state["supply"] == {"drops": 14, "burrows": 14}


def test_example_b_on_the_data_alone():
    forest = [animal("AN05", drops="B", burrows=1), path("ST07", 0, -1), path("CU14", 0, -2, 1)]
    assert score_of(forest, "AN05")["score"] == 15


def test_example_c_geometry_dead_ends_and_a_cut_path_literally():
    forest = [animal("AN01", 0, 0, 1), path("ST07", 1, 0, 1), path("CU12", 0, 1, 0), path("CU05", 1, 1, 3)]
    paths = scoring.components(forest)
    assert sorted(map(sorted, (p["foods"] for p in paths))) == [["E", "E", "E"], ["W", "W"]]
    assert score_of(forest, "AN01")["score"] == 8
    eggs = next(p for p in paths if "E" in p["foods"])
    assert eggs["animals"] == []  # the Fox cannot reach these eggs
    owl = [*forest, animal("AN06", 2, 0, 3)]
    assert scoring.shared(owl) == [["AN01", "AN06"]]
    assert scoring.best_survivor(owl, ["AN01", "AN06"]) == "AN06"
    kept = scoring.turn_down(owl, {"AN01"})
    assert score_of(kept, "AN06")["score"] == 11 and scoring.forest_scores(kept)["total"] == 11


def test_example_c_through_the_engine_keep_the_owl_and_the_foxs_drop_returns():
    # The example turned a quarter left, so the Fox can be the starting animal at r0 (exit north).
    state = deal(
        ["AN01", "AN02"],
        [
            ("ST07", None, None, None),
            (None, "CU12", None, None),
            ("CU05", None, None, None),
            (None, None, None, "AN06"),
        ],
        shared_path_resolution="immediate",
    )
    state, _ = play(state, "take rooster 0,-1 r0", "take rabbit 1,0 r0")
    state, _ = play(state, "take goat 1,0 r270 drop fox B", "take rabbit -1,0 r0")
    state, _ = play(state, "take rooster 1,-1 r180", "take rabbit 2,0 r0")
    assert scored(state, ALICE, "AN01")["score"] == 8
    assert state["supply"]["drops"] == 14
    # When Alice places the Owl so that it shares the Fox's path, she must choose.
    state, events = act(state, "take rabbit 0,-2 r180 keep owl")
    flip = only(events, "animal_turned_down").data
    assert flip == {"seat": ALICE, "card": "AN01", "survivor": "AN06", "drops": 1, "burrows": 0, "final": False}
    fox = next(e for e in state["forests"][ALICE] if e["card"] == "AN01")
    assert fox["up"] is False and fox["drops"] == [] and fox["burrows"] == 0
    assert state["supply"]["drops"] == 15  # Q11: tokens on a flipped animal go back to the supply
    assert scored(state, ALICE, "AN06")["score"] == 11


# -- edge cases (§10, §16) ---------------------------------------------------------


def test_food_worth_nothing_takes_no_capacity():
    # The Fox (capacity 2; W2 E4) on a path of three berries and a worm stores only the worm.
    forest = [animal("AN01"), path("ST06", 0, -1), path("ST10", 0, -2)]
    sheet = score_of(forest, "AN01")
    assert sheet["path_foods"] == ["B", "B", "B", "W"]
    assert sheet["stored"] == ["W"] and sheet["score"] == 6


def test_a_drop_on_a_zero_corner_makes_that_food_worth_one():
    forest = [animal("AN01", drops="B"), path("ST06", 0, -1)]
    assert score_of(forest, "AN01")["stored"] == ["B", "B"]
    assert score_of(forest, "AN01")["score"] == 4 + 1 + 1


def test_food_over_capacity_scores_nothing_and_burrows_stack():
    forest = [animal("AN08"), path("ST08", 0, -1), path("ST15", 0, -2), path("ST03", 0, -3)]
    assert score_of(forest, "AN08")["score"] == 6 + 4 + 4  # four eggs, capacity 2
    forest[0] = animal("AN08", burrows=2)
    assert score_of(forest, "AN08")["score"] == 6 + 4 * 4


def test_the_animal_stores_its_most_valuable_items():
    # The Badger (capacity 3; B2 W3 E1 N1) on B N B | W E W keeps W W B.
    forest = [animal("AN09"), path("ST13", 0, -1), path("ST14", 0, -2)]
    assert score_of(forest, "AN09")["stored"] == ["W", "W", "B"]
    assert score_of(forest, "AN09")["score"] == 2 + 3 + 3 + 2


def test_an_animal_without_food_scores_its_base_and_nothing_is_negative():
    forest = [animal("AN14"), path("CU01", 0, -1, 2)]
    assert score_of(forest, "AN14")["score"] == 1
    assert scoring.forest_scores([animal("AN02")])["total"] == 3


def test_food_on_a_path_without_an_animal_scores_nothing():
    forest = [animal("AN10"), path("ST07", 1, 0, 0), path("ST02", 1, -1, 0)]
    assert scoring.forest_scores(forest)["total"] == 5
    assert sorted(map(len, (p["foods"] for p in scoring.components(forest)))) == [0, 3]


def test_a_two_exit_den_collects_from_both_sides():
    # The Squirrel's straight den (N and S) joins the nut paths on both sides.
    forest = [animal("AN02"), path("ST09", 0, -1), path("ST04", 0, 1)]
    assert score_of(forest, "AN02")["path_foods"] == ["N", "N", "N"]
    assert score_of(forest, "AN02")["score"] == 3 + 9


def test_a_face_down_animal_is_a_blank_square_that_cuts_paths():
    forest = [animal("AN02", up=False), path("ST09", 0, -1), path("ST04", 0, 1)]
    paths = scoring.components(forest)
    assert len(paths) == 2 and all(p["animals"] == [] for p in paths)
    assert scoring.forest_scores(forest) == {"total": 0, "stored": 0, "animals": []}


def test_a_double_curve_may_feed_two_different_animals_without_sharing():
    # DC03 (A: N–E worm, B: S–W egg) at 1,1: A meets the Mole above, B meets the Wildcat to the west.
    forest = [animal("AN10", 1, 0, 2), path("DC03", 1, 1, 0), animal("AN08", 0, 1, 1)]
    assert scoring.shared(forest) == []
    assert score_of(forest, "AN10")["path_foods"] == ["W"]
    assert score_of(forest, "AN08")["path_foods"] == ["E"]


def test_loops_are_ordinary_paths():
    # The Skunk's bent den (turned to E and S) closes a ring of three curves.
    forest = [
        animal("AN04", 0, 0, 1),
        path("CU10", 1, 0, 2),
        path("CU13", 1, 1, 3),
        path("CU11", 0, 1, 0),
    ]
    paths = scoring.components(forest)
    assert len(paths) == 1 and len(paths[0]["nodes"]) == 4
    assert score_of(forest, "AN04")["score"] == 2 + 2 * 4  # six items worth 2 each, capacity 4


def test_path_ends_meeting_blank_sides_simply_stop():
    # A straight laid east–west next to the Mole's blank east side does not reach it.
    forest = [animal("AN10"), path("ST07", 1, 0, 1)]
    assert score_of(forest, "AN10")["path_foods"] == []


def test_resolve_best_keeps_the_highest_scorer_and_ties_go_to_the_lowest_id():
    # Two Owls would tie; the Fox (8) loses to the Owl (11) on two worms.
    forest = [animal("AN01", 0, 0, 1), path("ST07", 1, 0, 1), animal("AN06", 2, 0, 3)]
    resolved, flips = scoring.resolve_best(forest)
    assert flips == [{"card": "AN01", "survivor": "AN06"}]
    assert scoring.forest_scores(resolved)["total"] == 11
    even = [animal("AN07", 0, 0, 1), path("CU01", 1, 0, 3), animal("AN10", 1, -1, 2)]
    assert scoring.best_survivor(even, ["AN07", "AN10"]) == "AN07"


def test_ranking_and_winners_use_points_then_stored_food_then_share():
    assert scoring.ranking([10, 12, 12], [5, 1, 3], "stored_food") == [2, 1, 0]
    assert scoring.winners([10, 12, 12], [5, 1, 3], "stored_food") == [2]
    assert scoring.winners([12, 12, 9], [3, 3, 9], "stored_food") == [0, 1]
    assert scoring.winners([7, 7], [2, 2], "stored_food") == [0, 1]


def test_by_default_equal_points_share_the_win_whatever_the_stored_food():
    assert scoring.ranking([10, 12, 12], [5, 1, 3]) == [1, 2, 0]
    assert scoring.winners([10, 12, 12], [5, 1, 3]) == [1, 2]
    assert scoring.winners([12, 9], [0, 9]) == [0]
