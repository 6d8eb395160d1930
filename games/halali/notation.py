"""Text notation for Halali! moves, used in emails and logs, in the reader's language and in English.

    flip c5        turn over the face-down tile on c5        (Hungarian: fordít c5; German: aufdecken c5)
    c5-c2          move the tile on c5 to c2
    c5xc2          the same move when it captures (c5-c2 is read the same way)
    d7 out         move the tile on d7 off the board through its own exit (north)   (d7 ki; d7 raus)
    d5 out N       move the tile on d5 off the board through the north exit (d7)    (d5 ki É; d5 raus N)
    pass           the forced pass, only when no legal move exists                  (passz; passen)

``describe_move`` writes the reader's words (the platform stores the English, the log's canonical
notation); ``parse_move`` reads the reader's words and English, case-insensitively, with or without
accents, and the forms a player naturally types in their language (Hungarian "fordítsd fel a
c5-öt", German "deck c5 auf"). A word two languages use differently is read as the language of
the sentence means it, and that is the reader's unless the sentence is English: "d5 ki e" is
Hungarian (É, north), "d5 out e" English (east), and "d5 raus e" German, which has no "e", so the
English east. Squares run a–g west to east and 1–7 south to north. Halali! moves name no seats,
so there are no seat references to read.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache
from typing import Any

from games.base import BadNotation
from games.halali import board
from games.halali.board import EXITS
from games.halali.names import exit_letter
from games.i18n import catalog_of, current_language

_ = catalog_of(__name__)

_SQ = r"([a-g][1-7])"

# What each language's players type, accents folded away (see _folded). The reader's language is
# read first, then English; describe_move's words (in the catalog) must be among these, as the
# round-trip tests check. "{sq}" is where the square goes in a flip.
VOCABULARY: dict[str, dict[str, Any]] = {
    "en": {
        "flip": ("flip {sq}", "turn {sq}", "turn over {sq}", "reveal {sq}"),
        "step": ("to",),
        "out": ("out", "exit"),
        "via": ("through", "via"),
        "pass": ("pass",),
        "exits": {"n": "N", "north": "N", "e": "E", "east": "E", "s": "S", "south": "S", "w": "W", "west": "W"},
    },
    "hu": {
        "flip": (
            "fordit {sq}", "forditsd {sq}", "forditsd meg {sq}", "forditsd fel {sq}", "forditom {sq}",
            "megforditom {sq}", "felfordit {sq}", "felforditom {sq}", "{sq} fordit", "{sq} felfordit",
            "{sq} forditasa", "{sq} felforditasa", "{sq} forditom", "{sq} felforditom",
        ),
        "step": ("uti", "leuti"),
        "out": ("ki", "kilep", "kimegy", "kijarat"),
        "via": (),
        "pass": ("passz", "passzol", "passzolok"),
        # "e" is É here (north): the Hungarian reader's meaning wins over the English east.
        "exits": {
            "e": "N", "eszak": "N", "eszakra": "N", "eszaki": "N",
            "k": "E", "kelet": "E", "keletre": "E", "keleti": "E",
            "d": "S", "del": "S", "delre": "S", "deli": "S",
            "ny": "W", "nyugat": "W", "nyugatra": "W", "nyugati": "W",
        },
    },
    "de": {
        "flip": (
            "aufdecken {sq}", "{sq} aufdecken", "deck {sq} auf", "decke {sq} auf", "deck auf {sq}",
            "decke auf {sq}", "umdrehen {sq}", "{sq} umdrehen", "dreh {sq} um", "drehe {sq} um",
        ),
        "step": ("nach", "schlagt", "schlaegt"),
        "out": ("raus", "hinaus", "aus", "ausgang"),
        "via": ("durch", "uber", "ueber", "nach"),
        "pass": ("passen", "passe", "ich passe"),
        "exits": {
            "n": "N", "nord": "N", "norden": "N", "o": "E", "ost": "E", "osten": "E",
            "s": "S", "sud": "S", "suden": "S", "sued": "S", "sueden": "S", "w": "W", "west": "W", "westen": "W",
        },
    },
}

# Hungarian writes a case ending after a square with a hyphen ("c5-öt", "c2-re", "d7-en") and may put
# the article before it ("a c5-öt", "az a4-et"); both are dropped before reading.
_HU_ENDING = re.compile(r"\b([a-g][1-7])-(?:t|ot|et|at|rol|re|ra|ba|be|bol|n|on|en|ig|hoz|hez|tol|nal|nel)\b")
_HU_ARTICLE = re.compile(r"\baz?\s+(?=[a-g][1-7]\b)")


def _folded(text: str) -> str:
    """Return ``text`` lowercased, without accents, dashes made hyphens, commas made spaces, spaces single."""
    text = unicodedata.normalize("NFKD", text.casefold())
    text = "".join(char for char in text if not unicodedata.combining(char))
    text = text.replace(",", " ").replace("–", "-").replace("—", "-")
    return " ".join(text.split())


def _language() -> str:
    return current_language().replace("_", "-").partition("-")[0].lower()


def _vocabularies() -> list[dict[str, Any]]:
    """Return the vocabularies to read with: the reader's language first, then English."""
    return [VOCABULARY[code] for code in dict.fromkeys((_language(), "en")) if code in VOCABULARY]


