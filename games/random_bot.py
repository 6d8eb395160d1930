"""The bot every game offers, ``random``: a uniform pick among the legal moves.

It needs nothing of the engine contract, so ``games/base.py`` (whose
``Engine.bots`` offers it by default) and ``games/bots.py`` (how the platform
asks a bot for a move) both take it from here and neither imports the other.
"""

from __future__ import annotations


class RandomBot:
    """Pick uniformly among the legal moves."""

    history_moves = 0

    def choose(self, view, moves, history, rng):
        return rng.choice(moves)
