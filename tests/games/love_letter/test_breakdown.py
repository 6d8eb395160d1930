"""The final score, round by round: a token per round won and per Spy bonus (2019 edition)."""

from __future__ import annotations

import random

from games.love_letter.engine import LoveLetterEngine

ENGINE = LoveLetterEngine()


def play_to_the_end(players: int, seed: int, options: dict) -> dict:
    rng = random.Random(seed)
    state = ENGINE.setup([f"P{i}" for i in range(players)], ENGINE.validate_options(players, options), f"bd-{seed}")
    while ENGINE.to_move(state):
        seat = ENGINE.to_move(state)[0]
        state, _ = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_moves(state, seat)))
    return state


def test_each_round_won_and_each_spy_bonus_is_a_row_and_they_add_up_to_the_tokens():
    spy_rows = 0
    for seed in range(6):
        state = play_to_the_end(3, seed, {"edition": "2019"})
        rows = ENGINE.score_breakdown(state)
        assert [sum(row["points"][seat] for row in rows) for seat in range(3)] == state["tokens"]
        rounds = {row["label"].split(":")[0] for row in rows}
        assert rounds <= {f"Round {record['round']}" for record in state["rounds"]}
        for row in rows:
            assert sum(row["points"]) >= 1 and row["counts"]
            assert row["label"].endswith(("last player standing", "showdown", "Spy bonus")), row["label"]
        spy_rows += sum(row["label"].endswith("Spy bonus") for row in rows)
    assert spy_rows, "no game gave a Spy bonus: pick other seeds"


def test_a_round_nobody_won_gives_no_row():
    state = play_to_the_end(2, 1, {})
    state = {**state, "rounds": [*state["rounds"], {"round": 99, "winners": [], "spy_bonus": None,
                                                    "reason": "showdown"}]}
    assert not any(row["label"].startswith("Round 99") for row in ENGINE.score_breakdown(state))
