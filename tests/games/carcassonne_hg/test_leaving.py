"""Leaving the game (the platform's resign move), the email text of a view and the move summary."""

from __future__ import annotations

import pytest

from games.base import RESIGN, IllegalMove
from games.carcassonne_hg import ENGINE

from . import ALICE, BOB, CAROL, act, game, kinds, position


def test_a_player_who_leaves_on_their_turn_hands_the_drawn_tile_on_and_is_skipped_after():
    state = game(["R-L15", "R-L62", "R-L61"], players=3)
    turn = state["turn"]
    state, events = ENGINE.play(state, ALICE, RESIGN)
    assert [(event.kind, event.data) for event in events] == [("player_left", {"seat": ALICE}),
                                                              ("tile_passed", {"seat": BOB, "tile": "R-L15"})]
    assert ENGINE.to_move(state) == [BOB] and state["tile"] == "R-L15" and state["turn"] == turn + 1  # Bob's turn
    state, _ = act(state, "place -1,0 r0")
    state, _ = act(state, "place 0,1 r0")
    assert ENGINE.to_move(state) == [BOB]  # Alice's turn is skipped
    with pytest.raises(IllegalMove, match="already left"):
        ENGINE.resign(state, ALICE)


def test_when_one_player_is_left_they_win_at_once():
    state = game(["R-L15", "R-L62"], players=3)
    state, _ = ENGINE.resign(state, BOB)
    state, events = ENGINE.resign(state, ALICE)
    assert ENGINE.is_over(state) and ENGINE.result(state)["winners"] == [CAROL]
    assert kinds(events)[-1] == "game_ended"
    assert ENGINE.describe_event(events[-1], ["A", "B", "C"], CAROL) == "Everyone else has left: You win."


def test_a_player_who_left_cannot_win_on_points():
    state = position([(0, 1, "R-L62", 0)], "R-L37", pieces=[(BOB, "hunter", 0, 1, "m0")], players=3)
    state, _ = ENGINE.resign(state, BOB)
    state, _ = act(state, "place 0,-1 r0")
    result = ENGINE.result(state)
    assert state["scores"][BOB] > 0 and BOB not in result["winners"] and result["ranking"][-1] == BOB


def test_the_email_text_shows_scores_the_tile_and_a_map():
    state = game(["R-L15", "R-L62"])
    state, _ = act(state, "place -1,0 r0 hunter meadow N")
    text = ENGINE.view_text(ENGINE.view(state, BOB))
    assert "Bob (you)" in text and "places the tile: a meadow tile with a deer" in text and "Map:" in text
    assert "h0" in text and "Alice: hunter on -1,0 (meadow N)" in text


def test_the_move_summary_groups_many_moves_by_square_and_rotation():
    state = game(["R-L00"])
    texts = [ENGINE.describe_move(state, m) for m in ENGINE.legal_moves(state, ALICE)]
    lines = ENGINE.moves_summary(texts, limit=10)
    assert lines[0] == (
        "place -1,0 r90: no meeple | hunter meadow NE | fisherman river | hunter meadow S | gatherer forest W"
        " | gatherer forest N | hut lake"
    )
    assert len(lines) == len({t.split(" ")[1] + t.split(" ")[2] for t in texts})


@pytest.mark.parametrize("land_left", [["R-L62"], []])
def test_a_player_who_leaves_holding_a_bonus_tile_discards_it_and_the_next_one_draws_or_the_game_ends(land_left):
    state = game(["R-L34", "R-L37", *land_left], bonus=["R-B84-plain-mammoth"], players=3)
    state, _ = act(state, "place 1,0 r0 gatherer forest")  # Alice's gatherer in the forest Bob closes
    state, _ = act(state, "place 0,-1 r0")
    [holder] = ENGINE.to_move(state)
    assert state["bonus"] and state["tile"] == "R-B84-plain-mammoth"
    state, events = ENGINE.resign(state, holder)
    assert state["discarded"][-1] == "R-B84-plain-mammoth" and state["bonus"] is False
    if land_left:
        assert kinds(events) == ["player_left", "tile_drawn"] and state["tile"] == "R-L62"
        assert ENGINE.to_move(state) == [(holder + 1) % 3] and not ENGINE.is_over(state)
    else:
        assert ENGINE.is_over(state) and kinds(events)[-1] == "game_ended"
