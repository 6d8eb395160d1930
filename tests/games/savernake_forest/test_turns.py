"""Turns, helpers, placement and shared paths (rules file §5, §6, §7, §8.2, §16)."""

from __future__ import annotations

import pytest

from games.base import IllegalMove
from games.savernake_forest import ENGINE

from . import ALICE, BOB, CAROL, act, animal, deal, kinds, only, path, play, with_forest

TWO = ["AN01", "AN02"]


def slot_move(slot: str, x: int, y: int, rot: int = 0, **extra) -> dict:
    return {"slot": slot, "x": x, "y": y, "rot": rot, **extra}


def placement(move: dict) -> tuple:
    return move["slot"], move["x"], move["y"], move["rot"]


# -- order, rooster, market (§5.1, §7.1) ------------------------------------------------


def test_turn_order_starts_with_the_first_player_then_runs_clockwise():
    state = deal(["AN01", "AN02", "AN03"], first=1)
    seen = []
    for _ in range(3):
        (seat,) = ENGINE.to_move(state)
        seen.append(seat)
        state, _ = act(state, ENGINE.legal_moves(state, seat)[0])
    assert seen == [1, 2, 0]
    assert ENGINE.legal_moves(state, 2) == [] and ENGINE.to_move(state) == [1]


def test_the_rooster_card_makes_its_taker_first_next_round_not_this_one():
    state = deal(["AN01", "AN02", "AN03"])
    state, events = act(state, slot_move("goat", 0, -1, token={"animal": "AN01", "food": "W"}))
    state, events = act(state, slot_move("rooster", 0, -1))
    assert only(events, "rooster_taken").data == {"seat": BOB, "previous": ALICE}
    assert ENGINE.to_move(state) == [CAROL]  # this round's order does not change
    assert ENGINE.view(state, None)["rooster"] == BOB and ENGINE.view(state, None)["first_player"] == ALICE
    state, events = act(state, slot_move("armadillo", 0, -1, token={"animal": "AN03"}))
    assert only(events, "round_started").data == {"round": 2, "first": BOB, "order": [BOB, CAROL, ALICE]}
    assert ENGINE.to_move(state) == [BOB]


def test_the_first_player_taking_the_rooster_keeps_it():
    state = deal(TWO, first=1)
    state, events = play(state, slot_move("rooster", 0, -1), slot_move("rabbit", 0, -1))
    assert only(events, "rooster_taken").data == {"seat": BOB, "previous": BOB}
    assert ENGINE.to_move(state) == [BOB]


def test_when_nobody_takes_the_rooster_the_first_player_stays():
    state = deal(TWO, first=1)
    state, events = play(state, slot_move("rabbit", 0, -1), slot_move("armadillo", 0, -1, token={"animal": "AN01"}))
    assert "rooster_taken" not in kinds(events)
    assert only(events, "round_started").data["first"] == BOB


def test_two_players_discard_the_leftovers_and_get_a_fresh_row():
    rows = [("ST01", "ST02", "ST03", "AN03"), ("CU01", "CU02", "CU03", "AN04")]
    state = deal(TWO, rows)
    state, events = play(state, slot_move("rooster", 0, -1), slot_move("rabbit", 0, -1))
    assert only(events, "market_discarded").data == {"cards": ["ST02", "ST03"]}
    assert state["discard"] == ["ST02", "ST03"]
    assert state["market"] == {"rooster": "CU01", "goat": "CU02", "armadillo": "CU03", "rabbit": "AN04"}
    dealt = only(events, "market_dealt").data
    assert dealt["round"] == 2 and dealt["dealt"] == ["rooster", "goat", "armadillo", "rabbit"]
    assert len(state["path_deck"]) == 45 - 6 and len(state["animal_deck"]) == 19 - 2 - 2
    assert kinds(events)[-3:] == ["market_discarded", "market_dealt", "round_started"]


def test_three_players_discard_the_one_card_left():
    state = deal(["AN01", "AN02", "AN03"], [("ST01", "ST02", "ST03", "AN04")])
    state, events = play(
        state,
        slot_move("rooster", 0, -1),
        slot_move("rabbit", 0, -1),
        slot_move("armadillo", 0, -1, token={"animal": "AN03"}),
    )
    assert only(events, "market_discarded").data == {"cards": ["ST02"]}


def test_four_players_empty_the_market_so_nothing_is_discarded():
    state = deal(["AN01", "AN02", "AN03", "AN04"])
    state, events = play(
        state,
        slot_move("rooster", 0, -1),
        slot_move("goat", 0, -1, token={"animal": "AN02", "food": "N"}),
        slot_move("armadillo", 0, -1, token={"animal": "AN03"}),
        slot_move("rabbit", 0, -1),
    )
    assert "market_discarded" not in kinds(events) and state["discard"] == []
    assert ENGINE.to_move(state) == [ALICE] and state["round"] == 2


