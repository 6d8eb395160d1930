"""Starting, stopping and cleaning up safely (issue 42), each the way an operator meets it.

The real ``python -m turnbased.local run`` (what ``make run`` runs; ``make serve`` where said), each on a data
folder and ports of its own: a ``postmaster.pid`` left by a power loss whose pid now belongs to a live process of
another program; a second ``make run`` on the same folder; a port another program listens on; a folder ``make
serve`` hosts; ``make clean-data`` itself, through make, while the service runs and after; and Ctrl-C (SIGINT to
the whole process group, as a terminal sends it) while the embedded PostgreSQL is still coming up, held there by
stopping its postmaster. After each, no PostgreSQL may be left running on the folder.
"""

from __future__ import annotations

import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
from pathlib import Path

import psutil
import pytest

from tests.faults.stack import PrivatePostgres
from tests.faults.test_make_run import NOT_MAKE_RUNS, PORTS, procfile_processes
from tests.serving import test_make_serve
from tests.waiting import wait_for
from turnbased.local.services import BASE_DIR, free_port
from turnbased.local.data import processes_on, redis_servers_on
from turnbased.local.postgres import is_postmaster, servers_on

pytestmark = [pytest.mark.faults]

READY = "press Ctrl-C to stop everything"  # make run's last line once its database and demo accounts are there
REFUSED_WITHIN = 60.0  # a refusal comes before anything starts: the interpreter's start and a few checks
START_TIMEOUT = 180.0


class Started:
    """One ``python -m turnbased.local COMMAND`` on a data folder, its output in a file, in a process group of its
    own (what a terminal's Ctrl-C reaches)."""

    def __init__(self, command: str, data: Path, environment: dict[str, str], log: Path):
        self.data, self.log = data, log
        with log.open("w") as output:
            self.process = subprocess.Popen([sys.executable, "-m", "turnbased.local", command], env=environment,
                                            cwd=BASE_DIR, stdout=output, stderr=subprocess.STDOUT,
                                            start_new_session=True)

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def said(self, text: str, timeout: float = START_TIMEOUT) -> None:
        def seen() -> bool:
            assert self.process.poll() is None or text in self.output(), \
                f"exited with {self.process.returncode} before saying {text!r}:\n{self.output()[-4000:]}"
            return text in self.output()
        wait_for(seen, repr(text), timeout=timeout, every=0.1)

    def ctrl_c(self) -> None:
        os.killpg(self.process.pid, signal.SIGINT)

    def exit_code(self, timeout: float = 90) -> int:
        try:
            return self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"still running after {timeout} s:\n{self.output()[-4000:]}") from None

    def kill(self) -> None:
        """Kill it outright with every process it started (honcho starts each in a session of its own)."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
        kill_everything_on(self.data)


def kill_everything_on(data: Path) -> None:
    """SIGKILL every process of the service on the folder at once, embedded servers included, as a power loss
    ends them; return once none is left."""
    def left() -> list:
        return [*processes_on(data), *redis_servers_on(data), *servers_on(data / "postgres")]

    def killed() -> bool:
        for process in left():
            try:
                process.kill()
            except psutil.NoSuchProcess:
                pass
        return not left()

    wait_for(killed, f"every process on {data} to end", timeout=30, every=0.2)


def a_data_folder() -> Path:
    # Under the repository's .data, as tests/faults/test_make_run.py explains: the embedded PostgreSQL runs as a
    # user of its own when the tests run as root.
    return BASE_DIR / ".data" / f"lifecycle-{os.getpid()}-{secrets.token_hex(3)}"


def operator_environment(data: Path) -> dict[str, str]:
    environment = {name: value for name, value in os.environ.items() if name not in NOT_MAKE_RUNS}
    environment.update({name: str(free_port()) for name in PORTS}, TURNBASED_DATA_DIR=str(data),
                       PYTHONUNBUFFERED="1")
    return environment


def postgres_left_on(data: Path) -> list[int]:
    return [process.pid for process in servers_on(data / "postgres")]


def make_clean_data(data: Path) -> subprocess.CompletedProcess:
    environment = {**os.environ, "TURNBASED_DATA_DIR": str(data)}
    return subprocess.run(["make", "--no-print-directory", "clean-data"], cwd=BASE_DIR, env=environment,
                          capture_output=True, text=True, timeout=REFUSED_WITHIN)


@pytest.fixture
def data():
    folder = a_data_folder()
    try:
        yield folder
    finally:
        kill_everything_on(folder)  # only if the test failed with something still running
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def started(data, tmp_path):
    """Start commands on the test's folder; whatever still runs at the end is killed, process group and all."""
    running: list[Started] = []

    def start(command: str, environment: dict[str, str] | None = None) -> Started:
        one = Started(command, data, environment or operator_environment(data), tmp_path / f"{len(running)}.log")
        running.append(one)
        return one

    try:
        yield start
    finally:
        for one in running:
            one.kill()


