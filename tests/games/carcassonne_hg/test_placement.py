"""Tile placement (§4.1): adjacency, edge matching incl. rivers, rotations, and tiles that fit nowhere (§11)."""

from __future__ import annotations

import pytest

from games.base import IllegalMove
from games.carcassonne_hg import ENGINE

from . import ALICE, BOB, CAROL, act, game, kinds, only, position, spots


def test_a_river_tile_must_meet_the_start_tiles_river_and_meadow_with_matching_edges():
    # Given R-L15 (meadow N and W, river from E to S) and the start tile (meadow N, forest E+S, river W).
    state = game(["R-L15"])
    # Then it fits west of the start (river to river) turned 0 or 270, or north of it (meadow to meadow).
    assert spots(state) == {(-1, 0, 0), (-1, 0, 270), (0, 1, 180), (0, 1, 270)}


@pytest.mark.parametrize(
    ("move", "reason"),
    [
        ({"x": 1, "y": 0, "rot": 0}, "forest"),  # river edge against the start's forest
        ({"x": -1, "y": 0, "rot": 90}, "meadow against river"),  # meadow edge against the start's river
        ({"x": 1, "y": 1, "rot": 0}, "diagonal"),
        ({"x": 5, "y": 5, "rot": 0}, "does not touch"),
        ({"x": 0, "y": 0, "rot": 0}, "already a tile"),
        ({"x": -1, "y": 0, "rot": 45}, "rot must be"),
    ],
)
def test_misplaced_tiles_are_refused_with_a_reason(move, reason):
    state = game(["R-L15"])
    with pytest.raises(IllegalMove) as error:
        act(state, move)
    assert reason in error.value.reason


def test_a_tile_must_match_every_neighbour_not_just_one():
    # Given an all-meadow tile on 0,1 and R-L00 on -1,0 showing forest to the north.
    state = position([(0, 1, "R-L62", 0), (-1, 0, "R-L00", 90)], "R-L37")
    # Then R-L37 (forest N, meadow elsewhere) goes on -1,1 only with its forest facing south.
    assert {(x, r) for x, y, r in spots(state) if (x, y) == (-1, 1)} == {(-1, 180)}
    with pytest.raises(IllegalMove, match="east edge would be forest against meadow on 0,1"):
        act(state, "place -1,1 r90")


def test_placing_turns_pass_to_the_next_player_who_draws_the_next_tile_publicly():
    state = game(["R-L15", "R-L62", "R-L61"], first=BOB, players=3)
    assert ENGINE.to_move(state) == [BOB] and state["tile"] == "R-L15"
    state, events = act(state, "place -1,0 r0")
    assert ENGINE.to_move(state) == [CAROL] and state["tile"] == "R-L62"
    assert kinds(events) == ["tile_placed", "tile_drawn"]
    assert only(events, "tile_drawn").data == {"seat": CAROL, "tile": "R-L62", "bonus": False, "left": 1}
    assert only(events, "tile_placed").data == {
        "seat": BOB,
        "tile": "R-L15",
        "x": -1,
        "y": 0,
        "rot": 0,
        "bonus": False,
    }
    assert state["board"][-1][:5] == [-1, 0, "R-L15", 0, BOB]  # then its feature labels


def test_placing_the_last_land_tile_ends_the_game():
    state = game(["R-L15"])
    state, events = act(state, "place -1,0 r0")
    assert ENGINE.is_over(state) and kinds(events)[-1] == "game_ended"
    assert ENGINE.view(state, None)["bonus_turn"] is False and state["tile"] is None  # nobody holds a tile
    assert ENGINE.legal_moves(state, ALICE) == [] and ENGINE.to_move(state) == []
    with pytest.raises(IllegalMove):
        act(state, {"x": 0, "y": 1, "rot": 0}, seat=BOB)


def test_only_the_seat_to_move_may_play():
    state = game(["R-L15"])
    assert ENGINE.legal_moves(state, BOB) == []
    with pytest.raises(IllegalMove, match="not your turn"):
        ENGINE.apply(state, BOB, {"x": -1, "y": 0, "rot": 0})


# A river-only tile (R-L13, rivers on all four sides into a lake) cannot go next to a board that shows
# no river edge: the start tile surrounded so that only meadow and forest edges are open.
BOXED = [(-1, 0, "R-L00", 90)]  # the start's river ends in R-L00's lake; R-L00 shows forest N and W, meadow S


def boxed(tile: str, **kwargs) -> dict:
    return position(BOXED, tile, **kwargs)


def test_a_tile_that_fits_nowhere_is_discarded_and_the_turn_ends_by_default():
    # Given Alice places a meadow tile and Bob would draw R-L13 (rivers on all sides), which fits nowhere.
    state = boxed("R-L62", stack=["R-L13", "R-L61"], players=3)
    assert state["options"]["unplaceable_tile"] == "end_turn"
    turn = state["turn"]
    state, events = act(state, "place 0,1 r0")
    assert kinds(events) == ["tile_placed", "tile_drawn", "tile_discarded", "tile_drawn"]
    # Then R-L13 leaves the game and Bob's turn is over: Carol draws the next tile, on the turn after Bob's.
    assert state["discarded"] == ["R-L13"] and ENGINE.to_move(state) == [CAROL] and state["tile"] == "R-L61"
    assert state["turn"] == turn + 2
    assert only(events, "tile_discarded").data == {"seat": BOB, "tile": "R-L13", "bonus": False, "then": "end_turn"}


def test_with_redraw_the_same_player_draws_again():
    state = boxed("R-L62", stack=["R-L13", "R-L61"], players=3, unplaceable_tile="redraw")
    turn = state["turn"]
    state, events = act(state, "place 0,1 r0")
    assert state["discarded"] == ["R-L13"] and ENGINE.to_move(state) == [BOB] and state["tile"] == "R-L61"
    assert state["turn"] == turn + 1  # still Bob's one turn
    assert only(events, "tile_discarded").data["then"] == "redraw"


def test_discard_and_redraw_is_the_same_option_as_redraw():
    options = ENGINE.validate_options(2, {"unplaceable_tile": "discard_and_redraw"})
    assert options["unplaceable_tile"] == "redraw"


def test_when_only_unplaceable_tiles_remain_the_game_ends():
    state = boxed("R-L62", stack=["R-L13"])
    state, events = act(state, "place 0,1 r0")
    assert kinds(events)[-2:] == ["tile_discarded", "game_ended"] and ENGINE.is_over(state)


def test_the_classic_edition_redraws_by_default():
    assert ENGINE.validate_options(2, {"edition": "classic"})["unplaceable_tile"] == "redraw"
    assert ENGINE.validate_options(2, {})["unplaceable_tile"] == "end_turn"
