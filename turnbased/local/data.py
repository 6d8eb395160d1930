"""The data folder (``.data``, or ``TURNBASED_DATA_DIR``): who holds it, whether ``make serve`` hosts it, and what
``make clean-data`` deletes.

One service at a time runs on a data folder: ``make run``, ``make serve``, a restore and ``make clean-data`` each
hold ``service.lock`` in it for as long as they run, and the lock file names the holder, so a second one is
refused at once with the first one's name and pid. The lock is the kernel's: it goes with the process that held
it, however that process ended.

A folder ``make serve`` has hosted is marked (``serve.hosted``): ``make run`` refuses it, since it would add its
demo accounts, whose passwords it prints, to the players' database. ``make serve`` refuses a folder ``make run``
has used, for the same accounts (``turnbased/local/serve.py``).
"""

from __future__ import annotations

import fcntl
import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

import psutil

LOCK = "service.lock"
HOSTED = "serve.hosted"
# What make serve wrote into the folders it hosted before they were marked: its Procfile, written once it started.
HOSTED_BEFORE_THE_MARK = "Procfile.serve"
# What the service writes into a data folder, each said as what it is when make clean-data deletes it.
CONTENTS = {
    "postgres": "the embedded PostgreSQL: accounts, games, mail",
    "redis": "the embedded Redis: queued tasks",
    "backups": "make serve's backups",
    "staticfiles": "static files (collected by make serve)",
    "secret_key": "the key that signs sessions and reply addresses",
    "vapid_private_key": "the key that signs pushes",
    "demo-accounts.json": "the demo accounts' passwords",
    "serve.env": "make serve's settings",
    HOSTED: "the mark of a folder make serve hosts",
    "Procfile.supervised": "make run's processes",
    "Procfile.serve": "make serve's processes",
    "celerybeat-schedule": "when beat last ran each scheduled task",
    LOCK: "who holds the folder",
    "postgres.users": "who uses the embedded PostgreSQL",
}


class DataFolderInUse(Exception):
    """Another command holds the data folder; the message names it."""


@contextmanager
def holding(data_dir: Path, what: str) -> Iterator[None]:
    """Hold the data folder for the block, naming ``what`` holds it; raise DataFolderInUse if another one does."""
    data_dir.mkdir(parents=True, exist_ok=True)
    descriptor = os.open(data_dir / LOCK, os.O_RDWR | os.O_CREAT, 0o600)
    with os.fdopen(descriptor, "r+") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = lock.read().strip() or "another command"
            raise DataFolderInUse(holder) from None
        # Written only once held (opening it truncated nothing): the holder's own words, for whoever is refused.
        lock.truncate(0)
        lock.write(f"{what} (pid {os.getpid()}, since {datetime.now(UTC):%Y-%m-%d %H:%M} UTC)\n")
        lock.flush()
        yield


def mark_hosted(data_dir: Path, site_url: str) -> None:
    """Mark the folder as one ``make serve`` hosts (for ``site_url``), once and for good."""
    marker = data_dir / HOSTED
    if not marker.exists():
        marker.write_text(f"{site_url}, hosted by make serve since {datetime.now(UTC):%Y-%m-%d} (UTC)\n")


def hosted_by_serve(data_dir: Path) -> str | None:
    """Return what the folder's mark says if ``make serve`` has hosted it, else None."""
    if (data_dir / HOSTED).exists():
        return (data_dir / HOSTED).read_text(errors="replace").strip() or "hosted by make serve"
    if (data_dir / HOSTED_BEFORE_THE_MARK).exists():
        return "hosted by make serve"
    return None


def refusal_to_delete(data_dir: Path, repository: Path) -> str | None:
    """Return why ``make clean-data`` must not delete ``data_dir`` at all (a folder that is not a data folder: a
    typo in TURNBASED_DATA_DIR must never delete a home or a checkout), else None."""
    home = Path.home().resolve()
    if data_dir in (Path(data_dir.anchor), home) or data_dir in repository.parents or data_dir == repository:
        return f"{data_dir} is not a data folder of the service"
    if not data_dir.is_dir():
        return f"{data_dir} is not a folder"
    if not any((data_dir / name).exists() for name in ("postgres", "secret_key", "serve.env", LOCK)):
        return (f"{data_dir} does not look like a data folder of the service (it has no postgres/, secret_key, "
                "serve.env or service.lock): delete it yourself if it is one")
    return None


# Set by make run and make serve for every process they start, beside TURNBASED_DATA_DIR (which an operator's own
# shell may hold too): what tells the service's processes on a folder.
STARTED_BY = "TURNBASED_STARTED_BY"


