"""Scripted-deal helpers for the Love Letter engine tests."""

from __future__ import annotations

import copy
from collections import Counter

from games.base import Event
from games.love_letter import ENGINE, cards
from games.love_letter.player_view import private_lines
from tests.games.scripting import kinds, only  # noqa: F401 (the game's tests import them from here)

NAMES = ["Alice", "Bob", "Carol", "Dave", "Erin", "Frank"]


def deal(
    hands: list[str],
    draws: list[str] = (),
    *,
    edition: str = "classic",
    set_aside: str | None = None,
    face_up: list[str] | None = None,
    first: int = 0,
    seed: int | str = 0,
    **options,
) -> dict:
    """Return a new game whose round 1 deals ``hands`` (one card per seat) and then ``draws``.

    The first player has already drawn ``draws[0]``. Unnamed cards follow in
    value order (Guards first); the set-aside and face-up cards default to the
    highest remaining ones.
    """
    n = len(hands)
    pool = Counter(cards.full_deck(edition))
    named = [*hands, *draws, *([set_aside] if set_aside else []), *(face_up or [])]
    for card in named:
        pool[card] -= 1
        assert pool[card] >= 0, f"too many {card}"
    rest = sorted(pool.elements(), key=lambda card: cards.value(edition, card))
    if set_aside is None:
        set_aside = rest.pop()
    if face_up is None:
        face_up = [rest.pop() for _ in range(cards.FACE_UP_REMOVED.get(n, 0))]
    order = [set_aside, *face_up, *(hands[(first + i) % n] for i in range(n)), *draws, *rest]
    return ENGINE.setup(NAMES[:n], {"edition": edition, "deck": order, "first_player": first, **options}, seed)


def act(state: dict, move: dict, seat: int | None = None) -> tuple[dict, list[Event]]:
    """Apply ``move`` for ``seat`` (default: the seat to move)."""
    return ENGINE.apply(state, state["current"] if seat is None else seat, move)


def play(state: dict, *moves: dict) -> tuple[dict, list[Event]]:
    """Apply several moves in turn, each by the seat to move; return the last state and all events."""
    events: list[Event] = []
    for move in moves:
        state, new = act(state, move)
        events.extend(new)
    return state, events


def shorten_deck(state: dict, left: int) -> dict:
    """Return a copy whose deck keeps only its top ``left`` cards (test surgery: the rest go face up)."""
    state = copy.deepcopy(state)
    state["face_up"] = state["face_up"] + state["deck"][left:]
    state["deck"] = state["deck"][:left]
    return state


def private_texts(view: dict, kind: str | None = None) -> list[str]:
    """Return the view's private log as its viewer reads it (the view holds kinds and data, no words)."""
    return [line["text"] for entry, line in zip(view["private_log"], private_lines(view))
            if kind is None or entry["kind"] == kind]
