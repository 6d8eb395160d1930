"""The menhir bonus turn (§4.4, §11 menhir_needs_occupied_forest): who gets it, when, and never a chain."""

from __future__ import annotations

from games.carcassonne_hg import ENGINE

from . import ALICE, BOB, act, game, kinds, only, play, position

# The start's menhir forest runs east and south: R-L34 (forest W) on 1,0 and R-L37 (forest N) on 0,-1 close it.
EAST = "place 1,0 r0"
SOUTH = "place 0,-1 r0"


def test_closing_a_menhir_forest_that_holds_a_gatherer_gives_the_placer_a_bonus_tile():
    state = game(["R-L34", "R-L37", "R-L62"], bonus=["R-B84-plain-mammoth", "R-B90-plain-mammoth-aurochs"])
    state, _ = act(state, EAST + " gatherer forest")
    state, events = act(state, SOUTH)
    assert kinds(events) == ["tile_placed", "feature_completed", "bonus_earned", "tile_drawn"]
    assert only(events, "tile_drawn").data == {"seat": BOB, "tile": "R-B84-plain-mammoth", "bonus": True, "left": 1}
    # Bob (who closed it) plays the bonus tile at once; Alice (who scored it) does not.
    assert ENGINE.to_move(state) == [BOB] and state["tile"] == "R-B84-plain-mammoth" and state["bonus"] is True
    assert ENGINE.view(state, None)["bonus_turn"] is True
    state, events = act(state, "place -1,0 r0 hunter meadow W")
    assert only(events, "tile_placed").data["bonus"] is True
    # Then the turn passes to Alice, who draws from the land stack.
    assert ENGINE.to_move(state) == [ALICE] and state["tile"] == "R-L62" and state["bonus"] is False


def test_by_default_an_empty_menhir_forest_gives_no_bonus():
    state = game(["R-L34", "R-L37", "R-L62"], bonus=["R-B84-plain-mammoth"])
    state, events = play(state, EAST, SOUTH)
    assert "bonus_earned" not in kinds(events) and ENGINE.to_move(state) == [ALICE]


def test_when_the_option_is_off_any_closed_menhir_forest_gives_the_bonus():
    state = game(["R-L34", "R-L37", "R-L62"], bonus=["R-B84-plain-mammoth"], menhir_needs_occupied_forest=False)
    state, events = play(state, EAST, SOUTH)
    assert "bonus_earned" in kinds(events) and ENGINE.to_move(state) == [BOB] and state["bonus"]


def test_a_forest_without_menhir_gives_no_bonus():
    # R-B87's mushroom forest has no menhir.
    placed = [(0, 1, "R-L62", 0), (1, 1, "R-B87-mushrooms-2", 270)]
    pieces = [(BOB, "gatherer", 1, 1, "f1")]
    state = position(placed, "R-L35", pieces=pieces, stack=["R-L37", "R-L62"], bonus=["R-B84-plain-mammoth"])
    state, events = play(state, "place 1,2 r90", "place 2,1 r270")
    assert "feature_completed" in kinds(events) and "bonus_earned" not in kinds(events)


def chain_position(**options) -> dict:
    """Bob closes the start's forest (Alice's gatherer); his bonus tile R-B82 can close a second menhir forest."""
    placed = [(1, 0, "R-L34", 0), (0, 1, "R-L39", 0), (-1, 1, "R-L35", 0)]
    pieces = [(ALICE, "gatherer", 1, 0, "f3"), (BOB, "gatherer", 0, 1, "f1")]
    bonus = ["R-B82-plain-lake-deer", "R-B84-plain-mammoth"]
    return position(placed, "R-L37", pieces=pieces, current=BOB, stack=["R-L62"], bonus=bonus, **options)


def test_a_menhir_forest_closed_by_the_bonus_tile_gives_no_further_bonus():
    state = chain_position()
    state, events = act(state, SOUTH)
    assert state["scores"] == [6, 0] and state["tile"] == "R-B82-plain-lake-deer"
    state, events = act(state, "place 1,1 r0")
    done = only(events, "feature_completed").data
    assert done["menhirs"] == 1 and done["scorers"] == [BOB] and state["scores"] == [6, 6]
    assert "bonus_earned" not in kinds(events)
    assert ENGINE.to_move(state) == [ALICE] and state["bonus_stack"] == ["R-B84-plain-mammoth"]


def test_at_most_one_bonus_tile_per_turn_however_many_menhir_forests_close():
    state = chain_position()
    state, events = act(state, SOUTH)
    assert kinds(events).count("bonus_earned") == 1


def test_no_bonus_tile_is_left_so_no_bonus_turn():
    state = game(["R-L34", "R-L37", "R-L62"], bonus=[])
    state, _ = act(state, EAST + " gatherer forest")
    state, events = act(state, SOUTH)
    assert only(events, "bonus_earned").data == {"seat": BOB, "available": 0}
    assert ENGINE.to_move(state) == [ALICE] and state["tile"] == "R-L62"


def test_an_unplaceable_bonus_tile_is_discarded_and_the_next_one_drawn():
    # Every open edge after the closing is meadow or forest: R-B83 (rivers on all four sides) fits nowhere.
    state = game(["R-L34", "R-L37", "R-L62"], bonus=["R-B83-plain-two-lakes", "R-B84-plain-mammoth"])
    state["board"].append([-1, 0, "R-L00", 90, None])  # close the start's river into a lake (surgery)
    state, _ = act(state, EAST + " gatherer forest")
    state, events = act(state, SOUTH)
    assert kinds(events)[-3:] == ["tile_drawn", "tile_discarded", "tile_drawn"]
    assert only(events, "tile_discarded").data == {"seat": BOB, "tile": "R-B83-plain-two-lakes", "bonus": True,
                                                   "then": "redraw"}
    assert state["discarded"] == ["R-B83-plain-two-lakes"] and state["tile"] == "R-B84-plain-mammoth"


def test_the_bonus_turn_earned_with_the_last_land_tile_is_played_before_the_game_ends():
    state = game(["R-L34", "R-L37"], bonus=["R-B84-plain-mammoth"])
    state, _ = act(state, EAST + " gatherer forest")
    state, _ = act(state, SOUTH)
    assert not ENGINE.is_over(state) and state["bonus"]
    state, events = act(state, "place -1,0 r0")
    assert ENGINE.is_over(state) and kinds(events)[-1] == "game_ended"
