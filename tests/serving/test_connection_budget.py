"""Every process of `make run` and of compose.yaml holds a bounded number of database connections.

deploy/README.md adds them up: web workers x threads, the Celery worker's concurrency, beat, the
mail server's database threads. Under `make run` the sum must stay well below the embedded
PostgreSQL's max_connections, leaving room for a test run on the same server.
"""

from __future__ import annotations

import re
import shlex

import pytest
from django.conf import settings
from django.db import connection

from tests.serving.served import gunicorn_sizing
from tests.topology.compose import compose_command, load_compose
from turnbased.local.services import BASE_DIR
from turnbased.mail import smtp

pytestmark = pytest.mark.serving

PROCFILE = BASE_DIR / "Procfile"
# What `make test` itself may hold on the same server meanwhile: the test process, live servers and the
# production topology's processes (tests/topology), which start one at a time.
ROOM_FOR_A_TEST_RUN = 40


def procfile() -> dict[str, list[str]]:
    commands = {}
    for line in PROCFILE.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, command = line.split(":", 1)
            commands[name.strip()] = shlex.split(command)
    return commands


def celery_concurrency(argv: list[str]) -> int:
    """Return a Celery worker command's --concurrency; fail if it has none (the default is the core count)."""
    for number, argument in enumerate(argv):
        if match := re.fullmatch(r"(?:--concurrency|-c)(?:=(\d+))?", argument):
            return int(match[1] or argv[number + 1])
    raise AssertionError(f"no --concurrency in {' '.join(argv)}: the pool would be as big as the machine")


def make_run_connections() -> dict[str, int]:
    commands = procfile()
    assert set(commands) == {"web", "stream", "worker", "mailer", "hooks", "bots", "dispatch", "beat", "mail"}
    workers, threads = gunicorn_sizing({"DJANGO_DEBUG": "1"})
    return {
        "web": workers * threads,
        "worker": celery_concurrency(commands["worker"]),  # one per pool process
        "mailer": celery_concurrency(commands["mailer"]),
        "hooks": celery_concurrency(commands["hooks"]),
        "bots": celery_concurrency(commands["bots"]),
        "beat": 1,  # it sends tasks and reads no table; counted anyway
        "dispatch": 1,  # its one LISTEN connection (turnbased/kit/db/dispatch.py)
        "mail": smtp.DATABASE_THREADS,
        # Its database threads, and the one connection that LISTENs for new events (turnbased/events/asgi.py).
        "stream": settings.STREAM_DATABASE_THREADS + 1,
    }


def test_make_run_serves_the_web_with_gunicorn_and_the_deploy_config():
    web = procfile()["web"]
    assert web[:3] == ["gunicorn", "--config", "deploy/gunicorn.conf.py"]
    assert "runserver" not in PROCFILE.read_text()


@pytest.mark.django_db
def test_make_run_fits_under_the_embedded_postgresqls_connection_limit():
    with connection.cursor() as cursor:
        cursor.execute("SHOW max_connections")
        max_connections = int(cursor.fetchone()[0])
    needed = sum(make_run_connections().values())
    assert needed + ROOM_FOR_A_TEST_RUN < max_connections, (make_run_connections(), max_connections)


def test_every_celery_worker_in_compose_has_a_bounded_pool():
    compose = load_compose()
    workers = [name for name, service in compose["services"].items()
               if "celery" in str(service.get("command")) and " worker" in str(service.get("command"))]
    assert workers
    for name in workers:
        assert celery_concurrency(compose_command(compose["services"][name])) >= 1
