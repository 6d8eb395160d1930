"""The text of an event stream (Server-Sent Events, the HTML standard's ``text/event-stream``).

Shared by the stream process (``asgi.py``) and the web process's answer (``api.py``),
so both send the same bytes for the same events.
"""

from __future__ import annotations

import json
import re

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.utils.translation import gettext

from turnbased.events.models import Event
from turnbased.events.wording import current_of, worded_payload

CONTENT_TYPE = "text/event-stream; charset=utf-8"
# A comment line: it keeps proxies and clients from closing a quiet connection, and is no event.
HEARTBEAT = b": keep-alive\n\n"
# Event ids are bigints: 18 digits always fit one; ASCII digits only (int() would also read "١٢" or " 12").
_EVENT_ID = re.compile(r"[0-9]{1,18}")


class BadLastEventId(ValueError):
    """The resume point a client sent is not an event id."""


def last_event_id(header: str | None, query: str | None) -> int | None:
    """Return where the client resumes: the ``Last-Event-ID`` header, else ``?last_event_id=``; None for neither.

    An empty header counts as none (the standard lets a browser send one). Raise ``BadLastEventId``
    for anything that is not a whole number.
    """
    # Both are read, though the header wins: a malformed parameter is refused even beside a good header.
    resume = None if query is None else _event_id(query)
    return _event_id(header) if header else resume


def _event_id(given: str) -> int:
    if not _EVENT_ID.fullmatch(given):
        raise BadLastEventId(gettext("Last-Event-ID (or last_event_id) must be an event id: a whole number of "
                                     "at most 18 digits."))
    return int(given)


# ?include=: what a stream may add to its events as it sends them (``wording.add_current``), comma-separated.
EXTRAS = frozenset({"actions"})


class BadExtras(ValueError):
    """``include`` names something a stream cannot add to its events."""


def extras(given: list[str]) -> frozenset[str]:
    """Return what the ``include`` values (each comma-separated) ask a stream to add; raise ``BadExtras`` for anything
    else (a client must not believe it asked for something it will not get)."""
    asked = frozenset(value for values in given for value in values.split(",") if value)
    if not asked <= EXTRAS:
        raise BadExtras(gettext("include may only name what a stream can add to its events: actions."))
    return asked


def event_json(event: Event) -> dict:
    """Return the event as its ``data:`` line holds it (and as a webhook would send it), worded in the active
    language."""
    return {"id": event.id, "kind": event.kind, "game": event.game_id, "seq": event.seq,
            "created_at": event.created_at, "data": {**worded_payload(event), **current_of(event)}}


def frame(event: Event) -> bytes:
    """Return one event: its id (the resume point), its kind as the SSE event name, and its JSON on one line."""
    data = json.dumps(event_json(event), cls=DjangoJSONEncoder, ensure_ascii=False, separators=(",", ":"))
    return f"id: {event.id}\nevent: {event.kind}\ndata: {data}\n\n".encode()


def opening(start_id: int | None) -> bytes:
    """Return the start of every stream: how long to wait before reconnecting, and, for a stream that did not
    resume, an id with no data (no event: it only sets where a reconnect resumes, so nothing is missed)."""
    lines = f"retry: {settings.STREAM_RETRY_MILLISECONDS}\n"
    if start_id is not None:
        lines += f"id: {start_id}\n"
    return (lines + "\n").encode()
