"""The state stays lean: no event log, no deep copies, no growth with the length of the game (issue 11)."""

from __future__ import annotations

import copy
import json
import random

import pytest

from games.love_letter import ENGINE, cards

# A scripted 2019 deck, dealt the same way every round. Played by "the first legal move" with Alice
# starting, every round is the same 15 turns and Alice wins each: move 10 and move 70 are the same
# moment of round 1 and of round 5.
REPEATING_DECK = [
    "princess", "baron", "prince", "king", "guard", "handmaid", "spy", "prince", "baron", "handmaid", "priest",
    "chancellor", "guard", "countess", "guard", "chancellor", "guard", "guard", "priest", "guard", "spy",
]
SUMMARIES = ("rounds", "last_round")  # one record per round played, and the last round's reveal


def random_games(count: int):
    """Yield (state, seat, legal moves, rng) along seeded random games of every edition and table size."""
    for number in range(count):
        edition = cards.EDITIONS[number % 2]
        low, high = cards.player_range(edition)
        players = low + number % (high - low + 1)
        rng = random.Random(number)
        state = ENGINE.setup([f"P{seat}" for seat in range(players)], {"edition": edition}, f"lean-{number}")
        while ENGINE.to_move(state):
            seat = ENGINE.to_move(state)[0]
            moves = ENGINE.legal_moves(state, seat)
            yield state, seat, moves, rng
            staying = [other for other in range(players) if not state["left"][other]]
            if rng.random() < 0.01:
                state, _ = ENGINE.resign(state, rng.choice(staying))
            else:
                state, _ = ENGINE.apply(state, seat, rng.choice(moves))


def test_apply_and_resign_never_deep_copy_the_state(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("copy.deepcopy was called")

    positions = list(random_games(12))
    monkeypatch.setattr(copy, "deepcopy", refuse)
    for state, seat, moves, rng in positions:
        ENGINE.apply(state, seat, rng.choice(moves))
        for leaving in range(len(state["players"])):
            if not state["left"][leaving]:
                ENGINE.resign(state, leaving)


def test_the_state_keeps_only_the_private_events_of_the_round():
    private: list[dict] | None = None  # round 1 is dealt in setup, which returns no events: start at round 2
    checked = 0
    state = ENGINE.setup(["Ann", "Ben", "Cat", "Dan"], {"edition": "2019"}, "private-only")
    rng = random.Random(4)
    while ENGINE.to_move(state):
        seat = ENGINE.to_move(state)[0]
        state, events = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_moves(state, seat)))
        for event in events:
            if event.kind == "round_started":
                private = []
            elif event.visible_to is not None and private is not None:
                private.append({"kind": event.kind, "data": event.data, "visible_to": event.visible_to})
        assert set(state) >= {"private", "known"} and "log" not in state
        if private is None:
            continue
        checked += 1
        assert [{key: entry[key] for key in ("kind", "data", "visible_to")} for entry in state["private"]] == private
        # A round deals or draws each card once and each play looks at most once: bounded by the round.
        assert len(state["private"]) <= 2 * len(cards.full_deck("2019"))
    assert checked >= 20


def test_the_state_at_move_70_is_the_size_of_move_10_but_for_the_round_summaries():
    state = ENGINE.setup(["Alice", "Bob"], {"edition": "2019", "deck": REPEATING_DECK, "first_player": 0}, 0)
    at: dict[int, dict] = {}
    for number in range(1, 71):
        state, _ = ENGINE.apply(state, state["current"], ENGINE.legal_moves(state, state["current"])[0])
        at[number] = state
    early, late = at[10], at[70]
    assert (early["round"], early["turn"]) == (1, 10) and (late["round"], late["turn"]) == (5, 10)
    assert [r["winners"] for r in late["rounds"]] == [[0]] * 4, "every round is the same: Alice wins it"

    def size(state: dict) -> int:
        return len(json.dumps({key: value for key, value in state.items() if key not in SUMMARIES}))

    assert abs(size(late) - size(early)) <= 8  # a token count may gain a digit
    assert all(len(json.dumps(record)) <= 100 for record in late["rounds"])
    assert len(json.dumps(late["last_round"])) <= 400


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_what_a_seat_knows_is_kept_for_its_tracker_until_the_looked_at_player_plays(seat):
    state = ENGINE.setup(
        ["Ann", "Ben", "Cat"],
        {"deck": ["princess", "priest", "baron", "guard", "guard", "guard", "handmaid", *["guard"] * 2,
                  "prince", "prince", "king", "countess", "priest", "baron", "handmaid"], "first_player": 0},
        0,
    )
    state, _ = ENGINE.apply(state, 0, {"card": "priest", "target": 1})  # Ann looks at Ben's Baron
    assert state["known"][seat] == ([None, "baron", None] if seat == 0 else [None, None, None])
    state, _ = ENGINE.apply(state, 1, ENGINE.legal_moves(state, 1)[0])  # Ben plays a card: the look is stale
    assert state["known"][seat] == [None, None, None]