def test_the_market_is_not_refilled_during_a_round():
    state = deal(["AN01", "AN02", "AN03"])
    state, _ = act(state, slot_move("rooster", 0, -1))
    assert state["market"]["rooster"] is None
    assert not any(move["slot"] == "rooster" for move in ENGINE.legal_moves(state, BOB))
    with pytest.raises(IllegalMove, match="no card under the rooster"):
        act(state, slot_move("rooster", 0, -1))


def test_persistent_two_player_market_keeps_leftovers_and_refills_only_empty_slots():
    rows = [("ST01", "ST02", "ST03", "AN03"), ("CU01", "CU02", "CU03", "AN04")]
    state = deal(TWO, rows, two_player_market="persistent")
    state, events = play(state, slot_move("rooster", 0, -1), slot_move("rabbit", 0, -1))
    assert "market_discarded" not in kinds(events) and state["discard"] == []
    assert state["market"] == {"rooster": "CU01", "goat": "ST02", "armadillo": "ST03", "rabbit": "AN04"}
    assert only(events, "market_dealt").data["dealt"] == ["rooster", "rabbit"]
    assert len(state["path_deck"]) == 45 - 4


# -- helpers and tokens (§7) ---------------------------------------------------------------


def test_the_goat_puts_a_water_drop_on_a_corner_of_one_face_up_animal():
    state = deal(TWO)
    state, events = act(state, "take goat 0,-1 r0 drop fox nuts")
    assert state["forests"][ALICE][0]["drops"] == ["N"]
    assert state["supply"]["drops"] == 14
    assert kinds(events) == ["card_taken", "water_drop_placed"]


@pytest.mark.parametrize(
    ("token", "reason"),
    [
        (None, "Place the goat's water drop"),
        ({"animal": "AN02", "food": "W"}, "not an animal in your forest"),
        ({"animal": "AN01"}, "names an animal and a food"),
        ({"animal": "AN01", "food": "X"}, "food must be B"),
        ({"animal": "AN01", "food": "W", "extra": 1}, "names an animal and a food"),
        ("AN01", "token must be an object"),
    ],
)
def test_bad_water_drops_are_illegal(token, reason):
    state = deal(TWO)
    move = slot_move("goat", 0, -1)
    if token is not None:
        move["token"] = token
    with pytest.raises(IllegalMove, match=reason):
        act(state, move)


def test_one_drop_per_corner_and_a_full_set_of_corners_leaves_the_drop_in_the_supply():
    state = with_forest(deal(TWO), ALICE, [animal("AN01", drops="BW")])
    with pytest.raises(IllegalMove, match="already has a drop on its worms corner"):
        act(state, "take goat 0,-1 r0 drop AN01 W")
    full = with_forest(state, ALICE, [animal("AN01", drops="BWEN")])
    assert all("token" not in move for move in ENGINE.legal_moves(full, ALICE) if move["slot"] == "goat")
    with pytest.raises(IllegalMove, match="drop stays in the supply"):
        act(full, "take goat 0,-1 r0 drop AN01 W")
    after, events = act(full, "take goat 0,-1 r0")
    assert kinds(events) == ["card_taken", "water_drop_unplaced"] and after["supply"]["drops"] == 15


def test_drops_and_burrows_go_on_face_up_animals_only():
    forest = [animal("AN01"), animal("AN05", 1, 0, up=False)]
    state = with_forest(deal(TWO), ALICE, forest)
    with pytest.raises(IllegalMove, match="face down"):
        act(state, "take goat 0,-1 r0 drop AN05 W")
    with pytest.raises(IllegalMove, match="face down"):
        act(state, "take armadillo 0,-1 r0 burrow AN05")
    targets = {move["token"]["animal"] for move in ENGINE.legal_moves(state, ALICE) if "token" in move}
    assert targets == {"AN01"}


def test_burrows_stack_on_one_animal():
    state = deal(TWO)
    state, _ = play(state, "take armadillo 0,-1 r0 burrow fox", "take rooster 0,-1 r0")
    state, _ = play(state, "take rooster 0,1 r0")  # Bob holds the rooster now
    state, events = act(state, "take armadillo 1,0 r0 burrow AN01")  # a fresh row: the armadillo again
    assert state["forests"][ALICE][0]["burrows"] == 2
    assert only(events, "burrow_placed").data == {"seat": ALICE, "animal": "AN01", "burrows": 2}
    with pytest.raises(IllegalMove, match="A burrow names only an animal"):
        act(deal(TWO), "take armadillo 0,-1 r0 drop AN01 W")


