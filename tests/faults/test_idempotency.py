"""A create sent again under its Idempotency-Key is made once, through a web process killed mid-request and an
answer the client never read (gunicorn as in production, on the test database).

1. Killed mid-request: ``play_game`` is locked from the test's own connection, so the table's INSERT waits after
   the key's row is written in the same transaction; the web process is then killed (SIGKILL, every worker).
   Nothing may be left: no table, no key. The client sends the request again to a new web process under the
   same key: one table is made, and a third sending replays it.
2. The answer lost: the client sends a create and hangs up before the answer. The table is made; sent again
   under the key, the request answers that table (``Idempotent-Replayed: true``), and no second one is made.
"""

from __future__ import annotations

import http.client
import json
import signal
import socket
import threading

import psycopg2
import pytest
from django.db import connection

from tests.faults.stack import wait_for
from tests.platform.conftest import PASSWORD, api_token
from turnbased.accounts.services.accounts import account_create
from tests.serving.served import SERVED_APPLICATION_NAME, database_url_for, served_web
from turnbased.idempotency.models import IdempotentRequest
from turnbased.play.models import Game

pytestmark = [pytest.mark.faults, pytest.mark.django_db(transaction=True)]

TABLE = {"game": "love-letter", "players": 2}


def _post(port: int, token: str, key: str) -> tuple[int, dict, dict]:
    client = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        client.request("POST", "/api/games/", body=json.dumps(TABLE), headers={
            "Authorization": f"Token {token}", "Content-Type": "application/json", "Idempotency-Key": key})
        answer = client.getresponse()
        return answer.status, json.loads(answer.read()), dict(answer.getheaders())
    finally:
        client.close()


def _post_and_hang_up(port: int, token: str, key: str) -> None:
    """Send the create whole, then close the connection without reading a byte of the answer."""
    body = json.dumps(TABLE).encode()
    head = (f"POST /api/games/ HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Token {token}\r\n"
            f"Content-Type: application/json\r\nIdempotency-Key: {key}\r\nContent-Length: {len(body)}\r\n\r\n")
    with socket.create_connection(("127.0.0.1", port), timeout=10) as raw:
        raw.sendall(head.encode() + body)


def _waiting_on_a_lock(database_url: str) -> bool:
    with psycopg2.connect(database_url) as watcher, watcher.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE application_name = %s AND wait_event_type = "
                       "'Lock'", [SERVED_APPLICATION_NAME])
        return cursor.fetchone()[0] > 0


def _served_sessions(database_url: str) -> int:
    with psycopg2.connect(database_url) as watcher, watcher.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE application_name = %s AND state <> 'idle'",
                       [SERVED_APPLICATION_NAME])
        return cursor.fetchone()[0]


def test_a_create_is_made_once_through_a_killed_web_process_and_a_lost_answer(tmp_path):
    alice = account_create(username="alice", email="alice@example.com", password=PASSWORD, email_verified=True)
    token = api_token(alice)
    database_url = database_url_for(connection.settings_dict["NAME"])
    failures: list[BaseException] = []

    def send_and_fail(port: int) -> None:
        try:
            _post(port, token, "killed-mid-request")
        except (OSError, http.client.HTTPException) as failure:  # the server died under it: what a client sees
            failures.append(failure)

    with served_web(tmp_path / "killed", database_url) as web:
        locker = psycopg2.connect(database_url)
        try:
            with locker.cursor() as cursor:
                cursor.execute("LOCK TABLE play_game IN EXCLUSIVE MODE")  # reads go on, the table's INSERT waits
            sender = threading.Thread(target=send_and_fail, args=(web.port,))
            sender.start()
            wait_for(lambda: _waiting_on_a_lock(database_url), "the create to wait on play_game's lock", timeout=30,
                     processes=[web.process])
            web.process.signal(signal.SIGKILL)
            sender.join(30)
            assert not sender.is_alive() and len(failures) == 1, failures
        finally:
            locker.rollback()
            locker.close()
        # The killed request's session finds its client gone once the lock is let go: it must commit nothing.
        wait_for(lambda: _served_sessions(database_url) == 0, "the killed request's session to end", timeout=30)
    assert Game.objects.count() == 0 and IdempotentRequest.objects.count() == 0

    with served_web(tmp_path / "again", database_url) as web:
        made = _post(web.port, token, "killed-mid-request")
        replayed = _post(web.port, token, "killed-mid-request")
        assert made[0] == 201 and "Idempotent-Replayed" not in made[2], made
        assert (replayed[0], replayed[1]["id"], replayed[2].get("Idempotent-Replayed")) == (201, made[1]["id"], "true")
        assert replayed[2]["Location"] == made[2]["Location"] == f"/api/games/{made[1]['id']}/"

        _post_and_hang_up(web.port, token, "answer-lost")
        wait_for(lambda: Game.objects.count() == 2, "the create whose answer was lost to be made", timeout=30,
                 processes=[web.process])
        lost = Game.objects.order_by("-pk").first()
        again = _post(web.port, token, "answer-lost")
        assert (again[0], again[1]["id"], again[2].get("Idempotent-Replayed")) == (201, lost.pk, "true")
        web.process.check_running()
    assert Game.objects.count() == 2 and IdempotentRequest.objects.count() == 2
