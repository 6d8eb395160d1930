"""What keeps ``make run`` running when one of its parts dies, as compose's ``restart: unless-stopped`` does
in production.

honcho, which runs the Procfile, stops every process as soon as one exits: one worker's crash would take
the web server, the stream, the mail server and the embedded PostgreSQL and Redis down with it. So under
``make run`` each Procfile command runs inside ``python -m turnbased.local.supervision NAME COMMAND``, which
starts it again when it exits on its own (after 1 s, doubling up to 30 s while it keeps failing within a
minute), says so on the console, and stops it when honcho stops everything. ``EmbeddedService`` watches
the embedded PostgreSQL and Redis the same way from ``turnbased.local run``. ``make serve`` (production on one
machine, ``turnbased/local/serve.py``) runs its processes and the embedded services under the same watch.

A restart is said on the console, never hidden: the tests of faults run the processes without any of this,
and fail when one exits that the test did not stop.
"""

from __future__ import annotations

import ctypes
import os
import shlex
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

FIRST_DELAY, LONGEST_DELAY, HEALTHY_AFTER = 1.0, 30.0, 60.0
PR_SET_PDEATHSIG = 1


def say(text: str) -> None:
    print(f"[turnbased] {text}", file=sys.stderr, flush=True)


def next_delay(delay: float, ran_for: float) -> float:
    """Return how long to wait before the next start: short again after a run that lasted, longer while it fails."""
    return FIRST_DELAY if ran_for >= HEALTHY_AFTER else min(delay * 2, LONGEST_DELAY)


def _dies_with_its_parent() -> None:
    # Linux: if this supervisor is killed outright, the kernel ends its process too, never left behind.
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def supervise(name: str, command: list[str]) -> int:
    """Run ``command`` until told to stop (SIGTERM or SIGINT, passed on to it once); start it again whenever it
    exits on its own. Return its exit code once stopped."""
    stopping: list[int] = []
    child: subprocess.Popen | None = None

    def stop(signum, frame) -> None:
        if not stopping:
            stopping.append(signum)
            if child is not None and child.poll() is None:
                os.killpg(child.pid, signum)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    delay = FIRST_DELAY / 2
    while True:
        started = time.monotonic()
        # A session of its own, so a signal to this supervisor's group reaches it once, from here.
        child = subprocess.Popen(command, start_new_session=True, preexec_fn=_dies_with_its_parent)
        if stopping:  # told to stop while it was being started
            os.killpg(child.pid, stopping[0])
        code = child.wait()
        if stopping:
            return code
        delay = next_delay(delay, time.monotonic() - started)
        say(f"{name} exited on its own with code {code}; starting it again in {delay:g} s")
        deadline = time.monotonic() + delay
        while not stopping and time.monotonic() < deadline:
            time.sleep(0.1)
        if stopping:
            return code


def _supervised_line(name: str, command: str) -> str:
    return f"{name}: {shlex.quote(sys.executable)} -m turnbased.local.supervision {name} {shlex.quote(command)}"


def supervised_procfile(procfile: Path, written: Path, *, leave_out: frozenset[str] = frozenset(),
                        extra: dict[str, str] | None = None) -> Path:
    """Write to ``written`` the Procfile with each command run under ``supervise``, without the processes named
    in ``leave_out`` and with the ``extra`` ones (name: command) after the rest; return its path."""
    lines = []
    for line in procfile.read_text().splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            lines.append(line)
            continue
        name, command = (part.strip() for part in line.split(":", 1))
        if name not in leave_out:
            lines.append(_supervised_line(name, command))
    lines.extend(_supervised_line(name, command) for name, command in (extra or {}).items())
    written.write_text("\n".join(lines) + "\n")
    return written


class EmbeddedService:
    """One of the embedded services ``make run`` started, watched: ``check()`` starts it again if it died."""

    def __init__(self, name: str, alive: Callable[[], bool], start: Callable[[], None]):
        self.name, self._alive, self._start = name, alive, start
        self.restarts = 0

    def check(self) -> None:
        if self._alive():
            return
        say(f"the embedded {self.name} stopped; starting it again")
        try:
            self._start()
        except Exception as error:  # noqa: BLE001 - said, and tried again at the next check
            say(f"the embedded {self.name} did not start again ({error}); trying again")
            return
        self.restarts += 1
        say(f"the embedded {self.name} is running again")


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python -m turnbased.local.supervision NAME COMMAND", file=sys.stderr)
        return 2
    name, command = argv
    # Environment variables in the Procfile's command ($TURNBASED_DATA_DIR) are filled in, as a shell would.
    return supervise(name, shlex.split(os.path.expandvars(command)))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
