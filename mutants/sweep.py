"""Plant a seeded sample of mutants in each module of ``table.TARGETS`` and run the module's tests against each.

    python -m mutants [MODULE ...] [--count 100] [--seed 31] [--timeout S] [--recheck] [--again] [--list]

One embedded PostgreSQL and Redis serve the whole sweep, and one test database, made by the first run and reused
by the next (``--reuse-db``): a mutant costs one pytest process, not a server and its migrations. Each run is
one process at a time (``-p no:xdist``), stops at its first failing test (``-x``) and is bounded by a timeout; a
run that hangs is killed with its process group and counted as killed by timeout, apart from the others, and
the test database is made again after it (the killed test may have left rows behind).

A mutant is planted by ``hook.py`` in the tests' process, from memory: the working tree is never changed. A
mutant listed in ``equivalent.json`` (by module, line text and change: a change no test can see, with the
reason) is not run (``--recheck`` runs those too, to find entries that a test now kills). The score of a module
is the share of its other mutants the tests kill. Each module's sweep is kept in ``.data/mutants/``: ``--again``
runs only the mutants it did not kill, once tests are added for them, and new ones in place of any whose line the
change removed.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from dataclasses import asdict, dataclass
from pathlib import Path

from mutants.hook import NOT_PLANTED
from mutants.plant import Mutant, mutants_of, sample
from mutants.table import TARGETS, Target

BASE_DIR = Path(__file__).resolve().parent.parent
EQUIVALENT = Path(__file__).resolve().parent / "equivalent.json"
# The test database the first run makes, every later run uses as it is (each test leaves it as it found it).
REUSE = ("--reuse-db",)
KILLED, TIMEOUT, SURVIVED, NOT_RUN = "killed", "killed by timeout", "survived", "not planted"


@dataclass
class Run:
    outcome: str
    seconds: float
    tail: str  # the run's last lines: what failed, or the summary


class Forks:
    """The process that runs each mutant's tests in a fork of itself, its libraries imported once (``forks.py``)."""

    def __init__(self, environment: dict[str, str], cwd: Path = BASE_DIR):
        self.folder = tempfile.mkdtemp(prefix="turnbased-mutants-")  # the runs' output, outside the tree
        self.process = subprocess.Popen([sys.executable, "-m", "mutants.forks"], env=environment, cwd=cwd,
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                        start_new_session=True)
        assert json.loads(self.process.stdout.readline()).get("ready"), "the forks process did not start"

    def run(self, args: list[str], mutant: Mutant | None, timeout: float) -> tuple[int | None, float, str]:
        log = os.path.join(self.folder, "run.log")
        request = {"args": args, "mutant": asdict(mutant) if mutant else None, "timeout": timeout, "log": log}
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        answer = json.loads(self.process.stdout.readline())
        with open(log, encoding="utf-8", errors="replace") as output:
            return answer["code"], answer["seconds"], output.read()

    def close(self) -> None:
        """End the process once its run is done, or at once with the run under way (a sweep interrupted)."""
        self.process.stdin.close()
        try:
            self.process.wait(5)
        except subprocess.TimeoutExpired:
            self.process.terminate()  # it kills the run's process group, then itself
            self.process.wait(30)
        shutil.rmtree(self.folder, ignore_errors=True)


def run_tests(tests: list[str], *, environment: dict[str, str], timeout: float, mutant: Mutant | None = None,
              keyword: str | None = None, cwd: Path = BASE_DIR, options: tuple[str, ...] = (),
              forks: Forks | None = None) -> Run:
    """Run ``tests`` in one pytest process (with ``mutant`` planted), a fork of ``forks`` when given; tell whether
    they passed, failed or hung."""
    args = ["-p", "mutants.hook", "-p", "no:xdist", "-x", "-q", "--tb=line", *options, *tests]
    if keyword:
        args += ["-k", keyword]
    if forks is not None:
        code, seconds, output = forks.run(args, mutant, timeout)
    else:
        code, seconds, output = _run_process(args, environment, cwd, mutant, timeout)
    if code is None:
        return Run(TIMEOUT, seconds, _tail(output))
    if code == 0:
        return Run(SURVIVED, seconds, _tail(output))
    if code == NOT_PLANTED or code >= 4:  # usage error, no tests: the run is wrong, not the mutant caught
        return Run(NOT_RUN, seconds, _tail(output))
    return Run(KILLED, seconds, _tail(output))  # a test failed, or the mutant broke the collection


