"""Text notation for Halali! moves, used in emails and logs.

    flip c5        turn over the face-down tile on c5
    c5-c2          move the tile on c5 to c2
    c5xc2          the same move when it captures (c5-c2 is read the same way)
    d7 out         move the tile on d7 off the board through its own exit (north)
    d5 out N       move the tile on d5 off the board through the north exit (d7)
    pass           the forced pass, only when no legal move exists

Case-insensitive. Squares run a–g west to east and 1–7 south to north.
"""

from __future__ import annotations

import re
from typing import Any

from games.base import BadNotation
from games.halali import board
from games.halali.board import EXITS

_SQ = r"([a-g][1-7])"
_FLIP = re.compile(rf"(?:flip|turn(?: over)?|reveal)\s+{_SQ}|{_SQ}")
_STEP = re.compile(rf"{_SQ}\s*(?:-|x|:|–|to|\s)\s*{_SQ}")
_EXIT = re.compile(rf"{_SQ}\s*(?:-\s*)?(?:out|exit)(?:\s+(?:through\s+|via\s+)?([a-z0-9]+))?")

EXIT_WORDS = {
    **{d: d for d in "nesw"},
    "north": "n",
    "east": "e",
    "south": "s",
    "west": "w",
    **{board.name(gate): d.lower() for d, gate in EXITS.items()},
}


def notation_help() -> str:
    """Return a few lines explaining how to write any move."""
    return "\n".join(
        [
            "Squares: files a–g (west to east), ranks 1–7 (south to north); d4 is the centre.",
            "Turn a tile over: flip c5",
            "Move a face-up tile in a straight line: c5-c2 (a capture may be written c5xc2)",
            "Final phase, leave through an exit (d7 north, g4 east, d1 south, a4 west):",
            "  d7 out (from the exit square itself)   d5 out N (name the exit: N, E, S, W or its square)",
            "pass: only when you have no legal move in the final phase.",
        ]
    )


def parse_move(text: str, state: dict[str, Any], seat: int) -> dict[str, Any]:
    """Read the text notation into a move (legality is checked by apply)."""
    if not isinstance(text, str):
        raise BadNotation("A move must be text such as 'flip c5' or 'c5-c2'")
    words = " ".join(text.lower().replace(",", " ").split())
    if not words:
        raise BadNotation("Write a move, for example 'flip c5', 'c5-c2' or 'd7 out'")
    if words == "pass":
        return {"pass": True}
    match = _FLIP.fullmatch(words)
    if match:
        return {"flip": match.group(1) or match.group(2)}
    match = _STEP.fullmatch(words)
    if match:
        return {"from": match.group(1), "to": match.group(2)}
    match = _EXIT.fullmatch(words)
    if match:
        start, where = match.group(1), match.group(2)
        if where is None:
            direction = next((d for d, gate in EXITS.items() if board.name(gate) == start), None)
            if direction is None:
                raise BadNotation(f"Name the exit to leave by from {start}: '{start} out N' (N, E, S or W)")
            return {"from": start, "to": "out", "exit": direction}
        if where not in EXIT_WORDS:
            raise BadNotation(f"Unknown exit {where!r}: write N, E, S, W or the exit square (d7, g4, d1, a4)")
        return {"from": start, "to": "out", "exit": EXIT_WORDS[where].upper()}
    if re.search(r"[a-z]\d", words) and not re.search(r"\b[a-g][1-7]\b", words.replace("x", " ").replace("-", " ")):
        raise BadNotation(f"No such square in {text!r}: squares go from a1 to g7")
    raise BadNotation(f"Cannot read {text!r}; write 'flip c5', 'c5-c2', 'c5xc2', 'd7 out', 'd5 out N' or 'pass'")


def describe_move(state: dict[str, Any], move: dict[str, Any]) -> str:
    """Return the text notation of ``move`` (it parses back to the same move)."""
    if "flip" in move:
        return f"flip {move['flip'].lower()}"
    if move.get("pass"):
        return "pass"
    start = move["from"].lower()
    if str(move["to"]).lower() == "out":
        direction = move.get("exit")
        if direction is None or board.INDEX.get(start) == EXITS.get(str(direction).upper()):
            return f"{start} out"
        return f"{start} out {str(direction).upper()}"
    end = move["to"].lower()
    target = state["board"][board.index(end)] if end in board.INDEX else None
    # Only a face-up tile makes an "x": a face-down tile's presence is public, never its kind.
    return f"{start}{'x' if target is not None and target['up'] else '-'}{end}"
