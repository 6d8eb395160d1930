"""The stream process run as in production (uvicorn, DEBUG off) in front of the test database, and a reader
of what it sends.

The test fills the database through the services in committed transactions (``transactional_db``),
so the process sees every row; its LISTEN connection hears their commits.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import queue
import shlex
import signal
import socket
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import httpx
from django.conf import settings as django_settings
from django.db import connection

from tests.serving.served import database_url_for
from tests.topology.stack import Process, wait_until
from turnbased.local.services import free_port, port_answers

PROCFILE = Path(django_settings.BASE_DIR) / "Procfile"


def procfile_command(name: str) -> list[str]:
    """Return the Procfile's command for the process ``name``, as argv."""
    for line in PROCFILE.read_text().splitlines():
        if line.startswith(f"{name}:"):
            return shlex.split(line.partition(":")[2])
    raise AssertionError(f"the Procfile runs no {name!r}")

# The name the stream process gives its database connections, so a test can count them.
APPLICATION_NAME = "served-stream"


@dataclass
class StreamProcess:
    port: int
    process: Process

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/stream/"


def _named(database_url: str) -> str:
    parts = urlsplit(database_url)
    return urlunsplit(parts._replace(query="&".join(filter(None, [parts.query, f"application_name={APPLICATION_NAME}"]))))


@contextmanager
def stream_process(folder: Path, **settings: str):
    """Serve the stream with uvicorn on a free port against the test database; yield a StreamProcess; stop it."""
    port = free_port()
    environment = {
        "PATH": os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")]),
        "HOME": os.environ.get("HOME", str(folder)),
        "LANG": "C.UTF-8",
        "PYTHONUNBUFFERED": "1",
        "DJANGO_SETTINGS_MODULE": "turnbased.settings",
        "TURNBASED_DATA_DIR": str(folder / "data"),
        "DATABASE_URL": _named(database_url_for(connection.settings_dict["NAME"])),
        "DJANGO_DEBUG": "false",
        "DJANGO_HTTPS": "off",
        # The web process's key, as in production: it signs the sessions a page's stream is opened with.
        "DJANGO_SECRET_KEY": django_settings.SECRET_KEY,
        "DATABASE_CONN_MAX_AGE": "0",  # the test database is dropped at the end: keep no connection idle
        # The test run's Redis: a game's page that follows the stream is noted there as open (presence).
        **{name: os.environ[name] for name in ("CELERY_BROKER_URL", "CACHE_URL") if name in os.environ},
        **settings,
    }
    # The Procfile's command, as make run and make serve start it (its flags, --no-proxy-headers among them), on
    # a port of the test's; a shorter graceful shutdown (the last of a repeated option is the one uvicorn takes).
    command = [*procfile_command("stream"), "--host", "127.0.0.1", "--port", str(port),
               "--timeout-graceful-shutdown", "1", "--no-access-log"]
    process = Process("stream", command, folder / "stream.log")
    process.start(environment)
    try:
        wait_until(lambda: port_answers(port), "the stream process to listen", [process])
        yield StreamProcess(port, process)
    finally:
        process.signal(signal.SIGTERM)
        try:
            process.popen.wait(15)
        except subprocess.TimeoutExpired:
            process.signal(signal.SIGKILL)
            process.popen.wait()


@dataclass
class Received:
    """One event as a client reads it: its id, its kind, its JSON and when it arrived (monotonic seconds)."""

    id: int
    kind: str
    data: dict
    at: float


