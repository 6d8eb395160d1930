"""Print how fast the game engines are, every figure in cal (issue 11).

    .venv/bin/python benchmarks/engines.py [--game SLUG] [--games N] [--positions N] [--fresh N]

**1 cal** is the time, in this process and this run, to shuffle a 16-item list with a seeded
``random.Random`` and pop all its items. It is sampled in short bursts between the engine
measurements (interleaved, so both see the same machine load): each engine call is divided by the
median of the latest burst, and every figure is the median (or p95) of those ratios, so the figures
hold on a noisy shared machine.

For each engine, over whole seeded random games: ``apply`` per turn, ``legal_moves`` and ``view``
(every seat and a spectator) median and p95, and the state's JSON size early (after move 10) and
late (after move 70, or the last move of shorter games). Love Letter also prints the whole turn
(``apply`` + ``legal_moves`` + ``to_move``) as the mean per turn of each 4-player game, and the
state's size at the same moment of an early and a late round (2-player games). Carcassonne
also times ``legal_moves`` on late boards (70–80 tiles):

* **cold**: the state as the database returns it (a JSON round trip) with every cache cleared first:
  every ``functools`` cache of the engine's modules and every module-level container that fills up
  while the engine plays (found by playing a game and seeing which grew);
* **warm**: the same call again;
* **fresh process**: a new Python process imports the engine, reads the stored JSON state and lists
  the moves once (its own cal is measured in that process), which is what a new worker does;
* and a whole random game, setup to end (``apply`` + ``legal_moves`` + ``to_move`` of every turn).

Pure Python: imports ``games`` only; prints figures, asserts nothing.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import json
import pkgutil
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games import get_engine  # noqa: E402
from games.base import Engine  # noqa: E402

CAL_ITEMS = list(range(16))
NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]


# -- the unit ---------------------------------------------------------------------------------------


class Cal:
    """The cal: ``current`` is the median of the latest burst of samples, ``seconds`` of every sample."""

    def __init__(self) -> None:
        self.samples: list[float] = []
        self.rng = random.Random(11)
        self.current = 0.0

    def sample(self, batches: int = 7, per_batch: int = 10) -> None:
        """Time ``batches`` batches of ``per_batch`` shuffle-and-pop runs; keep each batch's time per run."""
        rng, clock = self.rng, time.perf_counter
        burst = []
        for _ in range(batches):
            started = clock()
            for _ in range(per_batch):
                items = list(CAL_ITEMS)
                rng.shuffle(items)
                while items:
                    items.pop()
            burst.append((clock() - started) / per_batch)
        self.samples.extend(burst)
        self.current = statistics.median(burst)

    def of(self, seconds: float) -> float:
        """Return ``seconds`` in cal, by the latest burst."""
        return seconds / self.current

    @property
    def seconds(self) -> float:
        return statistics.median(self.samples)


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]


def line(label: str, samples: list[float], target: float | None = None) -> None:
    """Print the median and p95 of ``samples`` (in cal), with a verdict against ``target`` (cal)."""
    if not samples:
        print(f"  {label:<58} (no samples)")
        return
    median, p95 = statistics.median(samples), quantile(samples, 0.95)
    verdict = f"   target {target:g}: {'ok' if median <= target else 'MISSED'}" if target else ""
    print(f"  {label:<58} median {median:8.1f} cal   p95 {p95:8.1f} cal   n={len(samples)}{verdict}")


def size_line(label: str, early: list[int], late: list[int]) -> None:
    if not early or not late:
        return
    e, late_ = statistics.median(early), statistics.median(late)
    print(f"  {label:<58} early {e:8,.0f} B   late {late_:8,.0f} B   late/early {late_ / e:5.2f}")


# -- caches -------------------------------------------------------------------------------------------


def _modules(engine: Engine) -> list[Any]:
    package = importlib.import_module(type(engine).__module__.rsplit(".", 1)[0])
    found = [package]
    for info in pkgutil.iter_modules(package.__path__):
        found.append(importlib.import_module(f"{package.__name__}.{info.name}"))
    return found


