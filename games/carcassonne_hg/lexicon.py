"""The words of the move notation in each language: what ``describe_move`` writes and what ``parse_move`` reads.

A move is written the same way in every language (verb, square, rotation, [recall verb, square],
[piece, feature, side]); only the words change: ``place -1,0 r90 hunter meadow NE``, ``lerak -1,0
90° vadász rét ÉK``, ``lege -1,0 90° Jäger Wiese NO``. The names of pieces, features and sides are
the game's own (``terms``); the verbs, the rotation and "no piece" are notation words; and each has
a list of other spellings a player may type (plurals, inflected forms such as Hungarian ``vadászt``,
``rétre``, ``tóra``), all from the catalogs, so a new language brings its own.

A reader may write their language or English. Letters are compared without accents and case
(``or`` for ``őr``, ``jager`` or ``jaeger`` for ``Jäger``). Where a word means one thing in the
reader's language and another in English, the reader's language wins: under Hungarian ``to`` is
the lake (``tó``), not an English filler. A side's letter is read in the language of the word before
it: ``erdő E`` is the Hungarian north (``É`` typed without its accent), while ``forest E`` is the
English east, so the log's English notation reads the same for every reader.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from functools import cache

from games.carcassonne_hg import terms
from games.i18n import ENGLISH, catalog_of, current_language, language

_ = catalog_of(__name__)


def fold(text: str) -> str:
    """Return ``text`` lower-cased without accents (ß as ss): how typed words are compared."""
    text = unicodedata.normalize("NFKD", text.lower().replace("ß", "ss"))
    return "".join(char for char in text if not unicodedata.combining(char))


def spellings(word: str) -> set[str]:
    """Return the folded forms of ``word`` a player may type: without accents, and ä ö ü as ae oe ue."""
    lower = word.lower()
    spelled_out = lower.replace("ä", "ae").replace("ö", "oe").replace("ü", "ue")
    return {fold(lower), fold(spelled_out)}


@dataclass
class Vocabulary:
    """The notation of one language: canonical words (for writing) and every accepted spelling (for reading)."""

    place: str
    recall: str
    rotation: str  # "r{rot}", "{rot}°"
    no_piece: str
    pieces: dict[str, str]  # code -> written word
    kinds: dict[str, str]
    sides: dict[str, str]  # English token -> written token
    read: dict[str, dict[str, str]] = field(default_factory=dict)  # family -> folded word -> code
    no_piece_phrases: set[str] = field(default_factory=set)
    rotation_prefixes: set[str] = field(default_factory=set)
    rotation_suffixes: set[str] = field(default_factory=set)

    def words(self) -> set[str]:
        """Return every single word this language reads, whatever it means."""
        found = {word for family in self.read.values() for word in family}
        return found | self.rotation_prefixes | {p for phrase in self.no_piece_phrases for p in phrase.split()}


def _also(listed: str) -> list[str]:
    return [word for word in listed.split() if word]


@cache
def _vocabulary(code: str) -> Vocabulary:
    """Return the notation of language ``code`` alone (call it with that language current)."""
    pieces = terms.names("piece")
    kinds = {kind: terms.feature(kind) for kind in ("forest", "meadow", "river", "lake")}
    sides = terms.names("side")
    vocabulary = Vocabulary(
        place=_.pgettext("notation", "place"),
        recall=_.pgettext("notation", "recall"),
        rotation=_.pgettext("notation: a rotation as written, {rot} in degrees", "r{rot}"),
        no_piece=_.pgettext("notation", "no meeple"),
        pieces=dict(pieces),
        kinds=kinds,
        sides=dict(sides),
    )
    read: dict[str, dict[str, str]] = {family: {} for family in ("place", "recall", "piece", "kind", "side", "filler",
                                                                 "pass", "square", "joiner")}

    def add(family: str, code: str, *words: str) -> None:
        for word in words:
            for spelled in spellings(word):
                read[family].setdefault(spelled, code)

    add("place", "place", vocabulary.place,
        *_also(_.pgettext("notation: other words for place, separated by spaces", "put play lay")))
    add("recall", "recall", vocabulary.recall,
        *_also(_.pgettext("notation: other words for recall, separated by spaces", "shaman return call")))
    add("pass", "pass", *_also(_.pgettext("notation: words for passing, separated by spaces", "pass")))
    others = {
        "gatherer": _.pgettext("notation: other words for gatherer, separated by spaces", "gatherers"),
        "fisherman": _.pgettext("notation: other words for fisherman, separated by spaces", "fishermen fisher"),
        "hunter": _.pgettext("notation: other words for hunter, separated by spaces", "hunters"),
        "hut": _.pgettext("notation: other words for hut, separated by spaces", "huts fishing-hut"),
        "meeple": _.pgettext("notation: words for any tribe member, separated by spaces", "meeple figure follower"),
    }
    for code, word in pieces.items():
        add("piece", code, word, *_also(others[code]))
    add("piece", "meeple", *_also(others["meeple"]))
    others = {
        "forest": _.pgettext("notation: other words for forest, separated by spaces", "wood"),
        "meadow": _.pgettext("notation: other words for meadow, separated by spaces", "grassland field"),
        "river": _.pgettext("notation: other words for river, separated by spaces", "stream"),
        "lake": _.pgettext("notation: other words for lake, separated by spaces", "lakes"),
    }
    for code, word in kinds.items():
        add("kind", code, word, *_also(others[code]))
    for token, word in sides.items():
        add("side", token, word)
    # Sides written as words, as a player says where the feature lies ("the northern meadow", "im Norden").
    side_words = {
        "N": _.pgettext("notation: words for the north side, separated by spaces", "north northern"),
        "E": _.pgettext("notation: words for the east side, separated by spaces", "east eastern"),
        "S": _.pgettext("notation: words for the south side, separated by spaces", "south southern"),
        "W": _.pgettext("notation: words for the west side, separated by spaces", "west western"),
        "NE": _.pgettext("notation: words for the north-east corner, separated by spaces", "northeast northeastern"),
        "SE": _.pgettext("notation: words for the south-east corner, separated by spaces", "southeast southeastern"),
        "SW": _.pgettext("notation: words for the south-west corner, separated by spaces", "southwest southwestern"),
        "NW": _.pgettext("notation: words for the north-west corner, separated by spaces", "northwest northwestern"),
    }
    for token, listed in side_words.items():
        add("side", token, *_also(listed))
    # A square's word after its x,y ("1,0 square", Hungarian "az 1,0 mezőre") says nothing more; elsewhere the
    # same word may mean a feature (Hungarian "mező" is also a meadow).
    # Words joining two parts of a move ("and", "then"): the shaman's square is looked for on one side of them.
    add("joiner", "", *_also(_.pgettext("notation: words joining two parts of a move, separated by spaces",
                                        "and then")))
    add("square", "square", *_also(_.pgettext("notation: words for a square, written after its x,y, separated by "
                                               "spaces", "square")))
    add("filler", "", *_also(_.pgettext("notation: words to skip, separated by spaces",
                                        "on onto in into the a an at of then and to fishing with tile it by back")))
    vocabulary.read = read
    phrases = _.pgettext("notation: ways to say no piece, separated by |",
                         "no meeple|no piece|no figure|none|nothing|no|-|no deployment")
    vocabulary.no_piece_phrases = {fold(phrase.strip()) for phrase in [vocabulary.no_piece, *phrases.split("|")]}
    vocabulary.rotation_prefixes = {fold(word) for word in _also(_.pgettext(
        "notation: words or letters before a rotation, separated by spaces", "r rot rotate rotation turned"))}
    vocabulary.rotation_suffixes = {fold(word) for word in _also(_.pgettext(
        "notation: words or signs after a rotation, separated by spaces", "° deg degrees"))}
    return vocabulary


def vocabulary() -> Vocabulary:
    """Return the reader's notation (for writing moves)."""
    return _vocabulary(current_language())