def test_a_second_make_run_is_refused_clean_data_waits_for_ctrl_c_and_says_what_it_deleted(data, started):
    first = started("run")
    first.said(READY)

    # Another make run on the folder, on ports of its own (so only the folder is in the way): refused at once.
    second = started("run")
    assert second.exit_code(REFUSED_WITHIN) == 2
    assert f"not starting: make run (pid {first.process.pid}, since " in second.output()
    assert "PostgreSQL started" not in second.output() and first.process.poll() is None

    # make clean-data, the Makefile's target, on TURNBASED_DATA_DIR: refused while make run holds the folder.
    refused = make_clean_data(data)
    assert refused.returncode != 0
    assert f"not deleting: make run (pid {first.process.pid}, since " in refused.stdout
    assert (data / "postgres" / "PG_VERSION").exists() and (data / "demo-accounts.json").exists()

    first.ctrl_c()
    assert first.exit_code() == 0
    assert postgres_left_on(data) == []
    assert "PostgreSQL stopped" in first.output()

    cleaned = make_clean_data(data)
    assert cleaned.returncode == 0, cleaned.stdout + cleaned.stderr
    assert not data.exists()
    said = cleaned.stdout
    assert f"deleted {data} (" in said
    for entry in ("postgres/", "redis/", "demo-accounts.json", "secret_key"):
        assert f"  {entry} " in said, said


def plant_a_power_loss(data: Path, run: Started, stranger: subprocess.Popen) -> None:
    """End make run and every process it started at once, PostgreSQL included, as a power loss does, and give the
    pid the postmaster had to ``stranger`` in the files it left (after a reboot, that pid is another program's)."""
    postmasters = [process.pid for process in servers_on(data / "postgres") if is_postmaster(process)]
    assert len(postmasters) == 1
    run.kill()
    for path in (data / "postgres" / "postmaster.pid", data / "postgres" / ".s.PGSQL.5432.lock"):
        lines = path.read_text().split("\n")
        assert lines[0] == str(postmasters[0])
        path.write_text("\n".join([str(stranger.pid), *lines[1:]]))


def test_a_stale_postmaster_pid_naming_a_live_process_does_not_stop_make_run(data, started):
    environment = operator_environment(data)
    run = started("run", environment)
    run.said(READY)
    # READY comes before honcho starts the Procfile: killed then, make run would leave honcho alone, its children
    # still to come after make clean-data had looked.
    wait_for(lambda: run.output().count(" started (pid=") == len(procfile_processes()), "every Procfile process",
             timeout=START_TIMEOUT, every=0.1)
    # make run itself killed outright (kill -9 of its pid): its processes run on, and make clean-data names them.
    os.kill(run.process.pid, signal.SIGKILL)
    run.process.wait()
    refused = make_clean_data(data)
    assert refused.returncode != 0
    named = re.search(rf"not deleting: (\d+) processes of the service still run on {re.escape(str(data))}, "
                      r".*Stop them first: kill ([\d ]+)", refused.stdout)
    assert named, refused.stdout
    honcho = [process.pid for process in processes_on(data) if process.cmdline()[1:4] == ["-m", "honcho", "start"]]
    assert honcho and set(honcho) <= set(map(int, named[2].split()))
    assert int(named[1]) == len(named[2].split()) > 1 and (data / "postgres" / "PG_VERSION").exists()

    stranger = subprocess.Popen(["sleep", "600"], start_new_session=True)
    try:
        plant_a_power_loss(data, run, stranger)

        again = started("run", environment)
        again.said(READY)  # its database migrated and its demo accounts made: PostgreSQL answered
        said = again.output()
        assert (f"removed the stale postmaster.pid of {data / 'postgres'}: no PostgreSQL runs on it "
                f"(pid {stranger.pid} is now `sleep 600`)") in said
        assert "PostgreSQL started" in said
        again.ctrl_c()
        assert again.exit_code() == 0
        assert postgres_left_on(data) == []
        assert stranger.poll() is None  # the other program is left alone
    finally:
        stranger.kill()
        stranger.wait()


