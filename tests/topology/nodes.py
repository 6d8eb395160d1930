"""One node of the running stack at a time: a web replica's gunicorn or a stream replica's uvicorn addressed
directly, as nginx addresses them, so a test knows which node did what; and the rows the stack wrote.
"""

from __future__ import annotations

import queue
import random
import ssl
import time
import uuid
from contextlib import closing
from dataclasses import dataclass
from unittest import mock
from urllib.parse import urlsplit, urlunsplit

import httpx
import psycopg2
import requests
from django.conf import settings
from django.core.cache.backends.redis import RedisCache

from tests.platform.events.streams import Reader, Received, reading
from tests.topology.clients import REPLY_ADDRESS, MailSink, Player, Site, reply_to_of
from tests.topology.stack import Process, ProductionStack
from turnbased.events import presence, stream_slots


@dataclass
class WebNode:
    """One gunicorn replica, spoken to as nginx speaks to it: the scheme and the client's address in headers."""

    name: str
    port: int

    def session(self, player: Player | None = None, *, address: str) -> requests.Session:
        """Return a session to this node for ``player`` (its token), as a client at ``address`` seen by nginx."""
        session = requests.Session()
        session.trust_env = False
        session.headers.update({"X-Forwarded-Proto": "https", "X-Forwarded-For": address})
        if player is not None:
            session.headers["Authorization"] = f"Token {player.token}"
        return session

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"


@dataclass
class StreamNode:
    """One uvicorn replica, in the shape ``tests.platform.events.streams.reading`` opens streams on."""

    url: str
    process: Process


def web_nodes(stack: ProductionStack) -> list[WebNode]:
    return [WebNode(process.name, port) for process, port in zip(stack.services["web"], stack.ports.web)]


def stream_nodes(stack: ProductionStack) -> list[StreamNode]:
    return [StreamNode(f"http://127.0.0.1:{port}/api/stream/", process)
            for process, port in zip(stack.services["stream"], stack.ports.stream)]


def through_nginx(stack: ProductionStack) -> StreamNode:
    """The stream as clients reach it: nginx, which picks a stream replica."""
    return StreamNode(f"{stack.site_url}/api/stream/", stack.services["nginx"][0])


def from_address(stack: ProductionStack, address: str) -> httpx.HTTPTransport:
    """How a stream client reaches nginx from ``address``, trusting the stack's certificate."""
    return httpx.HTTPTransport(verify=ssl.create_default_context(cafile=stack.certificate), local_address=address)


def rows(stack: ProductionStack, query: str, parameters: tuple = ()) -> list[tuple]:
    """Run a statement on the stack's database and commit it; return its rows (a read counts what the processes
    wrote; a write sets up what no request can, such as a deadline already past)."""
    with closing(psycopg2.connect(stack.database_url)) as connection:
        with connection, connection.cursor() as cursor:  # commits
            cursor.execute(query, parameters)
            return cursor.fetchall() if cursor.description else []


def start_game(site: Site, first: Player, second: Player, **table) -> tuple[int, dict[int, Player]]:
    """Open a two-player Love Letter table through nginx and fill it; return the game's id and its players by seat."""
    created = first.api.post(f"{site.url}/api/games/", json={"game": "love-letter", "players": 2, **table}, timeout=10)
    assert created.status_code == 201, created.text
    game_id = created.json()["id"]
    joined = second.api.post(f"{site.url}/api/games/{game_id}/join/", json={}, timeout=10)
    assert joined.status_code == 200 and joined.json()["status"] == "active", joined.text
    players = {first.username: first, second.username: second}
    return game_id, {seat["index"]: players[seat["username"]] for seat in joined.json()["seats"]}


def mover(session_of, base: str, game_id: int, by_seat: dict[int, Player]) -> Player | None:
    """Return the player to move (None once the game is over), read with ``session_of(player)`` at ``base``."""
    any_player = next(iter(by_seat.values()))
    game = session_of(any_player).get(f"{base}/api/games/{game_id}/", timeout=10).json()
    return by_seat[game["to_move"][0]] if game["status"] == "active" else None