def _containers(engine: Engine) -> dict[tuple[str, str], Any]:
    return {
        (module.__name__, name): value
        for module in _modules(engine)
        for name, value in vars(module).items()
        if isinstance(value, (dict, list, set))
    }


def cache_clearer(engine: Engine, players: int) -> Callable[[], None]:
    """Return a function that empties every cache of ``engine``'s modules.

    A cache is a ``functools`` cache, or a module-level dict, list or set that grows while the
    engine plays a game (module constants do not change).
    """
    before = {key: len(value) for key, value in _containers(engine).items()}
    for _ in play(engine, players, {}, "find-the-caches", random.Random(0)):
        pass
    grown = [value for key, value in _containers(engine).items() if len(value) != before.get(key, len(value))]
    cached = [
        value for module in _modules(engine) for value in vars(module).values()
        if isinstance(value, functools._lru_cache_wrapper)
    ]

    def clear() -> None:
        for value in grown:
            value.clear()
        for function in cached:
            function.cache_clear()

    return clear


# -- playing ------------------------------------------------------------------------------------------


def play(engine: Engine, players: int, options: dict, seed: str, rng: random.Random,
         cal: Cal | None = None) -> Iterator[tuple]:
    """Yield (state before, seat, legal moves, move, state after, timings) for a seeded random game.

    ``timings`` holds the seconds of ``to_move``, ``legal_moves`` and ``apply`` for this turn (in cal
    when ``cal`` is given: it is sampled every few turns).
    """
    clock = time.perf_counter
    state = engine.setup(NAMES[:players], engine.validate_options(players, options), seed)
    turn = 0
    while True:
        if cal is not None and turn % 8 == 0:
            cal.sample()
        turn += 1
        started = clock()
        seats = engine.to_move(state)
        to_move = clock() - started
        if not seats:
            return
        seat = seats[0]
        started = clock()
        moves = engine.legal_moves(state, seat)
        listing = clock() - started
        move = rng.choice(moves)
        started = clock()
        after, _ = engine.apply(state, seat, move)
        applying = clock() - started
        timing = {"to_move": to_move, "legal_moves": listing, "apply": applying}
        if cal is not None:
            timing = {key: cal.of(value) for key, value in timing.items()}
        yield state, seat, moves, move, after, timing
        state = after


def time_views(engine: Engine, state: dict, players: int, cal: Cal, into: list[float]) -> None:
    cal.sample()
    for seat in [None, *range(players)]:
        started = time.perf_counter()
        engine.view(state, seat)
        into.append(cal.of(time.perf_counter() - started))


def whole_games(engine: Engine, cal: Cal, plans: list[tuple[int, dict]], games: int, view_every: int) -> dict:
    """Play ``games`` random games cycling through ``plans`` (players, options); collect the timings."""
    rng = random.Random(f"bench-{engine.slug}")
    found: dict[str, Any] = {"apply": [], "legal_moves": [], "to_move": [], "views": [], "turn_means": [],
                             "game_totals": [], "early": [], "late": [], "turns": 0}
    for number in range(games):
        players, options = plans[number % len(plans)]
        turn_times: list[float] = []
        last_size = None
        for index, (state, _, _, _, after, timing) in enumerate(
            play(engine, players, options, f"bench-{number}", rng, cal), start=1
        ):
            for key in ("apply", "legal_moves", "to_move"):
                found[key].append(timing[key])
            turn_times.append(timing["apply"] + timing["legal_moves"] + timing["to_move"])
            if index % view_every == 0:
                time_views(engine, state, players, cal, found["views"])
            if index == 10:
                found["early"].append(len(json.dumps(after)))
            if index == 70:
                found["late"].append(len(json.dumps(after)))
            last_size = (index, after)
        if last_size and last_size[0] < 70 and last_size[0] > 10:
            found["late"].append(len(json.dumps(last_size[1])))
        found["turns"] += len(turn_times)
        if turn_times:
            found["turn_means"].append(statistics.fmean(turn_times))
            found["game_totals"].append(sum(turn_times))
    return found


