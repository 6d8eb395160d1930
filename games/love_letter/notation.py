"""Text notation for Love Letter moves (classic and 2019 editions), in the reader's language, used in emails and logs.

    guard bob priest      play the Guard on Bob, naming the Priest     (őr bob pap, wächterin bob priester)
    prince self           play the Prince on yourself                  (herceg magam, prinz mich)
    handmaid              play a card that chooses nobody              (komorna, zofe)
    keep baron bottom guard priest   resolve the 2019 Chancellor      (megtart báró alulra őr pap)

``describe_move`` writes the reader's language (the platform stores it in English, the log's
canonical notation); ``parse_move`` reads the reader's language and English, with or without
accents (``or`` for ``őr``, ``koenig`` for ``könig``), and the other forms each language lists
for a card (Hungarian accusatives such as ``papot``). Where a word means one thing in the
reader's language and another in English, the reader's language wins. Words are
case-insensitive. A player is written as their name, the language's word for yourself
(``self``/``me``, ``magam``/``én``, ``mich``/``ich``), or ``#N`` (N counts seats from 1).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Any

from games.base import BadNotation
from games.i18n import catalog_of, current_language, in_english, locale_name
from games.love_letter import cards
from games.love_letter.cards import TARGETS
from games.love_letter.words import name, per_language, subject, upper_first

_ = catalog_of(__name__)

_SEAT = re.compile(r"#(\d+)")


@per_language
def _spellings() -> dict[str, Any]:
    """Return the reader's language's notation words: each list's first word is the one written."""
    return {
        "cards": {
            "spy": _.pgettext("notation: words for the Spy, the first is written", "spy spies"),
            "guard": _.pgettext("notation: words for the Guard, the first is written", "guard guards"),
            "priest": _.pgettext("notation: words for the Priest, the first is written", "priest priests"),
            "baron": _.pgettext("notation: words for the Baron, the first is written", "baron barons"),
            "handmaid": _.pgettext("notation: words for the Handmaid, the first is written",
                                   "handmaid handmaids handmaiden handmaidens maid"),
            "prince": _.pgettext("notation: words for the Prince, the first is written", "prince princes"),
            "chancellor": _.pgettext("notation: words for the Chancellor, the first is written",
                                     "chancellor chancellors"),
            "king": _.pgettext("notation: words for the King, the first is written", "king kings"),
            "countess": _.pgettext("notation: words for the Countess, the first is written", "countess countesses"),
            "princess": _.pgettext("notation: words for the Princess, the first is written", "princess princesses"),
        },
        "self": _.pgettext("notation: words for yourself as a player, the first is written", "self me myself"),
        "keep": _.pgettext("notation: words for the card the Chancellor keeps, the first is written", "keep"),
        "bottom": _.pgettext("notation: words before the cards put under the deck, the first is written", "bottom"),
        "skipped": _.pgettext("notation: small words read past between the Chancellor's cards", "the a an and"),
    }


def fold(word: str) -> str:
    """Return ``word`` lower case without accents ("Őr" -> "or", "König" -> "konig", "ß" -> "ss")."""
    word = word.lower().replace("ß", "ss")
    return "".join(char for char in unicodedata.normalize("NFKD", word) if not unicodedata.combining(char))


def _keys(word: str) -> set[str]:
    """Return the ways a reader may type ``word``: with or without accents, German umlauts as ae/oe/ue too."""
    spelled_out = word.lower().replace("ä", "ae").replace("ö", "oe").replace("ü", "ue")
    return {word.lower(), fold(word), fold(spelled_out)}


@dataclass(frozen=True)
class _Reading:
    """What ``parse_move`` reads in the reader's language: its own words first, then English."""

    cards: dict[str, str]  # every accepted spelling (see _keys) -> card
    own_self: frozenset[str]
    own_self_folded: frozenset[str]
    english_self: frozenset[str]
    keep: frozenset[str]
    bottom: frozenset[str]
    skipped: frozenset[str]


