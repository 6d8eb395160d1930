"""The embedded PostgreSQL of a data folder: who uses it, a stale ``postmaster.pid``, and stopping it for sure.

Several commands may use one data folder's server at once (``make run`` and ``make test`` side by side). Each
holds a shared lock on ``postgres.users`` beside the server's data for as long as it uses the server, and the
last one to let go stops it, whoever started it: Ctrl-C never leaves the server running behind the command that
ended, and one command's end never stops it under another. A server left running by a command killed outright
is taken over by the next one and stopped at its end the same way. ``make clean-data`` takes the lock for itself
alone, so it never deletes the data of a server in use.

After a power loss ``postmaster.pid`` still names the pid the server had, which may now be another process's:
pgserver then takes the server for running, and PostgreSQL itself refuses to start while that pid lives. So
before a start the server is asked whether it answers on its socket; when it does not and no PostgreSQL runs on
the folder, the file is stale and is removed (with the socket's lock file, which names the same pid), or, should
it not be removable, the refusal says which file to delete.

These functions say nothing themselves: what they did or found is returned or raised, for the command to say.
"""

from __future__ import annotations

import fcntl
import os
import signal
import socket
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psutil

USERS_LOCK = "postgres.users"
# How long a server that runs on the folder without answering (starting, recovering) is given before a start
# gives up on it, and how long a server is given to stop before it is killed.
ANSWER_WITHIN = 30.0
STOP_WITHIN = 60.0


class PostgresProblem(Exception):
    """The folder's PostgreSQL cannot be started or used; the message says why and what to do."""


def read_postmaster(pgdata: Path) -> tuple[int | None, Path | None, int]:
    """Return the pid, the socket folder and the port ``postmaster.pid`` names, whatever of them it still holds
    (a power loss may have cut it short); (None, None, 5432) without the file."""
    try:
        lines = (pgdata / "postmaster.pid").read_text(errors="replace").splitlines()
    except OSError:
        return None, None, 5432
    field = [line.strip() for line in lines] + [""] * 8
    pid = int(field[0]) if field[0].isdigit() else None
    port = int(field[3]) if field[3].isdigit() else 5432
    return pid, Path(field[4]) if field[4] else None, port


def answers(pgdata: Path) -> bool:
    """Whether a server accepts connections on the socket ``postmaster.pid`` names (its pid alone proves nothing:
    after a reboot it may be another process's, and a postmaster killed outright may linger as a zombie)."""
    _, socket_dir, port = read_postmaster(pgdata)
    if socket_dir is None:
        return False
    with socket.socket(socket.AF_UNIX) as probe:
        probe.settimeout(2)
        try:
            return probe.connect_ex(str(socket_dir / f".s.PGSQL.{port}")) == 0
        except OSError:  # a socket path too long, a folder gone
            return False


def servers_on(pgdata: Path) -> list[psutil.Process]:
    """Return the processes of a server on ``pgdata``: its postmaster and every process it forked (they all run in
    the data folder, and a postmaster killed outright leaves them to end on their own), and the pg_ctl or shell
    about to start one (a start interrupted halfway leaves the server coming up on its own, in a session of its
    own)."""
    found = []
    for process in psutil.process_iter(["name", "cmdline", "status", "cwd"]):
        info = process.info
        if info["status"] == psutil.STATUS_ZOMBIE or info["name"] not in ("postgres", "pg_ctl", "sh"):
            continue
        words = info["cmdline"] or []
        if info["name"] == "sh":  # pg_ctl's `sh -c 'exec "postgres" -D "PGDATA" ...'`, a moment before the exec
            if any(f'-D "{pgdata}"' in word for word in words):
                found.append(process)
        elif info["name"] == "postgres" and info["cwd"] == str(pgdata):
            found.append(process)
        elif "-D" in words[:-1] and words[words.index("-D") + 1] == str(pgdata):
            if info["name"] == "postgres" or "start" in words:
                found.append(process)
    return found


def is_postmaster(process: psutil.Process) -> bool:
    """Whether one of ``servers_on``'s processes is a postmaster (started with -D; those it forks name their task)."""
    return process.info["name"] == "postgres" and "-D" in (process.info["cmdline"] or [])


def command_of(process: psutil.Process) -> str:
    """Return a process's command, quoted (its program without its folder, a long one cut short)."""
    try:
        words = process.cmdline()
        command = " ".join([Path(words[0]).name, *words[1:]]) if words else process.name()
    except psutil.Error:
        return "a process this user may not see"
    return f"`{command if len(command) <= 70 else command[:69] + '…'}`"


def in_words(process: psutil.Process) -> str:
    return f"pid {process.pid} ({command_of(process)})"


def _describe(pid: int) -> str:
    try:
        process = psutil.Process(pid)
        if process.status() == psutil.STATUS_ZOMBIE:
            return f"pid {pid} is a process that has ended"
        return f"pid {pid} is now {command_of(process)}"
    except psutil.NoSuchProcess:
        return f"pid {pid} is no longer running"
    except psutil.AccessDenied:
        return f"pid {pid} is now another user's process"