def processes_on(data_dir: Path) -> list[psutil.Process]:
    """Return the processes make run or make serve started for the folder, other than this one and those that
    started it (the embedded PostgreSQL and Redis have functions of their own)."""
    mine = {os.getpid(), *(parent.pid for parent in psutil.Process().parents())}
    wanted = f"TURNBASED_DATA_DIR={data_dir}".encode()
    found = []
    for process in psutil.process_iter(["name"]):
        if process.pid in mine or process.info["name"] in ("postgres", "pg_ctl", "redis-server"):
            continue
        try:
            environment = Path(f"/proc/{process.pid}/environ").read_bytes().split(b"\0")
        except OSError:  # gone, or another user's
            continue
        if wanted in environment and any(entry.startswith(f"{STARTED_BY}=".encode()) for entry in environment):
            found.append(process)
    return found


def redis_servers_on(data_dir: Path) -> list[psutil.Process]:
    """Return the Redis servers keeping their data in the folder (started with ``--dir`` there, which they run in)."""
    found = []
    for process in psutil.process_iter(["name"]):
        if process.info["name"] != "redis-server":
            continue
        try:
            if Path(process.cwd()).is_relative_to(data_dir):
                found.append(process)
        except (psutil.Error, OSError):
            continue
    return found


def entries(data_dir: Path) -> list[tuple[str, int, str]]:
    """Return each entry of the folder: its name (a folder's ending in /), its size in bytes and what it is."""
    listed = []
    for entry in sorted(data_dir.iterdir()):
        if entry.is_dir() and not entry.is_symlink():
            size = sum(path.lstat().st_size for path in entry.rglob("*"))
            listed.append((f"{entry.name}/", size, CONTENTS.get(entry.name, "")))
        else:
            what = CONTENTS.get(entry.name) or CONTENTS.get(entry.name.split(".", 1)[0], "")
            listed.append((entry.name, entry.lstat().st_size, what))
    return listed


def size_in_words(size: float) -> str:
    if size < 1000:
        return f"{size:.0f} bytes"
    for unit in ("kB", "MB", "GB"):
        size /= 1000
        if size < 1000 or unit == "GB":
            return f"{size:.1f} {unit}"
    return ""  # not reached: GB ends the loop


def clean(data_dir: Path) -> int:
    """Delete the data folder (``make clean-data``) unless a service runs on it or uses its PostgreSQL; stop the
    embedded PostgreSQL and Redis a command killed outright left running on it; say what was deleted."""
    from turnbased.local.postgres import USERS_LOCK, holders_of, in_words, stop_server, using_the_server
    from turnbased.local.services import BASE_DIR, say

    if not data_dir.exists():
        say(f"nothing to delete: {data_dir} does not exist")
        return 0
    refusal = refusal_to_delete(data_dir, BASE_DIR)
    if refusal:
        say(f"not deleting: {refusal}")
        return 2
    try:
        with holding(data_dir, "make clean-data"), using_the_server(data_dir) as users:
            if not users.last():
                holders = ", ".join(in_words(psutil.Process(pid)) for pid in holders_of(data_dir / USERS_LOCK)
                                    if psutil.pid_exists(pid))
                say(f"not deleting: the embedded PostgreSQL of {data_dir} is in use by {holders or 'another command'}"
                    " (a `make test`, or `python -m turnbased.local manage`): let it finish first")
                return 2
            others = processes_on(data_dir)
            if others:
                named = ", ".join(in_words(process) for process in others[:3])
                more = f" and {len(others) - 3} more" if len(others) > 3 else ""
                say(f"not deleting: {len(others)} processes of the service still run on {data_dir}, left by a "
                    f"`make run` or `make serve` that was killed: {named}{more}. Stop them first: kill "
                    + " ".join(str(process.pid) for process in others))
                return 2
            for pid in stop_server(data_dir / "postgres"):
                say(f"stopped the embedded PostgreSQL left running on it (pid {pid})")
            leftover = redis_servers_on(data_dir)
            for redis in leftover:
                redis.terminate()
                say(f"stopped the embedded Redis left running on it (pid {redis.pid})")
            for redis in psutil.wait_procs(leftover, timeout=10)[1]:
                redis.kill()
            listed = entries(data_dir)
            try:
                shutil.rmtree(data_dir)
            except OSError as error:
                say(f"could not delete all of {data_dir}: {error}")
                return 1
    except DataFolderInUse as holder:
        say(f"not deleting: {holder} runs on {data_dir}. Stop it first (Ctrl-C where it runs)")
        return 2
    say(f"deleted {data_dir} ({size_in_words(sum(size for _, size, _ in listed))}):")
    for name, size, what in listed:
        say(f"  {name:<24}{size_in_words(size):>10}  {what}".rstrip())
    return 0
