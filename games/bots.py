"""Bots: players that choose a move from what their seat may know, and nothing more.

A bot is an object with a ``choose(view, moves, history, rng)`` method. It
never receives the state: ``bot_move`` (the only way the platform asks a bot)
computes the seat's view, legal moves and visible history itself and hands the
bot JSON copies of those, so a bot cannot see hidden cards or change the game
even by accident.

A bot that reads the history says how far back with ``history_moves``: the
events of that many latest moves are all it needs (what is older, its view
holds). The platform reads only those, so a bot's turn costs the same late in
a game as early; a bot without the attribute reads no history.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable
from typing import Any, Protocol

from games.base import Engine, Event, IllegalMove, Move, State, seeded_rng
from games.random_bot import RandomBot  # noqa: F401  (every game's "random" bot, named here too)


class Bot(Protocol):
    """Choose one of ``moves`` for the seat whose ``view`` and visible ``history`` are given."""

    # The latest moves whose events the bot reads (0: it reads no history).
    history_moves: int

    def choose(self, view: dict[str, Any], moves: list[Move], history: list[dict[str, Any]], rng: random.Random) -> Move:
        ...


def best_index(scored: Iterable[tuple[Any, int]], rng: random.Random) -> int:
    """Return the index of the highest value among ``(value, index)`` pairs; a tie is drawn with ``rng`` among the
    tied indices in the order given (the basic bots' choice)."""
    best, tied = None, []
    for value, index in scored:
        if best is None or value > best:
            best, tied = value, [index]
        elif value == best:
            tied.append(index)
    return rng.choice(tied)


def history_window(engine: Engine, bot_name: str) -> int:
    """Return how many of the latest moves' events the named bot reads (0 for an unknown bot)."""
    return getattr(engine.bots().get(bot_name), "history_moves", 0)


def _copy(value: Any) -> Any:
    return json.loads(json.dumps(value))


def bot_move(
    engine: Engine, bot_name: str, state: State, seat: int, history: list[Event], *, seed: str | int
) -> Move:
    """Ask the named bot for ``seat``'s move; it sees only the seat's view, legal moves and visible events."""
    bots = engine.bots()
    if bot_name not in bots:
        raise IllegalMove(f"{engine.name} has no bot called {bot_name!r}; it has: {', '.join(bots)}")
    moves = engine.legal_moves(state, seat)
    if not moves:
        raise IllegalMove("The bot's seat has no move to make now")
    visible = [event.to_json() for event in history if event.visible_for(seat)]
    rng = seeded_rng(seed, "bot", bot_name, seat, len(visible))
    choice = bots[bot_name].choose(_copy(engine.view(state, seat)), _copy(moves), _copy(visible), rng)
    if choice not in moves:
        raise IllegalMove(f"The {bot_name} bot chose a move that is not legal: {choice!r}")
    return choice