@dataclass
class Reader:
    """An open stream read by a thread of its own: events, bare ids, comments and retries, as they come."""

    response: httpx.Response
    events: queue.Queue = field(default_factory=queue.Queue)
    comments: list[str] = field(default_factory=list)
    ids: list[int] = field(default_factory=list)  # every id field, with or without data
    retry: int | None = None
    opened: threading.Event = field(default_factory=threading.Event)
    ended: threading.Event = field(default_factory=threading.Event)

    def run(self) -> None:
        fields: dict[str, str] = {}
        try:
            for line in self.response.iter_lines():
                if line == "":
                    self._dispatch(fields)
                    fields = {}
                elif line.startswith(":"):
                    self.comments.append(line[1:].strip())
                else:
                    name, _, value = line.partition(":")
                    fields[name] = value[1:] if value.startswith(" ") else value
        except (httpx.HTTPError, RuntimeError):
            pass  # the test closed the stream
        finally:
            self.ended.set()

    def _dispatch(self, fields: dict[str, str]) -> None:
        if "retry" in fields:
            self.retry = int(fields["retry"])
        if "id" in fields:
            self.ids.append(int(fields["id"]))
        self.opened.set()
        if "data" in fields:
            self.events.put(Received(int(fields["id"]), fields.get("event", "message"), json.loads(fields["data"]),
                                     time.monotonic()))

    def take(self, count: int, timeout: float = 10.0) -> list[Received]:
        """Return the next ``count`` events; fail if they do not all come within ``timeout`` seconds."""
        return take_from(self.events, count, timeout)

    def nothing_more(self, seconds: float) -> None:
        """Fail if any event comes within ``seconds``."""
        nothing_more_in(self.events, seconds)


def take_from(events: queue.Queue, count: int, timeout: float) -> list:
    """Return the next ``count`` events put in ``events``; fail if they do not all come within ``timeout`` seconds."""
    taken, deadline = [], time.monotonic() + timeout
    while len(taken) < count:
        try:
            taken.append(events.get(timeout=max(0.01, deadline - time.monotonic())))
        except queue.Empty:
            raise AssertionError(f"{len(taken)} of {count} events came: {taken}") from None
    return taken


def nothing_more_in(events: queue.Queue, seconds: float) -> None:
    """Fail if any event is put in ``events`` within ``seconds``."""
    try:
        extra = events.get(timeout=seconds)
    except queue.Empty:
        return
    raise AssertionError(f"an event came that should not have: {extra}")


@contextmanager
def reading(stream: StreamProcess, key: str | None, *, last_event_id: str | bytes | None = None, query: str = "",
            headers: dict[str, str] | None = None, transport: httpx.HTTPTransport | None = None):
    """Open the stream with the token ``key`` (and ``headers``: a session's cookie, an origin); yield a Reader once
    the opening came (for a 200), or the refused response. ``transport``: how to connect, if not plainly (TLS
    trusting a test's certificate, from an address of the test's choice)."""
    headers = {**({"Authorization": f"Token {key}"} if key else {}), **(headers or {})}
    if last_event_id is not None:
        headers["Last-Event-ID"] = last_event_id
    with httpx.Client(timeout=httpx.Timeout(10.0, read=30.0), transport=transport) as client:
        with client.stream("GET", stream.url + query, headers=headers) as response:
            if response.status_code != 200:
                response.read()
                assert response.status_code < 500, f"{response.status_code}:\n{stream.process.tail()}"
                yield response
                return
            reader = Reader(response)
            thread = threading.Thread(target=reader.run, daemon=True)
            thread.start()
            assert reader.opened.wait(10), "the stream sent no opening"
            try:
                yield reader
            finally:
                _hang_up(response)
                response.close()
                thread.join(5)


def _hang_up(response: httpx.Response) -> None:
    """Shut the stream's socket, so the reading thread's blocked read ends now rather than at the next heartbeat."""
    network_stream = response.extensions.get("network_stream")
    sock = network_stream.get_extra_info("socket") if network_stream is not None else None
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.shutdown(socket.SHUT_RDWR)


def run_in_own_loop(coroutine) -> None:
    """Run ``coroutine`` to its end on an event loop of its own, in a thread of its own.

    ``asyncio.run`` refuses to start inside a running loop, and the browser tests' Playwright keeps one
    running in the main thread for the rest of the session.
    """
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="stream-test") as pool:
        pool.submit(asyncio.run, coroutine).result()
