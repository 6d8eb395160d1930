"""Server-Sent Events: read ``GET /api/stream/`` as events, and reconnect where it left off.

The format (https://html.spec.whatwg.org/multipage/server-sent-events.html): lines of
``field: value``; ``event`` names the kind, ``data`` lines (joined by newlines) carry the
payload, ``id`` numbers the event and ``retry`` sets the reconnection delay in milliseconds; a
line starting with ``:`` is a comment (a keep-alive); a blank line ends an event. After a
dropped connection the reader asks again with ``Last-Event-ID``, and the server sends every
event since that one.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import httpx

from turnbased_client.core import retry_after
from turnbased_client.errors import ApiError

STREAM_PATH = "/api/stream/"
# A stream is quiet between events; the server's keep-alive comments arrive well within this.
STREAM_TIMEOUT = httpx.Timeout(15.0, read=90.0)
FIRST_DELAY = 1.0  # seconds before reconnecting, until the server sends ``retry:``
MAX_DELAY = 60.0
# Answers after which asking again may succeed; any other error status ends the stream.
PASSING_STATUSES = (429, 502, 503, 504)
# The kind of the marker ``read_stream(opened=True)`` yields each time a connection is opened: whatever
# waited before it (my turns, my invitations) can be listed then, and anything later comes as an event.
OPENED = "stream_opened"


@dataclass(frozen=True)
class StreamEvent:
    """One event: its ``id`` (send it back as ``Last-Event-ID``), its ``kind`` and its JSON ``data``."""

    kind: str
    data: Any
    id: str | None = None


@dataclass
class StreamState:
    """What outlives one connection: the last event id and the reconnection delay."""

    last_event_id: str | None = None
    retry_seconds: float | None = None


def parse_event_stream(lines: Iterable[str], state: StreamState | None = None) -> Iterator[StreamEvent]:
    """Yield the events of text/event-stream ``lines`` (without their line ends), updating ``state``.

    An id counts (``state.last_event_id``) once its event is complete, as the standard says: an event
    cut off by a dropped connection is asked for again.
    """
    state = state if state is not None else StreamState()
    kind, data, event_id = "", list[str](), state.last_event_id
    for line in lines:
        if line == "":
            state.last_event_id = event_id
            if data:
                text = "\n".join(data)
                yield StreamEvent(kind=kind or "message", data=_decoded(text), id=state.last_event_id)
            kind, data = "", list[str]()
            continue
        if line.startswith(":"):
            continue  # a comment: the server's keep-alive
        name, colon, value = line.partition(":")
        if colon and value.startswith(" "):
            value = value[1:]
        if name == "event":
            kind = value
        elif name == "data":
            data.append(value)
        elif name == "id" and "\0" not in value:
            event_id = value
        elif name == "retry" and value.isascii() and value.isdigit():
            state.retry_seconds = int(value) / 1000
    # An event not ended by a blank line when the connection drops is incomplete: the spec drops it.


def _decoded(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text


def read_stream(http: httpx.Client, *, last_event_id: str | None = None, reconnect: bool = True,
                sleep: Callable[[float], None], url: str = STREAM_PATH, opened: bool = False,
                renew_after: float | None = None, include: str | None = None) -> Iterator[StreamEvent]:
    """Yield the events of the stream at ``url`` for as long as it lasts, reconnecting with ``Last-Event-ID``.

    ``opened``: also yield an ``OPENED`` marker each time a connection is opened (its ``id`` the point it
    resumes from). ``renew_after``: close a connection after that many seconds and open the next at once
    (with ``reconnect``), so a client gets the marker that often. ``include``: what the stream adds to its
    events (``"actions"``: a current turn's view and legal moves).

    Raises ``ApiError`` at once for an answer that asking again cannot change (401, 403, 404):
    a client without a stream on its server falls back to polling on a 404.
    """
    state = StreamState(last_event_id=last_event_id)
    failures = 0
    while True:
        headers = {"Accept": "text/event-stream", "Cache-Control": "no-cache"}
        params = {"include": include} if include else {}
        if state.last_event_id is not None:
            # The standard's header, and the same as the query parameter the schema offers beside it: a proxy
            # that drops headers it does not know cannot make the stream start over (the header wins).
            headers["Last-Event-ID"] = params["last_event_id"] = state.last_event_id
        refused: ApiError | None = None
        try:
            with http.stream("GET", url, params=params, headers=headers, timeout=STREAM_TIMEOUT) as response:
                if response.status_code >= 400:
                    response.read()
                    refused = _error_of(response)
                    if response.status_code not in PASSING_STATUSES or not reconnect:
                        raise refused
                else:
                    failures = 0  # connected: a stream the server ends is no failure (it says when to return)
                    if opened:
                        yield StreamEvent(kind=OPENED, data=None, id=state.last_event_id)
                    renewal = _Renewal(time.monotonic() + renew_after) if renew_after is not None else None
                    lines = renewal.lines(response.iter_lines()) if renewal else response.iter_lines()
                    for event in parse_event_stream(lines, state):
                        failures = 0
                        yield event
                    if renewal and renewal.due and reconnect:
                        continue  # renewed, not dropped: no delay
        except httpx.TransportError:
            pass  # a dropped connection or a silent server: connect again
        if not reconnect:
            return
        failures += 1
        delay = state.retry_seconds if state.retry_seconds is not None else FIRST_DELAY
        # Back off while connecting fails again and again, with jitter so clients do not return in step.
        delay = min(MAX_DELAY, delay * 2 ** min(failures - 1, 6)) * random.uniform(0.8, 1.2)
        sleep(max(delay, (refused.retry_after if refused else None) or 0.0))


@dataclass
class _Renewal:
    """Ends a connection's lines at ``deadline`` (monotonic seconds), between events (keep-alives included)."""

    deadline: float
    due: bool = False

    def lines(self, lines: Iterator[str]) -> Iterator[str]:
        for line in lines:
            yield line
            if (line == "" or line.startswith(":")) and time.monotonic() >= self.deadline:
                self.due = True
                return


def _error_of(response: httpx.Response) -> ApiError:
    try:
        body: Any = response.json()
    except ValueError:
        body = response.text
    return ApiError.from_answer(response.status_code, body, reason=response.reason_phrase,
                                retry_after=retry_after(response), method="GET", url=str(response.request.url))