def _folded_words(text: str) -> set[str]:
    return {key for word in text.split() for key in _keys(word)}


@per_language
def _reading() -> _Reading:
    """Return the reader's language's notation words merged with English's (the reader's win a clash)."""
    own = _spellings()
    with in_english():
        english = _spellings()
    words: dict[str, str] = {}
    for spellings in (english, own):  # the reader's language last: it wins a word both use
        for card, text in spellings["cards"].items():
            words.update((key, card) for key in _folded_words(text))
    return _Reading(
        cards=words,
        own_self=frozenset(own["self"].lower().split()),
        own_self_folded=frozenset(_folded_words(own["self"])),
        english_self=frozenset(_folded_words(english["self"])),
        keep=frozenset(_folded_words(own["keep"]) | _folded_words(english["keep"])),
        bottom=frozenset(_folded_words(own["bottom"]) | _folded_words(english["bottom"])),
        skipped=frozenset(_folded_words(own["skipped"]) | _folded_words(english["skipped"])),
    )


def _written(words: str) -> str:
    """Return the word a notation writes: the first of a list of spellings."""
    return words.split()[0]


def card_word(card: str) -> str:
    """Return the word the reader's notation writes for ``card`` ("guard", "őr", "wächterin")."""
    return _written(_spellings()["cards"][card])


def self_word() -> str:
    """Return the word the reader's notation writes for the mover ("self", "magam", "mich")."""
    return _written(_spellings()["self"])


def notation_help() -> str:
    """Return a few lines explaining how to write any move, in the reader's language."""
    lines = [
        _("Write the card you play, then the player it chooses, then (Guard only) the card you name:"),
        "  " + _("guard bob priest | priest carol | baron bob | king bob | prince bob | prince self"),
        "  " + _("handmaid | countess | princess | spy | chancellor  (cards that choose nobody)"),
        _("A Guard, Priest, Baron or King with no player to choose is written alone: guard"),
        _("Players: their name, self or me, or #N for the N-th seat (#1 is the first)."),
        _("2019 Chancellor: keep baron bottom guard priest  (the last card listed goes lowest)."),
    ]
    if locale_name(current_language()).partition("_")[0] != "en":
        lines.append(_("English works too: guard bob priest, prince self, keep baron bottom guard priest."))
    return "\n".join(lines)


def _normal(text: str) -> str:
    return " ".join(text.lower().split())


def _card(word: str, edition: str) -> str:
    """Return the card type a word names, or raise ``BadNotation``."""
    card = _reading().cards.get(fold(word.strip(".!:;")))
    if card is None:
        known = ", ".join(card_word(card) for card in cards.card_types(edition))
        raise BadNotation(_("Unknown card {word}; the cards are: {known}").format(word=repr(word), known=known))
    if card not in cards.VALUES[edition]:
        # Translators: {card} is the card's name alone. Every card of the classic edition is in the 2019 one.
        raise BadNotation(_("There is no {card} in the classic edition").format(card=name(card)))
    return card


def _player(text: str, state: dict[str, Any], seat: int) -> int:
    """Return the seat a player word names, or raise ``BadNotation``.

    The reader's word for yourself as written, then ``#N``, then a name as written, then the
    reader's words for yourself without accents, a name without accents, and last English's
    words for yourself: a player called "Mich" is "mich" in English and yourself in German.
    """
    names = state["players"]
    reading = _reading()
    if text in reading.own_self:
        return seat
    match = _SEAT.fullmatch(text)
    if match:
        number = int(match.group(1))
        if not 1 <= number <= len(names):
            raise BadNotation(_("There is no seat #{number}; seats go from #1 to #{count}").format(
                number=number, count=len(names)))
        return number - 1
    key = fold(text)
    for found in ([index for index, player in enumerate(names) if _normal(player) == text],
                  [] if key in reading.own_self_folded else
                  [index for index, player in enumerate(names) if fold(_normal(player)) == key]):
        if len(found) == 1:
            return found[0]
        if found:
            raise BadNotation(_("Several players are called {name}: write #N for the N-th seat instead").format(
                name=repr(text)))
    if key in reading.own_self_folded or key in reading.english_self:
        return seat
    raise BadNotation(_("No player called {name}; players: {players} (or {self}, or #N)").format(
        name=repr(text), players=", ".join(names), self=self_word()))


