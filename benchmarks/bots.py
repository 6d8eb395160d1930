"""Play each game's ``basic`` bot against ``random`` and print its win rate with a 95% Wilson interval.

    .venv/bin/python benchmarks/bots.py [--games N] [--game SLUG]

Two players, seats alternating (even games: basic in seat 0). Every move goes
through ``games.bots.bot_move``, so the bots see only their seat's view, legal
moves and visible history. A shared victory or a drawn game counts as a draw,
shown apart; the win rate is wins / games. Pure Python: imports ``games`` only.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games import get_engine  # noqa: E402
from games.bots import bot_move  # noqa: E402

DEFAULT_GAMES = {"love-letter": 200, "halali": 200, "savernake-forest": 100, "carcassonne-hg": 40}
MOVE_CAP = 20000


def wilson(successes: int, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """Return the Wilson score interval of a binomial proportion (95% by default)."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def play(slug: str, bots: list[str], seed: str) -> tuple[dict, int]:
    """Play one game with ``bots[seat]`` in each seat; return (result, moves)."""
    engine = get_engine(slug)
    options = engine.validate_options(len(bots), {})
    state = engine.setup([f"p{seat}" for seat in range(len(bots))], options, seed)
    history = []
    for moves in range(MOVE_CAP):
        seats = engine.to_move(state)
        if not seats:
            return engine.result(state), moves
        seat = seats[0]
        move = bot_move(engine, bots[seat], state, seat, history, seed=seed)
        state, events = engine.apply(state, seat, move)
        history.extend(events)
    raise RuntimeError(f"{slug} {seed}: no result after {MOVE_CAP} moves")


def benchmark(slug: str, games: int) -> dict:
    """Play ``games`` games of basic against random and print the figures."""
    wins = draws = losses = total_moves = 0
    started = time.perf_counter()
    for number in range(games):
        basic = number % 2
        bots = ["random", "random"]
        bots[basic] = "basic"
        result, moves = play(slug, bots, f"bots-{slug}-{number}")
        total_moves += moves
        winners = result["winners"]
        if winners == [basic]:
            wins += 1
        elif winners == [1 - basic]:
            losses += 1
        else:
            draws += 1
    elapsed = time.perf_counter() - started
    low, high = wilson(wins, games)
    print(
        f"{slug:<18} basic vs random, {games} games: won {wins}, lost {losses}, drawn {draws}; "
        f"win rate {wins / games:.1%} (95% CI {low:.1%}–{high:.1%}); "
        f"{games / elapsed:.2f} games/s, {total_moves / elapsed:,.0f} moves/s"
    )
    return {"wins": wins, "losses": losses, "draws": draws, "low": low, "high": high}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, help="games per game type (default: 200, 200, 100, 40)")
    parser.add_argument("--game", choices=sorted(DEFAULT_GAMES), help="one game only")
    args = parser.parse_args()
    slugs = [args.game] if args.game else list(DEFAULT_GAMES)
    for slug in slugs:
        benchmark(slug, args.games or DEFAULT_GAMES[slug])


if __name__ == "__main__":
    main()
