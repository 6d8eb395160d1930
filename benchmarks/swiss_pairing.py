"""Print how long a round of two-player Swiss takes to pair, round after round of an event of random results.

    .venv/bin/python benchmarks/swiss_pairing.py [--players 1000] [--rounds 6] [--chunk 32] [--seed 1]

Each round of one event is paired by ``swiss_pairs`` (in windows of ``--chunk`` players once the field is larger
than two windows: see ``turnbased/competitions/pairing/swiss.py``), then played out at random (a tenth of the
games drawn), and the next standing sorted by points. Each pairing is timed once, as the competitions app runs
it once a round.

The **baseline**, measured in the same run between the rounds so that both see the same machine: sorting a
fresh copy of 1,000 (float, int) tuples 100 times, the median of five bursts. Each round prints its time in
milliseconds and as a multiple of the baseline (a figure that holds from one machine to another), with what
the round looked like: the rematches (0 expected), the byes, and the number of score groups.

Pure Python: imports ``turnbased.competitions.pairing`` only, no Django set-up; prints figures, asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
# The pairing library is pure, but importing the ``turnbased`` package sets up its Celery app, which reads the
# settings should anything ask: as every benchmark that may load Django, turn the rate limits off first.
os.environ["RATE_LIMITS"] = "off"

from turnbased.competitions.pairing import History, swiss_pairs  # noqa: E402


def baseline(rng: random.Random) -> float:
    """Seconds to sort a fresh copy of 1,000 (float, int) tuples 100 times: the median of five bursts."""
    items = [(rng.random(), number) for number in range(1000)]
    bursts = []
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(100):
            sorted(list(items))
        bursts.append(time.perf_counter() - start)
    return statistics.median(bursts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--chunk", type=int, default=32)  # the service's window (competitions/pairings.py)
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args()

    rng = random.Random(options.seed)
    players = list(range(1, options.players + 1))
    strength = {player: rng.random() for player in players}  # the tie-break within equal points
    points = dict.fromkeys(players, 0.0)
    history = History()
    print(f"{options.players} players, {options.rounds} rounds, windows of {options.chunk}")
    print(f"{'round':>5} {'pairing ms':>11} {'baseline ms':>12} {'ratio':>7} {'rematches':>10} {'byes':>5} "
          f"{'score groups':>13}")
    ratios = []
    for number in range(1, options.rounds + 1):
        standing = sorted(players, key=lambda player: (-points[player], -strength[player]))
        base = baseline(rng)
        start = time.perf_counter()
        pairing = swiss_pairs(standing, points, history, rng=rng, chunk=options.chunk)
        took = time.perf_counter() - start
        ratios.append(took / base)
        rematches = sum(history.met(a, b) for a, b in pairing.tables)
        print(f"{number:>5} {took * 1000:>11.1f} {base * 1000:>12.1f} {took / base:>7.1f} {rematches:>10} "
              f"{len(pairing.byes):>5} {len(set(points.values())):>13}")
        for a, b in pairing.tables:
            roll = rng.random()
            if roll < 0.1:
                points[a] += 0.5
                points[b] += 0.5
            else:
                points[a if roll < 0.55 else b] += 1
        for player in pairing.byes:
            points[player] += 1
        history = history.added(pairing.tables, pairing.byes)
    print(f"median ratio {statistics.median(ratios):.1f}, largest {max(ratios):.1f}")


if __name__ == "__main__":
    main()
