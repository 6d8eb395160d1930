"""A primary and its streaming replica on this machine, for the failover drill and the replication benchmark.

Both are PostgreSQL servers of their own, made from the ``pgserver`` wheel's binaries (``initdb``,
``postgres``, ``pg_basebackup``, ``pg_ctl``: PostgreSQL 16.2, the embedded server's own). A replica must
run the primary's major version, and Debian's packaged server is 15 here: the wheel, always installed
by ``make venv``, brings the right one, so nothing is installed from Debian (``.ci/run`` adds nothing).

The primary is a fresh ``initdb`` (``wal_level=replica``, WAL senders, trust for local connections and
local replication), the replica its ``pg_basebackup -R`` streaming from it as ``replica1``; with
``synchronous=True`` the primary then names it in ``synchronous_standby_names``, so a commit returns only once
the replica has the commit on disk. Each listens on a Unix socket in its own folder. Run as root (a
container), the servers run as the ``pgserver`` user the wheel uses, since PostgreSQL refuses root.
"""

from __future__ import annotations

import importlib.util
import os
import pwd
import shutil
import signal
import subprocess
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

POSTGRES_BIN = Path(importlib.util.find_spec("pgserver").origin).parent / "pginstall" / "bin"
DATABASE = "turnbased"
STANDBY_NAME = "replica1"
START_TIMEOUT = 60.0
LOG_TAIL_LINES = 30


def _server_user() -> str | None:
    """Return the user the servers run as: ours, or the wheel's ``pgserver`` user when we are root."""
    if os.geteuid() != 0:
        return None
    from pgserver.utils import ensure_user_exists

    ensure_user_exists("pgserver")
    return "pgserver"


def _folder(path: Path, mode: int, user: str | None) -> Path:
    path.mkdir(mode=mode)
    path.chmod(mode)
    if user is not None:
        record = pwd.getpwnam(user)
        os.chown(path, record.pw_uid, record.pw_gid)
    return path


