"""A time budget for a run of the long tests: once it is spent, no new ``long`` test begins; each is reported skipped.

``make test-long ARGS="--time-budget=1200"`` (``.ci/run`` gives it what is left of its time). The budget is
counted from the start of the run in the controlling process, so both workers of a parallel run stop at the same
moment; a test already begun runs to its end. Running out is no failure (the tests not run are listed at the end,
and a skip does not fail a run); a test that fails does.
"""

from __future__ import annotations

import os
import time

import pytest

DEADLINE = "TURNBASED_TEST_DEADLINE"  # the moment (time.time()) after which no long test begins; workers inherit it
SPENT = "time budget spent"


def pytest_addoption(parser) -> None:
    parser.addoption("--time-budget", type=float, default=None, metavar="SECONDS",
                     help="begin no new test marked long after SECONDS from the start of the run (tests/time_budget.py)")


def pytest_configure(config) -> None:
    budget = config.getoption("--time-budget")
    # The workers of xdist are started after this, from this process's environment: they read the same deadline.
    # A worker knows itself by its ``workerinput``, not by PYTEST_XDIST_WORKER in its environment: a run started
    # from inside a worker (a test of this plugin under make test) inherits that variable and is no worker.
    if budget is not None and not hasattr(config, "workerinput"):
        os.environ[DEADLINE] = str(time.time() + budget)


_not_run: list[str] = []  # the node ids of the long tests the budget left out, as the reports come in


def spent(now: float | None = None) -> bool:
    """Tell whether the run's budget is spent (never, without one)."""
    deadline = os.environ.get(DEADLINE)
    return deadline is not None and (time.time() if now is None else now) >= float(deadline)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item) -> None:
    # Before any fixture of the test is set up: a skipped test starts no server, browser or process.
    if item.get_closest_marker("long") and spent():
        pytest.skip(SPENT)


def pytest_runtest_logreport(report) -> None:
    if report.skipped and report.when == "setup" and SPENT in str(report.longrepr):
        _not_run.append(report.nodeid)


def pytest_terminal_summary(terminalreporter) -> None:
    if _not_run:
        terminalreporter.section(f"{SPENT}: {len(_not_run)} long tests not run")
        for nodeid in _not_run:
            terminalreporter.write_line(nodeid)
