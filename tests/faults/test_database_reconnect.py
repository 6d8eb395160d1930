"""After a database restart, the web process answers every request at once: no 503, no 5xx, with no SELECT 1 per request.

gunicorn (the production configuration) keeps a connection per thread between requests. Every thread
is given one by a burst of requests; the private PostgreSQL server is then stopped and started again,
with no traffic meanwhile, so every kept connection is dead. The web process is told not to check
connections before use (``DATABASE_CONN_HEALTH_CHECKS=false``): what makes the requests after the
restart succeed is ``turnbased/kit/db/reconnect.py`` alone, which runs a request whose first statement
met a dead connection again on a new one. Then reads and moves are sent from as many clients as there are
threads, and every answer must be a success the first time (the clients would retry a 503 and count it).
"""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from tests.faults.stack import PatientClient, private_postgres, seed
from tests.serving.served import database_url_for, served_web

pytestmark = [pytest.mark.faults, pytest.mark.django_db(transaction=True)]

RAISED_RATES = {"RATE_LIMIT_API": "100000/min", "RATE_LIMIT_MOVES": "100000/min"}


def burst(clients: list[tuple[PatientClient, str]], action) -> list[str]:
    """Run ``action(client, path)`` for every client at once, each in a thread; return the errors."""
    errors: list[str] = []

    def run(client, path):
        try:
            action(client, path)
        except Exception as error:  # a thread's error must fail the test, not vanish
            errors.append(repr(error))

    threads = [threading.Thread(target=run, args=pair) for pair in clients]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not any(thread.is_alive() for thread in threads), "a request never came back"
    return errors


def read(client: PatientClient, path: str) -> None:
    for _ in range(3):
        client.request("GET", f"{path}/")


def move(client: PatientClient, path: str) -> None:
    status, game = client.request("GET", f"{path}/")
    assert status == 200, game
    status, listed = client.request("GET", f"{path}/legal-moves/")
    if status == 200 and listed["moves"]:
        status, answer = client.request("POST", f"{path}/moves/", {"move": listed["moves"][0]["move"],
                                                                    "expected_seq": listed["seq"]})
        assert status == 201, answer


def test_after_a_database_restart_no_request_meets_a_dead_connection(tmp_path):
    test_database = database_url_for(connection.settings_dict["NAME"])
    with private_postgres(test_database, tmp_path) as database:
        with served_web(tmp_path / "web", database.url, DATABASE_CONN_HEALTH_CHECKS="false", **RAISED_RATES) as web:
            tables = seed(database.url, "love_letter_tables", max(2, web.connection_bound))
            clients = [(PatientClient(web.port, token), f"/api/games/{table['game']}")
                       for table in tables for token in table["tokens"]]
            # Every thread gets a connection, and keeps it (CONN_MAX_AGE).
            assert burst(clients, read) == []
            warmed = sorted({status for client, _ in clients for status in client.statuses})
            database.stop()
            database.start()
            for client, _ in clients:
                client.statuses.clear()
            errors = burst(clients, read) + burst(clients, move)
            log = web.process.output()
            for client, _ in clients:
                client.close()
    statuses = sorted({status for client, _ in clients for status in client.statuses})
    assert warmed == [200]
    tail = "\n".join(log.splitlines()[-60:])
    assert errors == [], f"{errors[:5]}\n{tail}"
    assert statuses == [200, 201], f"{statuses}\n{tail}"
    # Each thread's first request after the restart met its dead connection and ran again.
    assert log.count("runs again on a new one") >= 2, "no request met a dead connection: the test proved nothing"
