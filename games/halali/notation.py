"""Text notation for Halali! moves, used in emails and logs, in the reader's language and in English.

    flip c5        turn over the face-down tile on c5        (Hungarian: fordít c5; German: aufdecken c5)
    c5-c2          move the tile on c5 to c2
    c5xc2          the same move when it captures (c5-c2 is read the same way)
    d7 out         move the tile on d7 off the board through its own exit (north)   (d7 ki; d7 raus)
    d5 out N       move the tile on d5 off the board through the north exit (d7)    (d5 ki É; d5 raus N)
    pass           the forced pass, only when no legal move exists                  (passz; passen)

``describe_move`` writes the reader's words (the platform stores the English, the log's canonical
notation). ``parse_move`` reads the reader's words and English, case-insensitively, with or without
accents, in the forms and word orders a player types (``notation_words.py``: the catalog's lists):
"c5 aufdecken", "deck c5 auf", "von c5 nach c2", "Fuchs c5 schlägt c2", "fordítsd fel a c5-öt",
"c5-ről c2-re", "a c5-tel üsd le a c2-t", "vidd ki a medvét d7-ről". A move is told by what it holds:
one square and a word for turning over is a flip (a bare square too), two squares are a move (the
first is where the tile starts, unless "von"/"nach" or a Hungarian ending says otherwise), a square
and a word for leaving (or an exit's direction) is an exit, and a word for passing alone is a pass.
A tile named in a move must be the face-up tile on one of its squares.

A word two languages use differently is read as the language of the sentence means it, and that is
the reader's unless the sentence is English: "d5 ki e" is Hungarian (É, north), "d5 out e" English
(east), and "d5 raus e" German, which has no "e", so the English east. Squares run a–g west to east
and 1–7 south to north. Halali! moves name no seats, so there are no seat references to read.
"""

from __future__ import annotations

import re
from typing import Any

from games.base import BadNotation
from games.halali import board
from games.halali.board import EXITS
from games.halali.names import exit_letter, tile_word
from games.halali.notation_words import EXIT, FLIP, FROM, MOVE, OUT, PASS, SKIP, TILE, TO, english, fold, readers
from games.i18n import catalog_of, current_language

_ = catalog_of(__name__)

_SQUARE = re.compile(r"[a-g][1-7]")
_JOINED = re.compile(r"\b([a-z]\d+)\s*([-x:–—])\s*(?=[a-z]\d+\b)")  # c5-c2, c5xc2, c5:c2, c5 – c2
_ENDING = re.compile(r"\b([a-z]\d+)-(?=[^\W\d_])")  # Hungarian endings after a square: c5-ről, c2-t
_PUNCTUATION = re.compile(r"[,;!?()\"„“”«»]|\.(?=\s|$)")


def _tokens(text: str) -> list[str]:
    """Return the words of ``text`` folded, a square's separator and its endings as words of their own."""
    text = _PUNCTUATION.sub(" ", fold(text))
    text = _JOINED.sub(r"\1 \2 ", _JOINED.sub(r"\1 \2 ", text))
    text = _ENDING.sub(r"\1 -", text)
    return [token.rstrip(":") or token for token in text.replace("–", "-").replace("—", "-").split()]


def _english_only() -> bool:
    return current_language().replace("_", "-").partition("-")[0].lower() == "en"


def _meaning(phrase: str) -> tuple[tuple[str, str | None], bool] | None:
    """Return what a folded phrase means and whether in English only: the reader's language first."""
    found = readers().words.get(phrase)
    if found is not None:
        return found, _english_only()
    found = english().words.get(phrase)
    return (found, True) if found is not None else None


def _read(text: str) -> tuple[list[tuple[str, Any, bool]], list[str]]:
    """Return the placed words as (kind, value, said in English), and the words nothing placed."""
    tokens = _tokens(text)
    longest = max(readers().longest, english().longest)
    items: list[tuple[str, Any, bool]] = []
    unknown: list[str] = []
    start = 0
    while start < len(tokens):
        token = tokens[start]
        if _SQUARE.fullmatch(token):
            items.append(("square", token, False))
            start += 1
            continue
        if token in ("-", "x", ":"):
            items.append((MOVE, None, False))
            start += 1
            continue
        for size in range(min(longest, len(tokens) - start), 0, -1):
            phrase = " ".join(tokens[start:start + size])
            found = _meaning(phrase) or (_meaning(phrase[1:]) if size == 1 and phrase.startswith("-") else None)
            if found is not None:
                (kind, value), in_english = found
                # An ending ("-ről") tells about the square before it; a word ("von", "nach") the square after it.
                if kind in (FROM, TO):
                    value = (value, phrase.startswith("-"))
                elif kind == EXIT:
                    value = phrase.lstrip("-")  # its direction depends on the sentence's language: _exit_direction
                items.append((kind, value, in_english))
                start += size
                break
        else:
            unknown.append(token)
            start += 1
    return [item for item in items if item[0] != SKIP], unknown


