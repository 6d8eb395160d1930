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
A player may also write the parts in any order and in the words they would say: "lege das Plättchen auf
3,-1, um 90 Grad gedreht, und setz einen Jäger auf die Wiese im Norden", "3,-1 legen" (no turn: 0°).
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
        _("You may also write it as you would say it, in any order; capitals and accents do not matter:"),
        # Translators: the forms your language's players type for each part of a move, as they are read
        # (lexicon.py's lists): a verb as a command or an infinitive, with or without an article.
        _("  the tile: 'place the tile on 3,-1', 'put it on (3, -1)', 'turned 90 degrees', '90°' (0° if left out)"),
        _("  the piece: 'a hunter on the northern meadow', 'hunter meadow north', 'no piece'"),
        _("  the shaman: 'call back the hunter on 0,1', 'recall 0,1'"),
        _("Examples: place 3,-1 r90   place 3,-1 r90 hunter meadow N   place 2,0 r180 recall 0,1 gatherer forest"),
        _("          place the tile on 3,-1 turned 90 degrees, a hunter on the northern meadow"),
        _("A tile that fits nowhere is set aside automatically; there is no pass."),
    ]
    if lexicon.vocabulary().place != _english().place:
        lines.append(_("You may also write your moves in English: place 3,-1 r90 hunter meadow N."))
    return "\n".join(lines)


def _english() -> lexicon.Vocabulary:
    with language(ENGLISH):
        return lexicon.vocabulary()


_CLAUSE = "|"  # where a player's clause ends (a comma, a semicolon, a full stop)
_TIGHT = re.compile(r"(?<![\w])(-?\d+),(-?\d+)(?![\d])")
_SPACED = re.compile(r"(?<![\w])\(?\s*(-?\d+)\s*,\s*(-?\d+)\s*\)?")


def _words(text: str) -> list[str]:
    """Return the folded words of ``text``: a square as one word "x,y" (written "3,-1" or "(3, -1)"), endings glued
    to a number dropped ("1,0-ra", "90°-kal"), and the commas, brackets and stops between clauses left out."""
    text = text.lower().replace("[", " ").replace("]", " ").replace("’", "'")
    text = text.replace("tribe member", "meeple")
    text = re.sub(r"(\d°?)-[^\W\d_]+", r"\1", text)  # a Hungarian ending: 1,0-ra, 90°-kal, 90-nel
    square = _TIGHT if _TIGHT.search(text) else _SPACED  # "90, 1,0": a turn and a square, not the square 90,1
    text = square.sub(lambda m: f" {int(m.group(1))}\0{int(m.group(2))} ", text)
    text = re.sub(r"[,;]|\.(?!\d)", " | ", text)  # a clause's end: the shaman's square is looked for within it
    text = re.sub(r"[()]", " ", text).replace("\0", ",")
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
    """Read a rotation (``r90``, ``rot 90``, ``90°``, ``90 fok``, ``d90``, a bare ``90``) from the front of ``words``;
    return it and the words after it, or None and ``words`` unchanged."""
    rest = words
    if len(rest) > 1 and rest[0] in vocabulary.rotation_prefixes and not _COORD.fullmatch(rest[1]):
        rest = [rest[0] + rest[1], *rest[2:]]
    if len(rest) > 1 and rest[1] in vocabulary.rotation_suffixes:
        rest = [rest[0] + rest[1], *rest[2:]]
    if not rest:
        return None, words
    token = rest[0]
    for suffix in sorted(vocabulary.rotation_suffixes, key=len, reverse=True):
        if token.endswith(suffix) and len(token) > len(suffix):
            token = token[: -len(suffix)]
            break
    for prefix in sorted(vocabulary.rotation_prefixes, key=len, reverse=True):
        if token.startswith(prefix) and token[len(prefix):].isdigit():
            token = token[len(prefix):]
            break
    if not token.isdigit():
        return None, words
    return int(token), rest[1:]


def _take_recall(words: list[str], vocabulary: lexicon.Vocabulary, text: str) -> tuple[list[str], dict | None]:
    """Take the shaman's recall out of ``words``: its word(s) and the square next to them ("zurück 0,1", "0,1
    zurückholen", "hol den Jäger von 0,1 zurück"; a piece named on the way is the one called back)."""
    recall = vocabulary.read["recall"]
    at = [index for index, word in enumerate(words) if word in recall]
    if not at:
        return words, None
    skip = {**vocabulary.read["filler"], **vocabulary.read["square"], **vocabulary.read["place"]}
    pieces = vocabulary.read["piece"]
    used = set(at)
    found = None
    for step, start in ((1, at[0] + 1), (-1, at[0] - 1)):
        index, passed = start, []
        while 0 <= index < len(words) and (words[index] in skip or words[index] in recall or
                                           (step == 1 and words[index] in pieces)):
            passed.append(index)
            index += step
        if 0 <= index < len(words) and _COORD.fullmatch(words[index]):
            found = index
            used |= set(passed)
            if index + 1 < len(words) and words[index + 1] in vocabulary.read["square"]:
                used.add(index + 1)  # "a 0,1 mezőről"
            index += step
            while step == -1 and 0 <= index and (words[index] in skip or words[index] in pieces):
                used.add(index)  # "den Jäger auf 0,1 zurückholen": the piece is the one called back
                index += step
            if step == -1:  # "a 0,1 mezőről visszahívom a vadászt, ...": a piece ending the recall's clause
                after = at[0] + 1
                while after < len(words) and (words[after] in skip or words[after] in pieces):
                    after += 1
                if after == len(words) or words[after] == _CLAUSE:
                    used |= set(range(at[0] + 1, after))
            break
    if found is None:
        raise BadNotation(_("Expected the square of the tribe member to recall as x,y (such as 0,1) in '{text}'")
                          .format(text=text))
    x, y = _coord(words[found], text, recall=True)
    return [word for index, word in enumerate(words) if index not in used and index != found], {"x": x, "y": y}


