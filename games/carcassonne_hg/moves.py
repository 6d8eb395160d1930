"""A Carcassonne: Hunters and Gatherers move as data: its JSON shape, checked and made canonical.

``{"x", "y", "rot"}`` place the drawn tile; ``"piece"`` and ``"region"`` (together) deploy a piece
on it; ``"recall": {"x", "y"}`` calls a tribe member back with the shaman. Whether the move may be
played in the position is the engine's to decide; this module only refuses what no position allows.
"""

from __future__ import annotations

from typing import Any

from games.base import IllegalMove
from games.carcassonne_hg import reasons
from games.carcassonne_hg.board import ROTATIONS
from games.carcassonne_hg.pieces import PIECES


def _int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise IllegalMove(reasons.not_a_whole_number(what, value))
    return value


def normalize(move: Any) -> dict[str, Any]:
    """Return the canonical form of a move object, or raise ``IllegalMove`` if it is malformed."""
    if not isinstance(move, dict):
        raise IllegalMove(reasons.not_an_object())
    extra = sorted(str(key) for key in set(move) - {"x", "y", "rot", "piece", "region", "recall"})
    if extra or not {"x", "y", "rot"} <= set(move):
        raise IllegalMove(reasons.wrong_fields())
    result: dict[str, Any] = {"x": _int(move["x"], "x"), "y": _int(move["y"], "y"), "rot": _int(move["rot"], "rot")}
    if result["rot"] not in ROTATIONS:
        raise IllegalMove(reasons.wrong_rotation(move["rot"]))
    if ("piece" in move) != ("region" in move):
        raise IllegalMove(reasons.piece_without_region())
    if "piece" in move:
        if move["piece"] not in PIECES:
            raise IllegalMove(reasons.unknown_piece(PIECES, move["piece"]))
        if not isinstance(move["region"], str):
            raise IllegalMove(reasons.region_not_an_id(move["region"]))
        result.update(piece=move["piece"], region=move["region"])
    if "recall" in move:
        recall = move["recall"]
        if not isinstance(recall, dict) or set(recall) != {"x", "y"}:
            raise IllegalMove(reasons.recall_not_a_square())
        result["recall"] = {"x": _int(recall["x"], "recall x"), "y": _int(recall["y"], "recall y")}
    return result