def play_a_move(session: requests.Session, base: str, game_id: int, rng: random.Random) -> tuple[int, float]:
    """Play one of the mover's legal moves through ``session`` at ``base``; return the seq it made and when (monotonic
    seconds) it was sent."""
    legal = session.get(f"{base}/api/games/{game_id}/legal-moves/", timeout=10)
    assert legal.status_code == 200, legal.text
    sent = time.monotonic()
    answer = session.post(f"{base}/api/games/{game_id}/moves/", headers={"Idempotency-Key": str(uuid.uuid4())},
                          json={"move": rng.choice(legal.json()["moves"])["move"], "expected_seq": legal.json()["seq"]},
                          timeout=10)
    assert answer.status_code == 201, answer.text
    return answer.json()["seq"], sent


def first_event(reader: Reader, matches, what: str, timeout: float = 10.0) -> Received:
    """Return the first event the stream sends that ``matches``, passing over the others; fail after ``timeout``."""
    deadline, passed = time.monotonic() + timeout, []
    while time.monotonic() < deadline:
        try:
            event = reader.events.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            break
        if matches(event):
            return event
        passed.append(event)
    raise AssertionError(f"timed out waiting for {what}; came meanwhile: {passed}")


def stream_opens(node: StreamNode, key: str) -> bool:
    """Tell whether a stream opens on ``node`` with the token ``key`` now (it is closed again at once)."""
    with reading(node, key) as stream:
        return isinstance(stream, Reader)


def emails_of(sink: MailSink, player: Player, game_id: int, subject_start: str) -> list[int]:
    """Return the seq each email to ``player`` about the game whose subject starts so (in English) answers."""
    found = []
    for message in sink.to(player.email):
        match = REPLY_ADDRESS.match(reply_to_of(message))
        if match and int(match["game"]) == game_id and str(message["Subject"]).startswith(subject_start):
            found.append(int(match["seq"]))
    return found


def stack_cache(stack: ProductionStack) -> RedisCache:
    """The stack's shared cache, as its processes reach it (settings.CACHES: the broker's Redis, database 1)."""
    location = urlunsplit(urlsplit(stack.broker_url)._replace(path="/1"))
    return RedisCache(location, {"KEY_PREFIX": settings.CACHES["default"]["KEY_PREFIX"]})


def is_present(stack: ProductionStack, player: Player, game_id: int) -> bool:
    """Tell whether the stack's workers find the player on the game's page: their very read, on the stack's cache."""
    (user_id,), = rows(stack, "SELECT id FROM auth_user WHERE username = %s", (player.username,))
    with mock.patch.object(presence, "cache", stack_cache(stack)):
        return presence.is_present(user_id, game_id)


def streams_by_address(stack: ProductionStack) -> dict[str, int]:
    """Return how many stream slots each client address holds in the stack's Redis (``events.stream_slots``)."""
    client = stack_cache(stack)._cache.get_client(write=False)
    scope = f"{stream_slots.PREFIX}:{urlsplit(stack.database_url).path.lstrip('/')}:address:"
    return {key.decode().removeprefix(scope): client.zcard(key) for key in client.scan_iter(f"{scope}*")}


def drain(reader: Reader) -> list[Received]:
    """Return the events a stream that has ended sent and were not taken yet."""
    assert reader.ended.is_set(), "a stream still open may send more"
    return [reader.events.get_nowait() for _ in range(reader.events.qsize())]


def events_until(reader: Reader, last_id: int, timeout: float = 30.0) -> list[Received]:
    """Return the events the stream sends up to the one with ``last_id``; fail if it has not come within ``timeout``."""
    taken, deadline = [], time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            taken.append(reader.events.get(timeout=max(0.0, deadline - time.monotonic())))
        except queue.Empty:
            break
        if taken[-1].id >= last_id:
            return taken
    raise AssertionError(f"event {last_id} did not come; came: {[event.id for event in taken]}")
