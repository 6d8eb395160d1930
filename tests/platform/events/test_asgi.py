"""The stream application in this process, called as uvicorn calls it: what an open stream costs and when it ends."""

from __future__ import annotations

import asyncio
import time

import pytest

from tests.platform.conftest import api_token
from tests.platform.events.streams import run_in_own_loop
from turnbased.events.asgi import StreamApplication
from turnbased.events.services import NewEvent, events_record

pytestmark = pytest.mark.django_db(transaction=True)


class CountingApplication(StreamApplication):
    """The stream application, counting its trips to the database by what they ran."""

    def __init__(self):
        super().__init__(threads=1)
        self.calls: list[str] = []

    async def database(self, function, **kwargs):
        self.calls.append(function.__name__)
        return await super().database(function, **kwargs)


def run_stream(application: StreamApplication, key: str | None, *, during, seconds: float,
               headers: list[tuple[bytes, bytes]] = (), query: bytes = b"", enough=None) -> list[bytes]:
    """Open a stream with the token ``key`` (or ``headers``: a session's cookie), run ``during(application)`` once it
    is open, leave after ``seconds``, or (``enough``) once ``enough(bodies)`` holds, whatever the time it takes on a
    loaded machine (at most ten seconds); return the bodies sent."""
    bodies: list[bytes] = []

    async def run() -> None:
        leave = asyncio.Event()

        async def receive():
            await leave.wait()
            return {"type": "http.disconnect"}

        async def send(message):
            bodies.append(message.get("body", b""))

        application.start()  # listening before any stream opens, as at the server's start
        await until(lambda: application.wakeups.listening, "the listener")
        scope = {"type": "http", "method": "GET", "path": "/api/stream/", "query_string": query,
                 "headers": [*([(b"authorization", f"Token {key}".encode())] if key else []), *headers]}
        stream = asyncio.create_task(application(scope, receive, send))
        await until(lambda: len(bodies) >= 2, "the headers, then the opening")
        await during(application)
        if enough is None:
            await asyncio.sleep(seconds)
        else:
            await until(lambda: enough(bodies), "enough of the stream")
        leave.set()
        await asyncio.wait_for(stream, 5)
        await application.stop()

    run_in_own_loop(run())
    application.executor.shutdown()
    return bodies


async def until(condition, what: str, seconds: float = 10) -> None:
    """Wait for ``condition`` in the event loop; fail after ``seconds`` (a broken stream never gets there)."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.01)


async def nothing(application) -> None:
    pass


def test_an_idle_stream_sends_heartbeats_and_asks_the_database_nothing(alice, settings):
    settings.STREAM_HEARTBEAT_SECONDS = 0.05
    application = CountingApplication()
    bodies = run_stream(application, api_token(alice), during=nothing, seconds=0.6,
                        enough=lambda sent: sent.count(b": keep-alive\n\n") >= 5)  # however long a loaded machine takes
    assert bodies.count(b": keep-alive\n\n") >= 5
    # Who it is, where to start, one read; the listener's connection; then nothing, heartbeat after heartbeat.
    assert sorted(application.calls) == sorted(["authenticate", "latest_event_id", "events_after",
                                                "_listening_connection"])
    assert application.wakeups.open_streams() == 0  # the stream that left is forgotten


def test_a_woken_stream_reads_and_sends_its_new_events(alice, settings):
    settings.STREAM_HEARTBEAT_SECONDS = 0.05

    async def write(application) -> None:
        await application.database(events_record, events=[NewEvent(user_id=alice.pk, kind="your_turn")])

    application = CountingApplication()
    def sent_the_turn(sent: list[bytes]) -> bool:
        return any(body.startswith(b"id: ") and b"event: your_turn" in body for body in sent)

    bodies = run_stream(application, api_token(alice), during=write, seconds=1.0, enough=sent_the_turn)
    assert sent_the_turn(bodies), bodies
    assert application.calls.count("events_after") == 2  # the first read, and the one its NOTIFY woke


def test_a_stream_ends_after_its_longest_time(alice, settings):
    settings.STREAM_HEARTBEAT_SECONDS = 10
    settings.STREAM_MAX_SECONDS = 0.2
    key = api_token(alice)
    bodies = []

    async def run() -> None:
        async def receive():
            await asyncio.sleep(60)

        async def send(message):
            bodies.append(message)

        scope = {"type": "http", "method": "GET", "path": "/api/stream/", "query_string": b"",
                 "headers": [(b"authorization", f"Token {key}".encode())]}
        application = StreamApplication(threads=1)
        await asyncio.wait_for(application(scope, receive, send), 5)
        await application.stop()
        application.executor.shutdown()

    run_in_own_loop(run())
    assert bodies[-1] == {"type": "http.response.body", "body": b"", "more_body": False}


@pytest.mark.parametrize(("query", "headers", "says"), [
    (b"include=%ED%A0%80", [], b'include=%ED%A0%80'),
    (b"game=1&last_event_id=%C3", [], b"last_event_id=%C3"),
    (b"", [(b"last-event-id", b"\xff")], b"Last-Event-Id"),
    (b"", [(b"authorization", b"Token caf\xe9")], b"Authorization"),
], ids=["include", "last_event_id", "Last-Event-ID", "Authorization"])
def test_a_query_or_header_that_is_not_utf8_is_a_400_before_anyone_is_asked_who_it_is(query, headers, says):
    """Issue 42, as the web process refuses it: before authenticating (which would read the database)."""
    sent = []

    async def run() -> None:
        async def receive():
            return {"type": "http.disconnect"}

        async def send(message):
            sent.append(message)

        application = CountingApplication()
        scope = {"type": "http", "method": "GET", "path": "/api/stream/", "query_string": query, "headers": headers}
        await asyncio.wait_for(application(scope, receive, send), 5)
        await application.stop()
        application.executor.shutdown()
        assert application.calls == []

    run_in_own_loop(run())
    assert sent[0]["status"] == 400
    assert says in sent[1]["body"] and b"not valid text" in sent[1]["body"]
