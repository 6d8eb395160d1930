"""Love Letter's ``strong`` bot: the search of ``games.search`` with this game's settings (issue 48).

A playout ends with the round and is judged by the tokens: a move's worth is what it does to this round, and the
rounds after it, dealt from a deck nobody has seen, would only add noise. 20,000 engine steps a move, under a second
of one core. Measured by benchmarks/bots.py on 2026-12-07: 57 wins in 100 two-player classic games against
``basic`` (95% interval 47–66%), a move 0.72 s at the median and 0.97 s at most. A playout policy that never throws
the Princess away, and a judge of the round's winner alone, did no better (28 of the same first 60 games); nor did
a judge of the race to the target (each seat's chance to win the game from the tokens, were every later round won
at random), which a lead's tanh flattens once a seat is far ahead or behind: 54 of the same 100 games.
"""

from __future__ import annotations

import random
from typing import Any

from games.base import Engine, Move
from games.love_letter import bots
from games.search import SearchBot, SearchSettings


def round_over(start: dict[str, Any], now: dict[str, Any]) -> bool:
    return now["round"] != start["round"]


SETTINGS = SearchSettings(steps=20_000, exploration=0.7, horizon=round_over, score_scale=1.0)


class StrongBot(SearchBot):
    """The search, in the classic edition. In the 2019 edition the basic bot's move, until the search is mended there:
    measured on 2026-12-07, it won only 17 of 50 two-player 2019 games against ``basic`` (34%, 95% interval 22–48%),
    and a level called strong must not play worse than the basic one."""

    def __init__(self, engine: Engine, settings: SearchSettings) -> None:
        super().__init__(engine, settings)
        self.basic = bots.BasicBot()
        # The basic bot reads the round's events: the window holds the round for either.
        self.history_moves = max(self.history_moves, self.basic.history_moves)

    def choose(self, view: dict[str, Any], moves: list[Move], history: list[dict[str, Any]],
               rng: random.Random) -> Move:
        if view["edition"] == "2019":
            return self.basic.choose(view, moves, history, rng)
        return super().choose(view, moves, history, rng)
