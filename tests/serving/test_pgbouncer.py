"""The service works behind PgBouncer in transaction pooling, as deploy/compose.pgbouncer.yaml runs it.

Debian's pgbouncer with deploy/pgbouncer/pgbouncer.ini (its addresses and authentication made
local, its pool made small) in front of the test database, and gunicorn with the deploy config
behind it: API clients playing at once get no 5xx, and PostgreSQL sees no more connections than
the pool, however many gunicorn threads hold a client connection.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
import yaml
from django.db import connection

from tests.serving.clients import drive, seats_in_games
from tests.serving.pgbouncer import INI, read_ini, running_pgbouncer
from tests.serving.served import served_web
from tests.topology.compose import COMPOSE_FILE, django_services, load_compose
from turnbased.local.services import BASE_DIR

pytestmark = [pytest.mark.serving]

OVERRIDE = BASE_DIR / "deploy" / "compose.pgbouncer.yaml"
POOL = 3
CLIENTS = 16


def test_pgbouncer_pools_by_transaction_and_every_long_running_process_goes_through_it():
    ini = read_ini(INI)
    assert ini["pgbouncer"]["pool_mode"] == "transaction"
    services = yaml.safe_load(OVERRIDE.read_text())["services"]
    long_running = [name for name in django_services(load_compose()) if name != "migrate"]
    for name in long_running:
        environment = services[name]["environment"]
        # The password is compose's ${POSTGRES_PASSWORD...}: read the URL with a stand-in.
        assert urlsplit(re.sub(r"\$\{[^}]*\}", "secret", environment["DATABASE_URL"])).port == 6432, name
        assert environment["DATABASE_DISABLE_SERVER_SIDE_CURSORS"] == "on", name
        assert environment["DATABASE_PREPARED_STATEMENTS"] == "off", name
    assert "migrate" not in services  # migrations keep their direct session
    # The stream's LISTEN needs a session of its own, which transaction pooling does not keep: it goes direct.
    listen = re.sub(r"\$\{[^}]*\}", "secret", services["stream"]["environment"]["STREAM_LISTEN_DATABASE_URL"])
    assert urlsplit(listen).hostname == "postgres" and urlsplit(listen).port == 5432
    assert OVERRIDE.parent == COMPOSE_FILE.parent


@pytest.fixture
def pgbouncer(transactional_db):
    """Run pgbouncer in front of the test database; yield its port."""
    parts = urlsplit(os.environ["DATABASE_URL"])
    host = parse_qs(parts.query).get("host", [parts.hostname or "127.0.0.1"])[0]
    name = connection.settings_dict["NAME"]
    with running_pgbouncer({name: f"host={host} port={parts.port or 5432} dbname={name}"}, pool=POOL,
                           socket_folder=Path(host)) as port:
        yield port


def test_the_web_process_behind_pgbouncer_serves_many_clients_on_a_few_server_connections(pgbouncer, tmp_path):
    seats = seats_in_games(CLIENTS, prefix="pooled")
    name = connection.settings_dict["NAME"]
    through_pgbouncer = f"postgres://postgres@127.0.0.1:{pgbouncer}/{name}"
    override = yaml.safe_load(OVERRIDE.read_text())["services"]["web"]["environment"]
    with served_web(tmp_path, through_pgbouncer, DATABASE_DISABLE_SERVER_SIDE_CURSORS="on",
                    DATABASE_PREPARED_STATEMENTS=override["DATABASE_PREPARED_STATEMENTS"],
                    RATE_LIMIT_API="100000/min", RATE_LIMIT_MOVES="100000/min") as web:
        outcome = drive(web.port, seats, 6.0)
        log = web.process.tail()
    assert web.connection_bound > POOL  # more threads than server connections: the pool is what bounds them
    statuses = dict(outcome.statuses)
    assert not outcome.failures, f"{outcome.failures[:5]}; {statuses}\n{log}"
    assert not outcome.server_errors(), statuses
    assert outcome.moves >= CLIENTS, statuses
    assert 0 < outcome.most_connections <= POOL, (
        f"{outcome.most_connections} server connections for a pool of {POOL} ({outcome.other_connections} from elsewhere)"
    )