def _squares(items: list[tuple[str, Any, bool]]) -> list[tuple[str, str | None]]:
    """Return each square with its role (FROM, TO or None) from the words around it."""
    squares: list[list] = []
    for index, (kind, value, _said) in enumerate(items):
        if kind == "square":
            squares.append([value, None, index])
    for index, (kind, value, _said) in enumerate(items):
        if kind not in (FROM, TO):
            continue
        _word, after_square = value
        neighbour = index - 1 if after_square else index + 1
        if 0 <= neighbour < len(items) and items[neighbour][0] == "square":
            for square in squares:
                if square[2] == neighbour:
                    square[1] = kind
    return [(square, role) for square, role, _index in squares]


def _exit_direction(word: str, items: list[tuple[str, Any, bool]]) -> str | None:
    """Return the exit a direction word names: in the language of the "out" word, then the reader's, then English."""
    vocabularies = [readers(), english()]
    outs = [said for kind, _value, said in items if kind == OUT]
    if outs and outs[0]:
        vocabularies.reverse()  # an English "out": its letters are English ("d5 out e" is east)
    for vocabulary in vocabularies:
        found = vocabulary.words.get(word)
        if found is not None and found[0] == EXIT:
            return found[1]
    return None


def _as_typed(token: str, text: str) -> str:
    """Return the word of ``text`` that folds to ``token``, as the player typed it (accents and all)."""
    return next((word for word in _PUNCTUATION.sub(" ", text).split() if fold(word) == token), token)


def _unreadable(text: str) -> BadNotation:
    return BadNotation(
        _("Cannot read '{text}'; write 'flip c5', 'c5-c2', 'c5xc2', 'd7 out', 'd5 out N' or 'pass'").format(text=text)
    )


def _check_tiles(items: list[tuple[str, Any, bool]], squares: list[str], state: dict[str, Any]) -> None:
    """Refuse a move that names a tile not standing face up on one of its squares ("Fuchs c5 nach c2")."""
    named = [value for kind, value, _said in items if kind == TILE]
    cells = [state["board"][board.index(square)] for square in squares]
    shown = {cell["kind"] for cell in cells if cell is not None and cell.get("up")}
    for kind in named:
        if kind not in shown:
            raise BadNotation(
                _("The move names a {tile}, but no face-up {tile} stands on {squares}").format(
                    tile=tile_word(kind), squares=", ".join(squares))
            )


def _exit(items: list[tuple[str, Any, bool]], squares: list[tuple[str, str | None]], text: str) -> dict[str, Any]:
    """Read a move off the board: its square, and the exit named by a direction, an exit square or the square itself."""
    if not squares or len(squares) > 2:
        raise _unreadable(text)
    roles = {role: square for square, role in squares}
    start = roles.get(FROM) or next((square for square, role in squares if role != TO), squares[0][0])
    gate = next((square for square, _role in squares if square != start), None)
    directions = [_exit_direction(value, items) for kind, value, _said in items if kind == EXIT]
    direction = directions[0] if directions else None
    if gate is not None:
        direction = next((d for d, exit_square in EXITS.items() if board.name(exit_square) == gate), None)
        if direction is None:
            raise BadNotation(
                _("Unknown exit '{word}': write N, E, S, W or the exit square (d7, g4, d1, a4)").format(word=gate)
            )
    if direction is None:
        direction = next((d for d, exit_square in EXITS.items() if board.name(exit_square) == start), None)
    if direction is None:
        raise BadNotation(
            _("Name the exit to leave by from {square}: '{example}' (N, E, S or W)").format(
                square=start, example=_out(start, "N"))
        )
    return {"from": start, "to": "out", "exit": direction}


