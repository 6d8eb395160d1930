"""Love Letter's ``strong`` bot: the search of ``games.search`` with this game's settings (issue 48).

A playout ends with the round and is judged by the tokens: a move's worth is what it does to this round, and the
rounds after it, dealt from a deck nobody has seen, would only add noise. 20,000 engine steps a move, under a second
of one core. Measured by benchmarks/bots.py on 2026-12-07: 57 wins in 100 two-player classic games against
``basic`` (95% interval 47–66%), a move 0.72 s at the median and 0.97 s at most. A playout policy that never throws
the Princess away, and a judge of the round's winner alone, did no better (28 of the same first 60 games); nor did
a judge of the race to the target (each seat's chance to win the game from the tokens, were every later round won
at random), which a lead's tanh flattens once a seat is far ahead or behind: 54 of the same 100 games.

The 2019 edition searches with the others' moves kept out of the tree (``SETTINGS_2019``, below). Measured by
benchmarks/bots.py on 2026-12-07: 58 wins in 100 two-player games against ``basic`` (95% interval 48–67%), a move
0.70 s at the median and 1.12 s at most. With the others in the tree it had won 17 of 50, and a playout by the basic
bot's rules did worse the longer it searched (18 of 40 games at 3,000 steps, 14 of the same 40 at 12,000). With the
others out of the tree and every playout move by the basic bot's rules (12,000 steps, the same cost a move), the
classic edition won 58 of the same 100 games and the 2019 edition 55: no better than a uniform playout.

Against ``random`` (benchmarks/bots.py, 2026-12-07): 48 of 50 classic games (95% interval 87–99%), 49 of 50 in the
2019 edition (90–100%). Against itself, the seats taken in turn, seat 0 won 24 of 50 classic games (35–62%) and 26
of 50 in the 2019 edition (39–65%): no seat advantage of its own.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

from games.base import Engine, Move
from games.search import SearchBot, SearchSettings


def round_over(start: dict[str, Any], now: dict[str, Any]) -> bool:
    return now["round"] != start["round"]


SETTINGS = SearchSettings(steps=20_000, exploration=0.7, horizon=round_over, score_scale=1.0)
# The 2019 edition keeps the others' moves out of the tree: in it, every world holds this seat's own hand, and the
# others' statistics learned to play against that hand as if they saw it (a Guard naming it, a Baron only when it
# wins), the more so the longer the search. There the search won 17 of 50 games against basic, 34%; with the others
# moving as in a playout, 22 of 40, 55% (the same seeds). In the classic edition it did not help: 12 of the first 26
# games, where the search with the others in the tree won 57 of 100.
SETTINGS_2019 = dataclasses.replace(SETTINGS, others_in_tree=False)


class StrongBot:
    """The search, with the edition's settings (``SETTINGS``, ``SETTINGS_2019``)."""

    searches = True

    def __init__(self, engine: Engine, settings: SearchSettings, settings_2019: SearchSettings) -> None:
        self.classic = SearchBot(engine, settings)
        self.edition_2019 = SearchBot(engine, settings_2019)
        self.history_moves = max(self.classic.history_moves, self.edition_2019.history_moves)

    def choose(self, view: dict[str, Any], moves: list[Move], history: list[dict[str, Any]],
               rng: random.Random) -> Move:
        bot = self.edition_2019 if view["edition"] == "2019" else self.classic
        return bot.choose(view, moves, history, rng)
