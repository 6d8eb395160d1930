"""The mutation tool itself (``mutants/``): it finds the mutants of a module, plants one in a test run
from memory (the file never changes), and tells a mutant the tests kill from one they miss or one that hangs."""

from __future__ import annotations

import dataclasses
import json
import os
import time
from pathlib import Path

import psutil
import pytest

from mutants import sweep
from mutants.plant import mutants_of, sample
from mutants.table import TARGETS

TINY = '''"""A tiny module: a docstring, a log line and a message no mutant changes."""
import logging

logger = logging.getLogger(__name__)


def _(text):
    return text


def may_vote(age):
    logger.info("asked about %s", age)
    return age >= 18


def fee(age):
    if age < 12:
        return 0
    return 5


def countdown(n):
    while n > 0:
        n -= 1
    return _("done")


def error(description):
    return {"description": description}


def refusal():
    return error("Malformed")
'''

# Catches a wrong answer for a child and for an adult, but never looks at the age of 18 itself, nor at the fee of
# an adult: those mutants survive.
TESTS = '''
from tiny import countdown, fee, may_vote


def test_may_vote():
    assert may_vote(30) is True and may_vote(3) is False


def test_fee_of_a_child():
    assert fee(5) == 0


def test_countdown():
    assert countdown(3) == "done"
'''


@pytest.fixture
def tiny(tmp_path: Path) -> Path:
    (tmp_path / "tiny.py").write_text(TINY, encoding="utf-8")
    (tmp_path / "test_tiny.py").write_text(TESTS, encoding="utf-8")
    return tmp_path


def tiny_environment() -> dict[str, str]:
    """The tiny module's own runs: no Django nor any other plugin (each costs a run its start), the tool importable
    from the repository."""
    environment = {name: value for name, value in os.environ.items() if name != "DJANGO_SETTINGS_MODULE"}
    environment.update(PYTHONPATH=str(sweep.BASE_DIR), PYTEST_DISABLE_PLUGIN_AUTOLOAD="1")
    return environment


def outcome(tiny: Path, key: str, tests: str = "test_tiny.py", timeout: float = 30, forks=None) -> str:
    [mutant] = [mutant for mutant in mutants_of("tiny.py", tiny) if mutant.key == key]
    return sweep.run_tests([tests], environment=tiny_environment(), timeout=timeout, mutant=mutant, cwd=tiny,
                           options=("-p", "no:cacheprovider"), forks=forks).outcome


def test_the_mutants_of_a_module_leave_its_docstrings_log_lines_and_messages_alone(tiny):
    keys = {mutant.key for mutant in mutants_of("tiny.py", tiny)}
    assert {"return age >= 18 :: `>=` -> `>`", "return age >= 18 :: returns `None`", "return 5 :: `5` -> `6`",
            "if age < 12: :: condition negated", "n -= 1 :: `-` -> `+`", "return 0 :: `return` dropped"} <= keys
    assert not [key for key in keys if "logger.info" in key or "tiny module" in key or "'done'" in key
                or "'Malformed' marked" in key], keys  # the words of a message, or of the schema's error()
    assert 'return error("Malformed") :: returns `None`' in keys


def test_a_sample_is_drawn_by_its_seed(tiny):
    every = mutants_of("tiny.py", tiny)
    assert sample(every, 5, "a") == sample(every, 5, "a") and len(sample(every, 5, "a")) == 5
    assert sample(every, 5, "a") != sample(every, 5, "b")
    assert sample(every, 1000, "a") == sorted(every, key=lambda mutant: (mutant.line, mutant.node, mutant.change))


def test_a_mutant_the_tests_catch_is_killed_and_one_they_miss_survives_and_the_file_never_changes(tiny):
    assert outcome(tiny, "return age >= 18 :: returns `None`") == sweep.KILLED
    assert outcome(tiny, "if age < 12: :: condition negated") == sweep.KILLED
    assert outcome(tiny, "return age >= 18 :: `>=` -> `>`") == sweep.SURVIVED
    assert outcome(tiny, "return 5 :: `5` -> `6`") == sweep.SURVIVED
    assert (tiny / "tiny.py").read_text(encoding="utf-8") == TINY
    assert sorted(path.name for path in tiny.iterdir() if path.suffix == ".py") == ["test_tiny.py", "tiny.py"]


def test_a_mutant_that_hangs_is_killed_by_the_timeout(tiny):
    assert outcome(tiny, "n -= 1 :: `-` -> `+`", timeout=4) == sweep.TIMEOUT  # counts up for ever


def test_the_forks_process_runs_each_mutant_in_a_fresh_fork(tiny):
    # What a sweep runs through: each run a fork of one process, the mutant planted in the fork alone.
    forks = sweep.Forks(tiny_environment(), cwd=tiny)
    try:
        assert outcome(tiny, "return age >= 18 :: returns `None`", forks=forks) == sweep.KILLED
        assert outcome(tiny, "return age >= 18 :: `>=` -> `>`", forks=forks) == sweep.SURVIVED
        assert outcome(tiny, "if age < 12: :: condition negated", forks=forks) == sweep.KILLED
        assert outcome(tiny, "n -= 1 :: `-` -> `+`", timeout=3, forks=forks) == sweep.TIMEOUT
        assert outcome(tiny, "return 5 :: `5` -> `6`", forks=forks) == sweep.SURVIVED
    finally:
        forks.close()
    assert (tiny / "tiny.py").read_text(encoding="utf-8") == TINY


