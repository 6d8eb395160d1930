"""The end of the game (§5, §7, §8): meadows for hunters, river systems for huts, the result."""

from __future__ import annotations

from games.carcassonne_hg import ENGINE

from . import ALICE, BOB, CAROL, act, only, position

# North of the start (whose north meadow shows an aurochs): a deer on 0,1 and a mammoth on 1,1.
FIELD = [(0, 1, "R-L62", 0), (1, 1, "R-L61", 0)]
LAST = ("R-L37", "place 0,-1 r0")  # R-L37 south of the start touches none of those meadows


def finish(placed, pieces, players=2, **options):
    state = position(placed, LAST[0], pieces=pieces, players=players, **options)
    return act(state, LAST[1])


def test_a_meadow_scores_1_per_deer_2_per_aurochs_and_3_per_mammoth_for_its_hunter():
    state, events = finish(FIELD, [(ALICE, "hunter", 0, 1, "m0")])
    meadow = only(events, "meadow_scored").data
    assert (meadow["deer"], meadow["aurochs"], meadow["mammoth"], meadow["points"]) == (1, 1, 1, 6)
    assert meadow["scorers"] == [ALICE] and state["scores"] == [6, 0]


def test_tied_hunters_both_score_and_a_larger_majority_scores_alone():
    state, _ = finish(FIELD, [(ALICE, "hunter", 0, 1, "m0"), (BOB, "hunter", 1, 1, "m0")])
    assert state["scores"] == [6, 6]
    field = [*FIELD, (2, 1, "R-L62", 0)]
    pieces = [(ALICE, "hunter", 0, 1, "m0"), (BOB, "hunter", 1, 1, "m0"), (BOB, "hunter", 2, 1, "m0")]
    state, _ = finish(field, pieces)
    assert state["scores"] == [0, 7]


def test_each_tiger_eats_one_deer_and_a_meadow_never_goes_negative():
    # One deer (0,1), two tigers (-1,1 and 1,1), the start's aurochs.
    field = [(0, 1, "R-L62", 0), (-1, 1, "R-L31", 0), (1, 1, "R-L65", 90)]
    state, events = finish(field, [(ALICE, "hunter", 0, 1, "m0")])
    meadow = only(events, "meadow_scored").data
    assert (meadow["deer"], meadow["tiger"], meadow["eaten"], meadow["points"]) == (1, 2, 1, 2)


def test_a_meadow_of_one_deer_and_two_tigers_is_worth_nothing():
    # R-L38 turned 180 on 0,1 cuts this meadow off from the start: a deer on 0,2, tigers on -1,2 and 1,2.
    field = [(0, 1, "R-L38", 180), (0, 2, "R-L62", 0), (-1, 2, "R-L31", 0), (1, 2, "R-L65", 90)]
    state, events = finish(field, [(ALICE, "hunter", 0, 2, "m0")])
    meadow = only(events, "meadow_scored").data
    assert (meadow["deer"], meadow["tiger"], meadow["eaten"], meadow["points"]) == (1, 2, 1, 0)


def test_huts_score_every_fish_of_their_river_system_even_unfinished():
    # The start's lake (1 fish) and R-L19's river (1 fish) west of it; the river still runs open to the south.
    state, events = finish([(-1, 0, "R-L19", 0)], [(BOB, "hut", 0, 0, "l8")])
    system = only(events, "river_system_scored").data
    assert (system["fish"], system["lakes"], system["points"], system["scorers"]) == (2, 1, 2, [BOB])
    assert state["scores"] == [0, 2]


def test_the_hut_majority_scores_a_system_alone():
    # R-L03's lake joins the start's system: Alice has huts on both lakes, Bob one on R-L15's river.
    placed = [(-1, 0, "R-L03", 0), (-2, 0, "R-L15", 0)]
    pieces = [(ALICE, "hut", 0, 0, "l8"), (ALICE, "hut", -1, 0, "l8"), (BOB, "hut", -2, 0, "r1")]
    state, events = finish(placed, pieces)
    assert only(events, "river_system_scored").data["scorers"] == [ALICE]
    assert state["scores"] == [1 + 1, 0]


def test_gatherers_and_fishermen_in_unfinished_features_score_nothing_at_the_end():
    state = position([(1, 0, "R-L34", 0)], "R-L62", pieces=[(ALICE, "gatherer", 1, 0, "f3")])
    state, events = act(state, "place 0,1 r0")
    assert state["scores"] == [0, 0]
    assert only(events, "game_ended").data["unscored"] == [{"seat": ALICE, "kind": "gatherer", "x": 1, "y": 0}]


def test_the_result_names_every_top_scorer_as_a_winner():
    state, _ = finish(FIELD, [(ALICE, "hunter", 0, 1, "m0"), (BOB, "hunter", 1, 1, "m0")], players=3)
    result = ENGINE.result(state)
    assert result["winners"] == [ALICE, BOB] and result["scores"] == [6, 6, 0]
    assert result["ranking"] == [ALICE, BOB, CAROL] and not result["draw"]
    assert result["summary"] == "Alice and Bob share the win (Alice 6, Bob 6, Carol 0)"
    assert [entry["feature"] for entry in result["final"]] == ["meadow"]


def test_the_result_of_a_single_winner():
    state, _ = finish(FIELD, [(BOB, "hunter", 0, 1, "m0")])
    result = ENGINE.result(state)
    assert result["winners"] == [BOB] and result["ranking"] == [BOB, ALICE]
    assert result["summary"] == "Bob wins (Bob 6, Alice 0)"
