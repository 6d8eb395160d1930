"""Scripted-deal helpers for the Savernake Forest engine tests."""

from __future__ import annotations

import copy
from functools import partial
from typing import Any

from games.savernake_forest import ENGINE, cards
from tests.games import scripting
from tests.games.scripting import kinds, only  # noqa: F401 (the game's tests import them from here)

NAMES = ["Alice", "Bob", "Carol", "Dave"]
ALICE, BOB, CAROL, DAVE = range(4)


def deck(starts: list[str], rows: list[tuple] = ()) -> dict[str, list[str]]:
    """Return a scripted deck: ``starts`` (one animal per seat), then one market row per entry of ``rows``.

    A row is (rooster, goat, armadillo, rabbit); None leaves a place to the
    next unnamed card in catalogue order.
    """
    named = set(starts) | {card for row in rows for card in row if card}
    spare_paths = [card for card in cards.PATH_IDS if card not in named]
    spare_animals = [card for card in cards.ANIMAL_IDS if card not in named]
    paths = [card or spare_paths.pop(0) for row in rows for card in row[:3]]
    animals = [*starts, *(row[3] or spare_animals.pop(0) for row in rows)]
    return {"paths": paths, "animals": animals}


def deal(starts: list[str], rows: list[tuple] = (), *, first: int = 0, seed: int | str = 0, **options) -> dict:
    """Return a new game with scripted starting animals and market rows; seat ``first`` starts."""
    n = len(starts)
    return ENGINE.setup(NAMES[:n], {"deck": deck(starts, rows), "first_player": first, **options}, seed)


def animal(card: str, x: int = 0, y: int = 0, rot: int = 0, *, up: bool = True, drops: str = "", burrows: int = 0):
    """Return a forest entry for an animal card."""
    return {"card": card, "x": x, "y": y, "rot": rot, "up": up, "drops": list(drops), "burrows": burrows}


def path(card: str, x: int, y: int, rot: int = 0) -> dict[str, Any]:
    """Return a forest entry for a path card."""
    return {"card": card, "x": x, "y": y, "rot": rot}


def with_forest(state: dict, seat: int, forest: list[dict], **changes) -> dict:
    """Return a copy of ``state`` whose ``seat`` has ``forest`` (test surgery), with other top-level changes."""
    state = copy.deepcopy(state)
    state["forests"][seat] = copy.deepcopy(forest)
    state.update(copy.deepcopy(changes))
    return state


def seat_view(state: dict, seat: int) -> dict:
    return ENGINE.view(state, seat)["seats"][seat]


def live(state: dict, seat: int) -> int:
    """Return the seat's "if the game ended now" score."""
    return seat_view(state, seat)["score"]


def scored(state: dict, seat: int, card: str) -> dict:
    """Return the live score sheet of one animal."""
    return next(item for item in seat_view(state, seat)["animals"] if item["card"] == card)


# Scripted play, the same for every game (tests/games/scripting.py).
act = partial(scripting.act, ENGINE)
play = partial(scripting.play, ENGINE)
