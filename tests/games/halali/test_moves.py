"""Flips, movement, the capture matrix, rifle directions, the no-return rule and the green lock (§4, §5, §10.1–2)."""

from __future__ import annotations

import pytest

from games.base import IllegalMove
from games.halali import ENGINE, tiles

from . import ALICE, BOB, act, destinations, only, play, position

# Alice plays Blue (bears, foxes), Bob plays Brown (hunters, lumberjacks) unless a test says otherwise.

# The capture matrix of §5, written out again from the rules file: (attacker, target) pairs that capture.
CAPTURES = {
    ("bear", "hunter"),
    ("bear", "lumberjack"),
    ("fox", "pheasant"),
    ("fox", "duck"),
    ("hunter", "bear"),
    ("hunter", "fox"),
    ("hunter", "pheasant"),
    ("hunter", "duck"),
    ("lumberjack", "tree"),
}
TOKEN = {kind: code for kind, code in tiles.SHORT.items()}


def lone(square_token: str, *, at: str = "d4", extra: dict[str, str] | None = None, **kwargs) -> dict:
    """Return a main-phase position with one tile ``square_token`` on ``at`` and a face-down tree on a1."""
    grid = {at: square_token, "a1": "t", **(extra or {})}
    rows = []
    for rank in range(7, 0, -1):
        rows.append(" ".join(grid.get(f"{f}{rank}", ".") for f in "abcdefg"))
    return position("\n".join(rows), **kwargs)


def mover_for(kind: str) -> int:
    """Return the seat that may move ``kind``: Brown tiles are Bob's, everything else Alice's (Blue)."""
    return BOB if tiles.owner(kind) == "brown" else ALICE


def token(kind: str, direction: str = "N") -> str:
    return "H" + direction if kind == "hunter" else TOKEN[kind]


def test_data_capture_matrix_is_the_rules_table():
    assert {(a, t) for a in tiles.KINDS for t in tiles.KINDS if tiles.can_capture(a, t)} == CAPTURES


@pytest.mark.parametrize("target", tiles.KINDS)
@pytest.mark.parametrize("attacker", tiles.KINDS)
def test_capture_matrix_row_by_column(attacker, target):
    # Given the attacker on d4 (a hunter aims north) and a face-up target on d5.
    seat = mover_for(attacker)
    state = lone(token(attacker), extra={"d5": token(target)}, current=seat)
    move = {"from": "d4", "to": "d5"}
    if (attacker, target) in CAPTURES:
        assert move in ENGINE.legal_moves(state, seat)
        state, events = act(state, move)
        moved = only(events, "moved").data
        assert moved["captured"] == target and moved["points"] == tiles.POINTS[target]
        assert state["piles"][seat] == [{"kind": target, "how": "captured"}]
        assert state["board"][24] is None and state["board"][17]["kind"] == attacker  # ends on d5
    else:
        assert move not in ENGINE.legal_moves(state, seat)
        with pytest.raises(IllegalMove):
            act(state, move)


@pytest.mark.parametrize(("attacker", "target"), sorted(CAPTURES))
def test_unlimited_or_range_one_capture_reaches_as_far_as_the_tile_moves(attacker, target):
    # Given the target three squares north on d7 with an open path.
    seat = mover_for(attacker)
    state = lone(token(attacker), extra={"d7": token(target)}, current=seat)
    reaches = tiles.RANGE[attacker] > 1
    assert ("d7" in destinations(state, "d4")) is reaches


def test_face_down_tiles_are_obstacles_never_prey():
    state = lone("F", extra={"d6": "d", "d7": "D"})
    assert destinations(state, "d4") >= {"d5"} and not {"d6", "d7"} & destinations(state, "d4")
    with pytest.raises(IllegalMove, match="face-down tile: it is an obstacle"):
        act(state, {"from": "d4", "to": "d6"})
    with pytest.raises(IllegalMove, match="blocked at d6"):
        act(state, {"from": "d4", "to": "d7"})


def test_capture_is_not_compulsory():
    state = lone("F", extra={"d5": "D"})
    assert {"d5", "e4", "c4", "d3"} <= destinations(state, "d4")
    state, events = act(state, "d4-e4")
    assert "captured" not in only(events, "moved").data


