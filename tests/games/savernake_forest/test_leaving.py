"""Resigning (the platform's ``{"resign": true}``), the email text and the move summary."""

from __future__ import annotations

import pytest

from games.base import RESIGN, IllegalMove
from games.savernake_forest import ENGINE

from . import ALICE, BOB, CAROL, act, deal, kinds, only


def test_in_a_two_player_game_resigning_gives_the_other_player_the_win_at_once():
    state = deal(["AN01", "AN02"])
    state, events = ENGINE.play(state, ALICE, RESIGN)
    assert kinds(events) == ["player_left", "game_scored"]
    result = ENGINE.result(state)
    assert result["winners"] == [BOB] and result["ranking"] == [BOB, ALICE] and result["resigned"] == [ALICE]
    assert result["summary"] == "Bob wins with 3 points: everyone else resigned (Alice 4, resigned)"
    assert ENGINE.to_move(state) == [] and ENGINE.legal_moves(state, BOB) == []
    with pytest.raises(IllegalMove, match="The game is over"):
        ENGINE.play(state, BOB, RESIGN)


def test_a_player_who_leaves_takes_no_more_turns_and_ranks_last():
    state = deal(["AN01", "AN02", "AN03"])
    state, events = ENGINE.play(state, BOB, RESIGN)  # before Bob's turn in round 1
    assert only(events, "player_left").data == {"seat": BOB, "round": 1}
    assert state["order"] == [ALICE, CAROL]
    assert ENGINE.view(state, None)["seats"][BOB]["left"] is True
    with pytest.raises(IllegalMove, match="already left"):
        ENGINE.play(state, BOB, RESIGN)
    state, _ = act(state, "take rooster 0,-1 r0")
    state, events = act(state, "take rabbit 0,-1 r0")
    assert only(events, "market_discarded").data["cards"] == state["discard"] == ["ST02", "ST03"]  # Bob's share too
    assert only(events, "round_started").data["order"] == [ALICE, CAROL]
    while not ENGINE.is_over(state):
        (seat,) = ENGINE.to_move(state)
        assert seat != BOB
        state, _ = act(state, ENGINE.legal_moves(state, seat)[0])
    result = ENGINE.result(state)
    assert result["ranking"][-1] == BOB and BOB not in result["winners"]
    assert len(state["forests"][BOB]) == 1 and all(len(state["forests"][s]) == 16 for s in (ALICE, CAROL))


def test_the_mover_resigning_passes_the_turn_and_a_departed_rooster_holder_passes_the_lead():
    state = deal(["AN01", "AN02", "AN03"])
    state, _ = act(state, "take goat 0,-1 r0 drop fox W")
    state, _ = act(state, "take rooster 0,-1 r0")  # Bob will lead round 2
    state, events = ENGINE.play(state, CAROL, RESIGN)  # Carol was to move: the round ends
    assert kinds(events)[:2] == ["player_left", "market_discarded"]
    state, events = ENGINE.play(state, BOB, RESIGN)
    assert ENGINE.result(state)["winners"] == [ALICE]


def test_view_text_draws_the_market_and_every_forest():
    state = deal(["AN05", "AN02"], [("ST07", None, None, None)])
    state, _ = act(state, "take rooster 0,-1 r0")
    text = ENGINE.view_text(ENGINE.view(state, BOB))
    assert "Savernake Forest, round 1 of 15." in text and "To move: you." in text
    assert "Alice: 11 points if the game ended now, holds the rooster" in text
    assert "Bob (you):" in text and "ST07 straight: N–S worm worm" in text
    assert "AN05 Hedgehog: base 5, capacity 3, B1 W3 E2 N0, den exits N" in text
    assert "   ST07" in text and "rooster" in text
    for seat in (None, ALICE, BOB):
        assert ENGINE.view_text(ENGINE.view(state, seat)).strip()


def test_move_summary_groups_by_slot_with_cells_turns_and_tokens():
    state = deal(["AN01", "AN02"])
    texts = [ENGINE.describe_move(state, move) for move in ENGINE.legal_moves(state, ALICE)]
    assert len(texts) > 40
    lines = ENGINE.moves_summary(texts)
    assert lines[0] == "take rooster: cells 0,-1 -1,0 1,0 0,1; turns r0 r90 r180 r270"
    assert "  then drop AN01 B W E N" in lines and "  then burrow AN01" in lines
    assert len(lines) <= 8
    assert ENGINE.moves_summary(texts[:3]) == texts[:3]
