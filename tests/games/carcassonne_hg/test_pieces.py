"""Deployment (§4.2): gatherers, fishermen, hunters and huts, where each may stand and the occupancy rules."""

from __future__ import annotations

import pytest

from games.base import IllegalMove
from games.carcassonne_hg import ENGINE

from . import ALICE, BOB, RING, RING_CLOSER, act, game, legal_texts, only, position

# R-L03 on -1,0 turned 0: rivers N, E and W flow into its lake (1 fish); its east river meets the start's.
LAKE_WEST = [(-1, 0, "R-L03", 0)]


def test_each_piece_goes_on_its_own_kind_of_region():
    # R-L00 west of the start, turned 90: its river (into a lake) meets the start's river.
    state = game(["R-L00"])
    texts = {t for t in legal_texts(state) if t.startswith("place -1,0 r90")}
    assert texts == {
        "place -1,0 r90",
        "place -1,0 r90 fisherman river",
        "place -1,0 r90 gatherer forest N",
        "place -1,0 r90 gatherer forest W",
        "place -1,0 r90 hunter meadow NE",
        "place -1,0 r90 hunter meadow S",
        "place -1,0 r90 hut lake",
    }
    state, events = act(state, "place -1,0 r90 hunter meadow S")
    assert only(events, "piece_placed").data == {
        "seat": ALICE,
        "kind": "hunter",
        "x": -1,
        "y": 0,
        "region": "m2",
        "feature": "meadow S",
    }
    assert state["supply"][ALICE] == {"members": 4, "huts": 3}


@pytest.mark.parametrize(
    ("piece", "region", "reason"),
    [
        ("gatherer", "m2", "goes on a forest"),
        ("hunter", "f3", "goes on a meadow"),
        ("fisherman", "l8", "goes on a river"),
        ("hut", "m0", "goes on a lake or river"),
        ("hut", "r1", "put the hut on the lake"),
        ("hunter", "x9", "has no region"),
    ],
)
def test_a_piece_on_the_wrong_region_is_refused(piece, region, reason):
    state = game(["R-L00"])
    with pytest.raises(IllegalMove, match=reason):
        act(state, {"x": -1, "y": 0, "rot": 90, "piece": piece, "region": region})


def test_a_hut_named_on_a_river_that_ends_in_a_lake_stands_on_the_lake():
    state = game(["R-L00"])
    assert ENGINE.parse_move("place -1,0 r90 hut river", state, ALICE)["region"] == "l8"


def test_a_hut_may_stand_on_a_river_without_a_lake():
    state = game(["R-L15"])
    state, _ = act(state, "place -1,0 r0 hut river")
    assert state["pieces"] == [{"seat": ALICE, "kind": "hut", "x": -1, "y": 0, "region": "r1"}]
    assert state["supply"][ALICE] == {"members": 5, "huts": 2}


@pytest.mark.parametrize("owner", [ALICE, BOB])
def test_no_tribe_member_may_join_a_forest_that_holds_one_own_or_not(owner):
    # Given a gatherer (Alice's or Bob's) on R-L34 east of the start, in the start's forest.
    state = position([(1, 0, "R-L34", 0)], "R-L37", pieces=[(owner, "gatherer", 1, 0, "f3")])
    # When Alice puts R-L37 south of the start, its forest joins that forest.
    with pytest.raises(IllegalMove, match="already holds a tribe member"):
        act(state, "place 0,-1 r0 gatherer forest")
    assert "place 0,-1 r0 hunter meadow" in legal_texts(state)


def test_a_meadow_with_a_hunter_takes_no_second_tribe_member():
    state = position([(0, 1, "R-L62", 0)], "R-L34", pieces=[(BOB, "hunter", 0, 1, "m0")])
    texts = {t for t in legal_texts(state) if t.startswith("place 1,1 r90")}
    # R-L34 turned 90 on 1,1: forest N, meadows E, S and W; the west meadow joins Bob's.
    assert texts == {
        "place 1,1 r90",
        "place 1,1 r90 gatherer forest",
        "place 1,1 r90 hunter meadow E",
        "place 1,1 r90 hunter meadow S",
    }