def print_games(title: str, found: dict) -> None:
    print(f"{title}: {found['turns']:,} turns")
    line("apply, per turn", found["apply"])
    line("legal_moves", found["legal_moves"])
    line("to_move", found["to_move"])
    line("view, per seat (and spectator)", found["views"])
    size_line("state JSON size after move 10 / move 70 (or last)", found["early"], found["late"])


# -- the engines --------------------------------------------------------------------------------------


def love_letter(cal: Cal, games: int) -> None:
    engine = get_engine("love-letter")
    found = whole_games(engine, cal, [(4, {})], games, view_every=3)
    print_games(f"love-letter: {games} random 4-player classic games", found)
    line("turn (apply + legal_moves + to_move), mean per turn of a game", found["turn_means"], 10)
    line("the same, whole games timed at once, cal in a tight loop", steady_turns(engine, games), 10)
    # The same moment of two rounds: just after the deal and the first draw, round 2 against the last round.
    early, late = [], []
    rng = random.Random("bench-love-letter-rounds")
    for number in range(max(10, games // 10)):
        starts = [state for *_, state, _ in play(engine, 2, {}, f"rounds-{number}", rng) if state["turn"] == 1]
        if len(starts) >= 3:
            early.append(len(json.dumps(starts[0])))
            late.append(len(json.dumps(starts[-1])))
    size_line("state JSON size, 2 players, start of round 2 / last round", early, late)


def steady_turns(engine: Engine, games: int, rounds: int = 5) -> list[float]:
    """Return, per round, the cost of a turn of whole 4-player games (setup included) timed as one block, over
    the cal timed the same way (a tight loop of 20,000, before and after): a second reading of the same
    target, with no timer around each call and no cal burst between turns."""

    def cal_seconds(rng: random.Random, count: int = 20_000) -> float:
        started = time.perf_counter()
        for _ in range(count):
            items = list(CAL_ITEMS)
            rng.shuffle(items)
            while items:
                items.pop()
        return (time.perf_counter() - started) / count

    figures, rng = [], random.Random("bench-steady")
    for number in range(rounds):
        before = cal_seconds(rng)
        started, turns = time.perf_counter(), 0
        for game in range(max(1, games // rounds)):
            state = engine.setup(NAMES[:4], engine.validate_options(4, {}), f"steady-{number}-{game}")
            while seats := engine.to_move(state):
                state, _ = engine.apply(state, seats[0], rng.choice(engine.legal_moves(state, seats[0])))
                turns += 1
        figures.append((time.perf_counter() - started) / turns / ((before + cal_seconds(rng)) / 2))
    return figures


def late_positions(engine: Engine, count: int, rng: random.Random) -> list[dict]:
    """Return ``count`` Carcassonne positions (random 4-player games) with 70–80 tiles on the board."""
    found: list[dict] = []
    seed = 0
    while len(found) < count:
        seed += 1
        for state, *_ in play(engine, 4, {}, f"late-{seed}", rng):
            if 70 <= len(state["board"]) <= 80 and rng.random() < 0.25:
                found.append(json.loads(json.dumps(state)))
    return found[:count]


FRESH = r"""
import json, random, sys, time
started = time.perf_counter()
sys.path.insert(0, sys.argv[1])
from games.carcassonne_hg import ENGINE
imported = time.perf_counter() - started
state = json.loads(open(sys.argv[2]).read())
started = time.perf_counter()
ENGINE.legal_moves(state, state["current"])
first = time.perf_counter() - started
started = time.perf_counter()
ENGINE.legal_moves(state, state["current"])
second = time.perf_counter() - started
rng, samples = random.Random(11), []
for _ in range(300):
    t = time.perf_counter()
    for _ in range(10):
        items = list(range(16)); rng.shuffle(items)
        while items: items.pop()
    samples.append((time.perf_counter() - t) / 10)
samples.sort()
print(json.dumps({"cal": samples[len(samples) // 2], "import": imported, "first": first, "second": second}))
"""


def carcassonne(cal: Cal, games: int, positions: int, fresh: int) -> None:
    engine = get_engine("carcassonne-hg")
    clear = cache_clearer(engine, 2)
    rng = random.Random("bench-carcassonne-late")
    states = late_positions(engine, positions, rng)
    cold, warm = [], []
    for state in states:
        stored = json.dumps(state)
        clear()
        state = json.loads(stored)
        cal.sample()
        started = time.perf_counter()
        engine.legal_moves(state, state["current"])
        cold.append(cal.of(time.perf_counter() - started))
        started = time.perf_counter()
        engine.legal_moves(state, state["current"])
        warm.append(cal.of(time.perf_counter() - started))
    sizes = [len(state["board"]) for state in states]
    print(f"carcassonne-hg: legal_moves on {len(states)} late boards of {min(sizes)}–{max(sizes)} tiles")
    line("legal_moves, cold (every cache cleared, state from JSON)", cold, 500)
    line("legal_moves, warm", warm)
    if fresh:
        ratios: dict[str, list[float]] = {"import": [], "first": [], "second": []}
        with tempfile.TemporaryDirectory() as folder:
            for number, state in enumerate(states[:fresh]):
                path = Path(folder, f"state-{number}.json")
                path.write_text(json.dumps(state))
                output = subprocess.run(
                    [sys.executable, "-c", FRESH, str(ROOT), str(path)], check=True, capture_output=True, text=True
                ).stdout
                figures = json.loads(output)
                for key in ratios:
                    ratios[key].append(figures[key] / figures["cal"])
        for key, label in (("import", "fresh process: importing the engine"),
                           ("first", "fresh process: first legal_moves"),
                           ("second", "fresh process: second legal_moves")):
            values = ratios[key]
            print(f"  {label:<58} median {statistics.median(values):8.1f} cal   p95 "
                  f"{quantile(values, 0.95):8.1f} cal   n={len(values)}")
    found = whole_games(engine, cal, [(2, {}), (3, {}), (4, {}), (5, {})], games, view_every=10)
    print_games(f"carcassonne-hg: {games} random games, 2–5 players", found)
    line("whole game (apply + legal_moves + to_move of every turn)", found["game_totals"])


def halali(cal: Cal, games: int) -> None:
    engine = get_engine("halali")
    # Both sides of the option the search bots play most often against (the lock after a move) and the rules file's
    # stricter no-return ban.
    plans = [(2, {}), (2, {"lock_on_move": False}), (2, {"no_return_capture": False, "no_return_neutral": True})]
    found = whole_games(engine, cal, plans, games, view_every=5)
    print_games(f"halali: {games} random two-leg matches", found)
    line("turn (apply + legal_moves + to_move), per match", found["turn_means"])


def savernake(cal: Cal, games: int) -> None:
    engine = get_engine("savernake-forest")
    plans = [(2, {}), (3, {}), (4, {}), (2, {"shared_path_resolution": "end_of_game"})]
    found = whole_games(engine, cal, plans, games, view_every=5)
    print_games(f"savernake-forest: {games} random games, 2–4 players", found)
    p95 = quantile(found["legal_moves"], 0.95)
    print(f"  {'legal_moves p95 target 500 cal':<58} {'ok' if p95 <= 500 else 'MISSED'} ({p95:.0f} cal)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=["love-letter", "halali", "carcassonne-hg", "savernake-forest"], help="one engine only")
    parser.add_argument("--games", type=int, default=0, help="random games per engine (default 200, 60, 12, 40)")
    parser.add_argument("--positions", type=int, default=60, help="late Carcassonne boards to time (default 60)")
    parser.add_argument("--fresh", type=int, default=10, help="fresh processes to time Carcassonne in (default 10)")
    args = parser.parse_args()
    cal = Cal()
    cal.sample(300)  # warm up
    if args.game in (None, "love-letter"):
        love_letter(cal, args.games or 200)
    if args.game in (None, "halali"):
        halali(cal, args.games or 60)
    if args.game in (None, "carcassonne-hg"):
        carcassonne(cal, args.games or 12, args.positions, args.fresh)
    if args.game in (None, "savernake-forest"):
        savernake(cal, args.games or 40)
    print(f"1 cal = {cal.seconds * 1e6:.2f} µs here (median of {len(cal.samples):,} interleaved samples)")


if __name__ == "__main__":
    main()
