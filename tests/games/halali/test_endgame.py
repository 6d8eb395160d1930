"""The final phase, exits, the immediate end, forced passes and the safety valve (§7, §8, §10.3, §10.4, §10.6)."""

from __future__ import annotations

import pytest

from games.base import IllegalMove
from games.halali import ENGINE, board

from . import ALICE, BOB, act, destinations, kinds, only, picture, play, position

# Alice plays Blue (moves first), Bob plays Brown.

LAST_FLIP = """
T T T . T T T
. . . . . . .
. . . . . . .
. F . . . L .
. . . . . . .
. . . . . . .
. . . . . . X
"""
# Moves that go round a square, so the no-return rule never bites.
BOB_LOOP = ["f4-f5", "f5-e5", "e5-e4", "e4-f4", "f4-f5"]
ALICE_LOOP = ["b4-b5", "b5-c5", "c5-c4", "c4-b4", "b4-b5"]


@pytest.mark.parametrize(("flipper", "blue"), [(ALICE, ALICE), (BOB, ALICE), (ALICE, BOB)])
def test_given_last_tile_flipped_then_the_other_player_starts_five_final_turns_each(flipper, blue):
    state = position(LAST_FLIP.replace("X", "t"), blue=blue, current=flipper)
    state, events = act(state, "flip g1")
    other = 1 - flipper
    assert only(events, "final_phase_started").data == {"first": other, "last_flipper": flipper, "turns": 5}
    assert state["phase"] == "final" and ENGINE.to_move(state) == [other]
    assert ENGINE.view(state, None)["final_turns_left"] == [5, 5]  # the last flip is not a final turn
    loops = {ALICE: ALICE_LOOP if blue == ALICE else BOB_LOOP, BOB: BOB_LOOP if blue == ALICE else ALICE_LOOP}
    order = []
    for turn in range(10):
        seat = ENGINE.to_move(state)[0]
        order.append(seat)
        assert state["leg"] == 1, f"leg ended early at final turn {turn}"
        state, events = act(state, loops[seat][turn // 2])
        left = [5 - order.count(ALICE), 5 - order.count(BOB)]
        if turn < 9:
            assert state["final_left"] == left
    assert order == [other, flipper] * 5
    assert kinds(events)[-2:] == ["leg_ended", "leg_started"]
    assert only(events, "leg_ended").data["reason"] == "final_turns"


def test_given_final_phase_then_every_turn_is_a_move_and_nothing_is_left_to_flip():
    state, _ = act(position(LAST_FLIP.replace("X", "t")), "flip g1")
    assert not any("flip" in move for move in ENGINE.legal_moves(state, BOB))
    with pytest.raises(IllegalMove, match="no face-down tile"):
        act(state, "flip a1")


# -- exits ----------------------------------------------------------------------

# A fox on a7 and a lumberjack on g1 (on no exit line) keep both sides on the board.
EXITS = """
F . . 1 . . .
. . . . . . .
. . . . . . .
3 . . . . . 4
. . . . . . .
. . . . . . .
. . . 2 . . L
"""


def exits_board(a=".", b=".", c=".", d=".", hidden: bool = False) -> str:
    picture = EXITS.replace("1", a).replace("2", b).replace("3", c).replace("4", d)
    if hidden:
        picture = picture.replace(". . . . . . .", "t . . . . . .", 1)
    return picture


@pytest.mark.parametrize(
    ("where", "token", "seat", "square", "exit"),
    [
        ("a", "B", ALICE, "d7", "N"),
        ("b", "B", ALICE, "d1", "S"),
        ("c", "L", BOB, "a4", "W"),
        ("d", "L", BOB, "g4", "E"),
        ("a", "F", ALICE, "d7", "N"),
        ("d", "HW", BOB, "g4", "E"),  # a hunter aiming west leaves eastward: the rifle does not matter
    ],
)
def test_in_final_phase_own_tiles_leave_through_the_exit_of_their_square(where, token, seat, square, exit):
    state = position(exits_board(**{where: token}), current=seat)
    assert f"out {exit}" in destinations(state, square)
    state, events = act(state, f"{square} out")
    data = only(events, "exited").data
    assert data["from"] == square and data["exit"] == exit and data["gate"] == square
    assert state["piles"][seat] == [{"kind": data["kind"], "how": "exited"}]
    assert data["points"] == {"bear": 10, "fox": 5, "lumberjack": 5, "hunter": 5}[data["kind"]]
    assert state["board"][board.index(square)] is None and state["leg"] == 1


def test_exits_are_closed_in_the_main_phase():
    state = position(exits_board(a="B", hidden=True))
    assert "out N" not in destinations(state, "d7")
    with pytest.raises(IllegalMove, match="exits open only in the final phase"):
        act(state, "d7 out")


def test_house_rule_opens_exits_all_game():
    state = position(exits_board(a="B", hidden=True), exits_anytime=True)
    state, events = act(state, "d7 out")
    assert only(events, "exited").data["points"] == 10 and state["phase"] == "main"


def test_an_exit_is_no_quiet_turn_for_the_safety_valve():
    state = position(exits_board(a="B", hidden=True), exits_anytime=True, stall_limit=3)
    state["quiet"] = 2  # one more quiet turn would force Bob to flip
    state, events = act(state, "d7 out")
    assert state["quiet"] == 0 and "flip_required" not in kinds(events)


@pytest.mark.parametrize("kind", ["D", "P"])
def test_ducks_and_pheasants_never_exit(kind):
    state = position(exits_board(a=kind))
    assert "out N" not in destinations(state, "d7")
    with pytest.raises(IllegalMove, match="Only your own"):
        act(state, "d7 out")


def test_the_opponents_tiles_may_not_exit():
    state = position(exits_board(a="HN"))
    with pytest.raises(IllegalMove, match="belongs to Brown"):
        act(state, "d7 out")


def test_range_one_tiles_must_stand_on_the_exit_square():
    state = position(exits_board().replace(". . . . . . .", ". . . B . . .", 1))  # bear on d6
    assert destinations(state, "d6") == {"d7", "e6", "c6", "d5"}
    with pytest.raises(IllegalMove, match="must stand on d7 to leave"):
        act(state, "d6 out N")


def test_unlimited_tiles_leave_from_anywhere_on_the_exit_line_when_the_way_is_clear():
    state = position(exits_board(b="F"))  # fox on d1, the whole d file empty above it
    assert {"out N", "out S"} <= destinations(state, "d1")
    _, events = act(state, "d1 out N")
    assert only(events, "exited").data["gate"] == "d7"
    blocked = position(exits_board(a="T", b="F"))
    assert "out N" not in destinations(blocked, "d1")
    with pytest.raises(IllegalMove, match="blocked at d7"):
        act(blocked, "d1 out N")


def test_centre_tile_may_leave_by_all_four_exits():
    state = position(picture({"d4": "F", "g6": "HS"}))
    assert {"out N", "out E", "out S", "out W"} <= destinations(state, "d4")


@pytest.mark.parametrize(
    ("square", "exits"),
    [
        ("a7", set()),
        ("b7", set()),
        ("g1", set()),
        ("a5", set()),
        ("c4", {"out W", "out E"}),
        ("d2", {"out N", "out S"}),
    ],
)
def test_only_tiles_on_the_middle_row_or_column_have_a_way_out(square, exits):
    state = position(picture({square: "F", "g6": "HS"}))
    assert {d for d in destinations(state, square) if d.startswith("out")} == exits


# -- the immediate end (§8) -----------------------------------------------------


def test_given_last_flip_leaves_a_side_without_tiles_then_the_leg_ends_at_once():
    state = position(LAST_FLIP.replace("L", ".").replace("X", "t"))
    state, events = act(state, "flip g1")
    assert "final_phase_started" not in kinds(events)
    assert only(events, "leg_ended").data["reason"] == "side_cleared"
    assert only(events, "leg_ended").data["cleared"] == ["brown"]
    assert state["leg"] == 2


def test_given_last_flip_reveals_a_tile_of_the_missing_side_then_the_final_phase_starts():
    state = position(LAST_FLIP.replace("L", ".").replace("X", "l"))
    state, events = act(state, "flip g1")
    assert "final_phase_started" in kinds(events) and state["leg"] == 1


def test_given_final_phase_capture_of_the_last_own_tile_then_the_leg_ends_at_once():
    state = position(picture({"b4": "L", "c4": "B"}), final_left=[3, 3])
    state, events = act(state, "c4xb4")
    assert only(events, "leg_ended").data["cleared"] == ["brown"]
    assert state["legs"][0]["points"] == [5, 0] and state["leg"] == 2


def test_given_own_last_tile_exits_then_the_leg_ends_at_once():
    state = position(picture({"d7": "B", "a1": "HN"}))
    state, events = act(state, "d7 out")
    leg = only(events, "leg_ended").data
    assert leg["cleared"] == ["blue"] and leg["points"] == [10, 0]


def test_in_main_phase_a_side_without_face_up_tiles_does_not_end_the_leg():
    state = position(picture({"b4": "L", "c4": "B", "a1": "t"}))
    state, events = act(state, "c4xb4")
    assert "leg_ended" not in kinds(events) and ENGINE.to_move(state) == [BOB]


# -- forced pass (§10.3) ---------------------------------------------------------

BOXED = """
L F . . . . .
F . . . . . .
. . . . . . .
. . . . . . .
. . . . . . .
. . . . . . .
. . . . . . F
"""


def test_given_no_legal_move_in_final_phase_then_a_forced_pass_uses_a_turn():
    state = position(BOXED, current=BOB, final_left=[5, 5])
    assert ENGINE.legal_moves(state, BOB) == [{"pass": True}]
    assert ENGINE.describe_move(state, {"pass": True}) == "pass"
    state, events = act(state, "pass")
    assert only(events, "passed").data == {"seat": BOB, "final_left": 4}
    assert state["final_left"] == [5, 4] and ENGINE.to_move(state) == [ALICE]
    assert ENGINE.view(state, None)["last"] == {"kind": "passed", "seat": BOB}  # the board says Bob passed
    with pytest.raises(IllegalMove, match="only when you have no legal move"):
        act(state, "pass")


# -- the safety valve (§10.4) ----------------------------------------------------

QUIET = """
t . . . . . t
. . . . . . .
. . . . . . .
. F . . . L .
. . . . . . .
. . . . . . .
t . . . . . t
"""


def test_safety_valve_is_off_by_default():
    state, events = play(position(QUIET), *[m for pair in zip(ALICE_LOOP, BOB_LOOP) for m in pair])
    assert "flip_required" not in kinds(events)
    assert any("from" in move for move in ENGINE.legal_moves(state, ALICE))


def test_given_stall_limit_then_after_that_many_quiet_turns_the_mover_must_flip():
    state, events = play(position(QUIET, stall_limit=3), "b4-b5", "f4-f5", "b5-c5")
    assert only(events, "flip_required").data == {"seat": BOB, "quiet": 3}
    assert all("flip" in move for move in ENGINE.legal_moves(state, BOB))
    with pytest.raises(IllegalMove, match="must turn a tile over"):
        act(state, "f5-e5")
    state, _ = act(state, "flip a7")
    assert state["quiet"] == 0 and any("from" in move for move in ENGINE.legal_moves(state, ALICE))
