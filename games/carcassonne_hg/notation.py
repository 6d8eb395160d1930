"""Text notation for Carcassonne: Hunters and Gatherers moves (both editions), used in emails and logs.

    place 3,-1 r90                      place the drawn tile on 3,-1 turned 90° clockwise, no piece
    place 3,-1 r90 hunter meadow N      ... and put a hunter on the meadow along its north side
    place 0,2 r0 gatherer forest        ... a gatherer in the (only) forest of the tile
    place 0,2 r0 hut lake               ... a hut on the lake (it claims the whole river system)
    place 2,0 r180 recall 0,1 hunter meadow NE
                                        shaman tile: first call your tribe member on 0,1 back

Squares are x,y with x growing east and y north; the start tile is 0,0.
Rotations are r0, r90, r180, r270 (clockwise). Case-insensitive.

The words are the reader's (``lexicon``): ``lerak 3,-1 90° vadász rét É`` in Hungarian, ``lege 3,-1
90° Jäger Wiese N`` in German; English is read in every language. The log keeps the English text.
"""

from __future__ import annotations

import re
from typing import Any

from games.base import BadNotation
from games.carcassonne_hg import lexicon, reasons, terms, tiles
from games.carcassonne_hg.board import ROTATIONS, TOKEN_ORDER, region_names, region_tokens
from games.carcassonne_hg.lexicon import fold
from games.carcassonne_hg.tiles import FOREST, LAKE, MEADOW, RIVER
from games.i18n import ENGLISH, catalog_of, language

_ = catalog_of(__name__)

_COORD = re.compile(r"(-?\d+),(-?\d+)")

ROLE_OF_TYPE = {FOREST: "gatherer", RIVER: "fisherman", MEADOW: "hunter", LAKE: "hut"}
PLACES = {"gatherer": (FOREST,), "fisherman": (RIVER,), "hunter": (MEADOW,), "hut": (LAKE, RIVER)}


def notation_help() -> str:
    """Return a few lines explaining how to write any move, in the reader's words (and that English works too)."""
    lines = [
        _("A turn is: place X,Y ROTATION [recall X,Y] [PIECE FEATURE]"),
        _("  X,Y: the square, x growing east and y north; the start tile is 0,0 (e.g. 3,-1)."),
        _("  ROTATION: r0, r90, r180 or r270, clockwise from the tile as printed in the catalogue."),
        _("  PIECE: gatherer (forest), fisherman (river), hunter (meadow) or hut (lake, or a river with no lake)."),
        _("  FEATURE: forest, meadow, river or lake, plus a compass side or corner as placed"),
        _("    (N E S W NE SE SW NW) when the tile has several: 'hunter meadow N', 'hut lake', 'fisherman river W'."),
        _("  No piece: stop after the rotation, or write 'no meeple'."),
        _("  Shaman tile only: 'recall X,Y' first calls your tribe member on that square back."),
        _("Examples: place 3,-1 r90   place 3,-1 r90 hunter meadow N   place 2,0 r180 recall 0,1 gatherer forest"),
        _("A tile that fits nowhere is set aside automatically; there is no pass."),
    ]
    if lexicon.vocabulary().place != _english().place:
        lines.append(_("You may also write your moves in English: place 3,-1 r90 hunter meadow N."))
    return "\n".join(lines)


def _english() -> lexicon.Vocabulary:
    with language(ENGLISH):
        return lexicon.vocabulary()


def _words(text: str) -> list[str]:
    text = text.lower().replace("(", " ").replace(")", " ").replace("[", " ").replace("]", " ")
    text = re.sub(r"\s*,\s*", ",", text.replace(";", " ").strip().rstrip("."))
    text = text.replace("tribe member", "meeple")
    return fold(text).split()


def _coord(word: str | None, text: str, *, recall: bool = False) -> tuple[int, int]:
    match = _COORD.fullmatch(word or "")
    if not match:
        if recall:
            raise BadNotation(_("Expected the square of the tribe member to recall as x,y (such as 0,1) in '{text}'")
                              .format(text=text))
        raise BadNotation(_("Expected the square as x,y (such as 3,-1) in '{text}'").format(text=text))
    return int(match.group(1)), int(match.group(2))


def _rotation(words: list[str], vocabulary: lexicon.Vocabulary) -> tuple[int | None, list[str]]:
    """Read a rotation (``r90``, ``rot 90``, ``90°``, ``90 fok``, ``d90``) from the front of ``words``."""
    if len(words) > 1 and words[0] in vocabulary.rotation_prefixes:
        words = [words[0] + words[1], *words[2:]]
    if len(words) > 1 and words[1] in vocabulary.rotation_suffixes:
        words = [words[0] + words[1], *words[2:]]
    if not words:
        return None, words
    token = words[0]
    for suffix in sorted(vocabulary.rotation_suffixes, key=len, reverse=True):
        if token.endswith(suffix) and len(token) > len(suffix):
            token = token[: -len(suffix)]
            break
    for prefix in sorted(vocabulary.rotation_prefixes, key=len, reverse=True):
        if token.startswith(prefix) and token[len(prefix):].isdigit():
            token = token[len(prefix):]
            break
    if not token.isdigit() or int(token) not in ROTATIONS:
        return None, words
    return int(token), words[1:]