def parse_move(text: str, state: dict[str, Any], seat: int) -> dict[str, Any]:
    """Read the text notation into a move (legality is checked by apply), in the reader's language or English.

    The parts may come in any order, with the words a player uses ("lege das Plättchen auf 1,0, um 90 Grad
    gedreht", "1,0 legen", "vadászt a déli rétre, 90 fokkal elforgatva, az 1,0-ra"); a turn left out is 0°.
    """
    if not isinstance(text, str):
        raise BadNotation(_("A move must be text such as 'place 3,-1 r90 hunter meadow N'"))
    vocabulary = lexicon.reading()
    words = _words(text)
    said = [word for word in words if word != _CLAUSE]
    if not said:
        raise BadNotation(_("Write a move, for example 'place 3,-1 r90' or 'place 3,-1 r90 hunter meadow N'"))
    if len(said) == 1 and said[0] in vocabulary.read["pass"]:
        raise BadNotation(_("There is no pass: a tile that fits nowhere is set aside automatically; place your tile"))
    joiners = vocabulary.read["joiner"]
    words, recall = _take_recall([_CLAUSE if word in joiners else word for word in words], vocabulary, text)
    words = [word for word in words if word != _CLAUSE]
    squares = [word for word in words if _COORD.fullmatch(word)]
    if len(squares) != 1:
        raise BadNotation(_("Expected the square as x,y (such as 3,-1) in '{text}'").format(text=text))
    x, y = _coord(squares[0], text)
    rot, rest, index = None, [], 0
    while index < len(words):
        word = words[index]
        if _COORD.fullmatch(word):
            index += 1
            if index < len(words) and words[index] in vocabulary.read["square"]:
                index += 1  # "az 1,0 mezőre": the square's own word
            continue
        turned, after = _rotation(words[index:], vocabulary)
        if turned is not None:
            if rot is not None or turned not in ROTATIONS:
                raise BadNotation(_("A rotation is r0, r90, r180 or r270, written once ('{text}')").format(text=text))
            rot, index = turned, len(words) - len(after)
            continue
        if word not in vocabulary.read["place"] and word not in vocabulary.read["filler"] \
                and word not in vocabulary.rotation_prefixes:
            rest.append(word)
        index += 1
    move: dict[str, Any] = {"x": x, "y": y, "rot": 0 if rot is None else rot}
    if recall:
        move["recall"] = recall
    if not rest or _says_no_piece(rest, vocabulary):
        return move
    piece, region = _deployment(rest, state, move["rot"], text, vocabulary)
    move.update(piece=piece, region=region)
    return move


def _says_no_piece(words: list[str], vocabulary: lexicon.Vocabulary) -> bool:
    """Tell whether ``words`` say "no piece" ("keine Figur", "nem rakok bábut"), its placing words left out."""
    said = [word for word in words if word not in vocabulary.read["place"]]
    return any(said == [word for word in phrase.split() if word not in vocabulary.read["place"]
                        and word not in vocabulary.read["filler"]] for phrase in vocabulary.no_piece_phrases)


def _deployment(words: list[str], state: dict[str, Any], rot: int, text: str,
                vocabulary: lexicon.Vocabulary) -> tuple[str, str]:
    """Return (piece, region id) for the deployment words, resolved on the tile being placed."""
    if not state.get("tile"):
        raise BadNotation(_("There is no tile to place now"))
    edition = state["edition"]
    tile = tiles.oriented(edition, state["tile"], rot)
    # The piece, the feature and its side may come in any order ("vadászt a déli rétre", "Jäger auf die Wiese im
    # Süden"); the sides are read in the language of the piece's or feature's word.
    piece = kind = said = None
    named, sides_said = False, []
    for word in words:
        if not named and word in vocabulary.read["piece"]:
            piece, said, named = vocabulary.read["piece"][word], word, True
        elif kind is None and word in vocabulary.read["kind"]:
            kind, said = vocabulary.read["kind"][word], word
        else:
            sides_said.append(word)
    words = sides_said
    if piece == "meeple":
        piece = None
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

