"""The backups ``make serve`` takes of the database: ``pg_dump`` into the data folder on a schedule, the oldest pruned.

    python -m turnbased.local.backup   # the `backup` process of make serve: one now if one is due, then on schedule

A backup is ``pg_dump --format=custom`` of the whole database, the format ``pg_restore`` reads (and
``python -m turnbased.local restore FILE`` restores). It runs as a process of its own under the supervisor, not
as a Celery beat task: a dump of a grown database can outlast any task's time limit, a worker has no business
writing into the data folder, and the backups must go on when the broker or the workers are the thing that broke.

When the next one is due is read from the newest backup's name, not kept in memory: a restart of the process (or
of the machine) neither skips a backup nor takes an extra one. A backup is written under a ``.partial`` name
and renamed when ``pg_dump`` succeeded, so a dump cut short never counts as a backup, and is readable by the
service's user alone (it holds every account's email address and password hash).

Settings (read from the environment; ``make serve`` checks them before anything starts):
``BACKUP_INTERVAL_HOURS`` (24), ``BACKUP_KEEP`` (14, the newest kept), ``BACKUP_DIR`` (``backups`` in the data
folder); 0 hours turns the schedule off.
"""

from __future__ import annotations

import importlib.util
import os
import signal
import subprocess
import sys
import threading
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

PREFIX, SUFFIX, PARTIAL = "turnbased-", ".dump", ".partial"
STAMP = "%Y-%m-%dT%H%M%SZ"
# After a failed dump (the database away, the disk full), the next try comes this soon, or at the schedule's own
# time if that is sooner.
RETRY_SECONDS = 300.0
# A dump that takes longer than this is stuck (a lock it waits on forever), not slow: it is stopped and retried.
DUMP_TIMEOUT_SECONDS = 6 * 3600


def say(text: str) -> None:
    print(f"[turnbased] backup: {text}", file=sys.stderr, flush=True)


def postgres_tool(name: str) -> str:
    """Return the path of a PostgreSQL client program of the embedded server's own version (pg_dump, pg_restore)."""
    # Found without importing pgserver, which starts servers; the embedded server and its tools are one release.
    return str(Path(importlib.util.find_spec("pgserver").origin).parent / "pginstall" / "bin" / name)


@dataclass(frozen=True)
class Schedule:
    folder: Path
    interval: timedelta | None  # None: no scheduled backups
    keep: int


def schedule_from(environment: dict[str, str], data_dir: Path) -> Schedule:
    """Read the backup settings; raise ValueError, saying which and why, for one that cannot be used."""
    given_hours, given_keep = environment.get("BACKUP_INTERVAL_HOURS") or "24", environment.get("BACKUP_KEEP") or "14"
    try:
        hours = float(given_hours)
    except ValueError:
        hours = -1.0
    if not 0 <= hours < float("inf"):  # a negative number, or no number (nan, inf)
        raise ValueError(f"BACKUP_INTERVAL_HOURS={given_hours} must be a number of hours (24: daily; 0: no "
                         "scheduled backups)")
    if not given_keep.strip().isdigit() or int(given_keep) < 1:
        raise ValueError(f"BACKUP_KEEP={given_keep} must be a whole number of backups, at least 1")
    keep = int(given_keep)
    folder = Path(environment.get("BACKUP_DIR") or data_dir / "backups")
    return Schedule(folder=folder.resolve(), interval=timedelta(hours=hours) if hours else None, keep=keep)


def backups(folder: Path) -> list[Path]:
    """Return the finished backups in ``folder``, oldest first (their names sort by time)."""
    if not folder.is_dir():
        return []
    return sorted(path for path in folder.glob(f"{PREFIX}*{SUFFIX}") if taken_at(path) is not None)


def taken_at(path: Path) -> datetime | None:
    """Return when a backup was taken, read from its name (None for a file that is no backup)."""
    try:
        return datetime.strptime(path.name[len(PREFIX):-len(SUFFIX)], STAMP).replace(tzinfo=UTC)
    except ValueError:
        return None


def prune(folder: Path, keep: int) -> list[Path]:
    """Delete all but the newest ``keep`` backups, and any dump left cut short; return what went."""
    finished = backups(folder)
    gone = finished[:-keep] + sorted(folder.glob(f"{PREFIX}*{SUFFIX}{PARTIAL}"))
    for path in gone:
        path.unlink(missing_ok=True)
    return gone


def take_backup(database_url: str, schedule: Schedule, now: datetime | None = None) -> Path:
    """Dump the database into the schedule's folder, prune the oldest, and return the new backup's path.

    Raises ``subprocess.CalledProcessError`` (with pg_dump's message) or ``TimeoutExpired`` when the dump failed;
    nothing is pruned then.
    """
    schedule.folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    now = now or datetime.now(UTC)
    path = schedule.folder / f"{PREFIX}{now.strftime(STAMP)}{SUFFIX}"
    partial = path.with_name(path.name + PARTIAL)
    partial.touch(mode=0o600)  # readable by this user alone before pg_dump writes a byte into it
    try:
        subprocess.run([postgres_tool("pg_dump"), "--format=custom", f"--file={partial}", f"--dbname={database_url}"],
                       check=True, capture_output=True, text=True, timeout=DUMP_TIMEOUT_SECONDS)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    partial.rename(path)
    prune(schedule.folder, schedule.keep)
    return path


def seconds_until_due(schedule: Schedule, now: datetime) -> float:
    """Return how long until the next backup is due: now (0) when none was ever taken or the newest is old."""
    taken = backups(schedule.folder)
    if not taken:
        return 0.0
    return max(0.0, (taken_at(taken[-1]) + schedule.interval - now).total_seconds())


def restore_into(dump: Path, database_url: str) -> None:
    """Load a backup into the empty database ``database_url``; raise CalledProcessError with pg_restore's words."""
    subprocess.run([postgres_tool("pg_restore"), "--no-owner", "--exit-on-error", f"--dbname={database_url}",
                    str(dump)], check=True, capture_output=True, text=True)


def keep_taking(database_url: str, schedule: Schedule, stop: threading.Event) -> None:
    """Take a backup whenever one is due until ``stop`` is set."""
    while not stop.is_set():
        wait = seconds_until_due(schedule, datetime.now(UTC))
        if wait > 0:
            stop.wait(wait)
            continue
        try:
            path = take_backup(database_url, schedule)
        except (subprocess.CalledProcessError, subprocess.TimeoutExpired, OSError) as error:
            if stop.is_set():  # cut short by the stop itself
                return
            detail = getattr(error, "stderr", None) or error
            retry = min(RETRY_SECONDS, schedule.interval.total_seconds())
            say(f"the backup failed ({str(detail).strip()}); trying again in {retry:g} s")
            stop.wait(retry)
            continue
        say(f"wrote {path} ({path.stat().st_size} bytes); keeping the newest {schedule.keep} in {schedule.folder}")


def main() -> int:
    data_dir = Path(os.environ.get("TURNBASED_DATA_DIR") or Path(__file__).resolve().parents[2] / ".data")
    schedule = schedule_from(dict(os.environ), data_dir)
    stop = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())
    if schedule.interval is None:
        say("no scheduled backups (BACKUP_INTERVAL_HOURS=0)")
        stop.wait()
        return 0
    say(f"one every {schedule.interval.total_seconds() / 3600:g} h into {schedule.folder}, the newest "
        f"{schedule.keep} kept")
    keep_taking(os.environ["DATABASE_URL"], schedule, stop)
    return 0


if __name__ == "__main__":
    sys.exit(main())
