"""The six revised bonus-tile powers (§4.5, §7) and the §11 flags that tune them."""

from __future__ import annotations

import pytest

from games.base import IllegalMove
from games.carcassonne_hg import ENGINE

from . import ALICE, BOB, act, kinds, legal_texts, only, position

SHAMAN = "R-B88-shaman"  # river N-E (1 fish), forest S, shaman meadow W; turned 0 it fits west of the start
MEADOWS = [(0, 1, "R-L62", 0), (1, 1, "R-L62", 0), (0, 2, "R-L62", 0), (1, 2, "R-L62", 0), (2, 1, "R-L62", 0)]


def shaman_position(pieces, **kwargs):
    return position(MEADOWS, SHAMAN, pieces=pieces, bonus_turn=True, stack=["R-L61"], **kwargs)


# -- shaman ----------------------------------------------------------------------


def test_the_shaman_offers_to_recall_each_own_tribe_member_but_no_hut_and_nobody_elses():
    pieces = [(ALICE, "hunter", 0, 1, "m0"), (ALICE, "hut", 0, 0, "l8"), (BOB, "hunter", 0, 2, "m0")]
    state = shaman_position(pieces)
    recalls = {(m["recall"]["x"], m["recall"]["y"]) for m in ENGINE.legal_moves(state, ALICE) if "recall" in m}
    assert recalls == {(0, 1)}


def test_a_recalled_member_goes_home_without_scoring_and_may_be_deployed_at_once():
    # Alice has all five tribe members out as hunters.
    pieces = [(ALICE, "hunter", x, y, "m0") for x, y, *_ in MEADOWS]
    state = shaman_position(pieces)
    assert "place -1,0 r0 fisherman river" not in legal_texts(state)
    state, events = act(state, "place -1,0 r0 recall 1,2 fisherman river")
    assert kinds(events)[:3] == ["tile_placed", "piece_recalled", "piece_placed"]
    assert only(events, "piece_recalled").data == {"seat": ALICE, "kind": "hunter", "x": 1, "y": 2, "region": "m0"}
    assert state["scores"] == [0, 0] and state["supply"][ALICE]["members"] == 0
    assert {(p["x"], p["y"], p["kind"]) for p in state["pieces"] if p["seat"] == ALICE} == {
        (0, 1, "hunter"),
        (1, 1, "hunter"),
        (0, 2, "hunter"),
        (2, 1, "hunter"),
        (-1, 0, "fisherman"),
    }


def test_recalling_the_only_member_of_a_feature_frees_it_for_the_shamans_own_deployment():
    # The shaman tile's north-east meadow joins the start's north meadow, where Alice's hunter is.
    state = shaman_position([(ALICE, "hunter", 0, 1, "m0")])
    assert "place -1,0 r0 hunter meadow NE" not in legal_texts(state)
    assert "place -1,0 r0 recall 0,1 hunter meadow NE" in legal_texts(state)
    state, _ = act(state, "place -1,0 r0 recall 0,1 hunter meadow NE")
    assert state["pieces"] == [{"seat": ALICE, "kind": "hunter", "x": -1, "y": 0, "region": "m2"}]


@pytest.mark.parametrize(
    ("tile", "recall", "reason"),
    [
        (SHAMAN, {"x": 0, "y": 2}, "no tribe member on 0,2"),  # Bob's hunter
        (SHAMAN, {"x": 0, "y": 0}, "no tribe member on 0,0"),  # Alice's hut
        ("R-B84-plain-mammoth", {"x": 0, "y": 1}, "Only the shaman tile"),
    ],
)
def test_bad_recalls_are_refused(tile, recall, reason):
    pieces = [(ALICE, "hunter", 0, 1, "m0"), (ALICE, "hut", 0, 0, "l8"), (BOB, "hunter", 0, 2, "m0")]
    state = position(MEADOWS, tile, pieces=pieces, bonus_turn=True)
    with pytest.raises(IllegalMove, match=reason):
        act(state, {"x": -1, "y": 0, "rot": 0, "recall": recall})


# -- logboat ---------------------------------------------------------------------


def test_the_logboat_scores_2_per_lake_of_its_river_system_for_the_placer_whatever_the_huts():
    state = position([], "R-B93-logboat", pieces=[(BOB, "hut", 0, 0, "l8")], bonus_turn=True, stack=["R-L61"])
    state, events = act(state, "place -1,0 r0")
    assert only(events, "logboat_scored").data == {"seat": ALICE, "lakes": 2, "points": 4}
    assert state["scores"] == [4, 0]


# -- hunting trap ----------------------------------------------------------------

# A meadow north of the start: deer on 0,1, mammoth on 1,1, tiger on -1,1 (all next to 0,2), and the
# start's aurochs on 0,0 (two rows below 0,2, so outside the trap's reach). The trap goes on 0,2.
TRAP_FIELD = [(0, 1, "R-L62", 0), (1, 1, "R-L61", 0), (-1, 1, "R-L31", 0)]
TRAP = "R-B94-hunting-trap"


def trap_position(field=TRAP_FIELD, **options):
    return position(field, TRAP, pieces=[(BOB, "hunter", 1, 1, "m0")], bonus_turn=True, **options)


