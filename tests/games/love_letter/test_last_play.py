"""The view's ``last_play``: the card played last this round, from public facts only (for the board's highlight)."""

from __future__ import annotations

from games.love_letter import ENGINE

from . import act, deal


def last_play(state: dict, seat: int | None = None) -> dict | None:
    return ENGINE.view(state, seat)["last_play"]


def test_given_a_new_round_then_nothing_was_played_yet():
    state = deal(["guard", "priest", "baron"], ["handmaid"])
    assert [last_play(state, seat) for seat in (None, 0, 1, 2)] == [None] * 4


def test_given_plays_then_the_last_one_is_the_last_players_card_for_every_viewer():
    state = deal(["guard", "priest", "baron"], ["handmaid", "guard", "priest"])
    state, _ = act(state, {"card": "handmaid"})
    assert all(last_play(state, seat) == {"seat": 0, "discard": 0} for seat in (None, 0, 1, 2))
    state, _ = act(state, {"card": "guard", "target": 2, "guess": "king"})  # Bob misses Carol
    assert last_play(state) == {"seat": 1, "discard": 0}
    assert ENGINE.view(state, None)["seats"][1]["discards"][0]["card"] == "guard"


def test_given_the_actor_lost_their_own_baron_then_the_baron_is_the_last_play():
    state = deal(["guard", "priest", "princess"], ["baron"])
    state, _ = act(state, {"card": "baron", "target": 2})  # Alice's Guard loses to Carol's Princess
    assert [entry["how"] for entry in ENGINE.view(state, None)["seats"][0]["discards"]] == ["played", "knocked_out"]
    assert last_play(state) == {"seat": 0, "discard": 0}


def test_given_a_chancellor_to_resolve_then_the_chancellor_is_the_last_play():
    state = deal(["guard", "priest"], ["chancellor"], edition="2019")
    state, _ = act(state, {"card": "chancellor"})
    assert state["phase"] == "await_chancellor"
    assert last_play(state) == {"seat": 0, "discard": 0}


def test_given_the_player_to_move_left_then_no_play_is_highlighted():
    state = deal(["guard", "priest", "baron"], ["handmaid", "guard"])
    state, _ = act(state, {"card": "handmaid"})
    state, _ = ENGINE.resign(state, 1)  # Bob leaves on his turn: Carol's turn starts without a play by him
    assert state["current"] == 2
    assert last_play(state) is None
