"""A process that imports the tests' heavy libraries once, then runs each mutant's tests in a fork of itself.

A pytest process starts in seconds (Hypothesis, schemathesis, Django, DRF and Celery to import, on a shared
machine under ``nice``); a sweep starts hundreds of them. This one imports those libraries once and forks a child
for each run, which starts pytest from there: the child plants its mutant (``hook.py``) as a fresh process would,
because nothing of the project is imported before the fork.

    python -m mutants.forks   # reads one request a line on stdin, answers one a line on stdout

A request is JSON: ``{"args": [...], "mutant": {...} | null, "timeout": seconds, "log": path}``; the answer is
``{"code": exit status | null, "seconds": ...}``, ``null`` for a run killed at its timeout (with its process
group: the servers and threads a test started go with it). A SIGTERM ends this process and the run under way.
"""

from __future__ import annotations

import importlib
import json
import os
import signal
import sys
import time

# Libraries only (never a module of this project: the mutant's module must be imported after the fork).
PRELOADED = ("pytest", "pytest_django.plugin", "_hypothesis_pytestplugin", "hypothesis", "hypothesis.strategies",
             "schemathesis", "schemathesis.pytest.plugin", "anyio.pytest_plugin", "time_machine", "django",
             "django.test", "django.db.models", "rest_framework", "celery", "psycopg2", "PIL.Image", "lxml.html",
             "requests", "httpx", "jsonschema", "yaml", "orjson")


def preload() -> None:
    for name in PRELOADED:
        try:
            importlib.import_module(name)
        except Exception:  # a library that needs the settings to import: the child imports it then
            pass
    # Should a library have imported a mutant's module after all, the child's hook finds it imported already and
    # the run ends NOT_PLANTED, never as a survivor.


def _child(args: list[str], mutant: dict | None, log: str) -> None:
    os.setsid()  # a process group of its own, killed whole at the timeout
    output = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
    os.dup2(output, 1)
    os.dup2(output, 2)
    os.environ.pop("TURNBASED_MUTANT", None)
    if mutant is not None:
        os.environ["TURNBASED_MUTANT"] = json.dumps(mutant)
    code = 3
    try:
        import pytest

        code = int(pytest.main(args))
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


# The run under way, whose process group a SIGTERM takes down with this process (a sweep stopped mid-run).
running: list[int] = []


def _stop(signum, frame) -> None:
    for child in running:
        try:
            os.killpg(child, signal.SIGKILL)
        except ProcessLookupError:
            pass
    os._exit(1)


def run(args: list[str], mutant: dict | None, timeout: float, log: str) -> dict:
    started = time.monotonic()
    child = os.fork()
    if child == 0:
        _child(args, mutant, log)
    running[:] = [child]
    deadline = started + timeout
    while True:
        done, status = os.waitpid(child, os.WNOHANG)
        if done:
            return {"code": os.waitstatus_to_exitcode(status), "seconds": time.monotonic() - started}
        if time.monotonic() > deadline:
            try:
                os.killpg(child, signal.SIGKILL)
            except ProcessLookupError:
                pass
            os.waitpid(child, 0)
            return {"code": None, "seconds": time.monotonic() - started}
        time.sleep(0.05)


def main() -> None:
    signal.signal(signal.SIGTERM, _stop)
    preload()
    print(json.dumps({"ready": True}), flush=True)
    for line in sys.stdin:
        request = json.loads(line)
        print(json.dumps(run(request["args"], request.get("mutant"), request["timeout"], request["log"])),
              flush=True)


if __name__ == "__main__":
    main()