@dataclass
class Server:
    """One PostgreSQL server: its data folder, its socket folder and its log; started as a child of ours."""

    name: str
    data: Path
    sockets: Path
    log: Path
    user: str | None
    popen: subprocess.Popen | None = None
    port: int = 5432  # its socket's name; alone in its folder, so no clash with another server's
    listen: str = ""  # TCP addresses to listen on too (none: the socket alone)

    def url(self, database: str = DATABASE, **query: str) -> str:
        extra = "".join(f"&{key}={quote(value)}" for key, value in query.items())
        return f"postgres://postgres@/{database}?host={quote(str(self.sockets))}&port={self.port}{extra}"

    def arguments(self) -> list[str]:
        """Return how to reach it, as ``postgres`` takes them."""
        return ["-k", str(self.sockets), "-p", str(self.port), "-c", f"listen_addresses={self.listen}"]

    def run(self, program: str, *arguments: str, timeout: float = 120) -> str:
        """Run one of the server's programs as the server's user; return its output, failing with it."""
        done = subprocess.run([str(POSTGRES_BIN / program), *arguments], user=self.user, capture_output=True,
                              text=True, timeout=timeout)
        if done.returncode != 0:
            raise RuntimeError(f"{program} {' '.join(arguments)} failed:\n{done.stdout}{done.stderr}")
        return done.stdout

    def start(self) -> Server:
        # A session of its own: the postmaster and every backend it forks share its process group (``kill``).
        with self.log.open("ab") as output:
            self.popen = subprocess.Popen(
                [str(POSTGRES_BIN / "postgres"), "-D", str(self.data), *self.arguments()],
                user=self.user, stdin=subprocess.DEVNULL, stdout=output, stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self.wait_ready()
        return self

    def wait_ready(self) -> None:
        """Wait until it accepts connections; fail, with its log, if it exits or is not ready in time."""
        deadline = time.monotonic() + START_TIMEOUT
        while subprocess.run([str(POSTGRES_BIN / "pg_isready"), "-q", "-h", str(self.sockets), "-p", str(self.port),
                              "-U", "postgres"], timeout=30).returncode != 0:
            self.check_running()
            if time.monotonic() > deadline:
                raise AssertionError(f"{self.name} did not accept connections in {START_TIMEOUT:.0f} s:\n{self.tail()}")
            time.sleep(0.05)

    def running(self) -> bool:
        return self.popen is not None and self.popen.poll() is None

    def check_running(self) -> None:
        """Fail, with the end of its log, if the server exited when nothing stopped it."""
        if self.popen is not None and self.popen.poll() is not None:
            raise AssertionError(f"{self.name} exited with {self.popen.returncode}:\n{self.tail()}")

    def tail(self) -> str:
        lines = self.log.read_text(errors="replace").splitlines() if self.log.exists() else []
        return "\n".join(lines[-LOG_TAIL_LINES:])

    def stop(self) -> None:
        """Stop it as an operator does (a fast shutdown: sessions are cut, what committed is kept)."""
        if not self.running():
            return
        self.popen.send_signal(signal.SIGINT)
        try:
            self.popen.wait(30)
        except subprocess.TimeoutExpired:
            self.kill()
        self.popen = None

    def kill(self) -> None:
        """SIGKILL the postmaster and every backend at once, as a crash of its machine would end them."""
        if self.popen is None:
            return
        try:
            os.killpg(self.popen.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.popen.wait(30)
        self.popen = None

    def sql(self, statement: str, database: str = "postgres"):
        """Run one statement on its own (autocommit); return the first column of the first row, or None if none."""
        import psycopg2

        connection = psycopg2.connect(self.url(database), connect_timeout=10)
        connection.autocommit = True
        try:
            with connection.cursor() as cursor:
                cursor.execute(statement)
                row = cursor.fetchone() if cursor.description else None
                return row[0] if row else None
        finally:
            connection.close()

    def promote(self) -> None:
        """Make the replica a primary: it stops following, replays what it received, and takes writes."""
        self.run("pg_ctl", "promote", "-D", str(self.data), "-w", "-t", str(int(START_TIMEOUT)))


@dataclass
class Pair:
    primary: Server
    replica: Server
    synchronous: bool

    def wait_streaming(self, timeout: float = START_TIMEOUT) -> None:
        """Wait until the primary sees the replica streaming (and, if synchronous, as its synchronous standby)."""
        wanted = "sync" if self.synchronous else "async"
        deadline = time.monotonic() + timeout
        while self.primary.sql("SELECT sync_state FROM pg_stat_replication WHERE application_name = "
                               f"'{STANDBY_NAME}' AND state = 'streaming'") != wanted:
            self.primary.check_running()
            self.replica.check_running()
            if time.monotonic() > deadline:
                raise AssertionError(f"the replica was not streaming ({wanted}) after {timeout:.0f} s:\n"
                                     f"{self.replica.tail()}")
            time.sleep(0.05)

    def wait_replayed(self, timeout: float = START_TIMEOUT) -> None:
        """Wait until the replica has replayed everything the primary has written so far."""
        position = self.primary.sql("SELECT pg_current_wal_insert_lsn()")
        deadline = time.monotonic() + timeout
        while not self.replica.sql(f"SELECT pg_last_wal_replay_lsn() >= '{position}'::pg_lsn"):
            self.replica.check_running()
            if time.monotonic() > deadline:
                raise AssertionError(f"the replica had not replayed {position} after {timeout:.0f} s")
            time.sleep(0.02)

    def cut_the_link(self) -> None:
        """Stop the replica following the primary (as a lost network would), without stopping either server."""
        self.replica.sql("ALTER SYSTEM SET primary_conninfo = ''")
        self.replica.sql("SELECT pg_reload_conf()")


@contextmanager
def primary_and_replica(*, synchronous: bool, load=None):
    """Yield a ``Pair``: a new primary (with an empty database ``turnbased``) and its streaming replica.

    ``load(primary)`` runs once the primary is up, before the base backup (a schema, rows). Both servers are
    killed and their folders removed on the way out, whatever happened.
    """
    user = _server_user()
    folder = Path(tempfile.mkdtemp(prefix="turnbased-replication-"))
    folder.chmod(0o755)  # the server's user must reach its folders inside
    servers: list[Server] = []
    try:
        primary = Server("primary", _folder(folder / "primary", 0o700, user),
                         _folder(folder / "primary-socket", 0o755, user), folder / "primary.log", user)
        servers.append(primary)
        primary.run("initdb", "-D", str(primary.data), "-U", "postgres", "--auth=trust", "--encoding=utf8", "--no-sync")
        with (primary.data / "postgresql.conf").open("a") as conf:
            conf.write("wal_level = replica\nmax_wal_senders = 4\nmax_connections = 60\n")
        primary.start()
        primary.sql(f"CREATE DATABASE {DATABASE}")
        if load is not None:
            load(primary)
        replica = Server("replica", _folder(folder / "replica", 0o700, user),
                         _folder(folder / "replica-socket", 0o755, user), folder / "replica.log", user)
        servers.append(replica)
        replica.run("pg_basebackup", "-D", str(replica.data), "-h", str(primary.sockets), "-U", "postgres", "-R",
                    "-X", "stream", "-c", "fast", "--no-sync")
        with (replica.data / "postgresql.auto.conf").open("a") as conf:
            # -R wrote how to reach the primary; named here, the primary knows it as its standby. Promoted, the
            # replica must not wait for a standby of its own (it has none): no synchronous_standby_names there.
            conf.write(f"primary_conninfo = 'host={primary.sockets} user=postgres application_name={STANDBY_NAME}'\n"
                       "synchronous_standby_names = ''\n")
        replica.start()
        pair = Pair(primary, replica, synchronous)
        if synchronous:
            # Named only once the standby streams: a commit waits for its synchronous standby, even one that does
            # not exist yet (the load above would have waited for ever).
            primary.sql(f"ALTER SYSTEM SET synchronous_standby_names = '{STANDBY_NAME}'")
            primary.sql("SELECT pg_reload_conf()")
        pair.wait_streaming()
        yield pair
    finally:
        for server in reversed(servers):
            server.kill()  # their data goes with the folder: nothing to shut down cleanly for
        shutil.rmtree(folder, ignore_errors=True)
