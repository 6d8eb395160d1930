"""The players and the measured loops of benchmarks/capacity.py: moves made as the game page makes them, and reads.

Part of benchmarks/capacity.py, which starts the stack and reads the CPU around each loop. Everything a loop sends
goes through the served stack over HTTP; what the loops need from Django (accounts, sessions, tables, positions)
is made here before a loop starts, never while it is measured.
"""

from __future__ import annotations

import os

# As every script here: one loopback address plays many accounts (read when Django loads).
os.environ["RATE_LIMITS"] = "off"

import http.client  # noqa: E402
import json  # noqa: E402
import queue  # noqa: E402
import random  # noqa: E402
import re  # noqa: E402
import secrets  # noqa: E402
import threading  # noqa: E402
import uuid  # noqa: E402
from contextlib import contextmanager  # noqa: E402
from dataclasses import dataclass, field  # noqa: E402
from unittest import mock  # noqa: E402

from benchmarks.http_load import Connection, Run, run_clients  # noqa: E402
from benchmarks.http_moves import Fixtures, Player, make_players, new_table  # noqa: E402
from benchmarks.move_cost import Follower  # noqa: E402

# The page's CSRF secret: a page has the cookie and sends the same value back in the X-CSRFToken header (htmx).
CSRF_SECRET = secrets.token_hex(16)
# The version of the panel a page shows, in its poll's address (play/_panel.html).
PANEL_VERSION = re.compile(rb"panel/\?seq=(\d+)&amp;status=(\w+)")
# A mid-game position per game, where the reads are measured (random play lasts about 45, 200, 80 and 30 moves).
MIDGAME = {"love-letter": 20, "halali": 60, "carcassonne-hg": 40, "savernake-forest": 15}


@dataclass
class PagePlayer:
    """A signed-in browser: its session and CSRF cookies, and the account's API token."""

    player: Player
    cookie: str

    @property
    def user(self):
        return self.player.user

    @property
    def auth(self) -> dict[str, str]:
        """What the page's own event stream sends (benchmarks/move_cost.Follower reads ``auth``)."""
        return {"Cookie": self.cookie}

    @property
    def page(self) -> dict[str, str]:
        """What htmx sends from the game page."""
        return {"Cookie": self.cookie, "X-CSRFToken": CSRF_SECRET, "HX-Request": "true"}


def page_players(count: int, prefix: str, *, turn_emails: str = "off", game_emails: bool = False) -> list[PagePlayer]:
    """Create confirmed accounts, each with a token, a session and these email preferences."""
    from turnbased.mail.models import MailPreference

    players = make_players(count, prefix)
    for player in players:
        MailPreference.objects.update_or_create(user=player.user,
                                                defaults={"turn_emails": turn_emails, "game_emails": game_emails})
    return [PagePlayer(player, f"{Fixtures.session_cookie(player)}; csrftoken={CSRF_SECRET}") for player in players]


@dataclass
class LocalTable:
    """A game in play and its state as the client keeps it: moves are chosen and applied here, with the engine."""

    game_id: int
    players: list[PagePlayer]
    engine: object
    state: dict
    seq: int

    @property
    def to_move(self) -> int:
        return self.engine.to_move(self.state)[0]

    @property
    def over(self) -> bool:
        return self.engine.result(self.state) is not None

    def choose(self, rng: random.Random) -> tuple[int, dict]:
        seat = self.to_move
        return seat, rng.choice(self.engine.legal_moves(self.state, seat))

    def apply(self, seat: int, move: dict) -> None:
        self.state, _ = self.engine.apply(self.state, seat, move)
        self.seq += 1


def local_table(players: list[PagePlayer], slug: str) -> LocalTable:
    """Create and start a table for ``players``; read its first state once."""
    from turnbased.play import store
    from turnbased.play.models import Game

    table = new_table([p.player for p in players], slug)
    game = Game.objects.get(pk=table.game_id)
    return LocalTable(game.pk, players, store.engine_of(game), game.state, game.seq)


@contextmanager
def nothing_dispatched():
    """Make moves in this process that queue no work: their notifications wait, unsent, for a measured delivery."""
    from turnbased.kit.db import dispatch

    with mock.patch.object(dispatch, "after_commit", lambda *args, **kwargs: None):
        yield


def play_here(table: LocalTable, rng: random.Random, moves: int = 1) -> bool:
    """Play ``moves`` random moves through ``submit_move`` in this process (setup, never measured); return whether
    the game goes on."""
    from turnbased.play import services

    for _ in range(moves):
        if table.over:
            return False
        seat, move = table.choose(rng)
        outcome = services.submit_move(game_id=table.game_id, user=table.players[seat].user, expected_seq=table.seq,
                                       move=move)
        table.apply(seat, move)
        assert outcome.game.seq == table.seq
    return not table.over


def play_to_end(players: list[PagePlayer], slug: str, rng: random.Random) -> int:
    """Play a game from its start to its end through ``submit_move`` in this process, each move with an idempotency
    key as the page sends it, its work queued as after any move; return its id (its rows are weighed)."""
    from turnbased.play import services

    table = local_table(players, slug)
    while not table.over:
        seat, move = table.choose(rng)
        services.submit_move(game_id=table.game_id, user=table.players[seat].user, expected_seq=table.seq, move=move,
                             idempotency_key=uuid.uuid4().hex)
        table.apply(seat, move)
    return table.game_id


def positions(players: list[PagePlayer], slug: str, count: int, rng: random.Random) -> list[LocalTable]:
    """Return ``count`` games of ``players`` standing at the game's mid-game position, still in play."""
    found = []
    with nothing_dispatched():
        while len(found) < count:
            table = local_table(players, slug)
            if play_here(table, rng, MIDGAME[slug]) and not table.over:
                found.append(table)
    return found


