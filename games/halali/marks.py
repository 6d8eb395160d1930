"""The tiles a Halali! player may mark in their private notes (issue 46): every square that holds a tile, face up or
face down (a face-down tile to remember a guess about, a piece to watch), named by its square."""

from __future__ import annotations

from typing import Any

from games.halali.board_words import _kind_word
from games.i18n import catalog_of

_ = catalog_of(__name__)


def _order(square: str) -> tuple[int, str]:
    """The board's reading order: from the north row (7) down, west to east."""
    return -int(square[1:]), square[0]


def mark_spots(view: dict[str, Any]) -> list[tuple[str, str]]:
    named = {square: _("{square}, face down").format(square=square) for square in view.get("face_down", [])}
    for tile in view.get("tiles", []):
        named[tile["square"]] = _("{square}: {tile}").format(square=tile["square"],
                                                              tile=_kind_word(tile["kind"], tile.get("dir")))
    return [(f"square:{square}", named[square]) for square in sorted(named, key=_order)]
