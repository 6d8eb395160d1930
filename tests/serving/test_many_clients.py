"""64 (and 16) API clients at once against the web process served as in production: no 5xx, bounded connections.

gunicorn with deploy/gunicorn.conf.py (sized from this machine's cores) in front of the test
database. Every client plays its seat of a Love Letter game with one other client, on one
keep-alive connection: GET legal-moves, POST a move on its turn, and now and then GET the game
page. Meanwhile another connection watches pg_stat_activity: the web process never holds more
connections than its bound, workers x threads (deploy/README.md).

The rate limits stay on with the per-address rates raised: the 64 clients share one loopback
address, where in production they would have 64.
"""

from __future__ import annotations

import pytest
from django.db import connection

from tests.serving.clients import drive, seats_in_games
from tests.serving.served import database_url_for, served_web

pytestmark = [pytest.mark.serving, pytest.mark.django_db(transaction=True)]

RAISED_RATES = {"RATE_LIMIT_API": "100000/min", "RATE_LIMIT_MOVES": "100000/min"}


# More clients than the web process has threads (the connections queue in gunicorn, not in PostgreSQL: two
# cores serve 5 x 2 threads), and as many as the benchmark's busiest run (make test-long's); long enough for
# every client to move a few times.
@pytest.mark.parametrize(("clients", "seconds"), [pytest.param(64, 12.0, marks=pytest.mark.long), (16, 5.0)])
def test_api_clients_at_once_get_no_server_error_and_the_database_connections_stay_bounded(tmp_path, clients, seconds):
    seats = seats_in_games(clients)
    database_url = database_url_for(connection.settings_dict["NAME"])
    with served_web(tmp_path, database_url, **RAISED_RATES) as web:
        outcome = drive(web.port, seats, seconds)
        log = web.process.tail()

    statuses = dict(outcome.statuses)
    assert not outcome.failures, f"{len(outcome.failures)} failures, e.g. {outcome.failures[:5]}; {statuses}\n{log}"
    assert not outcome.server_errors(), statuses
    assert outcome.clients_served == clients
    assert outcome.moves >= clients, f"the games moved on: {statuses}"
    assert 0 < outcome.most_connections <= web.connection_bound, (
        f"{outcome.most_connections} connections; the web process's bound is {web.workers} x {web.threads} "
        f"({outcome.other_connections} from elsewhere)"
    )
