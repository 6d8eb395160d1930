"""Measure how long each test file takes and write the heaviest first to ``tests/heaviest_files.txt``.

Opt in on a whole run: ``make test ARGS="-p tests.file_times"``. The list orders the run (``tests/conftest.py``):
with workers each taking whole files, a long file begun last would run alone at the end, so the heaviest
begin first. The seconds count setup, call and teardown of every test of the file, as the reports give them.
"""

from __future__ import annotations

import os
from collections import defaultdict
from pathlib import Path

HEAVIEST = Path(__file__).resolve().parent / "heaviest_files.txt"
# The files worth placing: below this the rest fill in wherever they fall.
LISTED = 60

_seconds: dict[str, float] = defaultdict(float)


def pytest_runtest_logreport(report) -> None:
    if os.environ.get("PYTEST_XDIST_WORKER"):  # the controlling process hears every worker's reports
        return
    _seconds[report.nodeid.split("::")[0]] += report.duration


def pytest_sessionfinish(session, exitstatus) -> None:
    if os.environ.get("PYTEST_XDIST_WORKER") or not _seconds:
        return
    heaviest = sorted(_seconds.items(), key=lambda item: -item[1])[:LISTED]
    lines = ["# The heaviest test files first, as a whole run measured them (python -m pytest -p tests.file_times):",
             "# tests/conftest.py begins the run with them. Seconds are the file's total over its tests.",
             *(f"{path}  # {seconds:.0f} s" for path, seconds in heaviest)]
    HEAVIEST.write_text("\n".join(lines) + "\n", encoding="utf-8")