def parse_move(text: str, state: dict[str, Any], seat: int) -> dict[str, Any]:
    """Read the text notation into a move (legality is checked by apply), in the reader's language or English."""
    if not isinstance(text, str):
        raise BadNotation(_("A move must be text such as 'place 3,-1 r90 hunter meadow N'"))
    vocabulary = lexicon.reading()
    words = _words(text)
    if not words:
        raise BadNotation(_("Write a move, for example 'place 3,-1 r90' or 'place 3,-1 r90 hunter meadow N'"))
    if len(words) == 1 and words[0] in vocabulary.read["pass"]:
        raise BadNotation(_("There is no pass: a tile that fits nowhere is set aside automatically; place your tile"))
    if words[0] in vocabulary.read["place"]:
        words = words[1:]
    x, y = _coord(words[0] if words else None, text)
    rot, words = _rotation(words[1:], vocabulary)
    if rot is None:
        raise BadNotation(_("Expected a rotation r0, r90, r180 or r270 after the square in '{text}'").format(text=text))
    fillers = vocabulary.read["filler"]
    words = [w for w in words if w not in fillers]
    move: dict[str, Any] = {"x": x, "y": y, "rot": rot}
    if words and words[0] in vocabulary.read["recall"]:
        rx, ry = _coord(words[1] if len(words) > 1 else None, text, recall=True)
        move["recall"] = {"x": rx, "y": ry}
        words = words[2:]
    if " ".join(words) in vocabulary.no_piece_phrases or not words:
        return move
    piece, region = _deployment(words, state, rot, text, vocabulary)
    move.update(piece=piece, region=region)
    return move


def _deployment(words: list[str], state: dict[str, Any], rot: int, text: str,
                vocabulary: lexicon.Vocabulary) -> tuple[str, str]:
    """Return (piece, region id) for the deployment words, resolved on the tile being placed."""
    if not state.get("tile"):
        raise BadNotation(_("There is no tile to place now"))
    edition = state["edition"]
    tile = tiles.oriented(edition, state["tile"], rot)
    piece = vocabulary.read["piece"].get(words[0])
    said = None  # the word before the sides: they are read in its language
    if piece:
        said, words = words[0], words[1:]
    if piece == "meeple":
        piece = None
    kind = vocabulary.read["kind"].get(words[0]) if words else None
    if kind:
        said, words = words[0], words[1:]
    if piece is None and kind is None:
        raise BadNotation(_("Say which piece goes where: gatherer, fisherman, hunter or hut, then where ('{text}')")
                          .format(text=text))
    if piece is None:
        piece = ROLE_OF_TYPE[kind]
    if kind and kind not in PLACES[piece]:
        raise BadNotation(reasons.wrong_feature(piece, kind))
    kinds = (kind,) if kind else PLACES[piece]
    sides = lexicon.sides_after(said)
    tokens = []
    for word in words:
        for part in re.split(r"[-+/]", word):
            if part:
                tokens.append(sides.get(part, part.upper()))
    bad = [t for t in tokens if t not in TOKEN_ORDER and not re.fullmatch(r"[NESW][012]|[FMRL]\d", t)]
    if bad:
        raise BadNotation(_("Unknown side '{side}': use N, E, S, W, NE, SE, SW or NW ('{text}')")
                          .format(side=bad[0], text=text))
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
        message = {
            FOREST: lambda: _("The tile {tile} turned {rot}° has no forest like that ('{text}')"),
            MEADOW: lambda: _("The tile {tile} turned {rot}° has no meadow like that ('{text}')"),
            RIVER: lambda: _("The tile {tile} turned {rot}° has no river like that ('{text}')"),
            LAKE: lambda: _("The tile {tile} turned {rot}° has no lake like that ('{text}')"),
        }
        wanted = message[kinds[0]]() if len(kinds) == 1 else _(
            "The tile {tile} turned {rot}° has no lake or river like that ('{text}')")
        raise BadNotation(wanted.format(tile=tile.id, rot=rot, text=text))
    if len(found) > 1:
        options = ", ".join(f"'{terms.region_label(names[r])}'" for r in found)
        raise BadNotation(_("Which one? The tile turned {rot}° has {options}").format(rot=rot, options=options))
    return piece, next(iter(found))


def describe_move(state: dict[str, Any], move: dict[str, Any]) -> str:
    """Return the text notation of ``move`` in the reader's words (it parses back to the same move)."""
    vocabulary = lexicon.vocabulary()
    parts = [vocabulary.place, f"{move['x']},{move['y']}", vocabulary.rotation.format(rot=move["rot"])]
    if "recall" in move:
        parts += [vocabulary.recall, f"{move['recall']['x']},{move['recall']['y']}"]
    if "piece" in move:
        names = region_names(state["edition"], state["tile"], move["rot"]) if state.get("tile") else {}
        region = names.get(move["region"])
        parts += [vocabulary.pieces[move["piece"]], terms.region_label(region) if region else move["region"]]
    return " ".join(parts)


def moves_summary(texts: list[str], limit: int = 40) -> list[str]:
    """Return the legal moves as email lines: all of them if few, else one line per square and rotation."""
    if len(texts) <= limit:
        return list(texts)
    vocabulary = lexicon.vocabulary()
    lines: dict[str, list[str]] = {}
    for text in texts:
        words = text.split(" ")
        cut = 5 if len(words) > 3 and words[3] == vocabulary.recall else 3
        lines.setdefault(" ".join(words[:cut]), []).append(" ".join(words[cut:]) or vocabulary.no_piece)
    return [f"{head}: {' | '.join(choices)}" for head, choices in lines.items()]

