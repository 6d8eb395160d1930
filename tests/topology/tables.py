"""A table played through nginx by a client that sends each write again, under the same Idempotency-Key, until it
is answered: as a client must when a web node dies under its request (nginx answers 502, or the connection drops).
"""

from __future__ import annotations

import random
import threading
import time
import uuid
from contextlib import closing
from dataclasses import dataclass

import psycopg2
import requests

from tests.topology.clients import Player, Site
from tests.topology.stack import Process, ProductionStack

# What a client takes for "my request may or may not have been carried out": send it again under its key.
LOST = (502, 503, 504)
MAX_MOVES = 200  # a table plays at most this many, whatever else stops it
ATTEMPTS = 60  # at 0.1 s apart: longer than nginx needs to stop sending to a dead node
# A read that a frozen node holds is given up after this long and sent again (a read changes nothing); a write
# waits for its answer longer, so that it is still in flight when its node dies.
READ_SECONDS, WRITE_SECONDS = 2.0, 30.0


@dataclass
class Pending:
    """A request sent and not answered yet."""

    method: str
    since: float
    key: str | None = None  # a write's Idempotency-Key


class RetryingClient:
    """One player's requests: reads sent again until answered, writes sent again under their key until answered."""

    def __init__(self, site: Site, player: Player):
        self.session = site.session(player.address)
        self.session.headers["Authorization"] = f"Token {player.token}"
        self.pending: Pending | None = None
        self.lost_answers = 0  # writes whose answer never came (502, dropped, timed out), sent again
        self.replays = 0  # writes sent again and answered as their first sending was: it had been done

    def get(self, url: str) -> dict:
        for _ in range(ATTEMPTS):
            answer = self._send("GET", url, READ_SECONDS)
            if answer is not None:
                assert answer.status_code == 200, answer.text
                return answer.json()
            time.sleep(0.1)
        raise AssertionError(f"GET {url} never answered")

    def post(self, url: str, body: dict) -> tuple[dict, str]:
        """Send a write until answered; return its answer and its key."""
        key = str(uuid.uuid4())
        for _ in range(ATTEMPTS):
            answer = self._send("POST", url, WRITE_SECONDS, key=key, json=body, headers={"Idempotency-Key": key})
            if answer is not None:
                assert answer.status_code in (200, 201), answer.text
                self.replays += answer.headers.get("Idempotent-Replayed") == "true"
                return answer.json(), key
            self.lost_answers += 1
            time.sleep(0.1)
        raise AssertionError(f"POST {url} never answered")

    def _send(self, method: str, url: str, seconds: float, key: str | None = None,
              **arguments) -> requests.Response | None:
        self.pending = Pending(method, time.monotonic(), key)
        try:
            answer = self.session.request(method, url, timeout=(5, seconds), **arguments)
        except requests.RequestException:
            return None
        finally:
            self.pending = None
        return None if answer.status_code in LOST else answer


class Table(threading.Thread):
    """Plays one game to its end or until stopped, both seats from this thread, a chat message every third move."""

    def __init__(self, site: Site, game_id: int, by_seat: dict[int, Player], rng: random.Random):
        super().__init__(daemon=True, name=f"table {game_id}")
        self.site, self.game_id, self.rng = site, game_id, rng
        self.clients = {seat: RetryingClient(site, player) for seat, player in by_seat.items()}
        self.moves: list[tuple[int, str, int]] = []  # (seq, key, seat) of each move answered
        self.messages: list[str] = []  # the text of each chat message answered
        self.error: BaseException | None = None
        self.stop = threading.Event()

    def run(self) -> None:
        base = f"{self.site.url}/api/games/{self.game_id}"
        try:
            while not self.stop.is_set() and len(self.moves) < MAX_MOVES:
                game = self.clients[0].get(f"{base}/")
                if game["status"] != "active":
                    return
                seat = game["to_move"][0]
                client = self.clients[seat]
                legal = client.get(f"{base}/legal-moves/")
                answer, key = client.post(f"{base}/moves/", {"move": self.rng.choice(legal["moves"])["move"],
                                                             "expected_seq": legal["seq"]})
                self.moves.append((answer["seq"], key, seat))
                if len(self.moves) % 3 == 0:
                    text = f"after move {answer['seq']} of game {self.game_id}"
                    client.post(f"{base}/messages/", {"text": text})
                    self.messages.append(text)
        except BaseException as error:  # noqa: BLE001 - the test reads it from its own thread
            self.error = error

    def writes_pending(self) -> list[Pending]:
        return [client.pending for client in self.clients.values() if client.pending and client.pending.key]

    @property
    def lost_answers(self) -> int:
        return sum(client.lost_answers for client in self.clients.values())

    @property
    def replays(self) -> int:
        return sum(client.replays for client in self.clients.values())


def freeze_between_commit_and_answer(stack: ProductionStack, node: Process, tables: list[Table],
                                     timeout: float = 30.0) -> None:
    """Freeze ``node`` at a moment a move it has committed is not answered yet, so that its answer is surely lost when
    the node dies: the case an Idempotency-Key is for (the move is done, and its client cannot know it). Watches the
    log for the keys of the moves in flight; a move committed by the other node is answered meanwhile, and the node is
    let go on and watched again. Fail after ``timeout``."""
    deadline = time.monotonic() + timeout
    with closing(psycopg2.connect(stack.database_url)) as connection, connection.cursor() as cursor:
        connection.autocommit = True
        while time.monotonic() < deadline:
            pending = {write.key: write for table in tables for write in table.writes_pending()}
            cursor.execute("SELECT idempotency_key FROM play_move WHERE idempotency_key = ANY(%s)", (list(pending),))
            committed = [pending[key] for key, in cursor.fetchall()]
            if committed:
                stack.freeze(node)
                time.sleep(1.0)  # an answer from the other node, or from this one just before it froze, comes now
                if any(write in table.writes_pending() for table in tables for write in committed):
                    return
                stack.thaw(node)
            time.sleep(0.002)
    raise AssertionError(f"no move was caught between its commit and its answer in {timeout:.0f} s")
