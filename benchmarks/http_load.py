"""A lean HTTP load generator: threads, each opening a connection per request or keeping one alive (``http.client``).

Used by benchmarks/http_moves.py. Standard library only: every client thread runs its own loop
until a shared deadline and records each request's kind, status and time; the caller turns the
records into rates and percentiles.
"""

from __future__ import annotations

import http.client
import json
import statistics
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import urlencode


@dataclass
class Sample:
    kind: str
    status: int
    seconds: float
    size: int


class Connection:
    """A client's HTTP/1.1 connections to 127.0.0.1: a new one for each request, or one kept alive.

    By default each request has a connection of its own, as nginx in front of gunicorn sends it
    (deploy/nginx.conf.template keeps no upstream connections): a request goes to whichever worker
    accepts it first. With ``keep_alive`` one connection serves every request of the client, reopened
    when the server closed it, and the client's requests queue in the one worker that accepted it.
    """

    keep_alive = False  # for every connection of a run (benchmarks/http_moves.py --keep-alive)

    def __init__(self, port: int, headers: dict[str, str] | None = None):
        self.port = port
        self.headers = dict(headers or {})
        if not self.keep_alive:
            self.headers["Connection"] = "close"
        self.samples: list[Sample] = []
        self._connection: http.client.HTTPConnection | None = None

    def request(self, kind: str, method: str, path: str, body: dict | None = None,
                headers: dict[str, str] | None = None, form: dict | None = None) -> tuple[int, bytes]:
        """Send one request (a JSON ``body``, or a ``form`` as a page posts it); record and return its status and body.

        A connection the server closed while idle (keep-alive timeout, a recycled worker) is
        reopened and the request sent once more; such a request never reached a view.
        """
        sent = {**self.headers, **(headers or {})}
        payload = None
        if body is not None:
            payload, sent["Content-Type"] = json.dumps(body).encode(), "application/json"
        elif form is not None:
            payload, sent["Content-Type"] = urlencode(form).encode(), "application/x-www-form-urlencoded"
        for attempt in (1, 2):
            if self._connection is None:
                self._connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
            started = time.perf_counter()
            try:
                self._connection.request(method, path, body=payload, headers=sent)
                response = self._connection.getresponse()
                content = response.read()
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                self.close()
                if attempt == 2:
                    raise
                continue
            elapsed = time.perf_counter() - started
            if response.getheader("Connection", "").lower() == "close":
                self.close()
            self.samples.append(Sample(kind, response.status, elapsed, len(content)))
            return response.status, content
        raise AssertionError("unreachable")

    def close(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None


@dataclass
class Run:
    """What a timed run of client threads did."""

    seconds: float
    samples: list[Sample] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def of(self, kind: str | None = None) -> list[Sample]:
        return [s for s in self.samples if kind is None or s.kind == kind]

    def rate(self, kind: str | None = None, status: int | None = None) -> float:
        """Return requests per second (of one kind, one status)."""
        return len([s for s in self.of(kind) if status is None or s.status == status]) / self.seconds

    def server_errors(self) -> int:
        return len([s for s in self.samples if s.status >= 500])


def percentile(values: list[float], q: float) -> float:
    """Return the ``q`` quantile (0..1) of ``values``, nearest rank."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered) + 0.5) - 1))]


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def run_clients(loops: list[Callable[[Callable[[], bool]], None]], connections: list[Connection],
                seconds: float, warm_up: float = 0.5, *, on_measuring: Callable[[], None] = lambda: None,
                on_done: Callable[[], None] = lambda: None) -> Run:
    """Run each ``loop(going)`` in a thread of its own until ``seconds`` have passed; return the samples.

    Each loop calls ``going()`` before every step and stops when it answers False. The first
    ``warm_up`` seconds are not recorded (connections opening, workers warming their caches).
    ``on_measuring`` is called when recording begins and ``on_done`` once every loop has stopped
    (benchmarks/move_cost.py reads the server's CPU time there).
    """
    start = threading.Barrier(len(loops) + 1)
    deadline = [float("inf")]
    errors: list[str] = []

    def going() -> bool:
        return time.perf_counter() < deadline[0]

    def body(loop: Callable) -> None:
        start.wait()
        try:
            loop(going)
        except Exception as error:  # a client's failure is reported, the others keep going
            errors.append(f"{type(error).__name__}: {error}")

    threads = [threading.Thread(target=body, args=(loop,), daemon=True) for loop in loops]
    for thread in threads:
        thread.start()
    began = time.perf_counter()
    deadline[0] = began + warm_up + seconds
    start.wait()
    time.sleep(warm_up)
    for connection in connections:
        connection.samples.clear()
    on_measuring()
    measured_from = time.perf_counter()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - measured_from
    on_done()
    run = Run(seconds=elapsed, errors=errors)
    for connection in connections:
        run.samples.extend(connection.samples)
        connection.close()
    return run
