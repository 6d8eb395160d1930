"""The words of the Love Letter notation in the reader's language and in English, from the game's catalog.

Each message is a list of the forms a player may type, split by "|"; the first form of a card, of the
word for yourself, of "keep" and of "bottom" is the one ``describe_move`` writes. A translator adds the
forms a native player types: inflected cards (Hungarian "papot", "őrrel"; German "Prinzen"), the verbs
of playing and naming a card, the articles and prepositions, and the endings a player's name takes
(Hungarian "Benre", "Bent"). A form may be several words ("mich selbst").

Text is compared folded (``fold``): lower case, without accents, German "ß" as "ss"; a card's forms are
also kept with German umlauts spelled out ("koenig"). A word is read as the reader's language means it
first, then as English's.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Any

from games.base import BadNotation
from games.i18n import catalog_of, in_english
from games.love_letter import cards
from games.love_letter.words import name, per_language

_ = catalog_of(__name__)

# The kinds of word the notation reads, besides cards: what each tells the parser.
SELF, I, KEEP, BOTTOM, SKIP = "self", "i", "keep", "bottom", "skip"


@per_language
def forms() -> dict[str, Any]:
    """Return every form of the reader's language, each message a list split by "|"."""
    return {
        "cards": {
            "spy": _.pgettext("notation: forms of the Spy, the first is written", "spy|spies"),
            "guard": _.pgettext("notation: forms of the Guard, the first is written", "guard|guards"),
            "priest": _.pgettext("notation: forms of the Priest, the first is written", "priest|priests"),
            "baron": _.pgettext("notation: forms of the Baron, the first is written", "baron|barons"),
            "handmaid": _.pgettext("notation: forms of the Handmaid, the first is written",
                                   "handmaid|handmaids|handmaiden|handmaidens|maid"),
            "prince": _.pgettext("notation: forms of the Prince, the first is written", "prince|princes"),
            "chancellor": _.pgettext("notation: forms of the Chancellor, the first is written",
                                     "chancellor|chancellors"),
            "king": _.pgettext("notation: forms of the King, the first is written", "king|kings"),
            "countess": _.pgettext("notation: forms of the Countess, the first is written", "countess|countesses"),
            "princess": _.pgettext("notation: forms of the Princess, the first is written", "princess|princesses"),
        },
        SELF: _.pgettext("notation: forms of yourself as the player a card chooses, the first is written",
                         "self|me|myself"),
        # Translators: the subject pronoun; it means yourself only when the move names no other player.
        I: _.pgettext("notation: forms of I", "i"),
        KEEP: _.pgettext("notation: forms of keep (the Chancellor's card), the first is written", "keep|keeps|kept"),
        BOTTOM: _.pgettext("notation: forms of bottom (the cards put under the deck), the first is written",
                           "bottom|under|underneath|below"),
        SKIP: "|".join((
            # Translators: verbs of playing a card, choosing a player and naming a card: read past.
            _.pgettext("notation: verbs read past", "play|plays|playing|name|names|naming|guess|guesses|guessing|"
                                                     "say|says|choose|put"),
            # Translators: articles, prepositions and other small words: read past.
            _.pgettext("notation: small words read past", "the|a|an|and|then|on|at|against|onto|to|of|with|card|"
                                                            "deck|as"),
        )),
        # Translators: the endings a player's name may take in a move ("Benre", "Ben-re"); none in English.
        "endings": _.pgettext("notation: endings of a player's name", "'s"),
    }


def fold(word: str) -> str:
    """Return ``word`` lower case without accents ("Őr" -> "or", "König" -> "konig", "ß" -> "ss")."""
    word = word.lower().replace("ß", "ss")
    return "".join(char for char in unicodedata.normalize("NFKD", word) if not unicodedata.combining(char))


def keys(word: str) -> set[str]:
    """Return the ways a reader may type ``word``: as written, without accents, German umlauts as ae/oe/ue too."""
    spelled_out = word.lower().replace("ä", "ae").replace("ö", "oe").replace("ü", "ue")
    return {word.lower(), fold(word), fold(spelled_out)}


