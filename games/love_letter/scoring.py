"""Who wins a Love Letter round and the game (the rules file, §6): the showdown, the Spy bonus, the result.

Pure functions of a state; ``rounds.end_round`` hands out the tokens they decide.
"""

from __future__ import annotations

from typing import Any

from games.base import State
from games.love_letter.cards import CLASSIC, value
from games.love_letter.legality import OVER, alive


def showdown_winners(state: State) -> tuple[list[int], list[int]]:
    """Return (winners, tied) of a showdown; ``tied`` are the players still level at the end."""
    edition = state["edition"]
    playing = alive(state)
    best = max(value(edition, state["hands"][seat][0]) for seat in playing)
    tied = [seat for seat in playing if value(edition, state["hands"][seat][0]) == best]
    if edition == CLASSIC and len(tied) > 1:
        totals = {seat: discard_total(state, seat) for seat in tied}
        top = max(totals.values())
        tied = [seat for seat in tied if totals[seat] == top]
        if len(tied) > 1 and state["options"]["classic_final_tie"] == "nobody":
            return [], tied
    return tied, tied


def discard_total(state: State, seat: int) -> int:
    """Return the total value of ``seat``'s discard pile this round (the classic tie-break)."""
    return sum(value(state["edition"], entry["card"]) for entry in state["discards"][seat])


def spy_bonus(state: State) -> int | None:
    """Return the seat earning the 2019 Spy bonus: the only in-round player with a Spy discarded."""
    if state["edition"] == CLASSIC:
        return None
    spies = [seat for seat in alive(state) if any(entry["card"] == "spy" for entry in state["discards"][seat])]
    return spies[0] if len(spies) == 1 else None


def game_result(state: State) -> dict[str, Any] | None:
    """Return the outcome once the game is over, else None."""
    if state["phase"] != OVER:
        return None
    tokens = state["tokens"]
    ranking = sorted(range(len(tokens)), key=lambda seat: (-tokens[seat], seat))
    winner = state["winners"][0]
    score = "–".join(str(tokens[seat]) for seat in ranking)
    return {
        "winners": list(state["winners"]),
        "scores": list(tokens),
        "ranking": ranking,
        # The record's English line, as it always was: the reader's is ``history.describe_result``.
        "summary": f"{state['players'][winner]} wins {score}",
        "rounds": [{**record, "winners": list(record["winners"])} for record in state["rounds"]],
        "target": state["target"],
    }