def _run_process(args: list[str], environment: dict[str, str], cwd: Path, mutant: Mutant | None,
                 timeout: float) -> tuple[int | None, float, str]:
    env = dict(environment)
    env.pop("TURNBASED_MUTANT", None)
    if mutant is not None:
        env["TURNBASED_MUTANT"] = json.dumps(asdict(mutant))
    started = time.monotonic()
    # A session of its own: a hung run is killed with every process it started.
    process = subprocess.Popen([sys.executable, "-m", "pytest", *args], env=env, cwd=cwd, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True, start_new_session=True)
    try:
        output, _ = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        output, _ = process.communicate()
        return None, time.monotonic() - started, output
    return process.returncode, time.monotonic() - started, output


def _tail(output: str, lines: int = 4) -> str:
    return "\n".join(line for line in output.strip().splitlines()[-lines:])


def equivalents() -> dict[str, dict[str, str]]:
    """Return the mutants no test can tell from the module, by module and key, each with the reason."""
    return json.loads(EQUIVALENT.read_text(encoding="utf-8")) if EQUIVALENT.is_file() else {}


def report_path(target: Target) -> Path:
    """Return where a module's last sweep is kept (under ``.data/``, never in the tree)."""
    return BASE_DIR / ".data" / "mutants" / (target.path.replace("/", ".") + ".json")


def sweep_module(target: Target, *, environment: dict[str, str], count: int, seed: str, timeout: float | None,
                 recheck: bool, reset_database, forks: Forks, again: bool = False) -> dict:
    """Run a module's sample of mutants (with ``again``: only those its last sweep did not kill, the others' outcomes
    kept); return its tally and every mutant's outcome."""
    known = equivalents().get(target.path, {})
    every = mutants_of(target.path, BASE_DIR, target.within)
    kept, gone = [], []
    if again:
        last = json.loads(report_path(target).read_text(encoding="utf-8"))
        by_key = {mutant.key: mutant for mutant in every}
        kept = [result for result in last["results"]
                if result["outcome"] in (KILLED, TIMEOUT) and result["key"] in by_key]
        gone = [result["key"] for result in last["results"] if result["key"] not in by_key]
        chosen = [by_key[result["key"]] for result in last["results"]
                  if result["outcome"] not in (KILLED, TIMEOUT) and result["key"] in by_key]
        seed = last["seed"]
        # A mutant whose line the change removed is replaced by one drawn from the same seed, so the sweep keeps
        # its count (a removed line is no mutant killed: it is no longer in the module).
        swept = {result["key"] for result in last["results"]}
        unswept = [mutant for mutant in every if mutant.key not in swept]
        random.Random(f"{seed} again").shuffle(unswept)
        chosen += unswept[:len(gone)]
    else:
        chosen = sample(every, count, seed)
    baseline = run_tests(list(target.tests), environment=environment, timeout=3600, keyword=target.keyword,
                         options=REUSE, forks=forks)
    if baseline.outcome != SURVIVED:
        raise SystemExit(f"{target.path}: the tests fail without a mutant:\n{baseline.tail}")
    bound = timeout or max(60.0, 3 * baseline.seconds)
    print(f"{target.path}: {len(chosen)} of {len(every)} mutants; the tests take {baseline.seconds:.0f} s, "
          f"each run is stopped after {bound:.0f} s", flush=True)
    results = list(kept)
    for number, mutant in enumerate(chosen, 1):
        if mutant.key in known and not recheck:
            outcome, seconds, tail = "equivalent", 0.0, known[mutant.key]
        else:
            run = run_tests(list(target.tests), environment=environment, timeout=bound, mutant=mutant,
                            keyword=target.keyword, options=REUSE, forks=forks)
            outcome, seconds, tail = run.outcome, run.seconds, run.tail
            if outcome == TIMEOUT:
                reset_database()
            if mutant.key in known:
                outcome = f"{outcome} (listed equivalent)"
        results.append({"line": mutant.line, "key": mutant.key, "outcome": outcome, "seconds": round(seconds, 1),
                        "tail": tail})
        print(f"  [{number}/{len(chosen)}] {outcome:<17} {mutant.line:>4}: {mutant.key} ({seconds:.0f} s)",
              flush=True)
    tally = {name: sum(result["outcome"] == name for result in results)
             for name in (KILLED, TIMEOUT, SURVIVED, NOT_RUN, "equivalent")}
    judged = len(results) - tally["equivalent"] - tally[NOT_RUN]
    score = (tally[KILLED] + tally[TIMEOUT]) / judged if judged else 1.0
    stale = sorted(set(known) - {mutant.key for mutant in every})
    summary = {"module": target.path, "mutants": len(results), "of": len(every), "seed": seed, "tally": tally,
               "score": score, "results": sorted(results, key=lambda result: result["line"]),
               "stale_equivalents": stale, "gone": gone, "date": time.strftime("%Y-%m-%d")}
    report_path(target).parent.mkdir(parents=True, exist_ok=True)
    report_path(target).write_text(json.dumps(summary, indent=1), encoding="utf-8")
    return summary


