"""The original Hungarian text's readings and the project's variants, each played from a scripted deal (issue 30).

Engine version 2 settles shared paths at final scoring and lets equal totals share the win, as the
text says; the immediate choice and the stored-food tie-break are options. A den with two exits is
one path through the animal, or (an option) a path per exit. Version 1 plays as it always did.
"""

from __future__ import annotations

import random

import pytest

import games
from games.base import IllegalMove, InvalidOptions
from games.savernake_forest import ENGINE, cards

from . import ALICE, NAMES, act, animal, deal, kinds, only, path, with_forest

V1 = games.engine_at("savernake-forest", 1)
TWO = ["AN01", "AN19"]


def slot_move(slot: str, x: int, y: int, rot: int, **extra) -> dict:
    return {"slot": slot, "x": x, "y": y, "rot": rot, **extra}


def owl_next_to_the_fox(engine=ENGINE, **options) -> dict:
    """Alice: Fox at 0,0 facing east, two worms east of it; the Owl is under the rabbit."""
    state = engine.setup(NAMES[:2], {"deck": _deck(), "first_player": ALICE, **options}, 0)
    return with_forest(state, ALICE, [animal("AN01", 0, 0, 1), path("ST07", 1, 0, 1)])


def _deck() -> dict:
    rest = [card for card in cards.ANIMAL_IDS if card not in (*TWO, "AN06")]
    return {"paths": [], "animals": [*TWO, "AN06", *rest]}


def finish(engine, forests: list[list[dict]], **options) -> tuple[dict, list]:
    """Play a 2-player game of ``engine`` to its last turn, give the seats ``forests``, play a food-less last card."""
    state = engine.setup(NAMES[:2], options, 11)
    rng = random.Random(11)
    while not (state["round"] == cards.ROUNDS and len(state["order"]) == 1):
        (seat,) = engine.to_move(state)
        state, _ = engine.apply(state, seat, rng.choice(engine.legal_moves(state, seat)))
    (last,) = engine.to_move(state)
    for seat, forest in enumerate(forests):
        state = with_forest(state, seat, forest)
    state = with_forest(state, last, forests[last], market={"rooster": "DC12", "goat": None, "armadillo": None,
                                                            "rabbit": None})
    return engine.apply(state, last, slot_move("rooster", 0, 1, 0))


FOX_6_ONE = [animal("AN01"), path("ST02", 0, -1)]  # 4 + 2, one food stored
SKUNK_6_TWO = [animal("AN04"), path("ST07", 0, -1)]  # 2 + 2 + 2, two foods stored

# Fox (exit east), eggs, then the Squirrel (exits west and east) and the Owl (exit west): one line of three animals.
FOX_SQUIRREL_OWL = [animal("AN01", 0, 0, 1), path("ST08", 1, 0, 1), animal("AN02", 2, 0, 1), animal("AN06", 3, 0, 3)]


# -- 1. when animals sharing a path are settled ------------------------------------------


def test_by_default_a_shared_path_is_left_for_final_scoring_as_the_text_says():
    state = owl_next_to_the_fox()
    assert state["options"]["shared_path_resolution"] == "end_of_game"
    assert not any("keep" in move for move in ENGINE.legal_moves(state, ALICE))
    with pytest.raises(IllegalMove, match="leave out keep"):
        act(state, slot_move("rabbit", 2, 0, 3, keep=["AN06"]))
    state, events = act(state, "take rabbit 2,0 r270")
    assert "animal_turned_down" not in kinds(events)
    assert all(e["up"] for e in state["forests"][ALICE] if cards.is_animal(e["card"]))


def test_by_default_final_scoring_keeps_the_best_animal_of_each_shared_path():
    shared = [animal("AN01", 0, 0, 1), path("ST07", 1, 0, 1), animal("AN06", 2, 0, 3)]
    state, events = finish(ENGINE, [shared, FOX_6_ONE])
    flip = only(events, "animal_turned_down").data
    assert flip == {"seat": 0, "card": "AN01", "survivor": "AN06", "drops": 0, "burrows": 0, "final": True}
    assert ENGINE.result(state)["scores"] == [11, 6]


def test_the_immediate_choice_is_an_option():
    state = owl_next_to_the_fox(shared_path_resolution="immediate")
    with pytest.raises(IllegalMove, match=r"keep one of each \(AN01 or AN06\)"):
        act(state, slot_move("rabbit", 2, 0, 3))
    state, events = act(state, "take rabbit 2,0 r270 keep owl")
    assert only(events, "animal_turned_down").data["final"] is False


# -- 2. equal totals ---------------------------------------------------------------


def test_by_default_equal_totals_share_the_win():
    state, _ = finish(ENGINE, [FOX_6_ONE, SKUNK_6_TWO])
    result = ENGINE.result(state)
    assert (result["scores"], result["stored"], result["winners"]) == ([6, 6], [1, 2], [0, 1])
    assert result["summary"] == "Alice and Bob share the victory with 6 points each"
    rows = {row["label"]: row for row in ENGINE.score_breakdown(state)}
    assert rows["Food items stored"]["points"] == [1, 2]