def test_a_sweep_stopped_mid_run_leaves_no_run_behind(tiny):
    forks = sweep.Forks(tiny_environment(), cwd=tiny)
    [hang] = [mutant for mutant in mutants_of("tiny.py", tiny) if mutant.key == "n -= 1 :: `-` -> `+`"]
    request = {"args": ["-p", "mutants.hook", "-p", "no:cacheprovider", "test_tiny.py"],
               "mutant": dataclasses.asdict(hang),
               "timeout": 120, "log": str(tiny / "run.log")}
    forks.process.stdin.write(json.dumps(request) + "\n")
    forks.process.stdin.flush()
    parent = psutil.Process(forks.process.pid)
    for _ in range(100):  # the run's child, forked (at most 10 s)
        if parent.children():
            break
        time.sleep(0.1)
    [child] = parent.children()
    try:
        time.sleep(1)
        assert child.status() != psutil.STATUS_ZOMBIE  # counting up for ever
        started = time.monotonic()
        forks.close()
        assert time.monotonic() - started < 15  # not the run's two minutes
        gone, _ = psutil.wait_procs([child], timeout=10)  # a SIGKILL takes a moment; then init reaps it
        assert gone or child.status() == psutil.STATUS_ZOMBIE
        assert forks.process.returncode is not None
    finally:  # the test failing must not leave a run counting up for ever
        for process in (child, parent):
            if process.is_running():
                process.kill()


def test_a_run_that_never_imports_the_module_is_not_counted_as_a_survivor(tiny):
    (tiny / "test_other.py").write_text("def test_nothing():\n    assert True\n", encoding="utf-8")
    assert outcome(tiny, "return 5 :: `5` -> `6`", tests="test_other.py") == sweep.NOT_RUN


def test_every_module_of_the_table_has_its_tests_and_at_least_one_mutant():
    root = sweep.BASE_DIR
    for path, target in TARGETS.items():
        assert (root / path).is_file() and all((root / test).exists() for test in target.tests), path
        assert mutants_of(path, root, target.within), path


def test_a_sweep_again_runs_only_what_was_not_killed_and_replaces_a_mutant_whose_line_is_gone(tiny, monkeypatch):
    environment = tiny_environment()
    monkeypatch.setattr(sweep, "BASE_DIR", tiny)  # the module, its report and its equivalents: the tiny ones
    monkeypatch.setattr(sweep, "EQUIVALENT", tiny / "equivalent.json")
    monkeypatch.setattr(sweep, "REUSE", ("-p", "no:cacheprovider"))  # no database to keep between runs
    target = sweep.Target("tiny.py", ("test_tiny.py",))
    killed, survivor = "return age >= 18 :: returns `None`", "return 5 :: `5` -> `6`"
    last = [{"line": 14, "key": killed, "outcome": sweep.KILLED, "seconds": 1.0, "tail": ""},
            {"line": 20, "key": survivor, "outcome": sweep.SURVIVED, "seconds": 1.0, "tail": ""},
            {"line": 17, "key": "if age < 12: :: condition negated", "outcome": sweep.SURVIVED, "seconds": 1.0,
             "tail": ""},
            {"line": 20, "key": "return 5 :: returns `None`", "outcome": sweep.KILLED, "seconds": 1.0, "tail": ""}]
    sweep.report_path(target).parent.mkdir(parents=True)
    sweep.report_path(target).write_text(json.dumps({"seed": "a", "results": last}), encoding="utf-8")
    # The survivor's line is rewritten (its mutant is gone); the other survivor is now killed by the tests.
    (tiny / "tiny.py").write_text(TINY.replace("    return 5\n", "    return 4 + 1\n"), encoding="utf-8")
    forks = sweep.Forks(environment, cwd=tiny)
    try:
        summary = sweep.sweep_module(target, environment=environment, count=3, seed="ignored", timeout=3,
                                     recheck=False, reset_database=lambda: None, forks=forks, again=True)
    finally:
        forks.close()
    results = {result["key"]: result["outcome"] for result in summary["results"]}
    assert summary["mutants"] == 4 and results[killed] == sweep.KILLED  # kept, not run again
    assert results["if age < 12: :: condition negated"] == sweep.KILLED
    # Both mutants of the rewritten line are gone, the one killed too: two others are drawn in their place.
    assert survivor not in results and "return 5 :: returns `None`" not in results
    assert summary["gone"] == [survivor, "return 5 :: returns `None`"] and summary["stale_equivalents"] == []
    assert "gone since the last sweep (its line changed; another drawn in its place): tiny.py: return 5" in (
        sweep.report([summary]))
    drawn = set(results) - {killed, "if age < 12: :: condition negated"}
    assert len(drawn) == 2 and drawn <= {mutant.key for mutant in mutants_of("tiny.py", tiny)}
    assert summary["seed"] == "a"