@cache
def _patterns(language: str) -> tuple[re.Pattern, re.Pattern, re.Pattern, frozenset[str]]:
    """Return the flip, step and exit patterns and the pass words of ``language`` plus English."""
    vocabularies = [VOCABULARY[code] for code in dict.fromkeys((language, "en")) if code in VOCABULARY]

    def words(key: str) -> str:
        found = sorted({word for vocabulary in vocabularies for word in vocabulary[key]}, key=len, reverse=True)
        return "|".join(re.escape(word) for word in found)

    flips = sorted({form for vocabulary in vocabularies for form in vocabulary["flip"]}, key=len, reverse=True)
    flip = "|".join(re.escape(form).replace(re.escape("{sq}"), _SQ) for form in flips)
    vias = words("via")
    via = rf"(?:(?:{vias})\s+)?" if vias else ""
    return (
        re.compile(rf"{flip}|{_SQ}"),
        re.compile(rf"{_SQ}\s*(?:-|x|:|{words('step')}|\s)\s*{_SQ}"),
        re.compile(rf"{_SQ}\s*(?:-\s*)?({words('out')})(?:\s+{via}([a-z0-9]+))?"),
        frozenset(word for vocabulary in vocabularies for word in vocabulary["pass"]),
    )


def _exit_direction(word: str, out: str) -> str | None:
    """Return the exit direction ``word`` names after the word ``out``, or None.

    A letter is read in the language of the "out" before it ("d5 ki e" is Hungarian: É, north;
    "d5 out e" is English: east), then in the reader's language, then in English.
    """
    vocabularies = _vocabularies()
    speaking = [vocabulary for vocabulary in VOCABULARY.values() if out in vocabulary["out"]]
    for vocabulary in [*speaking, *vocabularies]:
        if word in vocabulary["exits"]:
            return vocabulary["exits"][word]
    return next((d for d, gate in EXITS.items() if board.name(gate) == word), None)


def notation_help() -> str:
    """Return a few lines explaining how to write any move, in the reader's words (and that English works too)."""
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
    ]
    if _flip("c5") != "flip c5":
        lines.append(_("English works too: flip c5, c5-c2, d7 out, d5 out N, pass."))
    return "\n".join(lines)


def parse_move(text: str, state: dict[str, Any], seat: int) -> dict[str, Any]:
    """Read the text notation (the reader's language or English) into a move; legality is checked by apply."""
    if not isinstance(text, str):
        raise BadNotation(_("A move must be text such as 'flip c5' or 'c5-c2'"))
    words = _folded(text)
    if not words:
        raise BadNotation(_("Write a move, for example 'flip c5', 'c5-c2' or 'd7 out'"))
    language = _language()
    if language == "hu":
        words = " ".join(_HU_ARTICLE.sub("", _HU_ENDING.sub(r"\1", words)).split())
    flip, step, leave, passes = _patterns(language)
    if words in passes:
        return {"pass": True}
    match = flip.fullmatch(words)
    if match:
        return {"flip": next(group for group in match.groups() if group)}
    match = step.fullmatch(words)
    if match:
        return {"from": match.group(1), "to": match.group(2)}
    match = leave.fullmatch(words)
    if match:
        start, out, where = match.group(1), match.group(2), match.group(3)
        if where is None:
            direction = next((d for d, gate in EXITS.items() if board.name(gate) == start), None)
            if direction is None:
                raise BadNotation(
                    _("Name the exit to leave by from {square}: '{example}' (N, E, S or W)").format(
                        square=start, example=_out(start, "N")
                    )
                )
            return {"from": start, "to": "out", "exit": direction}
        direction = _exit_direction(where, out)
        if direction is None:
            raise BadNotation(
                _("Unknown exit '{word}': write N, E, S, W or the exit square (d7, g4, d1, a4)").format(word=where)
            )
        return {"from": start, "to": "out", "exit": direction}
    if re.search(r"[a-z]\d", words) and not re.search(r"\b[a-g][1-7]\b", words.replace("x", " ").replace("-", " ")):
        raise BadNotation(_("No such square in '{text}': squares go from a1 to g7").format(text=text))
    raise BadNotation(
        _("Cannot read '{text}'; write 'flip c5', 'c5-c2', 'c5xc2', 'd7 out', 'd5 out N' or 'pass'").format(text=text)
    )


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
