"""The server's processes a benchmark starts beside gunicorn, and the CPU time they spend, read from ``/proc``.

Shared by benchmarks/move_cost.py, benchmarks/capacity.py and benchmarks/soak.py: start a process of the
Procfile (the stream process, the dispatcher, a Celery worker) in a session of its own with its output in a log,
stop it, and read the CPU time (user + system) of a process tree: a root, its live children and the children
it reaped (gunicorn's master and workers, PostgreSQL's postmaster and backends, a Celery worker and its pool).
No Django here.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

# As in every benchmark: one loopback address runs many accounts (read when Django loads, in the processes started).
os.environ["RATE_LIMITS"] = "off"

ROOT = Path(__file__).resolve().parent.parent
TICKS = os.sysconf("SC_CLK_TCK")
BIN = Path(sys.executable).parent


# -- CPU time from /proc ----------------------------------------------------------------------------------


def stat_fields(pid: int) -> list[str] | None:
    """Return the fields of ``/proc/<pid>/stat`` after the command's name (state first), or None if it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text[text.rindex(")") + 2:].split()


def children(parent: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (fields := stat_fields(int(entry.name))) is not None and int(fields[1]) == parent:
            found.append(int(entry.name))
    return found


def child_named(parent: int, name: str) -> int | None:
    """Return the pid of a child of ``parent`` whose command is ``name`` (the embedded Redis of this process)."""
    for pid in children(parent):
        try:
            if Path(f"/proc/{pid}/comm").read_text().strip() == name:
                return pid
        except OSError:
            continue
    return None


def cpu_seconds(root: int) -> float:
    """Return the CPU time (user + system) of a root process, of the children it reaped, and of its live children
    (a process tree one level deep: gunicorn's workers, PostgreSQL's backends, a Celery worker's pool)."""
    fields = stat_fields(root)
    if fields is None:
        return 0.0
    ticks = sum(int(value) for value in fields[11:15])  # utime, stime, cutime, cstime
    for child in children(root):
        if (child_fields := stat_fields(child)) is not None:
            ticks += int(child_fields[11]) + int(child_fields[12])
    return ticks / TICKS


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


@dataclass
class Cpu:
    """Reads the server's CPU time, by process, at the start and end of a measured window."""

    roots: dict[str, int]
    started: dict[str, float] = field(default_factory=dict)
    by_process: dict[str, float] = field(default_factory=dict)
    began: float = 0.0
    seconds: float = 0.0

    def start(self) -> None:
        self.started = {name: cpu_seconds(pid) for name, pid in self.roots.items()}
        self.began = time.perf_counter()

    def stop(self) -> None:
        self.by_process = {name: cpu_seconds(pid) - self.started[name] for name, pid in self.roots.items()}
        self.seconds = time.perf_counter() - self.began

    @property
    def used(self) -> float:
        return sum(self.by_process.values())


# -- starting and stopping --------------------------------------------------------------------------------


def start(name: str, argv: list[str], environment: dict[str, str], folder: Path) -> tuple[subprocess.Popen, Path]:
    """Start ``argv`` in the repository, in a session of its own, its output in ``folder/<name>.log``."""
    log = folder / f"{name}.log"
    with log.open("ab") as output:
        process = subprocess.Popen(argv, cwd=ROOT, env=environment, stdout=output, stderr=subprocess.STDOUT,
                                   stdin=subprocess.DEVNULL, start_new_session=True)
    return process, log


def stop(process: subprocess.Popen) -> None:
    """Ask the process for a warm shutdown (Celery finishes its tasks), then end whatever is left of its group."""
    try:
        process.send_signal(signal.SIGTERM)
        process.wait(30)
    except subprocess.TimeoutExpired:
        pass
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.wait()


def dispatcher(environment: dict[str, str], folder: Path) -> subprocess.Popen:
    """Start ``manage.py dispatch_work``, which queues in Celery the work each commit names (turn emails, bots)."""
    return start("dispatch", [sys.executable, str(ROOT / "manage.py"), "dispatch_work"], environment, folder)[0]


def celery_worker(queue: str, environment: dict[str, str], folder: Path, concurrency: int = 1) -> subprocess.Popen:
    """Start a Celery worker on ``queue`` as the Procfile starts the mailer, the hooks worker and the bots worker."""
    return start(f"worker-{queue}", [str(BIN / "celery"), "-A", "turnbased", "worker", "--loglevel=warning",
                                     f"--concurrency={concurrency}", f"--queues={queue}", f"--hostname={queue}@%h",
                                     "--without-gossip", "--without-mingle"], environment, folder)[0]


@dataclass
class StreamServer:
    """The stream process (uvicorn, as the Procfile runs it) on a free port."""

    environment: dict[str, str]
    log: Path
    port: int = 0
    process: subprocess.Popen | None = None

    def start(self) -> StreamServer:
        from turnbased.local.services import free_port, port_answers

        self.port = free_port()
        with self.log.open("ab") as output:
            self.process = subprocess.Popen(
                [str(BIN / "uvicorn"), "turnbased.events.asgi:application", "--host", "127.0.0.1", "--port",
                 str(self.port), "--timeout-graceful-shutdown", "2", "--no-access-log"],
                cwd=ROOT, env=self.environment, stdin=subprocess.DEVNULL, stdout=output, stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        deadline = time.monotonic() + 60
        while not port_answers(self.port):
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the stream process did not start; see {self.log}")
            time.sleep(0.1)
        return self

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            self.process.wait(20)