def report(summaries: list[dict]) -> str:
    """Return the scores as the Markdown table of docs/developing.md, then each survivor."""
    lines = ["| module | mutants | killed | by timeout | survived | equivalent | score |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    for summary in summaries:
        tally = summary["tally"]
        lines.append(f"| `{summary['module']}` | {summary['mutants']} of {summary['of']} | {tally[KILLED]} | "
                     f"{tally[TIMEOUT]} | {tally[SURVIVED]} | {tally['equivalent']} | {summary['score']:.1%} |")
    for summary in summaries:
        for result in summary["results"]:
            if result["outcome"] not in (KILLED, TIMEOUT, "equivalent"):
                lines.append(f"{result['outcome']}: {summary['module']}:{result['line']}: {result['key']}")
        for key in summary["stale_equivalents"]:
            lines.append(f"stale entry of equivalent.json (no such mutant now): {summary['module']}: {key}")
        for key in summary.get("gone", ()):
            lines.append(f"gone since the last sweep (its line changed; another drawn in its place): "
                         f"{summary['module']}: {key}")
    return "\n".join(lines)


def _interrupt(signum, frame):
    raise KeyboardInterrupt


def main(argv: list[str]) -> int:
    # Ctrl-C or a SIGTERM stops the sweep cleanly (the services, the forks process), even started in the background.
    signal.signal(signal.SIGTERM, _interrupt)
    signal.signal(signal.SIGINT, _interrupt)
    parser = argparse.ArgumentParser(prog="python -m mutants", description=__doc__.split("\n\n")[0])
    parser.add_argument("modules", nargs="*", help=f"of {', '.join(TARGETS)} (default: all)")
    parser.add_argument("--count", type=int, default=100, help="mutants per module (all when it has fewer)")
    parser.add_argument("--seed", default="31", help="draws the sample")
    parser.add_argument("--timeout", type=float, help="seconds per run (default: 3 × the unmutated run, ≥ 60)")
    parser.add_argument("--recheck", action="store_true", help="run the mutants listed as equivalent too")
    parser.add_argument("--again", action="store_true",
                        help="run again only the mutants the module's last sweep did not kill (after new tests)")
    parser.add_argument("--list", action="store_true", help="list the modules, their mutants and tests; run none")
    arguments = parser.parse_args(argv)
    unknown = [name for name in arguments.modules if name not in TARGETS]
    if unknown:
        parser.error(f"not in mutants/table.py: {', '.join(unknown)}")
    targets = [TARGETS[name] for name in arguments.modules or TARGETS]
    if arguments.list:
        for target in targets:
            print(f"{target.path}: {len(mutants_of(target.path, BASE_DIR, target.within))} mutants; "
                  f"tests {' '.join(target.tests)}" + (f" -k {target.keyword!r}" if target.keyword else ""))
        return 0
    from turnbased.kit.texts.catalogs import compile_catalogs
    from turnbased.local.commands import test_environment  # the embedded services: only for a sweep

    compile_catalogs()
    summaries = []
    with ExitStack() as stack:
        environment, reset_database = test_environment(stack, "mutants")
        forks = Forks(environment)
        stack.callback(forks.close)
        for target in targets:
            summaries.append(sweep_module(target, environment=environment, count=arguments.count,
                                          seed=arguments.seed, timeout=arguments.timeout, recheck=arguments.recheck,
                                          reset_database=reset_database, forks=forks, again=arguments.again))
    print(report(summaries))
    return 0