def test_a_river_with_a_fisherman_still_takes_a_hut_and_a_river_system_with_a_hut_still_takes_a_fisherman():
    # Bob's fisherman on R-L03's west river: R-L15 on -2,0 continues that river.
    state = position(LAKE_WEST, "R-L15", pieces=[(BOB, "fisherman", -1, 0, "r5")])
    texts = legal_texts(state)
    assert "place -2,0 r0 hut river" in texts and "place -2,0 r0 fisherman river" not in texts
    # Bob's hut on R-L03's lake claims the whole system, rivers included.
    state = position(LAKE_WEST, "R-L15", pieces=[(BOB, "hut", -1, 0, "l8")])
    texts = legal_texts(state)
    assert "place -2,0 r0 hut river" not in texts and "place -2,0 r0 fisherman river" in texts
    with pytest.raises(IllegalMove, match="already has a hut"):
        act(state, "place -2,0 r0 hut river")


def test_a_hut_beside_another_players_fisherman_and_the_fisherman_each_score_their_own():
    # Rules file §11.1: the classic text's exception, not the Board Game Arena help's "no other meeple or huts".
    state = position(LAKE_WEST, "R-L15", pieces=[(BOB, "fisherman", -1, 0, "r5")], stack=["R-L00"])
    state, _ = act(state, "place -2,0 r0 hut river")
    assert {(p["seat"], p["kind"]) for p in state["pieces"]} == {(BOB, "fisherman"), (ALICE, "hut")}
    # Bob closes the river with R-L00's lake (2 fish): his fisherman alone scores 3 tiles + 3 fish; the hut
    # does not count for the fishermen. At the end Alice's hut alone scores the system's 4 fish.
    state, events = act(state, "place -2,-1 r0")
    river = only(events, "feature_completed").data
    assert (river["feature"], river["points"], river["scorers"]) == ("river", 6, [BOB])
    system = only(events, "river_system_scored").data
    assert (system["points"], system["scorers"]) == (4, [ALICE])
    assert ENGINE.is_over(state) and state["scores"] == [4, 6]


def test_a_hut_is_refused_when_the_lake_joins_a_system_that_has_one():
    # Bob's hut on the start's lake; R-L03 joins the start's river and so the start's system.
    state = game(["R-L03"])
    state["pieces"] = [{"seat": BOB, "kind": "hut", "x": 0, "y": 0, "region": "l8"}]
    assert "place -1,0 r0 hut lake" not in legal_texts(state)
    assert "place -1,0 r0 fisherman river E" in legal_texts(state)


def test_a_player_without_tribe_members_may_only_build_huts_or_place_no_piece():
    hunters = [(ALICE, "hunter", 0, 1, "m0")] * 5
    state = position([(0, 1, "R-L62", 0)], "R-L15", pieces=hunters)
    assert state["supply"][ALICE] == {"members": 0, "huts": 3}
    pieces = {m.get("piece") for m in ENGINE.legal_moves(state, ALICE)}
    assert pieces == {None, "hut"}
    with pytest.raises(IllegalMove, match="no tribe members left"):
        act(state, "place -1,0 r0 fisherman river")


def test_a_player_without_huts_may_not_build_one():
    huts = [(ALICE, "hut", 0, 0, "l8")] * 3
    state = position([], "R-L15", pieces=huts)
    assert "hut" not in {m.get("piece") for m in ENGINE.legal_moves(state, ALICE)}
    with pytest.raises(IllegalMove, match="no huts left"):
        act(state, "place -1,0 r0 hut river")


def test_features_joined_by_a_tile_may_hold_several_pieces():
    # Alice's gatherer in the east part of the forest ring, Bob's in the west part: two forests until R-L38.
    pieces = [(ALICE, "gatherer", 1, 2, "f0"), (BOB, "gatherer", -1, 2, "f0")]
    state = position(RING, RING_CLOSER[0], pieces=pieces, stack=["R-L62"])
    assert "place 0,2 r0 gatherer forest" not in legal_texts(state)
    assert "place 0,2 r0 hunter meadow N" in legal_texts(state)
    state, events = act(state, RING_CLOSER[1])
    assert only(events, "feature_completed").data["scorers"] == [ALICE, BOB]