# -- the move loop: moves as the game page makes them ---------------------------------------------------------


@dataclass
class PageMoveClient:
    """Two players at a table, each with the site's event stream open as a page holds it, who move by posting the
    page's form as htmx does (session, CSRF, the page's idempotency key) and read the panel it answers.

    The client keeps the game's state itself (the engine is deterministic), so it asks the server for nothing but
    the move; the answer's panel says which position it shows, and must be the one the client reached.
    """

    web_port: int
    stream_port: int
    players: list[PagePlayer]
    tables: queue.Queue
    rng: random.Random
    finished: list[int]
    connection: Connection = field(init=False)
    table: LocalTable | None = None

    def __post_init__(self) -> None:
        self.connection = Connection(self.web_port)

    def loop(self, going) -> None:
        stop, events = threading.Event(), queue.Queue()
        followers = [Follower(self.stream_port, player, events, stop, path="/api/stream/") for player in self.players]
        for follower in followers:
            follower.start()
        try:
            for follower in followers:
                if not follower.opened.wait(30):
                    raise RuntimeError("a stream did not open")
            while going():
                if self.table is None or self.table.over:
                    self.table = self.tables.get_nowait()
                self.move(self.table)
        except queue.Empty:
            raise RuntimeError("ran out of prepared tables") from None
        finally:
            stop.set()
            for follower in followers:
                follower.close()

    def move(self, table: LocalTable) -> None:
        seat, move = table.choose(self.rng)
        status, body = self.connection.request(
            "move", "POST", f"/games/{table.game_id}/move/", headers=table.players[seat].page,
            form={"move": json.dumps(move), "expected_seq": table.seq, "idempotency_key": uuid.uuid4().hex})
        table.apply(seat, move)
        shown = PANEL_VERSION.search(body)
        if status != 200 or shown is None or int(shown.group(1)) != table.seq:
            raise RuntimeError(f"the move to {table.seq} in game {table.game_id} answered {status}: "
                               f"{body[:300]!r}")
        if table.over:
            self.finished.append(table.game_id)


def page_moves_run(clients: list[PageMoveClient], seconds: float, **around) -> Run:
    return run_clients([client.loop for client in clients], [client.connection for client in clients], seconds,
                       warm_up=1.0, **around)


def moves_of(run: Run) -> int:
    return len([sample for sample in run.samples if sample.kind == "move" and sample.status == 200])


# -- the read loops ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Request:
    path: str
    headers: dict
    status: int


def reads_run(port: int, units: list[list[Request]], clients: int, seconds: float, **around) -> Run:
    """Have each client make the units in turn (a unit is one request, or the few a page makes together), each
    client starting at another; an answer other than the one expected stops the client (``Run.errors``)."""
    connections = [Connection(port) for _ in range(clients)]

    def loop_for(number: int):
        connection = connections[number]

        def loop(going) -> None:
            step = number
            while going():
                for request in units[step % len(units)]:
                    status, body = connection.request("read", "GET", request.path, headers=request.headers)
                    if status != request.status:
                        raise RuntimeError(f"GET {request.path} answered {status}, not {request.status}: "
                                           f"{body[:200]!r}")
                step += 1
        return loop

    return run_clients([loop_for(number) for number in range(clients)], connections, seconds, **around)


def units_of(run: Run, units: list[list[Request]]) -> float:
    """The units a read run made in its measured window: its answers over the requests a unit makes."""
    return len(run.samples) / len(units[0])


def read_units(tables: list[LocalTable], etags: dict[int, str]) -> dict[str, list[list[Request]]]:
    """The reads of each kind at the tables' positions: by the player to move (the page opened to play, the panel
    a page fetches when its stream tells of the move it waited for) or by the one waiting (the polls)."""
    units: dict[str, list[list[Request]]] = {"game page view": [], "page refresh after a move": [],
                                             "page poll, unchanged": [], "API poll, unchanged": []}
    for table in tables:
        mover, waiting = table.players[table.to_move], table.players[1 - table.to_move]
        game, version = f"/games/{table.game_id}", f"status=active&seated={len(table.players)}"
        units["game page view"].append([Request(f"{game}/", {"Cookie": mover.cookie}, 200)])
        units["page refresh after a move"].append([
            Request(f"{game}/panel/?seq={table.seq - 1}&{version}", mover.page, 200),
            Request(f"{game}/chat/?after=0&turn=0", mover.page, 200),
        ])
        units["page poll, unchanged"].append([
            Request(f"{game}/panel/?seq={table.seq}&{version}", waiting.page, 204),
            Request(f"{game}/chat/?after=0&turn=0", waiting.page, 204),
        ])
        units["API poll, unchanged"].append([
            Request(f"/api/games/{table.game_id}/", {**waiting.player.auth, "If-None-Match": etags[table.game_id]},
                    304),
        ])
    return units


def etags_of(port: int, tables: list[LocalTable]) -> dict[int, str]:
    """Read each game once through the API as its waiting player: the tag a polling client sends back."""
    tags = {}
    for table in tables:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        connection.request("GET", f"/api/games/{table.game_id}/", headers=table.players[1 - table.to_move].player.auth)
        response = connection.getresponse()
        response.read()
        if response.status != 200 or not response.getheader("ETag"):
            raise RuntimeError(f"GET /api/games/{table.game_id}/ answered {response.status} without an ETag")
        tags[table.game_id] = response.getheader("ETag")
        connection.close()
    return tags