def parse_move(text: str, state: dict[str, Any], seat: int) -> dict[str, Any]:
    """Read the text notation (the reader's language or English) into a move; legality is checked by apply."""
    if not isinstance(text, str):
        raise BadNotation(_("A move must be text such as 'flip c5' or 'c5-c2'"))
    if not text.strip():
        raise BadNotation(_("Write a move, for example 'flip c5', 'c5-c2' or 'd7 out'"))
    items, unknown = _read(text)
    wrong = [token for token in unknown if re.fullmatch(r"[a-z]\d+", token)]
    if wrong:
        raise BadNotation(_("No such square in '{text}': squares go from a1 to g7").format(text=text))
    kinds = {kind for kind, _value, _said in items}
    squares = _squares(items)
    if unknown:
        if OUT in kinds and len(squares) == 1:  # "d5 out up": the word after "out" must be an exit
            raise BadNotation(
                _("Unknown exit '{word}': write N, E, S, W or the exit square (d7, g4, d1, a4)").format(
                    word=_as_typed(unknown[0], text))
            )
        raise _unreadable(text)
    if PASS in kinds:
        if squares or kinds - {PASS}:
            raise _unreadable(text)
        return {"pass": True}
    _check_tiles(items, [square for square, _role in squares], state)
    if OUT in kinds or (EXIT in kinds and len(squares) == 1 and FLIP not in kinds):
        if FLIP in kinds:
            raise _unreadable(text)
        return _exit(items, squares, text)
    if EXIT in kinds:
        raise _unreadable(text)
    if len(squares) == 1 and not kinds & {MOVE, TILE} and (FLIP in kinds or not kinds & {FROM, TO}):
        return {"flip": squares[0][0]}  # "flip c5", "c5 aufdecken", and a square alone
    if len(squares) == 1 and MOVE in kinds and FLIP not in kinds:
        raise BadNotation(_("Write both squares of a move, where the tile starts and where it goes: 'c5-c2'"))
    if len(squares) == 2 and FLIP not in kinds:
        (first, first_role), (second, second_role) = squares
        if first_role is not None and first_role == second_role:
            raise _unreadable(text)
        if first_role == TO or second_role == FROM:
            first, second = second, first
        return {"from": first, "to": second}
    raise _unreadable(text)


def notation_help() -> str:
    """Return how to write each kind of move, with examples, in the reader's words (and that English works too)."""
    lines = [
        _("Squares: files a–g (west to east), ranks 1–7 (south to north); d4 is the centre."),
        _("Turn a tile over: {example}").format(example=_flip("c5")),
        _("Move a face-up tile in a straight line: c5-c2 (a capture may be written c5xc2)"),
        _("Final phase, leave through an exit (d7 north, g4 east, d1 south, a4 west):"),
        "  "
        + _("{short} (from the exit square itself)   {named} (name the exit: {letters} or its square)").format(
            short=_out("d7"), named=_out("d5", "N"), letters=", ".join(exit_letter(d) for d in "NESW")
        ),
        _("{word}: only when you have no legal move in the final phase.").format(word=_pass()),
        _("You may also write a sentence, in the order you like, with or without the tile's name:"),
        # Translators: sentences as a player of your language writes them, "|" between them, each reading as the move
        # in brackets: turning c5 over (two ways), moving c5 to c2, the fox on c5 taking c2, d5 leaving northwards.
        "  " + _("turn over c5 | c5 flip | move from c5 to c2 | fox c5 takes c2 | d5 out through the north exit"),
    ]
    if not _english_only():
        lines.append(_("English works too: flip c5, c5-c2, d7 out, d5 out N, pass."))
    return "\n".join(lines)


def _flip(square: str) -> str:
    return _.pgettext("notation", "flip {square}").format(square=square)


def _out(square: str, direction: str | None = None) -> str:
    if direction is None:
        return _.pgettext("notation", "{square} out").format(square=square)
    return _.pgettext("notation", "{square} out {exit}").format(square=square, exit=exit_letter(direction))


def _pass() -> str:
    return _.pgettext("notation", "pass")


def describe_move(state: dict[str, Any], move: dict[str, Any]) -> str:
    """Return the text notation of ``move`` in the reader's words (it parses back to the same move)."""
    if "flip" in move:
        return _flip(move["flip"].lower())
    if move.get("pass"):
        return _pass()
    start = move["from"].lower()
    if str(move["to"]).lower() == "out":
        direction = move.get("exit")
        if direction is None or board.INDEX.get(start) == EXITS.get(str(direction).upper()):
            return _out(start)
        return _out(start, str(direction).upper())
    end = move["to"].lower()
    target = state["board"][board.index(end)] if end in board.INDEX else None
    # Only a face-up tile makes an "x": a face-down tile's presence is public, never its kind.
    return f"{start}{'x' if target is not None and target['up'] else '-'}{end}"