def test_with_no_burrow_left_in_the_supply_the_armadillo_gives_none():
    state = deal(TWO)
    state["supply"]["burrows"] = 0
    with pytest.raises(IllegalMove, match="The armadillo gives no token"):
        act(state, "take armadillo 0,-1 r0 burrow AN01")
    after, events = act(state, "take armadillo 0,-1 r0")
    assert kinds(events)[0] == "card_taken" and "burrow_placed" not in kinds(events)
    assert after["supply"]["burrows"] == 0 and after["forests"][ALICE][0]["burrows"] == 0


@pytest.mark.parametrize("slot", ["rooster", "rabbit"])
def test_the_rooster_and_the_rabbit_give_no_token(slot):
    with pytest.raises(IllegalMove, match=f"The {slot} gives no token"):
        act(deal(TWO), slot_move(slot, 0, -1, token={"animal": "AN01"}))


# -- placement (§6) --------------------------------------------------------------------------


def test_placement_needs_an_empty_orthogonally_adjacent_cell():
    state = deal(TWO)
    with pytest.raises(IllegalMove, match="already holds a card"):
        act(state, slot_move("rooster", 0, 0))
    with pytest.raises(IllegalMove, match="does not touch"):
        act(state, slot_move("rooster", 1, 1))  # diagonal contact does not count
    with pytest.raises(IllegalMove, match="does not touch"):
        act(state, slot_move("rooster", 0, 2))
    cells = {(m["x"], m["y"]) for m in ENGINE.legal_moves(state, ALICE)}
    assert cells == {(0, -1), (1, 0), (0, 1), (-1, 0)}


def test_the_forest_must_stay_within_a_4x4_box():
    row = [animal("AN01"), path("ST01", 1, 0, 1), path("ST02", 2, 0, 1), path("ST03", 3, 0, 1)]
    state = with_forest(deal(TWO), ALICE, row)
    with pytest.raises(IllegalMove, match="beyond 4×4"):
        act(state, slot_move("rooster", 4, 0))
    with pytest.raises(IllegalMove, match="beyond 4×4"):
        act(state, slot_move("rooster", -1, 0))
    column = [animal("AN01"), path("ST01", 0, 1), path("ST02", 0, 2), path("ST03", 0, 3)]
    state = with_forest(state, ALICE, column)
    with pytest.raises(IllegalMove, match="beyond 4×4"):
        act(state, slot_move("rooster", 0, -1))
    open_cells = ENGINE.view(state, None)["seats"][ALICE]["open_cells"]
    assert open_cells == [[-1, 0], [1, 0], [-1, 1], [1, 1], [-1, 2], [1, 2], [-1, 3], [1, 3]]
    act(state, slot_move("rooster", -1, 3))


@pytest.mark.parametrize("rot", [0, 1, 2, 3])
def test_any_rotation_is_legal_and_sides_need_not_match(rot):
    state = deal(TWO)
    after, _ = act(state, slot_move("rooster", 1, 0, rot))  # the Fox's east side is blank
    assert after["forests"][ALICE][-1]["rot"] == rot


@pytest.mark.parametrize(
    ("move", "reason"),
    [
        ({"slot": "owl", "x": 0, "y": -1, "rot": 0}, "slot must be one of"),
        ({"slot": "rooster", "x": "0", "y": -1, "rot": 0}, "x must be a whole number"),
        ({"slot": "rooster", "x": 0, "y": True, "rot": 0}, "y must be a whole number"),
        ({"slot": "rooster", "x": 0, "y": -1}, "rot must be a whole number"),
        ({"slot": "rooster", "x": 0, "y": -1, "rot": 4}, "rot must be 0, 1, 2 or 3"),
        ({"slot": "rooster", "x": 0, "y": -1, "rot": 0, "pass": True}, "Unexpected field"),
        ({"slot": "rooster", "x": 0, "y": -1, "rot": 0, "keep": ["AN01"]}, "leave out keep"),
        ("take rooster", "must be an object"),
    ],
)
def test_malformed_or_overfull_moves_are_illegal_with_a_reason(move, reason):
    with pytest.raises(IllegalMove, match=reason):
        ENGINE.apply(deal(TWO), ALICE, move)


def test_only_the_seat_to_move_may_act():
    state = deal(TWO)
    with pytest.raises(IllegalMove, match="It is Alice's turn"):
        ENGINE.apply(state, BOB, slot_move("rooster", 0, -1))
    with pytest.raises(IllegalMove, match="no seat"):
        ENGINE.apply(state, 7, slot_move("rooster", 0, -1))