@cache
def _reading(code: str) -> Vocabulary:
    mine = _vocabulary(code)
    if code == ENGLISH:
        return mine
    with language(ENGLISH):
        english = _vocabulary(ENGLISH)
    taken = mine.words()
    merged = Vocabulary(**{**mine.__dict__, "read": {family: dict(words) for family, words in mine.read.items()}})
    for family, words in english.read.items():
        for word, code_ in words.items():
            if word not in taken:  # a word of the reader's language keeps its own meaning
                merged.read[family].setdefault(word, code_)
    merged.no_piece_phrases = mine.no_piece_phrases | {p for p in english.no_piece_phrases if p not in taken}
    merged.rotation_prefixes = mine.rotation_prefixes | (english.rotation_prefixes - taken)
    merged.rotation_suffixes = mine.rotation_suffixes | english.rotation_suffixes
    return merged


def reading() -> Vocabulary:
    """Return what the reader may type: their language's words, and English where it means nothing else there."""
    return _reading(current_language())


def _english() -> Vocabulary:
    with language(ENGLISH):
        return _vocabulary(ENGLISH)


def sides_after(word: str | None) -> dict[str, str]:
    """Return how to read the side letters written after ``word`` (a piece's or a feature's word, folded):
    in English when the word is English and not the reader's own, else as the reader reads them."""
    english = _english()
    if word is not None and current_language() != ENGLISH and word not in _vocabulary(current_language()).words() \
            and any(word in words for family, words in english.read.items() if family in ("piece", "kind")):
        return english.read["side"]
    return reading().read["side"]