@pytest.mark.parametrize("taken", PORTS)
def test_a_port_another_program_holds_is_refused_at_start_with_its_number(data, started, taken):
    environment = operator_environment(data)
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        environment[taken] = str(port)
        run = started("run", environment)
        assert run.exit_code(REFUSED_WITHIN) == 2
    said = run.output()
    assert f"port {port} ({taken}: " in said and f"is taken by pid {os.getpid()} " in said, said
    assert "PostgreSQL started" not in said and "Redis started" not in said  # refused before anything started
    assert postgres_left_on(data) == []


# make serve's own start (its settings, its backup) is make test's in tests/serving/test_make_serve.py; that
# make run refuses its folder is one more start of it, for make test-long.
@pytest.mark.long
def test_make_run_refuses_the_folder_make_serve_hosts(data, started):
    data.mkdir(parents=True)
    (data / "serve.env").write_text(test_make_serve.operator_settings(sink_port=free_port(),
                                                                       inbound_port=free_port()))
    serve = started("serve", test_make_serve.operator_environment(data))
    serve.said("press Ctrl-C (or send SIGTERM) to stop everything")

    # While make serve runs: refused, naming it.
    run = started("run")
    assert run.exit_code(REFUSED_WITHIN) == 2
    assert f"not starting: make serve (pid {serve.process.pid}, since " in run.output()

    serve.ctrl_c()
    assert serve.exit_code() == 0
    assert postgres_left_on(data) == []

    # Stopped, the folder is still the players': make run adds no demo accounts to it.
    run = started("run")
    assert run.exit_code(REFUSED_WITHIN) == 2
    said = run.output()
    assert f"not starting: {data} is the data folder `make serve` hosts (https://games.example.test" in said
    assert "PostgreSQL started" not in said and not (data / "demo-accounts.json").exists()


def test_ctrl_c_while_postgresql_is_still_starting_stops_it(data, started):
    run = started("run")
    pgdata = data / "postgres"

    def coming_up() -> list:
        # The server pg_ctl starts (pgserver gives it its socket folder with -k), not initdb's passes before it.
        return [process for process in servers_on(pgdata) if is_postmaster(process) and "-k" in process.info["cmdline"]]

    postmaster = wait_for(coming_up, "the postmaster to be started", timeout=START_TIMEOUT, every=0.005)[0]
    postmaster.suspend()  # held before it is ready: make run is still waiting for it to answer
    try:
        assert "PostgreSQL started" not in run.output()
        run.ctrl_c()
        # The interrupt reached make run's group once the pg_ctl waiting for the server has ended.
        wait_for(lambda: not [process for process in servers_on(pgdata) if process.info["name"] == "pg_ctl"],
                 "the interrupt to reach make run", timeout=30)
    finally:
        postmaster.resume()
    assert run.exit_code() == 130  # interrupted before it was ready
    assert postgres_left_on(data) == []
    assert "PostgreSQL stopped" in run.output()


def test_clean_data_stops_the_postgresql_a_killed_command_left_running_then_deletes(data):
    data.mkdir(parents=True)
    PrivatePostgres(data / "postgres")  # started on the folder and left running, as by a command killed outright
    left = [process.pid for process in servers_on(data / "postgres") if is_postmaster(process)]
    assert len(left) == 1
    cleaned = make_clean_data(data)
    assert cleaned.returncode == 0, cleaned.stdout + cleaned.stderr
    assert f"stopped the embedded PostgreSQL left running on it (pid {left[0]})" in cleaned.stdout
    assert postgres_left_on(data) == [] and not data.exists()