# -- movement -----------------------------------------------------------------

ROW_AND_COLUMN = {"d5", "d6", "d7", "e4", "f4", "g4", "d3", "d2", "d1", "c4", "b4", "a4"}


@pytest.mark.parametrize(
    ("kind", "reach"),
    [
        ("bear", {"d5", "e4", "d3", "c4"}),
        ("lumberjack", {"d5", "e4", "d3", "c4"}),
        ("fox", ROW_AND_COLUMN),
        ("hunter", ROW_AND_COLUMN),
        ("pheasant", ROW_AND_COLUMN),
        ("duck", ROW_AND_COLUMN),
        ("tree", set()),
    ],
)
def test_given_open_board_then_each_kind_moves_its_distance_in_straight_lines(kind, reach):
    seat = mover_for(kind)
    state = lone(token(kind), current=seat)
    assert destinations(state, "d4", seat) == reach


@pytest.mark.parametrize(
    ("kind", "move", "reason"),
    [
        ("fox", "d4-e5", "straight line"),
        ("fox", "d4-f3", "straight line"),
        ("bear", "d4-d6", "only 1 square"),
        ("lumberjack", "d4-b4", "only 1 square"),
        ("tree", "d4-d5", "Trees never move"),
        ("fox", "d4-d4", "at least one square"),
    ],
)
def test_illegal_geometry_is_refused_with_a_reason(kind, move, reason):
    state = lone(token(kind), current=mover_for(kind))
    with pytest.raises(IllegalMove, match=reason):
        act(state, move)


def test_tiles_never_jump_over_face_up_tiles():
    state = lone("F", extra={"d6": "T", "f4": "D", "b4": "HN"})
    assert destinations(state, "d4") == {"d5", "e4", "f4", "c4", "d3", "d2", "d1"}
    with pytest.raises(IllegalMove, match="blocked at d6"):
        act(state, "d4-d7")


@pytest.mark.parametrize(
    ("seat", "square", "reason"),
    [
        (ALICE, "c4", "The Hunter belongs to Brown: you play Blue"),
        (ALICE, "e4", "The Lumberjack belongs to Brown"),
        (BOB, "d5", "The Fox belongs to Blue: you play Brown"),
        (BOB, "d3", "The Bear belongs to Blue"),
        (ALICE, "a1", "face down: turn it over instead"),
        (ALICE, "b2", "no tile on b2"),
    ],
)
def test_each_side_moves_only_its_own_colour(seat, square, reason):
    state = lone("T", at="g7", extra={"c4": "HN", "e4": "L", "d5": "F", "d3": "B"}, current=seat)
    assert destinations(state, square, seat) == set()
    with pytest.raises(IllegalMove, match=reason):
        act(state, {"from": square, "to": "b2" if square != "b2" else "b3"})


@pytest.mark.parametrize("seat", [ALICE, BOB])
@pytest.mark.parametrize("kind", ["duck", "pheasant"])
def test_either_player_may_move_ducks_and_pheasants(kind, seat):
    state = lone(TOKEN[kind], current=seat)
    assert destinations(state, "d4", seat) == ROW_AND_COLUMN
    state, events = act(state, "d4-g4")
    assert only(events, "moved").data == {"seat": seat, "kind": kind, "from": "d4", "to": "g4", "locked": True}


def test_flip_turns_any_face_down_tile_and_is_the_only_other_action():
    state = lone("F", extra={"c6": "b"})
    moves = ENGINE.legal_moves(state, ALICE)
    assert moves[:2] == [{"flip": "c6"}, {"flip": "a1"}]  # flips first, in square order
    state, events = act(state, "flip c6")
    assert only(events, "flipped").data == {
        "seat": ALICE,
        "square": "c6",
        "kind": "bear",
        "locked": False,
        "face_down": 1,
    }
    # The board marks the square turned over as the last play, for both players and onlookers.
    assert ENGINE.view(state, None)["last"] == {"kind": "flipped", "seat": ALICE, "square": "c6"}
    with pytest.raises(IllegalMove, match="no face-down tile on c6"):
        act(state, "flip c6")


