"""API clients that play their own games against a served web process, and a database connection counter."""

from __future__ import annotations

import http.client
import json
import random
import threading
import time
from collections import Counter
from dataclasses import dataclass, field

import psycopg2
from django.db import connection
from django.test import Client, override_settings

from tests.serving.served import SERVED_APPLICATION_NAME, database_url_for
from turnbased.accounts.services.accounts import account_create
from turnbased.accounts.services.tokens import token_create
from turnbased.play import services

# The statuses a client may see: a read, a move, an unchanged panel, a move just after the game ended.
EXPECTED = {200, 201, 204, 409}


@dataclass
class Seat:
    token: str
    cookie: str
    game_id: int


def seats_in_games(count: int, prefix: str = "load") -> list[Seat]:
    """Return ``count`` players' API tokens, sessions and games, two players to a Love Letter game.

    Each token is issued as ``POST /api/auth/token/`` issues one once the password is checked
    (checking 64 passwords would take seconds of both cores), the session as a log in makes it.
    """
    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        users = [account_create(username=f"{prefix}{n}", email=f"{prefix}{n}@example.com",
                                password="a-long-enough-pass-9", email_verified=True) for n in range(count)]
    seats = []
    for first, second in zip(users[::2], users[1::2]):
        game = services.create_game(creator=first, engine_slug="love-letter", players=2)
        services.join_game(game_id=game.pk, user=second)
        for user in (first, second):
            browser = Client()
            browser.force_login(user)
            seats.append(Seat(token_create(user=user, name="load test", lifetime=None)[1],
                              f"sessionid={browser.cookies['sessionid'].value}", game.pk))
    return seats


# How long clients play on, past their time, for a move each between them (drive).
OVERTIME = 60.0


class ApiClient:
    """One player on one keep-alive connection: GET legal-moves, POST a move on its turn, now and then the page."""

    def __init__(self, port: int, seat: Seat):
        self.seat = seat
        self.auth = {"Authorization": f"Token {seat.token}"}
        self.statuses: Counter[int] = Counter()
        self.moves = 0
        self.failures: list[str] = []
        self._connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    def request(self, method: str, path: str, headers: dict, body: dict | None = None) -> tuple[int, bytes]:
        payload = json.dumps(body).encode() if body is not None else None
        if payload is not None:
            headers = {**headers, "Content-Type": "application/json"}
        try:
            self._connection.request(method, path, body=payload, headers=headers)
            response = self._connection.getresponse()
        except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
            # The server closed an idle keep-alive connection (or recycled its worker): reconnect.
            self._connection.close()
            self._connection.request(method, path, body=payload, headers=headers)
            response = self._connection.getresponse()
        content = response.read()
        self.statuses[response.status] += 1
        if response.status not in EXPECTED:
            self.failures.append(f"{method} {path}: {response.status} {content[:300]!r}")
        return response.status, content

    def play(self, going) -> None:
        """Play while ``going()`` says so."""
        rng = random.Random(self.seat.game_id)
        game = f"/api/games/{self.seat.game_id}"
        rounds = 0
        try:
            while going():
                rounds += 1
                status, body = self.request("GET", f"{game}/legal-moves/", self.auth)
                listed = json.loads(body) if status == 200 else {"moves": []}
                if listed["moves"]:
                    status, _ = self.request("POST", f"{game}/moves/", self.auth,
                                             {"move": rng.choice(listed["moves"])["move"], "expected_seq": listed["seq"]})
                    self.moves += status == 201
                else:
                    time.sleep(0.05)  # not my turn: ask again soon, as a polling client does
                if rounds % 4 == 0:
                    self.request("GET", f"/games/{self.seat.game_id}/", {"Cookie": self.seat.cookie})
        except Exception as error:  # reported by the test, with the server's log
            self.failures.append(f"{type(error).__name__}: {error}")
        finally:
            self._connection.close()


class ConnectionCounter(threading.Thread):
    """Count, every 50 ms, the connections to the test database that the served web process holds.

    They are told apart by their ``application_name`` (``served_web`` sets it in the process's
    database URL, and PgBouncer passes it on to its server connections): any other connection of
    the test run (this process, a thread an earlier test left) is not the web process's.
    """

    def __init__(self):
        super().__init__(daemon=True)
        self.database_name = connection.settings_dict["NAME"]
        self.most = 0
        self.others = 0
        self._stop_event = threading.Event()

    def run(self) -> None:
        counter = psycopg2.connect(database_url_for(self.database_name))
        counter.autocommit = True
        try:
            with counter.cursor() as cursor:
                while not self._stop_event.wait(0.05):
                    cursor.execute("SELECT application_name = %s FROM pg_stat_activity"
                                   " WHERE datname = current_database() AND pid <> pg_backend_pid()",
                                   [SERVED_APPLICATION_NAME])
                    served = [row[0] for row in cursor.fetchall()]
                    self.most = max(self.most, served.count(True))
                    self.others = max(self.others, served.count(False))
        finally:
            counter.close()

    def stop(self) -> None:
        self._stop_event.set()
        self.join()


@dataclass
class Outcome:
    statuses: Counter = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)
    moves: int = 0
    clients_served: int = 0
    most_connections: int = 0
    other_connections: int = 0  # the most connections at once to the test database from anything else

    def server_errors(self) -> dict[int, int]:
        return {status: count for status, count in self.statuses.items() if status >= 500}


def drive(port: int, seats: list[Seat], seconds: float) -> Outcome:
    """Let every seat's client play at once for ``seconds``, counting the database's connections meanwhile.

    Then on, if the clients have not yet made a move each between them, until they have or ``OVERTIME`` more
    seconds have passed: on a loaded machine the count the tests ask for takes longer, not another outcome."""
    counter = ConnectionCounter()
    counter.start()
    clients = [ApiClient(port, seat) for seat in seats]
    started = time.monotonic()

    def going() -> bool:
        elapsed = time.monotonic() - started
        return elapsed < seconds or (sum(client.moves for client in clients) < len(clients)
                                     and elapsed < seconds + OVERTIME)

    threads = [threading.Thread(target=client.play, args=(going,)) for client in clients]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(seconds + OVERTIME + 60)
    counter.stop()
    outcome = Outcome(most_connections=counter.most, other_connections=counter.others)
    for client in clients:
        outcome.statuses += client.statuses
        outcome.failures += client.failures
        outcome.moves += client.moves
        outcome.clients_served += bool(client.statuses[200])
    return outcome