def parse_move(text: str, state: dict[str, Any], seat: int) -> dict[str, Any]:
    """Read the text notation, in the reader's language or English, into a move (legality is checked by apply)."""
    if not isinstance(text, str):
        raise BadNotation(_("A move must be text such as 'guard bob priest'"))
    edition = state["edition"]
    reading = _reading()
    words = _normal(text.replace(",", " ")).split()
    while words and fold(words[0]) in reading.skipped and fold(words[0]) not in reading.cards:
        words = words[1:]
    if not words:
        raise BadNotation(_("Write a move, for example 'guard bob priest' or 'handmaid'"))
    if fold(words[0]) in reading.keep:
        rest = [word for word in words[1:] if fold(word) not in reading.skipped]
        if not rest:
            raise BadNotation(_("Write which card to keep: 'keep baron bottom guard priest'"))
        keep = _card(rest[0], edition)
        rest = rest[1:]
        if rest and fold(rest[0]) in reading.bottom:
            rest = rest[1:]
        elif rest:
            raise BadNotation(_("Write 'bottom' before the cards you put under the deck"))
        return {"keep": keep, "bottom": [_card(word, edition) for word in rest]}
    card = _card(words[0], edition)
    rest = words[1:]
    if TARGETS[card] is None:
        if rest:
            # Translators: {card} is the card with its article, as the subject; {word} its notation word.
            raise BadNotation(upper_first(_("{card} chooses nobody: write just '{word}'").format(
                card=subject(card), word=card_word(card))))
        return {"card": card}
    if not rest:
        return {"card": card}
    if card == "guard":
        if len(rest) < 2:
            raise BadNotation(_("Name a card after the player, for example 'guard bob priest'"))
        return {"card": card, "target": _player(" ".join(rest[:-1]), state, seat), "guess": _card(rest[-1], edition)}
    return {"card": card, "target": _player(" ".join(rest), state, seat)}


def _player_text(state: dict[str, Any], target: int) -> str:
    """Return how to write ``target``: the word for yourself for the mover, else the name, else #N.

    A name is written as it is only when it reads back as that player and nothing else: not a
    word for yourself (the reader's, or English's outside English), unique, without "#" or a comma.
    """
    if target == state.get("current"):
        return self_word()
    names = [_normal(player) for player in state["players"]]
    written = names[target]
    reading = _reading()
    if locale_name(current_language()).partition("_")[0] == "en":
        clash = written in reading.own_self
    else:
        clash = bool(_keys(written) & (reading.own_self_folded | reading.english_self))
    plain = written and not clash and not written.startswith("#") and "," not in written and names.count(written) == 1
    return written if plain else f"#{target + 1}"


def describe_move(state: dict[str, Any], move: dict[str, Any]) -> str:
    """Return the text notation of ``move`` in the reader's language (it parses back to the same move)."""
    if "keep" in move:
        bottom = [card_word(card) for card in move.get("bottom") or []]
        words = _spellings()
        parts = [_written(words["keep"]), card_word(move["keep"])]
        return " ".join([*parts, *([_written(words["bottom"]), *bottom] if bottom else [])])
    parts = [card_word(move["card"])]
    if move.get("target") is not None:
        parts.append(_player_text(state, move["target"]))
    if move.get("guess") is not None:
        parts.append(card_word(move["guess"]))
    return " ".join(parts)
