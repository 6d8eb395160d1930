"""make test leaves the tests marked long out and make test-long runs only them; a run of them stops taking new ones
once its time budget is spent, lists what it left, and does not fail for it (tests/time_budget.py)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from turnbased.local.commands import chosen_tests

ROOT = Path(__file__).resolve().parent.parent


def test_make_test_leaves_the_long_tests_out_and_test_long_runs_only_them():
    assert chosen_tests([], long=False) == ["-m", "not long", "--durations=10"]
    assert chosen_tests(["tests/games"], long=True) == ["-m", "long", "--durations=10"]


@pytest.mark.parametrize("args", [["-m", "slow"], ["-mslow"]], ids=["-m EXPR", "-mEXPR"])
def test_the_callers_own_choice_of_tests_stands(args):
    assert chosen_tests(args, long=False) == ["--durations=10"]


def test_a_test_named_by_its_id_is_still_chosen_from_the_runs_side_of_the_mark():
    # make test ARGS="file.py::test" runs that test's make-test cases; make test-long ARGS=... its long ones.
    assert chosen_tests(["tests/a.py::test_one"], long=False)[:2] == ["-m", "not long"]


def test_the_callers_own_durations_stand_and_a_minimum_alone_is_no_count():
    assert chosen_tests(["--durations=0"], long=False) == ["-m", "not long"]
    assert chosen_tests(["--durations-min=1.0"], long=False)[-1] == "--durations=10"


def _run(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    """Run pytest with only the budget's plugin (no Django) on a file of two long tests and one that is not."""
    (tmp_path / "pytest.ini").write_text("[pytest]\nmarkers =\n    long: long\n")
    # The first long test spends the budget as it runs (it moves the deadline to now): whatever the machine's pace,
    # the budget runs out between the two long tests.
    (tmp_path / "test_some.py").write_text(textwrap.dedent("""
        import os
        import time
        import pytest

        @pytest.mark.long
        def test_first_long():
            if "TURNBASED_TEST_DEADLINE" in os.environ:
                os.environ["TURNBASED_TEST_DEADLINE"] = str(time.time())

        @pytest.mark.long
        def test_second_long():
            pass

        def test_quick():
            pass
    """))
    # No other plugin: the installed ones (Django's, xdist, schemathesis...) would only slow the start.
    environment = {**os.environ, "PYTHONPATH": str(ROOT), "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
    environment.pop("TURNBASED_TEST_DEADLINE", None)
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "tests.time_budget", "-rs", *args], cwd=tmp_path,
                          env=environment, capture_output=True, text=True, timeout=120)


def test_a_spent_budget_begins_no_new_long_test_lists_it_and_fails_nothing(tmp_path):
    # The first long test outlasts the budget: the second is not begun; the test that is not long runs.
    finished = _run(tmp_path, "--time-budget=600")
    assert finished.returncode == 0, finished.stdout
    assert "2 passed, 1 skipped" in finished.stdout, finished.stdout
    assert "time budget spent: 1 long tests not run" in finished.stdout, finished.stdout
    assert "test_some.py::test_second_long" in finished.stdout.split("time budget spent: 1")[1], finished.stdout


def test_without_a_budget_every_test_runs_and_a_failure_still_fails(tmp_path):
    assert "3 passed" in _run(tmp_path).stdout
    (tmp_path / "test_failing.py").write_text("import pytest\n\n@pytest.mark.long\ndef test_fails():\n    assert False\n")
    assert _run(tmp_path, "--time-budget=600").returncode == 1