def test_the_stored_food_tie_break_is_an_option():
    state, _ = finish(ENGINE, [FOX_6_ONE, SKUNK_6_TWO], tie_break="stored_food")
    result = ENGINE.result(state)
    assert (result["winners"], result["ranking"]) == ([1], [1, 0])
    assert result["summary"] == "Bob wins with 6 points, on stored food (2–1) (Alice 6)"
    assert "Food items stored (the tie-break)" in {row["label"] for row in ENGINE.score_breakdown(state)}


# -- 3. a path through an animal with two exits -----------------------------------------


def test_by_default_a_two_exit_den_is_one_path_and_only_one_of_the_line_scores():
    state, events = finish(ENGINE, [FOX_SQUIRREL_OWL, FOX_6_ONE])
    flips = [e.data for e in events if e.kind == "animal_turned_down" and e.data["seat"] == 0]
    assert [(f["card"], f["survivor"]) for f in flips] == [("AN02", "AN01"), ("AN06", "AN01")]
    (fox,) = ENGINE.result(state)["animals"][0]
    assert (fox["card"], fox["score"]) == ("AN01", 12)  # 4 + two eggs at 4


def test_with_a_path_per_exit_both_ends_of_the_line_score():
    state, events = finish(ENGINE, [FOX_SQUIRREL_OWL, FOX_6_ONE], two_exit_den="path_per_exit")
    flips = [e.data for e in events if e.kind == "animal_turned_down" and e.data["seat"] == 0]
    assert [f["card"] for f in flips] == ["AN02"]
    animals = {a["card"]: a["score"] for a in ENGINE.result(state)["animals"][0]}
    assert animals == {"AN01": 12, "AN06": 5}  # the Owl's path (west of it, to the Squirrel) has no food
    assert ENGINE.result(state)["scores"][0] == 17


def test_placing_the_middle_animal_at_once_offers_one_survivor_or_both_ends():
    forest = [animal("AN01", 0, 0, 1), path("ST08", 1, 0, 1), animal("AN06", 3, 0, 3)]
    rows = [(None, None, None, "AN02")]
    choices = {"one_path": [["AN01"], ["AN02"], ["AN06"]], "path_per_exit": [["AN02"], ["AN01", "AN06"]]}
    for exits, expected in choices.items():
        state = with_forest(deal(TWO, rows, shared_path_resolution="immediate", two_exit_den=exits), ALICE, forest)
        keeps = [m["keep"] for m in ENGINE.legal_moves(state, ALICE)
                 if (m["slot"], m["x"], m["y"], m["rot"]) == ("rabbit", 2, 0, 1)]
        assert keeps == expected, exits
    with pytest.raises(IllegalMove, match="Keep exactly one animal of the shared path AN02 / AN06"):
        act(state, slot_move("rabbit", 2, 0, 1, keep=["AN01"]))
    after, events = act(state, slot_move("rabbit", 2, 0, 1, keep=["AN01", "AN06"]))
    flips = [(e.data["card"], e.data["survivor"]) for e in events if e.kind == "animal_turned_down"]
    assert flips == [("AN02", "AN01")]
    scores = {a["card"]: a["score"] for a in ENGINE.view(after, None)["seats"][ALICE]["animals"]}
    assert scores == {"AN01": 12, "AN06": 5}


def test_with_a_path_per_exit_a_loop_through_both_exits_is_one_path_counted_once():
    # The Skunk (exits east and south after a quarter turn) closes a ring of three curves: a berry and a worm.
    ring = [animal("AN04", 0, 0, 1), path("CU02", 1, 0, 2), path("CU04", 1, 1, 3), path("CU01", 0, 1, 0)]
    for exits in ("one_path", "path_per_exit"):
        state = with_forest(deal(TWO, two_exit_den=exits), ALICE, ring)
        seat = ENGINE.view(state, None)["seats"][ALICE]
        assert seat["score"] == 2 + 2 + 2, exits
        assert [p["animals"] for p in seat["paths"]] == [["AN04"]], exits


# -- versions -----------------------------------------------------------------------


def test_version_1_keeps_its_options_and_defaults():
    assert V1.validate_options(2, {}) == {"shared_path_resolution": "immediate", "two_player_market": "discard"}
    for option in ({"tie_break": "shared"}, {"two_exit_den": "one_path"}):
        with pytest.raises(InvalidOptions, match="Unknown option"):
            V1.validate_options(2, option)
    assert "tie_break" not in V1.setup(NAMES[:2], {}, 0)["options"]


def test_version_1_settles_a_shared_path_at_once_and_breaks_ties_on_stored_food():
    state = owl_next_to_the_fox(V1)
    with pytest.raises(IllegalMove, match=r"keep one of each"):
        V1.apply(state, ALICE, slot_move("rabbit", 2, 0, 3))
    state, _ = finish(V1, [FOX_6_ONE, SKUNK_6_TWO])
    assert V1.result(state)["winners"] == [1]
    assert ENGINE.view(state, None)["options"]["tie_break"] == "stored_food"  # what a version-1 game plays


def test_version_1_plays_a_line_of_three_as_one_path():
    state, _ = finish(V1, [FOX_SQUIRREL_OWL, FOX_6_ONE], shared_path_resolution="end_of_game")
    assert V1.result(state)["scores"][0] == 12
