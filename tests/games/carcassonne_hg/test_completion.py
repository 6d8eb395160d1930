"""Forests and rivers completed during play (§4.3, §6, §8): values, loops, majority, ties, figures going home."""

from __future__ import annotations

from . import ALICE, BOB, LOOP, LOOP_CLOSER, RING, RING_CLOSER, act, game, kinds, only, play, position


def test_a_forest_closed_by_another_player_scores_2_per_tile_for_its_gatherer_who_goes_home():
    # Given Alice's gatherer on R-L34 east of the start (the start's forest runs east and south).
    state = game(["R-L34", "R-L37", "R-L62"], bonus=[])
    state, _ = act(state, "place 1,0 r0 gatherer forest")
    assert state["supply"][ALICE]["members"] == 4
    # When Bob closes the forest with R-L37 south of the start.
    state, events = act(state, "place 0,-1 r0")
    done = only(events, "feature_completed").data
    assert done["feature"] == "forest" and done["tiles"] == 3 and done["points"] == 6
    assert done["scorers"] == [ALICE] and done["returned"] == [{"seat": ALICE, "kind": "gatherer", "x": 1, "y": 0}]
    assert state["scores"] == [6, 0] and state["supply"][ALICE]["members"] == 5 and state["pieces"] == []


def test_a_figure_placed_on_a_feature_its_tile_completes_scores_and_comes_straight_back():
    # R-L00 west of the start: its river runs from the start's lake (1 fish) into its own lake (2 fish).
    state = game(["R-L00", "R-L62"])
    state, events = act(state, "place -1,0 r90 fisherman river")
    assert kinds(events)[:3] == ["tile_placed", "piece_placed", "feature_completed"]
    done = only(events, "feature_completed").data
    assert (done["feature"], done["tiles"], done["fish"], done["points"]) == ("river", 2, 3, 5)
    assert state["scores"] == [5, 0] and state["pieces"] == [] and state["supply"][ALICE]["members"] == 5


def test_a_completed_river_counts_the_fish_on_the_river_and_in_both_end_lakes():
    # R-L19 (1 fish on the river) west of the start, then R-L00 below it ends the river in a 2-fish lake.
    state = game(["R-L19", "R-L00", "R-L62"])
    state, _ = play(state, "place -1,0 r0 fisherman river", "place -1,-1 r0")
    assert state["scores"] == [3 + 1 + 1 + 2, 0]


def test_with_lakes_only_the_fish_on_the_river_do_not_count():
    state = game(["R-L19", "R-L00", "R-L62"], river_fish_for_fishermen="lakes_only")
    state, _ = play(state, "place -1,0 r0 fisherman river", "place -1,-1 r0")
    assert state["scores"] == [3 + 1 + 2, 0]


def test_a_river_loop_is_complete_and_scores_its_tiles_and_fish():
    state = position(LOOP, LOOP_CLOSER[0], pieces=[(BOB, "fisherman", 0, 1, "r1")], stack=["R-L62"])
    state, events = act(state, LOOP_CLOSER[1])
    done = only(events, "feature_completed").data
    assert (done["feature"], done["tiles"], done["fish"], done["lakes"], done["points"]) == ("river", 4, 1, 0, 5)
    assert state["scores"] == [0, 5]


def test_the_majority_of_fishermen_alone_scores_and_everyone_gets_their_figures_back():
    pieces = [(ALICE, "fisherman", 0, 1, "r1"), (ALICE, "fisherman", 1, 1, "r1"), (BOB, "fisherman", 0, 2, "r1")]
    state = position(LOOP, LOOP_CLOSER[0], pieces=pieces, current=BOB, stack=["R-L62"])
    state, events = act(state, LOOP_CLOSER[1])
    assert only(events, "feature_completed").data["scorers"] == [ALICE]
    assert state["scores"] == [5, 0] and state["pieces"] == []
    assert [s["members"] for s in state["supply"]] == [5, 5]


def test_tied_gatherers_all_score_the_full_value():
    pieces = [(ALICE, "gatherer", 1, 2, "f0"), (BOB, "gatherer", -1, 2, "f0")]
    state = position(RING, RING_CLOSER[0], pieces=pieces, stack=["R-L62"], bonus=[])
    state, events = act(state, RING_CLOSER[1])
    done = only(events, "feature_completed").data
    assert done["scorers"] == [ALICE, BOB] and state["scores"] == [done["points"]] * 2


def test_separate_forest_parts_on_one_tile_count_separately_by_default_in_the_revised_edition():
    # The ring has 6 tiles but 7 forest parts: R-L41's east and west forests are joined only by the ring.
    pieces = [(ALICE, "gatherer", 1, 2, "f0")]
    state = position(RING, RING_CLOSER[0], pieces=pieces, stack=["R-L62"], bonus=[])
    assert state["options"]["forest_parts_count_separately"] is True
    state, events = act(state, RING_CLOSER[1])
    done = only(events, "feature_completed").data
    assert (done["tiles"], done["parts"], done["points"]) == (6, 7, 14)


def test_without_the_parts_option_a_forest_counts_its_tiles():
    pieces = [(ALICE, "gatherer", 1, 2, "f0")]
    state = position(
        RING, RING_CLOSER[0], pieces=pieces, stack=["R-L62"], bonus=[], forest_parts_count_separately=False
    )
    state, events = act(state, RING_CLOSER[1])
    assert only(events, "feature_completed").data["points"] == 12


def test_a_completed_forest_with_nobody_in_it_scores_nothing():
    state = game(["R-L34", "R-L37", "R-L62"], bonus=[])
    state, events = play(state, "place 1,0 r0", "place 0,-1 r0")
    done = only(events, "feature_completed").data
    assert done["scorers"] == [] and state["scores"] == [0, 0]


def test_each_mushroom_group_adds_3_points_to_a_completed_forest():
    # R-B87 turned 270 on 1,1: its mushroom forest shows north and east; R-L35 and R-L37 close both ends.
    placed = [(0, 1, "R-L62", 0), (1, 1, "R-B87-mushrooms-2", 270)]
    state = position(placed, "R-L35", pieces=[(BOB, "gatherer", 1, 1, "f1")], stack=["R-L37", "R-L62"], bonus=[])
    state, events = play(state, "place 1,2 r90", "place 2,1 r270")
    done = only(events, "feature_completed").data
    assert (done["tiles"], done["mushrooms"], done["points"]) == (3, 1, 2 * 3 + 3)
    assert state["scores"] == [0, 9]


def test_a_forest_closed_by_placing_a_figure_inside_it_scores_for_that_figure():
    state = game(["R-L34", "R-L37", "R-L62"], bonus=[])
    state, events = play(state, "place 1,0 r0", "place 0,-1 r0 gatherer forest")
    assert only(events, "feature_completed").data["scorers"] == [BOB] and state["scores"] == [0, 6]
