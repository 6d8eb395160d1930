"""Text notation for Carcassonne: Hunters and Gatherers moves (both editions), used in emails and logs.

    place 3,-1 r90                      place the drawn tile on 3,-1 turned 90° clockwise, no piece
    place 3,-1 r90 hunter meadow N      ... and put a hunter on the meadow along its north side
    place 0,2 r0 gatherer forest        ... a gatherer in the (only) forest of the tile
    place 0,2 r0 hut lake               ... a hut on the lake (it claims the whole river system)
    place 2,0 r180 recall 0,1 hunter meadow NE
                                        shaman tile: first call your tribe member on 0,1 back

Squares are x,y with x growing east and y north; the start tile is 0,0.
Rotations are r0, r90, r180, r270 (clockwise). Case-insensitive.
"""

from __future__ import annotations

import re
from typing import Any

from games.base import BadNotation
from games.carcassonne_hg import tiles
from games.carcassonne_hg.board import ROTATIONS, TOKEN_ORDER, region_names, region_tokens
from games.carcassonne_hg.tiles import FOREST, LAKE, MEADOW, RIVER

_COORD = re.compile(r"(-?\d+),(-?\d+)")
_ROT = re.compile(r"(?:r|rot|rotate|rotation)?(\d+)(?:°|deg)?")

PIECE_WORDS = {
    "gatherer": "gatherer",
    "gatherers": "gatherer",
    "fisherman": "fisherman",
    "fishermen": "fisherman",
    "fisher": "fisherman",
    "hunter": "hunter",
    "hut": "hut",
    "fishing-hut": "hut",
}
TYPE_WORDS = {
    "forest": FOREST,
    "wood": FOREST,
    "meadow": MEADOW,
    "grassland": MEADOW,
    "field": MEADOW,
    "river": RIVER,
    "stream": RIVER,
    "lake": LAKE,
}
ROLE_OF_TYPE = {FOREST: "gatherer", RIVER: "fisherman", MEADOW: "hunter", LAKE: "hut"}
PLACES = {"gatherer": (FOREST,), "fisherman": (RIVER,), "hunter": (MEADOW,), "hut": (LAKE, RIVER)}
NO_PIECE = {"", "no meeple", "no piece", "no figure", "none", "nothing", "no", "-", "no deployment"}
FILLER = {"on", "in", "the", "a", "an", "at", "of", "then", "and", "to", "fishing", "with"}


def notation_help() -> str:
    """Return a few lines explaining how to write any move."""
    return "\n".join(
        [
            "A turn is: place X,Y ROTATION [recall X,Y] [PIECE FEATURE]",
            "  X,Y: the square, x growing east and y north; the start tile is 0,0 (e.g. 3,-1).",
            "  ROTATION: r0, r90, r180 or r270, clockwise from the tile as printed in the catalogue.",
            "  PIECE: gatherer (forest), fisherman (river), hunter (meadow) or hut (lake, or a river with no lake).",
            "  FEATURE: forest, meadow, river or lake, plus a compass side or corner as placed",
            "    (N E S W NE SE SW NW) when the tile has several: 'hunter meadow N', 'hut lake', 'fisherman river W'.",
            "  No piece: stop after the rotation, or write 'no meeple'.",
            "  Shaman tile only: 'recall X,Y' first calls your tribe member on that square back.",
            "Examples: place 3,-1 r90   place 3,-1 r90 hunter meadow N   place 2,0 r180 recall 0,1 gatherer forest",
            "A tile that fits nowhere is set aside automatically; there is no pass.",
        ]
    )


def _words(text: str) -> list[str]:
    text = text.lower().replace("(", " ").replace(")", " ").replace("[", " ").replace("]", " ")
    text = re.sub(r"\s*,\s*", ",", text.replace(";", " ").strip().rstrip("."))
    text = text.replace("fishing hut", "hut").replace("tribe member", "meeple")
    return text.split()


def _coord(word: str | None, what: str, text: str) -> tuple[int, int]:
    match = _COORD.fullmatch(word or "")
    if not match:
        raise BadNotation(f"Expected {what} as x,y (such as 3,-1) in {text!r}")
    return int(match.group(1)), int(match.group(2))