# -- shared paths (§8.2, §16.7) ---------------------------------------------------------------


def owl_next_to_the_fox(**options) -> dict:
    """Alice: Fox at 0,0 facing east, a worm straight at 1,0; the Owl is under the rabbit. Shared paths are settled
    at once unless ``options`` say otherwise."""
    state = deal(TWO, [(None, None, None, "AN06")], **{"shared_path_resolution": "immediate", **options})
    return with_forest(state, ALICE, [animal("AN01", 0, 0, 1), path("ST07", 1, 0, 1)])


def test_a_shared_path_must_name_its_survivor():
    state = owl_next_to_the_fox()
    with pytest.raises(IllegalMove, match=r"keep one of each \(AN01 or AN06\)"):
        act(state, slot_move("rabbit", 2, 0, 3))
    with pytest.raises(IllegalMove, match="Keep exactly one animal"):
        act(state, slot_move("rabbit", 2, 0, 3, keep=["AN01", "AN06"]))
    with pytest.raises(IllegalMove, match="AN05 is on no shared path"):
        act(state, slot_move("rabbit", 2, 0, 3, keep=["AN06", "AN05"]))
    with pytest.raises(IllegalMove, match="keep must be a list"):
        act(state, slot_move("rabbit", 2, 0, 3, keep="AN06"))
    keeps = [m["keep"] for m in ENGINE.legal_moves(state, ALICE) if placement(m) == ("rabbit", 2, 0, 3)]
    assert keeps == [["AN01"], ["AN06"]]


def test_the_newly_placed_animal_may_be_the_one_turned_down():
    state = owl_next_to_the_fox()
    state, events = act(state, "take rabbit 2,0 r270 keep fox")
    assert only(events, "animal_turned_down").data["card"] == "AN06"
    owl = state["forests"][ALICE][-1]
    assert owl["card"] == "AN06" and owl["up"] is False
    assert [a["card"] for a in ENGINE.view(state, BOB)["seats"][ALICE]["animals"]] == ["AN01"]


def test_a_double_curve_can_make_two_shared_paths_at_once():
    forest = [
        animal("AN01", 1, 0, 2),
        animal("AN05", 2, 1, 3),
        animal("AN06", 1, 2, 0),
        animal("AN07", 0, 1, 1, drops="W", burrows=2),
    ]
    state = with_forest(deal(TWO, [("DC12", None, None, None)], shared_path_resolution="immediate"), ALICE, forest)
    keeps = sorted(
        tuple(m["keep"]) for m in ENGINE.legal_moves(state, ALICE) if placement(m) == ("rooster", 1, 1, 0)
    )
    assert keeps == [("AN01", "AN06"), ("AN01", "AN07"), ("AN05", "AN06"), ("AN05", "AN07")]
    with pytest.raises(IllegalMove, match="Keep exactly one animal of the shared path AN06 / AN07"):
        act(state, slot_move("rooster", 1, 1, 0, keep=["AN05"]))
    state, events = act(state, "take rooster 1,1 r0 keep AN05,AN06")
    flips = [e.data for e in events if e.kind == "animal_turned_down"]
    assert [(f["card"], f["survivor"]) for f in flips] == [("AN01", "AN05"), ("AN07", "AN06")]
    assert flips[1]["drops"] == 1 and flips[1]["burrows"] == 2
    assert state["supply"] == {"drops": 16, "burrows": 17}  # surgery put 3 extra tokens out; they return


def test_after_an_immediate_check_no_path_holds_two_face_up_animals():
    state = owl_next_to_the_fox()
    state, _ = act(state, "take rabbit 2,0 r270 keep owl")
    assert all(len(p["animals"]) <= 1 for p in ENGINE.view(state, None)["seats"][ALICE]["paths"])


def test_end_of_game_mode_allows_shared_paths_during_play():
    state = owl_next_to_the_fox(shared_path_resolution="end_of_game")
    with pytest.raises(IllegalMove, match="leave out keep"):
        act(state, slot_move("rabbit", 2, 0, 3, keep=["AN06"]))
    state, events = act(state, "take rabbit 2,0 r270")
    assert "animal_turned_down" not in kinds(events)
    paths = ENGINE.view(state, None)["seats"][ALICE]["paths"]
    assert any(sorted(p["animals"]) == ["AN01", "AN06"] for p in paths)
    # The live score already counts only the best survivor, as final scoring will.
    assert [a["card"] for a in ENGINE.view(state, None)["seats"][ALICE]["animals"]] == ["AN06"]
    assert ENGINE.view(state, None)["seats"][ALICE]["score"] == 11
