"""Scoring, tie-breaks, the two-leg match with roles swapped, the result and event wording (§6, §8, §9, §10.7)."""

from __future__ import annotations

import pytest

from games.base import Event, IllegalMove
from games.halali import ENGINE, board
from games.halali.engine import layout_for

from . import ALICE, BOB, NAMES, act, cells, clone, kinds, only, picture, position

QUIET = picture({"b4": "F", "f4": "L", "a1": "t"})


def finish_leg(state: dict, alice: list[str], bob: list[str]) -> tuple[dict, list[Event]]:
    """End the current leg through its last final turn, with these piles (test surgery)."""
    state = clone(state)
    blue = state["blue"]
    state["board"] = cells(picture({"b4": "F", "f4": "L"}))
    state.update(phase="final", current=blue, locked=None, last_own=[None, None])
    state["final_left"] = [1 if seat == blue else 0 for seat in (0, 1)]
    state["piles"] = [[{"kind": kind, "how": "captured"} for kind in pile] for pile in (alice, bob)]
    return act(state, "b4-b5")


@pytest.mark.parametrize(
    ("alice", "bob", "winners"),
    [
        (["bear"], ["fox"], [ALICE]),  # 10 against 5
        (["duck"], ["tree", "duck"], [BOB]),  # 2 against 4
        (["bear"], ["fox", "fox"], [BOB]),  # 10 each: Bob collected more tiles
        (["duck", "duck", "duck"], ["pheasant", "pheasant"], [ALICE]),  # 6 each: 3 tiles against 2
        (["fox"], ["hunter"], []),  # 5 each, 1 tile each: a drawn leg
        ([], [], []),
    ],
)
def test_leg_winner_is_most_points_then_most_tiles_else_a_draw(alice, bob, winners):
    state, events = finish_leg(position(QUIET), alice, bob)
    leg = only(events, "leg_ended").data
    points = [sum(board_points(k) for k in pile) for pile in (alice, bob)]
    assert leg == {
        "leg": 1,
        "blue": ALICE,
        "brown": BOB,
        "reason": "final_turns",
        "cleared": [],
        "points": points,
        "tiles": [len(alice), len(bob)],
        "winners": winners,
    }
    assert state["legs"][0]["piles"] == [alice, bob]


def board_points(kind: str) -> int:
    return {"bear": 10, "fox": 5, "lumberjack": 5, "hunter": 5, "pheasant": 3, "duck": 2, "tree": 2}[kind]


def test_captures_and_exits_both_fill_the_pile_and_score():
    state = position(picture({"d6": "B", "d5": "L", "e4": "HN", "g2": "D", "a1": "F"}), final_left=[5, 5])
    state, _ = act(state, "d6xd5")  # Alice's bear takes the lumberjack: 5
    state, _ = act(state, "e4-e5")
    state, _ = act(state, "a1-a4")
    state, _ = act(state, "e5-f5")
    state, _ = act(state, "a4 out")  # the fox leaves through the west exit: 5
    view = ENGINE.view(state, None)
    assert view["seats"][ALICE]["pile"] == [{"kind": "lumberjack", "how": "captured"}, {"kind": "fox", "how": "exited"}]
    assert view["seats"][ALICE]["points"] == 10 and view["seats"][ALICE]["tiles"] == 2


def test_given_leg_one_ends_then_leg_two_starts_inside_apply_with_roles_swapped_and_a_fresh_layout():
    start = position(QUIET, layout=None, seed="fresh")
    state, events = finish_leg(start, ["bear"], ["fox"])
    assert kinds(events)[-2:] == ["leg_ended", "leg_started"]
    assert only(events, "leg_started").data == {"leg": 2, "blue": BOB, "brown": ALICE}
    assert state["leg"] == 2 and state["blue"] == BOB and ENGINE.to_move(state) == [BOB]
    assert state["phase"] == "main" and state["piles"] == [[], []] and state["turn"] == 0
    assert state["board"] == layout_for(state, 2) != layout_for(state, 1)
    assert state["board"][board.CENTRE] is None
    assert sum(1 for cell in state["board"] if cell and not cell["up"]) == 48
    view = ENGINE.view(state, ALICE)
    assert view["leg"] == 2 and view["your_side"] == "brown" and view["blue"] == BOB
    assert [leg["points"] for leg in view["legs"]] == [[10, 5]]
    assert [(s["points"], s["match_points"]) for s in view["seats"]] == [(0, 10), (0, 5)]
    assert ENGINE.result(state) is None


@pytest.mark.parametrize(
    ("leg1", "leg2", "winners", "summary"),
    [
        # Alice wins leg 1, Bob wins leg 2 by more: the total decides.
        ((["bear", "bear"], []), ([], ["bear", "bear", "fox"]), [BOB], "Bob wins 25–20 (leg 1 0–20, leg 2 25–0)"),
        ((["bear"], ["fox"]), (["fox"], ["bear"]), [], "Draw 15–15, tiles 2–2 (leg 1 10–5, leg 2 5–10)"),
        # Equal totals: more tiles over both legs wins.
        ((["bear"], ["fox", "fox"]), (["duck"] * 5, ["bear"]), [ALICE], None),
        ((["duck"], ["duck"]), (["tree"], ["duck"]), [], None),
    ],
)
def test_match_winner_is_higher_total_then_more_tiles_else_a_draw(leg1, leg2, winners, summary):
    state, _ = finish_leg(position(QUIET), *leg1)
    state, events = finish_leg(state, *leg2)
    assert kinds(events)[-2:] == ["leg_ended", "match_ended"]
    result = ENGINE.result(state)
    totals = [sum(board_points(k) for k in leg1[s] + leg2[s]) for s in (0, 1)]
    tiles = [len(leg1[s]) + len(leg2[s]) for s in (0, 1)]
    assert result["winners"] == winners and result["draw"] is (not winners)
    assert result["scores"] == totals and result["tiles"] == tiles
    assert [leg["blue"] for leg in result["legs"]] == [ALICE, BOB]
    assert result["ranking"][0] == (winners[0] if winners else 0)
    assert only(events, "match_ended").data == {"winners": winners, "points": totals, "tiles": tiles}
    if summary:
        assert result["summary"] == summary
    assert ENGINE.is_over(state) and ENGINE.to_move(state) == []
    assert ENGINE.legal_moves(state, ALICE) == ENGINE.legal_moves(state, BOB) == []
    with pytest.raises(IllegalMove, match="over"):
        ENGINE.apply(state, ALICE, {"flip": "a1"})
    assert ENGINE.view(state, None)["winners"] == winners


