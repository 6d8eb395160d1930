"""How the Love Letter rules change a state: copying only what changes, and recording each event.

``apply`` works on a shallow copy of the state (a new dict); these helpers
replace each list they change with a new list (``put``, ``add``, ``draw``), so
the lists the new state shares with the input are never changed in place.
``emit`` records an event in the list ``apply`` returns and keeps what the
state holds instead of an event log: the current round's private events
(``private``, what each seat's private log shows) and what each seat knows of
the others' hands (``known``, for its card tracker).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from games.base import Event, State
from games.love_letter import tracker

# -- events ----------------------------------------------------------------------


def emit(state: State, events: list[Event], kind: str, data: dict[str, Any], to: list[int] | None = None) -> None:
    """Record an event in the returned list; keep a private one for its seats' log; update what seats know."""
    if to is None:
        events.append(Event(kind, data))
        if tracker.forgets(kind) and any(map(any, state["known"])):
            _learn(state, kind, data, range(len(state["players"])))
        return
    visible_to = sorted(set(to))
    events.append(Event(kind, data, visible_to))
    entry = {"turn": state["turn"], "kind": kind, "data": data, "visible_to": visible_to}
    state["private"] = [*state["private"], entry]
    if kind in tracker.TEACHING:
        _learn(state, kind, data, visible_to)


def _learn(state: State, kind: str, data: dict[str, Any], seats: Iterable[int]) -> None:
    """Fold the event into what each of ``seats`` knows of the others' hands (the card tracker's knowledge)."""
    known = list(state["known"])
    for seat in seats:
        known[seat] = tracker.learn(known[seat], kind, data, seat)
    state["known"] = known


# -- copying only what changes ------------------------------------------------------


def put(state: State, key: str, seat: int, item: Any) -> None:
    """Set ``state[key][seat]`` to ``item`` in a new list (the old one may be shared with the input state)."""
    changed = list(state[key])
    changed[seat] = item
    state[key] = changed


def add(state: State, key: str, seat: int, items: list[Any]) -> None:
    """Append ``items`` to the seat's list in ``state[key]`` (hands, discards), in new lists."""
    put(state, key, seat, [*state[key][seat], *items])


def draw(state: State) -> str:
    """Take the top card of the deck (a new list without it)."""
    card = state["deck"][0]
    state["deck"] = state["deck"][1:]
    return card
