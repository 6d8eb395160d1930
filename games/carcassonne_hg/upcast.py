"""Bring a stored Carcassonne: Hunters and Gatherers state written by an older engine version to the current shape.

Version 1 stored each board entry as ``[x, y, tile id, rot, placed by]``: a
worker that had not seen the board flood-filled it tile by tile before it
could list a move. Version 2 adds each entry's zone and river-system labels
(``features.labelled``), from which the analysis is read back in one pass.
The labels are a function of the placements alone, so an upcast state equals
the state version 2 reaches by replaying the same moves.
"""

from __future__ import annotations

from typing import Any

from games.carcassonne_hg.features import LABELLED, analyse, labelled

VERSION = 2


def upcast(state: dict[str, Any]) -> dict[str, Any]:
    """Return ``state`` in the version-2 shape (the same object when it already has it); never change it."""
    board = state["board"]
    if len(board[0]) == len(board[-1]) == LABELLED:
        return state
    new = dict(state)
    new["board"] = labelled(board, analyse(state["edition"], board))
    return new