def split(message: str) -> list[str]:
    """Return the forms of one message, each lower case with single spaces, in their order."""
    return [" ".join(form.lower().split()) for form in message.split("|") if form.strip()]


def written(message: str) -> str:
    """Return the form a notation writes: the first of a message's forms."""
    return split(message)[0]


@dataclass(frozen=True)
class Vocabulary:
    """One language's forms, folded: what each word or phrase a player may type means."""

    words: dict[str, str]  # folded form -> a card, or SELF, I, KEEP, BOTTOM, SKIP
    self_as_written: frozenset[str]  # the words for yourself as written, accents and all
    endings: tuple[str, ...]  # folded name endings, longest first
    longest: int  # the most words a form has

    @classmethod
    def of(cls, found: dict[str, Any]) -> "Vocabulary":
        words: dict[str, str] = {}
        # The later kinds win a form two kinds share: a card over a small word, never the other way round.
        for kind in (SKIP, KEEP, BOTTOM, I, SELF):
            for form in split(found[kind]):
                words.update(dict.fromkeys(keys(form), kind))
        for card, message in found["cards"].items():
            for form in split(message):
                words.update(dict.fromkeys(keys(form), card))
        endings = sorted({fold(ending) for ending in split(found["endings"])}, key=len, reverse=True)
        return cls(words=words, self_as_written=frozenset(split(found[SELF])), endings=tuple(endings),
                   longest=max(len(form.split()) for form in words))


@per_language
def readers() -> Vocabulary:
    """Return the reader's language's vocabulary."""
    return Vocabulary.of(forms())


@per_language
def english() -> Vocabulary:
    """Return English's vocabulary, read in every language after the reader's own."""
    with in_english():
        return Vocabulary.of(forms())


def meaning(phrase: str) -> str | None:
    """Return what a folded phrase means: in the reader's language first, then in English, else None."""
    found = readers().words.get(phrase)
    return found if found is not None else english().words.get(phrase)


def card_word(card: str) -> str:
    """Return the word the reader's notation writes for ``card`` ("guard", "őr", "wächterin")."""
    return written(forms()["cards"][card])


def self_word() -> str:
    """Return the word the reader's notation writes for the mover ("self", "magam", "mich")."""
    return written(forms()[SELF])


def check_edition(card: str, edition: str) -> str:
    """Return ``card`` if the edition has it, else raise ``BadNotation``."""
    if card not in cards.VALUES[edition]:
        # Translators: {card} is the card's name alone. Every card of the classic edition is in the 2019 one.
        raise BadNotation(_("There is no {card} in the classic edition").format(card=name(card)))
    return card


_SEAT = re.compile(r"#(\d+)")


def seat_number(text: str, state: dict[str, Any]) -> int | None:
    """Return the seat ``#N`` names (None when ``text`` is no ``#N``), or raise ``BadNotation`` past the last seat."""
    match = _SEAT.fullmatch(text)
    if not match:
        return None
    number, count = int(match.group(1)), len(state["players"])
    if not 1 <= number <= count:
        raise BadNotation(_("There is no seat #{number}; seats go from #1 to #{count}").format(
            number=number, count=count))
    return number - 1


def one_player(found: list[int], text: str) -> int | None:
    """Return the one seat in ``found`` (None: nobody), or raise ``BadNotation`` when several share the name."""
    if len(found) > 1:
        raise BadNotation(_("Several players are called {name}: write #N for the N-th seat instead").format(
            name=repr(text)))
    return found[0] if found else None


def unknown_card(word: str, edition: str) -> BadNotation:
    """Return the reason for a word that names no card, listing the edition's cards."""
    known = ", ".join(card_word(card) for card in cards.card_types(edition))
    return BadNotation(_("Unknown card {word}; the cards are: {known}").format(word=repr(word), known=known))


def unknown_player(word: str, players: list[str]) -> BadNotation:
    """Return the reason for a word that names no player, listing the players."""
    return BadNotation(_("No player called {name}; players: {players} (or {self}, or #N)").format(
        name=repr(word), players=", ".join(players), self=self_word()))
