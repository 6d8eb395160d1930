"""The words of an event, made when it is read, in the reader's language.

A row holds what its user may know of a change as facts (codes, seats, the engine's event data),
never words: the stream words it in the language its client asks for (``Accept-Language``, else the
account's), a webhook in its owner's. The apps that write events say how their kinds are worded
(``register_wording``, from their ``AppConfig.ready``), so this app still imports none of them.

A row written before rows held no words keeps the words it was written with.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from turnbased.events.models import Event

# kind -> the functions that add the words to a copy of a payload: (payload, event) -> payload
Wording = Callable[[dict, Event], dict]
_WORDINGS: dict[str, list[Wording]] = {}


def register_wording(kinds: Iterable[str], wording: Wording) -> None:
    """Word the payloads of ``kinds`` with ``wording`` when they are read (once per function and kind)."""
    for kind in kinds:
        listed = _WORDINGS.setdefault(kind, [])
        if wording not in listed:
            listed.append(wording)


def worded_payload(event: Event) -> dict:
    """Return the event's payload with its words, in the active language; the stored payload is left as it is."""
    payload = event.payload
    for wording in _WORDINGS.get(event.kind, ()):
        payload = wording(payload, event)
    return payload


# -- what is current, read when a row is sent --------------------------------------------------------

# kind -> the functions that add what is true now to rows of that kind as they are sent: (rows) -> None, each
# setting ``row.current`` (a dict added to the row's data) on the rows it adds to. They may read the database:
# they run where the rows were read (a stream's database thread, a webhook's task), once per batch of rows.
Current = Callable[[list[Event]], None]
_CURRENT: dict[str, list[Current]] = {}


def register_current(kinds: Iterable[str], reader: Current) -> None:
    """Let ``reader`` add what is current to the rows of ``kinds`` when they are sent and the reader asked."""
    for kind in kinds:
        listed = _CURRENT.setdefault(kind, [])
        if reader not in listed:
            listed.append(reader)


def add_current(events: list[Event]) -> None:
    """Let each kind's readers add what is true now to ``events`` (``row.current``), a batch per reader."""
    readers: dict[Current, list[Event]] = {}
    for event in events:
        for reader in _CURRENT.get(event.kind, ()):
            readers.setdefault(reader, []).append(event)
    for reader, rows in readers.items():
        reader(rows)


def current_of(event: Event) -> dict:
    """Return what ``add_current`` added to the row ({} when nothing was, or it was not asked)."""
    return getattr(event, "current", None) or {}
