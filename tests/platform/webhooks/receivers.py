"""A webhook receiver for tests: a threaded HTTP server on loopback that keeps every request it gets.

Its answers are scripted: ``statuses`` are answered in turn (the last one from then on), or
``answer`` decides from the request; ``delay`` holds each answer back. ``most_at_once`` is the most
requests it was answering at the same time.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass(frozen=True)
class Received:
    path: str
    headers: dict[str, str]
    body: bytes
    at: float


@dataclass
class Receiver:
    statuses: list[int] = field(default_factory=lambda: [200])
    answer_body: bytes = b"ok"
    delay: float = 0.0
    extra_headers: dict[str, str] = field(default_factory=dict)
    answer: Callable[[Received], int] | None = None
    received: list[Received] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    server: ThreadingHTTPServer | None = None
    answering: int = 0
    most_at_once: int = 0

    @property
    def port(self) -> int:
        return self.server.server_address[1]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/hook"

    def _status_for(self, request: Received) -> int:
        if self.answer is not None:
            return self.answer(request)
        with self.lock:
            index = min(len(self.received) - 1, len(self.statuses) - 1)
        return self.statuses[index]

    def start(self) -> "Receiver":
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                length = int(self.headers.get("Content-Length", "0"))
                request = Received(path=self.path, headers={k: v for k, v in self.headers.items()},
                                   body=self.rfile.read(length), at=time.monotonic())
                with receiver.lock:
                    receiver.received.append(request)
                    receiver.answering += 1
                    receiver.most_at_once = max(receiver.most_at_once, receiver.answering)
                try:
                    status = receiver._status_for(request)
                    if receiver.delay:
                        time.sleep(receiver.delay)
                    self.send_response(status)
                    for name, value in receiver.extra_headers.items():
                        self.send_header(name, value)
                    self.send_header("Content-Length", str(len(receiver.answer_body)))
                    self.end_headers()
                    self.wfile.write(receiver.answer_body)
                finally:
                    with receiver.lock:
                        receiver.answering -= 1

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def wait_for(self, count: int, timeout: float = 10) -> list[Received]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                if len(self.received) >= count:
                    return list(self.received)
            time.sleep(0.02)
        raise AssertionError(f"the receiver got {len(self.received)} requests, not {count}")