# -- hunters' rifles ------------------------------------------------------------


@pytest.mark.parametrize(("aim", "prey"), [("N", "d7"), ("E", "g4"), ("S", "d1"), ("W", "a4")])
def test_hunter_captures_only_in_its_rifle_direction_but_walks_anywhere(aim, prey):
    # Given a hunter on d4 and a fox at the end of each of its four lines.
    foxes = {"d7": "F", "g4": "F", "d1": "F", "a4": "F"}
    state = lone("H" + aim, extra={**foxes, "a1": "T", "a7": "t"}, current=BOB)
    reach = destinations(state, "d4")
    assert reach == {"d5", "d6", "e4", "f4", "d3", "d2", "c4", "b4", prey}
    for other in set(foxes) - {prey}:
        with pytest.raises(IllegalMove, match="captures only in that direction"):
            act(state, {"from": "d4", "to": other})


def test_rules_worked_example_hunter_geometry():
    # Hunter at (4,2) = c3 aiming N; fox at (1,2) = c6; duck at (4,5) = f3.
    state = lone("HN", at="c3", extra={"c6": "F", "f3": "D"}, current=BOB)
    assert {"c6", "e3"} <= destinations(state, "c3") and "f3" not in destinations(state, "c3")
    state, events = act(state, "c3xc6")
    assert only(events, "moved").data["captured"] == "fox"


# -- no moving straight back (§4.B.6, §10.2) -----------------------------------

NO_RETURN = """
t . . . . . t
. . . . . . .
. . . . . . .
D . . X . . .
. . . . . . .
. . . . . . .
t . . . . . t
"""


def no_return(kind: str, **options) -> tuple[dict, int]:
    """Return the position with ``kind`` on d4, moved by its owner (Alice if neutral, as Blue or Brown)."""
    mover = ALICE
    blue = ALICE if tiles.owner(kind) != "brown" else BOB
    tok = "HS" if kind == "hunter" else TOKEN[kind]
    return position(NO_RETURN.replace("X", tok), blue=blue, current=mover, **options), mover


@pytest.mark.parametrize("kind", ["fox", "hunter", "bear", "lumberjack"])
def test_given_own_tile_moved_x_to_y_then_it_may_not_go_straight_back_next_turn(kind):
    state, me = no_return(kind)
    state, _ = play(state, "d4-d5", "flip a7")
    assert "d4" not in destinations(state, "d5")
    with pytest.raises(IllegalMove, match="from d4 on your previous turn: it may not go straight back"):
        act(state, "d5-d4")
    assert ENGINE.view(state, None)["no_return"] == {"seat": me, "kind": kind, "square": "d5", "banned": "d4"}


def test_no_return_bans_only_the_square_left_not_moves_past_it():
    state, _ = no_return("fox")
    state, _ = play(state, "d4-d6", "flip a7")
    assert destinations(state, "d6") == {"d7", "e6", "f6", "g6", "c6", "b6", "a6", "d5", "d3", "d2", "d1"}
    state, _ = act(state, "d6-d2")  # passes over d4 and ends beyond it


def test_no_return_looks_back_exactly_one_own_turn():
    state, _ = no_return("fox")
    state, _ = play(state, "d4-d5", "flip a7", "flip g7", "flip g1")
    assert "d4" in destinations(state, "d5")


@pytest.mark.parametrize(("option", "allowed"), [(False, True), (True, False)])
def test_no_return_for_ducks_and_pheasants_follows_the_option(option, allowed):
    state = position(NO_RETURN.replace("X", "F"), no_return_neutral=option)
    state, _ = play(state, "a4-c4", "flip a7")  # Alice moves the duck a4 -> c4
    assert ("a4" in destinations(state, "c4")) is allowed


@pytest.mark.parametrize(("option", "allowed"), [(True, False), (False, True)])
def test_no_return_even_to_capture_follows_the_option(option, allowed):
    # Alice's fox leaves d4; Bob slides the duck onto d4; the fox could now capture it by going back.
    state = position(NO_RETURN.replace("X", "F"), no_return_capture=option)
    state, _ = play(state, "d4-d6", "a4-d4")
    assert ("d4" in destinations(state, "d6")) is allowed
    if not allowed:
        with pytest.raises(IllegalMove, match="straight back"):
            act(state, "d6xd4")


