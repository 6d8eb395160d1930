"""Real concurrent requests, for the tests of what the game's lock settles (a move racing an agreement, a seat
taken while the table moves): each request from a thread of its own, released together at a barrier."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

from django.db import connection


@dataclass(frozen=True)
class Request:
    """One API request of a race: by ``user``, a POST of ``body`` to ``path``, sent ``delay`` seconds after the
    start (to let another request take the game's lock first, most often)."""

    name: str
    user: object
    path: str
    body: dict | None = None
    delay: float = 0.0


def race(api_client_for, *requests: Request, timeout: float = 30) -> dict[str, int]:
    """Send ``requests`` at once, each from its own thread and database connection; return each one's status code
    by name (a request still running after ``timeout`` seconds is missing from the answer)."""
    barrier, answers = threading.Barrier(len(requests)), {}

    def send(request: Request) -> None:
        try:
            barrier.wait(10)
            if request.delay:
                time.sleep(request.delay)
            answers[request.name] = api_client_for(request.user).post(request.path, request.body,
                                                                       format="json").status_code
        finally:
            connection.close()

    threads = [threading.Thread(target=send, args=(request,)) for request in requests]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout)
    return answers