def test_the_hunting_trap_scores_the_animals_around_it_for_the_placer_then_covers_them():
    state = trap_position()
    state, events = act(state, "place 0,2 r0")
    trap = only(events, "hunting_trap_scored").data
    assert trap["animals"] == {"deer": 1, "aurochs": 0, "mammoth": 1, "tiger": 1}
    assert trap["eaten"] == 1 and trap["points"] == 3 and trap["scorers"] == [ALICE]
    assert sorted(map(tuple, trap["cancelled"])) == [(-1, 1, "m1"), (0, 1, "m0"), (0, 2, "m1"), (1, 1, "m0")]
    # At the end only the start's aurochs is left in that meadow for Bob's hunter.
    meadow = only(events, "meadow_scored").data
    assert (meadow["deer"], meadow["mammoth"], meadow["aurochs"], meadow["points"]) == (0, 0, 1, 2)
    assert state["scores"] == [3, 2]


def test_with_the_hunters_option_the_hunter_majority_scores_the_trap():
    state = trap_position(hunting_trap_scorer="hunters")
    state, events = act(state, "place 0,2 r0")
    assert only(events, "hunting_trap_scored").data["scorers"] == [BOB]
    assert state["scores"] == [0, 3 + 2]


WILDFIRE_FIELD = [(0, 1, "R-L62", 0), (1, 1, "R-B85-wildfire", 0), (-1, 1, "R-L31", 0)]


@pytest.mark.parametrize(("protects", "points"), [(False, 0), (True, 1)])
def test_wildfire_protects_deer_at_the_hunting_trap_only_with_its_option(protects, points):
    state = trap_position(WILDFIRE_FIELD, fire_affects_hunting_trap=protects)
    state, events = act(state, "place 0,2 r0")
    assert only(events, "hunting_trap_scored").data["points"] == points


@pytest.mark.parametrize(("counts", "points"), [(False, 1), (True, 0)])
def test_the_tiger_drawn_on_the_wildfire_tile_counts_only_with_its_option(counts, points):
    field = [(0, 1, "R-L62", 0), (1, 1, "R-B85-wildfire", 0)]
    state = trap_position(field, wildfire_tile_tiger_counts=counts)
    state, events = act(state, "place 0,2 r0")
    assert only(events, "hunting_trap_scored").data["points"] == points


# -- pit trap and wildfire (final scoring) ------------------------------------------

# The pit trap on 0,1 shares a meadow with the start's aurochs (0,0) and deer on -1,1 (both next to it),
# a deer on -2,1 and a tiger on -3,1 (both farther away). Alice's hunter stands on -2,1.
PIT_FIELD = [(0, 1, "R-B92-pit-trap", 0), (-1, 1, "R-L62", 0), (-2, 1, "R-L62", 0), (-3, 1, "R-L31", 0)]


def last_turn(field, **options):
    """Alice's last tile (R-L37 south of the start) joins nothing of that meadow; then the game ends."""
    return position(field, "R-L37", pieces=[(ALICE, "hunter", -2, 1, "m0")], **options)


def test_the_pit_trap_scores_the_nearby_animals_twice_and_the_tigers_eat_distant_deer_first():
    state, events = act(last_turn(PIT_FIELD), "place 0,-1 r0")
    meadow = only(events, "meadow_scored").data
    assert (meadow["deer"], meadow["aurochs"], meadow["tiger"], meadow["eaten"]) == (2, 1, 1, 1)
    # Base: aurochs 2 + one uneaten deer 1; pit trap: aurochs 2 + the nearby deer 1 (the tiger ate the far one).
    assert meadow["pit_trap"] == 3 and meadow["points"] == 6 and state["scores"] == [6, 0]


def test_wildfire_saves_every_deer_and_adds_to_the_pit_trap():
    field = [*PIT_FIELD, (-2, 2, "R-B85-wildfire", 0)]
    state, events = act(last_turn(field), "place 0,-1 r0")
    meadow = only(events, "meadow_scored").data
    assert meadow["fire"] and meadow["eaten"] == 0
    assert meadow["points"] == (2 + 2) + (2 + 1)


def test_wildfire_alone_keeps_the_tigers_from_the_deer():
    field = [(0, 1, "R-B85-wildfire", 0), (-1, 1, "R-L62", 0), (-2, 1, "R-L62", 0), (-3, 1, "R-L31", 0)]
    state, events = act(last_turn(field), "place 0,-1 r0")
    meadow = only(events, "meadow_scored").data
    assert (meadow["deer"], meadow["tiger"], meadow["eaten"], meadow["points"]) == (2, 1, 0, 2 + 2)


# -- raft --------------------------------------------------------------------------


def test_the_raft_gives_the_hut_majority_one_more_point_per_lake():
    state = position([], "R-B91-raft", bonus_turn=True)
    state, events = act(state, "place -1,0 r0 hut lake")
    system = only(events, "river_system_scored").data
    assert (system["fish"], system["lakes"], system["raft"], system["points"]) == (2, 2, True, 4)
    assert system["scorers"] == [ALICE] and state["scores"] == [4, 0]


def test_without_the_raft_a_system_scores_only_its_fish():
    state = position([], "R-B86-plain-lake-aurochs-tiger", bonus_turn=True)
    state, events = act(state, "place -1,0 r0 hut lake")
    assert only(events, "river_system_scored").data["points"] == 2
