"""`make run` outlives the death of any one of its parts (issue 27), as compose's restart policy does in production.

The whole of ``python -m turnbased.local run`` (what ``make run`` runs), on a data folder and ports of its own:
its embedded PostgreSQL and Redis, and every Procfile process under honcho. Killed outright in turn: the Celery
worker, the embedded Redis, the embedded PostgreSQL. Each comes back on its own and the site answers again;
nothing else stops, and no process but the one killed needed starting again (the worker and the mailer ride
out Redis's death; PostgreSQL's is ridden out by every process). Ctrl-C (here SIGTERM) then stops it all.
"""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.faults.stack import wait_for
from turnbased.local.services import BASE_DIR, free_port, port_answers

pytestmark = [pytest.mark.faults]

PORTS = ("WEB_PORT", "STREAM_PORT", "REDIS_PORT", "EMAIL_PORT", "MAIL_INBOUND_PORT")
# What the test runner sets for the tests themselves, and make run decides for itself.
NOT_MAKE_RUNS = ("DATABASE_URL", "CELERY_BROKER_URL", "CACHE_URL", "WORK_DISPATCH", "STREAM_URL",
                 "DATABASE_CONN_MAX_AGE", "DJANGO_SETTINGS_MODULE", "TURNBASED_DATA_DIR", "DJANGO_HTTPS")


def command_lines() -> dict[int, str]:
    """Return every process's command line, by pid."""
    found = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                found[int(entry.name)] = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            except OSError:
                continue
    return found


def pids_of(*words: str, data: Path | None = None) -> list[int]:
    """Return the processes whose command line has every word (not the supervisors that run them); with ``data``,
    only those started for that data folder (others on the machine, another checkout's workers, are no business
    of this test's and must never be killed by it)."""
    return [pid for pid, line in command_lines().items()
            if all(word in line for word in words) and "turnbased.local.supervision" not in line
            and (data is None or started_for(pid, data))]


def started_for(pid: int, data: Path) -> bool:
    """Whether the process runs with ``TURNBASED_DATA_DIR`` set to ``data`` (what make run gives every process)."""
    try:
        environment = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    except OSError:
        return False
    return f"TURNBASED_DATA_DIR={data}".encode() in environment


def procfile_processes() -> list[str]:
    """Return the Procfile's process lines: honcho says `` started (pid=`` once for each."""
    return [line for line in (BASE_DIR / "Procfile").read_text().splitlines()
            if line.strip() and not line.startswith("#")]


def site_answers(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as response:
            return response.status == 200
    except (urllib.error.URLError, OSError):
        return False


def test_make_run_starts_again_whatever_dies_and_stops_on_ctrl_c(tmp_path):
    ports = {name: str(free_port()) for name in PORTS}
    environment = {name: value for name, value in os.environ.items() if name not in NOT_MAKE_RUNS}
    # Under the repository's .data, not pytest's temporary folder: the embedded PostgreSQL runs as a user of its own
    # when the tests run as root, and another pytest run starting meanwhile makes that folder root's alone again
    # (PostgreSQL could then not be started again).
    data = BASE_DIR / ".data" / f"make-run-{os.getpid()}-{secrets.token_hex(3)}"
    environment.update(ports, TURNBASED_DATA_DIR=str(data), PYTHONUNBUFFERED="1")
    log_path = tmp_path / "make-run.log"
    log = log_path.open("w")
    run = subprocess.Popen([sys.executable, "-m", "turnbased.local", "run"], env=environment, cwd=BASE_DIR,
                           stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    web, redis_port = int(ports["WEB_PORT"]), int(ports["REDIS_PORT"])

    def output() -> str:
        return log_path.read_text(errors="replace")

    def running() -> None:
        assert run.poll() is None, f"make run exited with {run.returncode}:\n{output()[-4000:]}"

    def until(condition, what: str, timeout: float = 120) -> None:
        def checked() -> bool:
            running()
            return condition()
        try:
            wait_for(checked, what, timeout=timeout)
        except AssertionError as error:
            raise AssertionError(f"{error}\n{output()[-4000:]}") from None

    try:
        procfile = procfile_processes()
        until(lambda: site_answers(web) and output().count(" started (pid=") == len(procfile)
              and pids_of("celery -A turnbased worker", "--queues=celery", data=data), "the site to answer",
              timeout=240)

        # The worker, killed outright: started again; nothing else stops.
        worker = pids_of("celery -A turnbased worker", "--queues=celery", data=data)
        os.kill(min(worker), signal.SIGKILL)
        until(lambda: "worker exited on its own" in output(), "the worker to be seen gone")
        # The process list read once per look: read twice, the new worker's processes (its pool forking) could be
        # there for the first read and gone for the second, and min() of nothing failed the test (a CI of d18e315).
        until(lambda: min(pids_of("celery -A turnbased worker", "--queues=celery", data=data), default=None)
              not in (None, *worker), "the worker to run again")

        # The embedded Redis, killed outright: started again; the workers ride it out.
        redis = pids_of("redis-server", f":{redis_port}")  # its own port (it writes its title over its environment)
        assert len(redis) == 1, command_lines()
        os.kill(redis[0], signal.SIGKILL)
        until(lambda: "the embedded Redis is running again" in output(), "Redis to run again")
        assert port_answers(redis_port)
        time.sleep(3)  # the workers reconnect, or would have crashed by now

        # The embedded PostgreSQL, killed outright: started again; the site answers again.
        postmaster = [pid for pid in pids_of("postgres", "-D", str(data / "postgres")) if "pg_ctl" not in command_lines()[pid]]
        assert postmaster, command_lines()
        os.kill(min(postmaster), signal.SIGKILL)
        until(lambda: "the embedded PostgreSQL is running again" in output(), "PostgreSQL to run again")
        until(lambda: site_answers(web), "the site to answer again")
        time.sleep(3)

        text = output()
        restarted = [line for line in text.splitlines() if "exited on its own" in line]
        assert len(restarted) == 1 and "worker exited on its own" in restarted[0], "\n".join(restarted)
        assert text.count(" stopped (rc=") == 0, text[-4000:]  # honcho saw no process stop
        assert text.count(" started (pid=") == len(procfile)
    finally:
        if run.poll() is None:
            run.send_signal(signal.SIGTERM)
        try:
            code = run.wait(60)
        except subprocess.TimeoutExpired:
            os.killpg(run.pid, signal.SIGKILL)
            raise
        finally:
            log.close()
            shutil.rmtree(data, ignore_errors=True)
    assert code == 0, output()[-4000:]
    time.sleep(1)
    left = [line for line in command_lines().values() if str(data) in line or f":{redis_port}" in line]
    assert left == [], left
