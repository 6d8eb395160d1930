"""The words a player may reply with instead of a move, in English and in each language the site speaks.

A reply's first line is read in the player's language first, then in English: a Hungarian player may
write "mutasd" or "show", a German one "zeigen" or "show". Case, accents and a closing full stop or
exclamation mark are ignored ("Állás!", "allas" and "állás" are one command). A word that is a command
only in another language is no command for this player: the game reads it as a move (a German player's
"Stand" shows the position; an English or Hungarian player's "stand" goes to the game, which refuses it).

``say`` is the first word of its line, the rest of the reply going to the table talk, and so is ``note``, the rest
going to the player's private notes on the game; the others are the whole line. ``takeback`` asks the others at
the table to let the player take back their last move; ``accept`` and ``decline`` answer a group's email, and in a
game's reply a takeback waiting there (``agreement_replies``). The first word of each list is the one the emails
tell the player to write (``shown_words``), so every word an email names is one this module reads.
"""

from __future__ import annotations

import functools
import unicodedata

from django.conf import settings
from django.utils import translation
from django.utils.translation import pgettext_lazy

SHOW, HELP, RESIGN, SAY, NOTE = "show", "help", "resign", "say", "note"
# Ask the others at the table to let the player take back their last move (issue 46, agreements).
TAKEBACK = "takeback"
# The answers to a group's invitation, or to a request to join a group (issue 44); in a game's reply, to a takeback
# waiting at that game (issue 46).
ACCEPT, DECLINE = "accept", "decline"
ENGLISH = "en"

# What each language's players type, written as they write it (accents are folded when compared), from the
# catalogs: a new language brings its own words. The first of each list is the one emails name.
WORDS = {
    SHOW: pgettext_lazy("email commands: the words that ask for the position again, separated by |",
                        "show|position|board"),
    HELP: pgettext_lazy("email commands: the words that ask how to write a move, separated by |", "help|?"),
    RESIGN: pgettext_lazy("email commands: the words that give up the game, separated by |", "resign"),
    SAY: pgettext_lazy("email commands: the words that start a message to the table, separated by |", "say"),
    NOTE: pgettext_lazy("email commands: the words that start a line added to the player's private notes on the "
                        "game, separated by |", "note"),
    # Translators: for example Hungarian "visszavonás|visszavon|takeback", German "zurücknehmen|zurücknahme|takeback"
    # (keep "takeback": the English word works in every language).
    TAKEBACK: pgettext_lazy("email commands: the words that ask the others at the table to let the player take back "
                            "their last move, separated by |", "takeback|take back|undo"),
    ACCEPT: pgettext_lazy("email commands: the words that accept an invitation to a group or a request to join one, "
                          "separated by |", "accept|yes"),
    DECLINE: pgettext_lazy("email commands: the words that decline an invitation to a group or a request to join "
                           "one, separated by |", "decline|no"),
}


@functools.cache
def vocabulary(language: str) -> dict[str, tuple[str, ...]]:
    """Return the words of each command in ``language`` (a code the site speaks), as its catalog gives them."""
    with translation.override(language):
        return {kind: tuple(word.strip() for word in str(words).split("|") if word.strip())
                for kind, words in WORDS.items()}


def folded(text: str) -> str:
    """Return ``text`` as commands are compared: lower case, without accents, spaces single, no closing . or !."""
    text = unicodedata.normalize("NFKD", text.casefold().replace("ß", "ss"))
    text = "".join(char for char in text if not unicodedata.combining(char))
    return " ".join(text.split()).strip(" .!")


def _languages(language: str | None) -> list[str]:
    offered = dict(settings.LANGUAGES)
    base = (language or ENGLISH).lower().split("-")[0]
    return list(dict.fromkeys(code for code in (base, ENGLISH) if code in offered))


def _words(language: str, kind: str) -> set[str]:
    return {folded(word) for word in vocabulary(language)[kind]}


def read(line: str, language: str | None) -> str | None:
    """Return the command the first line of a reply gives (``SHOW``, ``HELP``, ``RESIGN``, ``TAKEBACK``, ``SAY``,
    ``NOTE``), or None for a move (or an answer: ``read_answer``).

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
        if first in _words(code, NOTE):
            return NOTE
        for kind in (SHOW, HELP, RESIGN, TAKEBACK):
            if whole in _words(code, kind):
                return kind
    return None


def read_answer(line: str, language: str | None) -> str | None:
    """Return ``ACCEPT`` or ``DECLINE`` for the first line of a reply to a group's email (or to a game's, when a
    takeback waits there), or None."""
    whole = folded(line)
    for code in _languages(language):
        for kind in (ACCEPT, DECLINE):
            if whole in _words(code, kind):
                return kind
    return None


def shown_words(language: str | None) -> dict[str, str]:
    """Return the word an email tells the player to write for each command, in ``language`` (else English)."""
    code = _languages(language)[0]
    return {kind: words[0] for kind, words in vocabulary(code).items()}
