"""Print how fast the Carcassonne: Hunters and Gatherers engine is (issue 6 targets on this machine).

    .venv/bin/python benchmarks/carcassonne.py [--games N] [--positions N]

* listing the legal moves on a board of about 80 tiles (target: at most 5 ms), median and p95 over
  many positions, each measured cold (the per-board flood-fill memo cleared: a whole flood fill),
  with the board before the last tile memoised (the usual case in a running server) and warm;
* playing a whole random 4-player game (target: at most 0.5 s), median over N games.

Pure Python: imports ``games`` only; prints figures, asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.carcassonne_hg import ENGINE, features  # noqa: E402

PLAYERS = ["Ann", "Ben", "Cat", "Dan"]


def figures(name: str, samples: list[float], target: float | None = None) -> None:
    samples = sorted(samples)
    p95 = samples[min(len(samples) - 1, int(len(samples) * 0.95))]
    median = statistics.median(samples)
    verdict = ""
    if target is not None:
        verdict = f"   target {target * 1000:g} ms: {'ok' if median <= target else 'MISSED'}"
    print(f"{name:<44} n={len(samples):<5} median {median * 1000:8.2f} ms   p95 {p95 * 1000:8.2f} ms{verdict}")


def random_game(seed: int, rng: random.Random) -> dict:
    """Play one random 4-player game to the end and return the final state."""
    state = ENGINE.setup(PLAYERS, ENGINE.validate_options(4, {}), f"bench-{seed}")
    while not ENGINE.is_over(state):
        (seat,) = ENGINE.to_move(state)
        state, _ = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_moves(state, seat)))
    return state


def positions_near(count: int, size: int, rng: random.Random) -> list[dict]:
    """Return ``count`` positions (from random 4-player games) whose board holds ``size`` ±3 tiles."""
    found: list[dict] = []
    seed = 0
    while len(found) < count:
        seed += 1
        state = ENGINE.setup(PLAYERS, ENGINE.validate_options(4, {}), f"positions-{seed}")
        while not ENGINE.is_over(state):
            (seat,) = ENGINE.to_move(state)
            if abs(len(state["board"]) - size) <= 3:
                found.append(state)
            state, _ = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_moves(state, seat)))
    return found[:count]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="whole random games to time (default 20)")
    parser.add_argument("--positions", type=int, default=200, help="positions of ~80 tiles to time (default 200)")
    args = parser.parse_args()
    rng = random.Random(6)

    states = positions_near(args.positions, 80, rng)
    cold, parent, warm, counts = [], [], [], []
    for state in states:
        (seat,) = ENGINE.to_move(state)
        features._CACHE.clear()
        features.analyse(state["edition"], state["board"][:-1])  # as after a move: the board before it is known
        started = time.perf_counter()
        ENGINE.legal_moves(state, seat)
        parent.append(time.perf_counter() - started)
        features._CACHE.clear()
        started = time.perf_counter()
        moves = ENGINE.legal_moves(state, seat)
        cold.append(time.perf_counter() - started)
        started = time.perf_counter()
        ENGINE.legal_moves(state, seat)
        warm.append(time.perf_counter() - started)
        counts.append(len(moves))
    sizes = [len(state["board"]) for state in states]
    print(f"boards of {min(sizes)}-{max(sizes)} tiles, {statistics.median(counts):g} legal moves (median), "
          f"{max(counts)} at most")
    figures("legal moves, ~80 tiles, flood fill memo cold", cold, 0.005)
    figures("legal moves, ~80 tiles, previous board memoised", parent, 0.005)
    figures("legal moves, ~80 tiles, memo warm", warm, 0.005)

    times, turns = [], []
    for number in range(args.games):
        started = time.perf_counter()
        state = random_game(number, rng)
        times.append(time.perf_counter() - started)
        turns.append(len(state["board"]))
    print(f"{args.games} random 4-player games, {statistics.median(turns):g} tiles placed (median)")
    figures("whole random 4-player game", times, 0.5)


if __name__ == "__main__":
    main()