# -- the green lock (§4.A, §4.B, §10.1) ----------------------------------------

LOCK = """
t . . . . . t
. . . . . . .
. . . . . . .
. . . X . . .
. . . . . . .
. . . . . . HN
t . . . . . t
"""


@pytest.mark.parametrize("lock_on_move", [True, False])
@pytest.mark.parametrize("kind", ["duck", "pheasant"])
def test_given_opponent_flipped_a_bird_then_you_may_not_move_it_on_your_next_turn(kind, lock_on_move):
    # Both readings of §10.1 lock a bird just turned over.
    state = position(LOCK.replace("X", TOKEN[kind].lower()), lock_on_move=lock_on_move)
    state, events = act(state, "flip d4")
    assert only(events, "flipped").data["locked"] is True
    assert ENGINE.view(state, BOB)["locked"] == "d4"
    assert destinations(state, "d4", BOB) == set()
    with pytest.raises(IllegalMove, match="just turned over by your opponent: you may not move it this turn"):
        act(state, "d4-d5")
    # The flipper may move it on their next turn, and the opponent the turn after that.
    state, _ = act(state, "flip a7")
    assert ENGINE.view(state, ALICE)["locked"] is None
    assert destinations(state, "d4", ALICE) == ROW_AND_COLUMN
    state, _ = act(state, "flip g7")
    assert destinations(state, "d4", BOB) == ROW_AND_COLUMN


@pytest.mark.parametrize("kind", ["duck", "pheasant"])
def test_given_opponent_moved_a_bird_then_it_is_locked_but_may_still_be_captured(kind):
    state = position(LOCK.replace("X", TOKEN[kind]))
    state, _ = act(state, "d4-g4")  # Alice moves the bird next to Bob's hunter aiming north (g2)
    assert ENGINE.view(state, BOB)["locked"] == "g4"
    with pytest.raises(IllegalMove, match="just moved by your opponent: you may not move it this turn"):
        act(state, "g4-g5")
    state, events = act(state, "g2xg4")
    assert only(events, "moved").data["captured"] == kind


@pytest.mark.parametrize("kind", ["duck", "pheasant"])
def test_given_the_original_texts_flip_only_lock_then_a_bird_just_moved_may_be_moved_back(kind):
    # The original text we were given locks a green tile only when it is turned over (§10.1, table option).
    state = position(LOCK.replace("X", TOKEN[kind]), lock_on_move=False)
    state, events = act(state, "d4-g4")
    assert only(events, "moved").data == {"seat": ALICE, "kind": kind, "from": "d4", "to": "g4", "locked": False}
    assert state["locked"] is None and ENGINE.view(state, BOB)["locked"] is None
    assert ENGINE.view(state, BOB)["options"]["lock_on_move"] is False
    assert {"g5", "g6", "g3", "f4", "a4"} <= destinations(state, "g4", BOB)
    state, events = act(state, "g4-d4")  # Bob sends it straight back: the flip-only lock does not stop him
    assert only(events, "moved").data["locked"] is False
    assert destinations(state, "d4", ALICE) >= {"d5", "e4", "d3", "c4"}  # nor Alice after him


def test_the_engines_lock_after_a_move_is_the_default():
    state = position(LOCK.replace("X", "D"))
    assert state["options"]["lock_on_move"] is True
    state, events = act(state, "d4-g4")
    assert only(events, "moved").data["locked"] is True
    assert destinations(state, "g4", BOB) == set()


def test_given_a_version_1_state_without_the_option_then_a_move_still_locks():
    # Games stored by engine version 1 have no lock_on_move in their options: they lock after a move, as then.
    state = position(LOCK.replace("X", "P"))
    del state["options"]["lock_on_move"]
    state, events = act(state, "d4-g4")
    assert only(events, "moved").data["locked"] is True and state["locked"] == 27


def test_flipping_a_tree_or_an_own_tile_locks_nothing():
    state = position(LOCK.replace("X", "t"))
    state, events = act(state, "flip d4")
    assert only(events, "flipped").data["locked"] is False
    assert state["locked"] is None
