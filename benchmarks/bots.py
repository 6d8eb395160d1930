"""Play the bots against each other and print win rates with 95% Wilson intervals and what a move costs.

    .venv/bin/python benchmarks/bots.py [--game SLUG] [--match strong:basic] [--games N] [--jobs N]

Matches (``--match``, repeatable; all of these by default):

* ``strong:basic``, the issue 48 targets: ``strong`` wins at least 70% of two-player Halali! matches, 60% of
  two-player Love Letter games (each edition apart), 70% of two-player Carcassonne games, and 45% of three-player
  Savernake Forest games against two ``basic`` bots (a third is par);
* ``strong:random``, ``basic:random``;
* ``strong:strong``: seat 0's win rate, which shows any seat advantage beyond the game's own.

Seats rotate game by game, so the first bot sits in each seat equally often; the others are the second bot. Every
game starts from its own fixed seed, so a run is the same on any machine. Every move goes through
``games.bots.bot_move``: the bots see only their seat's view, legal moves and visible history. A shared victory or a
drawn game counts as a draw, shown apart; the win rate is wins / games.

A ``strong`` move's thinking is bounded in engine steps (its settings' ``steps``); the benchmark prints the
time of a move (median and largest) in seconds and in cal (benchmarks/engines.py's unit: the time,
in this run, to shuffle and pop a 16-item list), so the figure holds on a noisy machine. Games run in ``--jobs``
processes at once; a running count goes to stderr as games end. Pure Python: imports ``games`` only.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.engines import Cal  # noqa: E402
from games import get_engine  # noqa: E402
from games.bots import bot_move, history_window  # noqa: E402

MATCHES = ["strong:basic", "strong:random", "basic:random", "strong:strong"]
# (game, players, options, games per match by default, the strong:basic target)
SETTINGS = {
    "love-letter": (2, {"edition": "classic"}, 200, 0.60),
    "love-letter-2019": (2, {"edition": "2019"}, 200, 0.60),
    "halali": (2, {}, 100, 0.70),
    "carcassonne-hg": (2, {}, 60, 0.70),
    "savernake-forest": (3, {}, 100, 0.45),
}
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


def play(task: tuple[str, list[str], str]) -> dict:
    """Play one game with ``bots[seat]`` in each seat; return its winners and each first-bot move's cost."""
    name, bots, seed = task
    slug = name.removesuffix("-2019")
    players, options, _games, _target = SETTINGS[name]
    engine = get_engine(slug)
    state = engine.setup([f"p{seat}" for seat in range(players)], engine.validate_options(players, options), seed)
    history, starts, costs, cal = [], [], [], Cal()
    cal.sample()
    for moves in range(MOVE_CAP):
        seats = engine.to_move(state)
        if not seats:
            return {"winners": engine.result(state)["winners"], "costs": costs, "cal": cal.seconds, "moves": moves}
        seat = seats[0]
        window = history_window(engine, bots[seat])  # in moves, as the platform reads them (store.recent_events)
        visible = history[starts[-window]:] if window and len(starts) >= window else history if window else []
        started = time.process_time()
        move = bot_move(engine, bots[seat], state, seat, visible, seed=f"{seed}:{moves}")
        spent = time.process_time() - started
        if bots[seat] == "strong":
            costs.append(spent)
        starts.append(len(history))
        state, events = engine.apply(state, seat, move)
        history.extend(events)
    raise RuntimeError(f"{name} {seed}: no result after {MOVE_CAP} moves")


def match(name: str, first: str, second: str, games: int, jobs: int) -> dict:
    """Play ``games`` games of ``first`` against ``second`` (the rest of the seats) and print the figures."""
    players = SETTINGS[name][0]
    tasks = []
    for number in range(games):
        seat = number % players
        bots = [second] * players
        bots[seat] = first
        tasks.append((name, bots, f"bots-{name}-{number}"))
    started = time.perf_counter()
    results, wins, draws = [], 0, 0
    with multiprocessing.Pool(jobs) as pool:
        # A running count on stderr: a hundred matches of a strong bot take an hour on a loaded machine.
        for (_name, bots, _seed), result in zip(tasks, pool.imap(play, tasks, chunksize=1)):
            results.append(result)
            mine = bots.index(first) if first != second else 0
            if result["winners"] == [mine]:
                wins += 1
            elif mine in result["winners"] or not result["winners"]:
                draws += 1
            print(f"  {name} {first}:{second}: {len(results)} of {games} played, {wins} won, {draws} drawn",
                  file=sys.stderr, flush=True)
    elapsed = time.perf_counter() - started
    low, high = wilson(wins, games)
    target = SETTINGS[name][3] if (first, second) == ("strong", "basic") else None
    verdict = f"; target {target:.0%}: {'met' if low >= target else 'met by the estimate' if wins / games >= target else 'MISSED'}" if target else ""
    costs = [cost for result in results for cost in result["costs"]]
    cal = statistics.median(result["cal"] for result in results)
    cost = ""
    if costs:
        cost = (f"; a strong move: median {statistics.median(costs):.2f} s ({statistics.median(costs) / cal:,.0f} cal), "
                f"largest {max(costs):.2f} s ({max(costs) / cal:,.0f} cal)")
    who = f"{first} vs {second}" if first != second else f"{first} vs itself (seat 0's rate)"
    print(f"{name:<18} {who}, {players} players, {games} games: won {wins}, drawn {draws}, lost {games - wins - draws}; "
          f"win rate {wins / games:.1%} (95% CI {low:.1%}–{high:.1%}){verdict}{cost}; {elapsed:.0f} s", flush=True)
    return {"wins": wins, "draws": draws, "games": games, "low": low, "high": high}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", choices=sorted(SETTINGS), action="append", help="one game (repeatable)")
    parser.add_argument("--match", choices=MATCHES, action="append", help="one match (repeatable)")
    parser.add_argument("--games", type=int, help="games per match (default: each game's own)")
    parser.add_argument("--jobs", type=int, default=multiprocessing.cpu_count(), help="processes at once")
    args = parser.parse_args()
    for name in args.game or list(SETTINGS):
        for pairing in args.match or MATCHES:
            first, second = pairing.split(":")
            match(name, first, second, args.games or SETTINGS[name][2], args.jobs)


if __name__ == "__main__":
    main()
