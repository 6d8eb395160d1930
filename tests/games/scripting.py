"""Playing a scripted game in a test, the same way for every game: each game's test package binds these to its
engine (``act = partial(scripting.act, ENGINE)``) beside its own deals and positions."""

from __future__ import annotations

import copy

from games.base import Engine, Event


def act(engine: Engine, state: dict, move: dict | str, seat: int | None = None) -> tuple[dict, list[Event]]:
    """Apply ``move`` (a move object or its notation) for ``seat`` (default: the seat to move)."""
    seat = engine.to_move(state)[0] if seat is None else seat
    if isinstance(move, str):
        move = engine.parse_move(move, state, seat)
    return engine.apply(state, seat, move)


def play(engine: Engine, state: dict, *moves: dict | str) -> tuple[dict, list[Event]]:
    """Apply several moves in turn, each by the seat to move; return the last state and all events."""
    events: list[Event] = []
    for move in moves:
        state, new = act(engine, state, move)
        events.extend(new)
    return state, events


def legal_texts(engine: Engine, state: dict, seat: int | None = None) -> set[str]:
    """Return the notation of every legal move of ``seat`` (default: the seat to move)."""
    seat = engine.to_move(state)[0] if seat is None else seat
    return {engine.describe_move(state, move) for move in engine.legal_moves(state, seat)}


def kinds(events: list[Event]) -> list[str]:
    """Return the kinds of ``events`` in order."""
    return [event.kind for event in events]


def only(events: list[Event], kind: str) -> Event:
    """Return the single event of ``kind``."""
    found = [event for event in events if event.kind == kind]
    assert len(found) == 1, (kind, kinds(events))
    return found[0]


def clone(state: dict) -> dict:
    """Return a deep copy for surgery."""
    return copy.deepcopy(state)
