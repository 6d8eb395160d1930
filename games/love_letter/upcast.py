"""Bring a stored Love Letter state written by an older engine version to the current shape.

Version 1 kept every event of the current round, public and private, in
``log`` (each with its round and turn). Version 2 keeps only what views need:
the round's private events in ``private`` (the private log of each seat) and,
per seat, the card it knows for certain each other seat holds in ``known``
(the card tracker's knowledge, folded from the events that seat saw). Both
are rebuilt from ``log`` exactly, so a game stored by version 1 goes on as if
version 2 had played it from the start.
"""

from __future__ import annotations

from typing import Any

from games.love_letter import tracker

VERSION = 2


def upcast(state: dict[str, Any]) -> dict[str, Any]:
    """Return ``state`` in the version-2 shape (the same object when it already has it); never change it."""
    if "log" not in state:
        return state
    new = dict(state)
    log = new.pop("log")
    seats = len(state["players"])
    new.setdefault("left", [False] * seats)
    new["private"] = [
        {"turn": entry["turn"], "kind": entry["kind"], "data": entry["data"], "visible_to": entry["visible_to"]}
        for entry in log
        if entry["visible_to"] is not None
    ]
    new["known"] = [
        tracker.known_hands(
            [entry for entry in log if entry["visible_to"] is None or seat in entry["visible_to"]], seat, seats
        )
        for seat in range(seats)
    ]
    return new