def parse_move(text: str, state: dict[str, Any], seat: int) -> dict[str, Any]:
    """Read the text notation into a move (legality is checked by apply)."""
    if not isinstance(text, str):
        raise BadNotation("A move must be text such as 'place 3,-1 r90 hunter meadow N'")
    words = _words(text)
    if not words:
        raise BadNotation("Write a move, for example 'place 3,-1 r90' or 'place 3,-1 r90 hunter meadow N'")
    if words == ["pass"]:
        raise BadNotation("There is no pass: a tile that fits nowhere is set aside automatically; place your tile")
    if words[0] in ("place", "put", "play", "lay"):
        words = words[1:]
    x, y = _coord(words[0] if words else None, "the square", text)
    words = words[1:]
    if words and words[0] in ("r", "rot", "rotate", "rotation", "turned") and len(words) > 1:
        words = [words[0] + words[1], *words[2:]]
    match = _ROT.fullmatch(words[0]) if words else None
    if not match or int(match.group(1)) not in ROTATIONS:
        raise BadNotation(f"Expected a rotation r0, r90, r180 or r270 after the square in {text!r}")
    rot = int(match.group(1))
    words = [w for w in words[1:] if w not in FILLER]
    move: dict[str, Any] = {"x": x, "y": y, "rot": rot}
    if words and words[0] in ("recall", "shaman", "return"):
        rx, ry = _coord(words[1] if len(words) > 1 else None, "the square of the tribe member to recall", text)
        move["recall"] = {"x": rx, "y": ry}
        words = words[2:]
    if " ".join(words) in NO_PIECE:
        return move
    piece, region = _deployment(words, state, rot, text)
    move.update(piece=piece, region=region)
    return move


def _deployment(words: list[str], state: dict[str, Any], rot: int, text: str) -> tuple[str, str]:
    """Return (piece, region id) for the deployment words, resolved on the tile being placed."""
    if not state.get("tile"):
        raise BadNotation("There is no tile to place now")
    edition = state["edition"]
    tile = tiles.oriented(edition, state["tile"], rot)
    piece = PIECE_WORDS.get(words[0])
    if piece or words[0] == "meeple":
        words = words[1:]
    kind = TYPE_WORDS.get(words[0]) if words else None
    if kind:
        words = words[1:]
    if piece is None and kind is None:
        raise BadNotation(f"Say which piece goes where: gatherer, fisherman, hunter or hut, then where ({text!r})")
    if piece is None:
        piece = ROLE_OF_TYPE[kind]
    if kind and kind not in PLACES[piece]:
        raise BadNotation(f"A {piece} goes on a {' or '.join(PLACES[piece])}, not on a {kind} ({text!r})")
    kinds = (kind,) if kind else PLACES[piece]
    tokens = [token.upper() for word in words for token in re.split(r"[-+/]", word) if token]
    bad = [t for t in tokens if t not in TOKEN_ORDER and not re.fullmatch(r"[NESW][012]|[FMRL]\d", t)]
    if bad:
        raise BadNotation(f"Unknown side {bad[0]!r}: use N, E, S, W, NE, SE, SW or NW ({text!r})")
    found: dict[str, Any] = {}
    for region in tile.regions:
        if region.kind not in kinds:
            continue
        known = set(region_tokens(tile, region.id)) | {region.id.upper()}
        if all(token in known for token in tokens):
            if piece == "hut" and region.kind == RIVER and region.lake:
                region = tile.region(region.lake)  # a hut on such a river stands for its lake's system (§4.2)
            found[region.id] = region
    names = region_names(edition, tile.id, tile.rot)
    if not found:
        wanted = " or ".join(kinds)
        raise BadNotation(f"The tile {tile.id} turned {rot}° has no {wanted} like that ({text!r})")
    if len(found) > 1:
        options = ", ".join(f"'{names[r]}'" for r in found)
        raise BadNotation(f"Which one? The tile turned {rot}° has {options}")
    return piece, next(iter(found))


def describe_move(state: dict[str, Any], move: dict[str, Any]) -> str:
    """Return the text notation of ``move`` (it parses back to the same move)."""
    text = f"place {move['x']},{move['y']} r{move['rot']}"
    if "recall" in move:
        text += f" recall {move['recall']['x']},{move['recall']['y']}"
    if "piece" in move:
        names = region_names(state["edition"], state["tile"], move["rot"]) if state.get("tile") else {}
        text += f" {move['piece']} {names.get(move['region'], move['region'])}"
    return text


def moves_summary(texts: list[str], limit: int = 40) -> list[str]:
    """Return the legal moves as email lines: all of them if few, else one line per square and rotation."""
    if len(texts) <= limit:
        return list(texts)
    lines: dict[str, list[str]] = {}
    for text in texts:
        words = text.split(" ")
        cut = 5 if len(words) > 3 and words[3] == "recall" else 3
        lines.setdefault(" ".join(words[:cut]), []).append(" ".join(words[cut:]) or "no meeple")
    return [f"{head}: {' | '.join(choices)}" for head, choices in lines.items()]