def test_summary_names_the_tile_tie_break():
    state, _ = finish_leg(position(QUIET), ["bear"], ["fox", "fox"])
    state, _ = finish_leg(state, ["duck"] * 5, ["bear"])
    assert ENGINE.result(state)["summary"] == "Alice wins 20–20 on tiles (6–3) (leg 1 10–10, leg 2 10–10)"


def test_when_a_leg_ends_by_clearing_a_side_the_next_leg_still_starts():
    state = position(picture({"b4": "L", "c4": "B"}), final_left=[3, 3])
    state, events = act(state, "c4xb4")
    assert kinds(events) == ["moved", "leg_ended", "leg_started"]


@pytest.mark.parametrize(
    ("event", "viewer", "text"),
    [
        (
            Event(
                "flipped", {"seat": 0, "square": "c5", "kind": "hunter", "dir": "E", "locked": False, "face_down": 40}
            ),
            1,
            "Alice turned over c5: Hunter aiming east. 40 face down.",
        ),
        (
            Event("flipped", {"seat": 1, "square": "a2", "kind": "duck", "locked": True, "face_down": 0}),
            1,
            "You turned over a2: Duck. It is locked for the opponent's next turn. 0 face down.",
        ),
        (
            Event(
                "moved",
                {
                    "seat": 1,
                    "kind": "hunter",
                    "from": "c3",
                    "to": "c6",
                    "captured": "fox",
                    "points": 5,
                    "locked": False,
                },
            ),
            None,
            "Bob moved the Hunter c3–c6, capturing the Fox (5 points).",
        ),
        (
            Event("moved", {"seat": 0, "kind": "duck", "from": "a4", "to": "c4", "locked": True}),
            0,
            "You moved the Duck a4–c4.",
        ),
        (
            Event("exited", {"seat": 0, "kind": "bear", "from": "d7", "exit": "N", "gate": "d7", "points": 10}),
            1,
            "Alice brought the Bear out from d7 through the north exit (10 points).",
        ),
        (Event("passed", {"seat": 1, "final_left": 3}), 1, "You had no legal move and pass (3 final turns left)."),
        (
            Event("final_phase_started", {"first": 1, "last_flipper": 0, "turns": 5}),
            0,
            "The last tile is face up: final phase, 5 turns each; Bob moves first. Exits are open.",
        ),
        (
            Event(
                "leg_ended",
                {
                    "leg": 1,
                    "blue": 0,
                    "brown": 1,
                    "reason": "side_cleared",
                    "cleared": ["brown"],
                    "points": [30, 12],
                    "tiles": [5, 3],
                    "winners": [0],
                },
            ),
            0,
            "Leg 1 ends (Brown has no tiles left on the board): Alice 30, Bob 12; You win.",
        ),
        (
            Event(
                "leg_ended",
                {
                    "leg": 2,
                    "blue": 1,
                    "brown": 0,
                    "reason": "final_turns",
                    "cleared": [],
                    "points": [20, 20],
                    "tiles": [5, 6],
                    "winners": [1],
                },
            ),
            None,
            "Leg 2 ends (the final turns are played): Alice 20, Bob 20; Bob wins on tiles collected (6–5).",
        ),
        (
            Event("leg_started", {"leg": 2, "blue": 1, "brown": 0}),
            1,
            "Leg 2 begins with the roles swapped: You play Blue and move first.",
        ),
        (
            Event("match_ended", {"winners": [], "points": [40, 40], "tiles": [9, 9]}),
            None,
            "The match is over: Alice 40, Bob 40; a draw (tiles 9–9).",
        ),
        (
            Event("flip_required", {"seat": 0, "quiet": 20}),
            None,
            "No flip, capture or exit for 20 turns: Alice must turn a tile over.",
        ),
    ],
)
def test_describe_event_words_the_line_for_the_viewer(event, viewer, text):
    assert ENGINE.describe_event(event, NAMES, viewer) == text


@pytest.mark.parametrize("seat", [0, 1])
def test_resigning_gives_the_opponent_the_match_at_once(seat):
    from games.halali import ENGINE as HALALI

    state = HALALI.setup(["alice", "bob"], HALALI.validate_options(2, {}), "resign")
    state, events = HALALI.play(state, seat, {"resign": True})
    result = HALALI.result(state)
    assert result["winners"] == [1 - seat] and result["resigned"] == seat and "resigned" in result["summary"]
    assert result["draw"] is False and result["ranking"] == [1 - seat, seat] and result["legs"] == []
    assert [(event.kind, event.data) for event in events] == [("resigned", {"seat": seat, "winners": [1 - seat]})]
    assert HALALI.to_move(state) == [] and HALALI.view(state, None)["winners"] == [1 - seat]
