"""The database stops in the middle of traffic and comes back: every client sees its move or a JSON 503.

A private PostgreSQL server (the test's own, see ``stack``) serves gunicorn with the production
configuration. Six games are played by clients that retry a 503 with the same idempotency key, as
the API asks. The server is stopped with connections open, left down for a few seconds, and
started again. Then:

- no answer was a 500 or anything but JSON, and every 503 said when to retry;
- every game's log holds exactly the moves its clients were told were played, each once (a move
  whose answer was lost to the outage is answered again from its idempotency key, not played twice);
- the web process served moves again by itself after the restart;
- ``verify_games`` finds every snapshot equal to its replay.
"""

from __future__ import annotations

import random
import secrets
import threading
import time

import pytest
from django.db import connection

from tests.faults.stack import PatientClient, manage, private_postgres, seed
from tests.serving.served import database_url_for, served_web

pytestmark = [pytest.mark.faults, pytest.mark.django_db(transaction=True)]

GAMES = 6
BEFORE, DOWN, AFTER = 3.0, 4.0, 4.0  # seconds of traffic before the stop, of outage, and after the restart
RAISED_RATES = {"RATE_LIMIT_API": "100000/min", "RATE_LIMIT_MOVES": "100000/min"}


class Table:
    """One game played through the API by its two players' clients, until told to stop."""

    def __init__(self, port: int, table: dict, seed_number: int):
        self.game_id = table["game"]
        self.clients = [PatientClient(port, token) for token in table["tokens"]]
        self.rng = random.Random(seed_number)
        self.acknowledged: list[tuple[str, float]] = []
        self.failures: list[str] = []

    def play(self, stop: threading.Event) -> None:
        path = f"/api/games/{self.game_id}"
        try:
            while not stop.is_set():
                status, game = self.clients[0].request("GET", f"{path}/")
                if status != 200 or game.get("status") != "active":
                    break
                seat = game["to_move"][0]
                status, listed = self.clients[seat].request("GET", f"{path}/legal-moves/")
                if status != 200:
                    self.failures.append(f"legal-moves answered {status}: {listed}")
                    break
                key = f"{self.game_id}-{listed['seq']}-{secrets.token_hex(4)}"
                body = {"move": self.rng.choice(listed["moves"])["move"], "expected_seq": listed["seq"],
                        "idempotency_key": key}
                status, answer = self.clients[seat].request("POST", f"{path}/moves/", body)
                if status in (200, 201):
                    self.acknowledged.append((key, time.monotonic()))
                else:
                    self.failures.append(f"a move answered {status}: {answer}")
                    break
        except Exception as error:  # a thread's error must fail the test, not vanish
            self.failures.append(repr(error))
        finally:
            for client in self.clients:
                client.close()


def test_a_database_restart_in_the_middle_of_traffic_loses_no_move_and_doubles_none(tmp_path):
    test_database = database_url_for(connection.settings_dict["NAME"])
    with private_postgres(test_database, tmp_path) as database:
        tables = seed(database.url, "love_letter_tables", GAMES)
        with served_web(tmp_path / "web", database.url, **RAISED_RATES) as web:
            players = [Table(web.port, table, number) for number, table in enumerate(tables)]
            stop = threading.Event()
            threads = [threading.Thread(target=table.play, args=(stop,)) for table in players]
            for thread in threads:
                thread.start()
            time.sleep(BEFORE)
            database.stop()
            time.sleep(DOWN)
            database.start()
            restarted_at = time.monotonic()
            time.sleep(AFTER)
            stop.set()
            for thread in threads:
                thread.join(90)
            log = web.process.tail()
        logged = seed(database.url, "moves_by_game")
        verified = manage(database.url, "verify_games")

    statuses = sorted({status for table in players for client in table.clients for status in client.statuses})
    failures = [failure for table in players for failure in table.failures]
    bad_answers = [bad for table in players for client in table.clients for bad in client.bad_answers]
    assert not failures and not bad_answers, f"{failures[:5]} {bad_answers[:5]}\n{log}"
    assert set(statuses) <= {200, 201, 503}, f"{statuses}\n{log}"
    assert 503 in statuses, "the clients never met the outage"
    for table in players:
        assert logged.get(str(table.game_id), []) == [key for key, _ in table.acknowledged], table.game_id
    assert any(at > restarted_at for table in players for _, at in table.acknowledged), "no move after the restart"
    assert verified.returncode == 0, verified.stderr
    assert f"checked {GAMES} game(s), 0 differ" in verified.stdout
