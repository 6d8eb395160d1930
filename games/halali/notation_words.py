"""The words of the Halali! notation a player may type, in the reader's language and in English, from the catalog.

Each message is a list of forms split by "|" (a form may be several words: "turn over", "vidd ki"). A
translator adds the forms a native player types: the verbs in every person and mood ("fordítsd fel",
"felfordítom", "deck ... auf", "umdrehen"), the words saying where a tile starts and where it goes
("von", "nach"; Hungarian writes these as endings after the square, "c5-ről", "c2-re", which are forms
that begin with "-"), the exits' names and the tiles' names in the cases a sentence gives them.

Text is compared folded (``fold``): lower case, without accents, "ß" as "ss"; forms are kept with German
umlauts spelled out too ("sueden"). The reader's words are read first, then English's.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import cache
from typing import Any

from games.halali import tiles
from games.i18n import catalog_of, current_language, in_english

_ = catalog_of(__name__)

# What a word tells the reader of a move.
FLIP, MOVE, OUT, PASS, FROM, TO, SKIP, TILE, EXIT = "flip", "move", "out", "pass", "from", "to", "skip", "tile", "exit"


def _forms() -> dict[str, Any]:
    """Return the forms of the reader's language, one message per kind of word, "|" between the forms."""
    return {
        FLIP: _.pgettext("notation: forms of turning a tile over", "flip|turn|turn over|reveal|open"),
        # Translators: verbs of moving and capturing, in every person and mood a player writes them.
        MOVE: _.pgettext("notation: forms of moving or capturing", "move|moves|go|goes|capture|captures|take|takes"),
        OUT: _.pgettext("notation: forms of leaving the forest through an exit", "out|exit|exits|leave|leaves|off"),
        PASS: _.pgettext("notation: forms of passing", "pass|passes"),
        # Translators: words before (or, starting with "-", endings after) the square a tile starts from.
        FROM: _.pgettext("notation: words naming the square a tile starts from", "from|with"),
        # Translators: words before (or, starting with "-", endings after) the square a tile goes to.
        TO: _.pgettext("notation: words naming the square a tile goes to", "to|onto|on|at|into"),
        # Translators: articles, "tile", "square", particles and the endings a square takes that say nothing.
        SKIP: _.pgettext("notation: small words read past", "the|a|tile|square|and|then|i|over|by|through|via"),
        EXIT: {
            "N": _.pgettext("notation: forms of north, as an exit", "n|north|northern"),
            "E": _.pgettext("notation: forms of east, as an exit", "e|east|eastern"),
            "S": _.pgettext("notation: forms of south, as an exit", "s|south|southern"),
            "W": _.pgettext("notation: forms of west, as an exit", "w|west|western"),
        },
        # Translators: a tile's name in the forms a move may name it (with the case endings your language needs).
        TILE: {
            tiles.BEAR: _.pgettext("notation: forms of the bear", "bear|bears"),
            tiles.FOX: _.pgettext("notation: forms of the fox", "fox|foxes"),
            tiles.LUMBERJACK: _.pgettext("notation: forms of the lumberjack", "lumberjack|lumberjacks|woodcutter"),
            tiles.HUNTER: _.pgettext("notation: forms of the hunter", "hunter|hunters"),
            tiles.PHEASANT: _.pgettext("notation: forms of the pheasant", "pheasant|pheasants"),
            tiles.DUCK: _.pgettext("notation: forms of the duck", "duck|ducks"),
            tiles.TREE: _.pgettext("notation: forms of the tree", "tree|trees"),
        },
    }


def fold(text: str) -> str:
    """Return ``text`` lower case, without accents, "ß" as "ss" ("Süden" -> "suden")."""
    text = text.lower().replace("ß", "ss")
    return "".join(char for char in unicodedata.normalize("NFKD", text) if not unicodedata.combining(char))


def keys(form: str) -> set[str]:
    """Return the ways a reader may type ``form``: without accents, with German umlauts spelled out or not."""
    spelled_out = form.lower().replace("ä", "ae").replace("ö", "oe").replace("ü", "ue")
    return {fold(form), fold(spelled_out)}


def split(message: str) -> list[str]:
    """Return the forms of one message, lower case with single spaces."""
    return [" ".join(form.lower().split()) for form in message.split("|") if form.strip()]


@dataclass(frozen=True)
class Vocabulary:
    """One language's forms, folded: what each word or phrase means, as (kind, value)."""

    words: dict[str, tuple[str, str | None]]
    longest: int

    @classmethod
    def of(cls, found: dict[str, Any]) -> "Vocabulary":
        words: dict[str, tuple[str, str | None]] = {}
        for kind in (SKIP, FROM, TO, MOVE, FLIP, OUT, PASS):
            for form in split(found[kind]):
                words.update(dict.fromkeys(keys(form), (kind, None)))
        for kind in (EXIT, TILE):
            for value, message in found[kind].items():
                for form in split(message):
                    words.update(dict.fromkeys(keys(form), (kind, value)))
        return cls(words=words, longest=max(len(form.split()) for form in words))


@cache
def _vocabulary(language: str) -> Vocabulary:
    return Vocabulary.of(_forms())


def readers() -> Vocabulary:
    """Return the reader's language's vocabulary."""
    return _vocabulary(current_language())


@cache
def english() -> Vocabulary:
    """Return English's vocabulary, read in every language after the reader's own."""
    with in_english():
        return Vocabulary.of(_forms())


def forms_of(language_forms: bool = True) -> dict[str, Any]:
    """Return the reader's forms (or English's), unfolded, for the help and the tests."""
    if language_forms:
        return _forms()
    with in_english():
        return _forms()