def clear_stale_postmaster(pgdata: Path) -> str | None:
    """Make sure nothing stale stops the server on ``pgdata`` from starting; return what was removed, to be said.

    A server that answers is left alone, and so is one that runs on the folder and answers within
    ``ANSWER_WITHIN`` seconds (it was starting). Raise PostgresProblem when one runs there and does not answer,
    or when a stale file cannot be removed, saying which process or which file.
    """
    pid_file = pgdata / "postmaster.pid"
    deadline = time.monotonic() + ANSWER_WITHIN
    while pid_file.exists() and not answers(pgdata) and servers_on(pgdata):
        if time.monotonic() > deadline:
            running = ", ".join(str(process.pid) for process in servers_on(pgdata))
            raise PostgresProblem(f"PostgreSQL runs on {pgdata} (pid {running}) but does not answer on its socket: "
                                  f"stop it (kill {running}), then start again")
        time.sleep(0.2)
    if not pid_file.exists() or answers(pgdata):
        return None
    pid, socket_dir, port = read_postmaster(pgdata)
    if pid is not None and _hidden(pid):
        raise PostgresProblem(f"{pid_file} names pid {pid}, which runs and which this user may not see: if it is no "
                              f"PostgreSQL of this folder, delete {pid_file}, then start again")
    stale = [pid_file]
    socket_lock = (socket_dir or pgdata) / f".s.PGSQL.{port}.lock"
    if socket_lock.exists() and read_postmaster_pid(socket_lock) in (pid, None):
        stale.append(socket_lock)
    for path in stale:
        try:
            path.unlink(missing_ok=True)
        except OSError as error:
            raise PostgresProblem(f"{pid_file} is stale ({_describe(pid) if pid else 'it names no pid'}, and no "
                                  f"PostgreSQL runs on the folder) but could not be removed ({error.strerror}): "
                                  f"delete {path}, then start again") from None
    why = _describe(pid) if pid else "it names no pid"
    return (f"removed the stale {pid_file.name} of {pgdata}: no PostgreSQL runs on it ({why}); the server it named "
            "did not stop, after a power loss or a crash")


def _hidden(pid: int) -> bool:
    """Whether ``pid`` runs and its command line cannot be read (another user's): it might be the server."""
    try:
        psutil.Process(pid).cmdline()
    except psutil.AccessDenied:
        return True
    except psutil.Error:
        return False
    return False


def read_postmaster_pid(lock_file: Path) -> int | None:
    try:
        first = lock_file.read_text(errors="replace").split("\n", 1)[0].strip()
    except OSError:
        return None
    return int(first) if first.isdigit() else None


def stop_server(pgdata: Path) -> list[int]:
    """Stop every server on ``pgdata`` however far its start got, as ``pg_ctl stop -m fast`` does (SIGINT to the
    postmaster), and kill what still runs after ``STOP_WITHIN`` seconds; return the postmasters' pids.

    It signals the processes itself rather than run pg_ctl: a second Ctrl-C at the terminal would end a pg_ctl in
    the command's process group halfway, and pg_ctl knows no server whose start has not yet written its pid file.
    """
    stopped: list[int] = []
    deadline = time.monotonic() + STOP_WITHIN
    while (servers := servers_on(pgdata)) and time.monotonic() < deadline + 10:
        late = time.monotonic() > deadline
        for process in servers:
            # The postmaster stops the processes it forked; pg_ctl and its shell are left to end (the postmaster
            # they start is caught at the next turn). Past the deadline, every one is killed.
            if not (late or is_postmaster(process)):
                continue
            if is_postmaster(process) and process.pid not in stopped:
                stopped.append(process.pid)
            try:
                process.send_signal(signal.SIGKILL if late else signal.SIGINT)
            except psutil.NoSuchProcess:
                pass
        psutil.wait_procs(servers, timeout=0.5)
    return stopped


class ServerUsers:
    """A shared hold on the folder's server, for as long as a command uses it (``using_the_server``)."""

    def __init__(self, lock_file):
        self._lock_file = lock_file

    def last(self) -> bool:
        """Whether no other command uses the server now: the hold becomes this command's alone if so.

        A shared lock cannot become exclusive atomically; two commands letting go at once may each lose theirs
        on the way, but the later of the two then finds no other holder, so one of them always stops it."""
        try:
            fcntl.flock(self._lock_file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True


@contextmanager
def using_the_server(data_dir: Path) -> Iterator[ServerUsers]:
    """Hold the folder's server for the block, beside any other command using it; wait while one stops it."""
    data_dir.mkdir(parents=True, exist_ok=True)
    descriptor = os.open(data_dir / USERS_LOCK, os.O_RDWR | os.O_CREAT, 0o600)
    with os.fdopen(descriptor, "r+") as lock_file:
        fcntl.flock(lock_file, fcntl.LOCK_SH)
        yield ServerUsers(lock_file)


def holders_of(lock_path: Path) -> list[int]:
    """Return the pids holding a lock on ``lock_path`` (Linux: ``/proc/locks``), this process left out."""
    try:
        inode = lock_path.stat().st_ino
        lines = Path("/proc/locks").read_text().splitlines()
    except OSError:
        return []
    pids = []
    for line in lines:
        fields = line.split()
        if "->" in fields:  # a request waiting for the lock, not a holder
            continue
        if len(fields) >= 6 and fields[5].rsplit(":", 1)[-1] == str(inode) and fields[4].isdigit():
            pid = int(fields[4])
            if pid != os.getpid() and pid not in pids:
                pids.append(pid)
    return pids
