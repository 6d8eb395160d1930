"""The words a player may reply with instead of a move, in English and in each language the site speaks.

A reply's first line is read in the player's language first, then in English: a Hungarian player may
write "mutasd" or "show", a German one "zeigen" or "show". Case, accents and a closing full stop or
exclamation mark are ignored ("Állás!", "allas" and "állás" are one command). A word that is a command
only in another language is no command for this player: the game reads it as a move (a German player's
"Stand" shows the position; an English or Hungarian player's "stand" goes to the game, which refuses it).

``say`` is the first word of its line, the rest of the reply going to the table talk; the others are the
whole line. The first word of each list is the one the emails tell the player to write
(``shown_words``), so every word an email names is one this module reads.
"""

from __future__ import annotations

import unicodedata

SHOW, HELP, RESIGN, SAY = "show", "help", "resign", "say"
ENGLISH = "en"

# What each language's players type, written as they write it; accents are folded when compared.
VOCABULARY: dict[str, dict[str, tuple[str, ...]]] = {
    "en": {
        SHOW: ("show", "position", "board"),
        HELP: ("help", "?"),
        RESIGN: ("resign",),
        SAY: ("say",),
    },
    "hu": {
        SHOW: ("mutasd", "mutasd meg", "mutat", "állás", "állást", "tábla", "táblát"),
        HELP: ("súgó", "segítség", "segíts"),
        RESIGN: ("feladom", "feladás", "felad", "feladom a játszmát"),
        SAY: ("mondd", "mond", "üzenem", "üzenet"),
    },
    "de": {
        SHOW: ("zeigen", "zeig", "zeige", "anzeigen", "stellung", "brett", "spielstand", "stand"),
        HELP: ("hilfe",),
        RESIGN: ("aufgeben", "ich gebe auf", "gebe auf", "aufgabe"),
        SAY: ("sag", "sage", "sagen", "nachricht"),
    },
}


def folded(text: str) -> str:
    """Return ``text`` as commands are compared: lower case, without accents, spaces single, no closing . or !."""
    text = unicodedata.normalize("NFKD", text.casefold().replace("ß", "ss"))
    text = "".join(char for char in text if not unicodedata.combining(char))
    return " ".join(text.split()).strip(" .!")


def _languages(language: str | None) -> list[str]:
    base = (language or ENGLISH).lower().split("-")[0]
    return list(dict.fromkeys(code for code in (base, ENGLISH) if code in VOCABULARY))


def _words(language: str, kind: str) -> set[str]:
    return {folded(word) for word in VOCABULARY[language][kind]}


def read(line: str, language: str | None) -> str | None:
    """Return the command the first line of a reply gives (``SHOW``, ``HELP``, ``RESIGN``, ``SAY``), or None for a move.

    Each language is read in turn, the player's first, then English; within one language a line is
    a ``say`` when its first word is one, else it must be the whole of a command.
    """
    whole = folded(line)
    if not whole:
        return None
    first = whole.split(" ", 1)[0]
    for code in _languages(language):
        if first in _words(code, SAY):
            return SAY
        for kind in (SHOW, HELP, RESIGN):
            if whole in _words(code, kind):
                return kind
    return None


def shown_words(language: str | None) -> dict[str, str]:
    """Return the word an email tells the player to write for each command, in ``language`` (else English)."""
    code = _languages(language)[0]
    return {kind: words[0] for kind, words in VOCABULARY[code].items()}
