"""Reading a Love Letter move written as a sentence: "spiele die Wache auf Ben, rate Priester".

Each word (or phrase of several) is placed as a card, a player, a word for yourself, "keep", "bottom"
or a word read past (a verb, an article, a preposition); the order is free, because each kind of move
is told apart by what it holds, never by where:

* a play holds one card, or the Guard and the card it names (the Guard is the only card that names
  one, so with two cards the Guard is the one played), and at most one player;
* the 2019 Chancellor's choice holds "keep" or "bottom": the card next to "keep" is kept (the one
  after it, or the one before it when the cards after it go on to "bottom": "báró marad, őr és pap
  alulra"), and every other card goes under the deck in the order written, the last one lowest.

A word placed two ways would make two moves of one text, so the vocabulary keeps its kinds apart
(tests/games/love_letter/test_notation_sentences.py checks it); a player's name is read as a name
only where the vocabulary has no meaning for it (the written order, ``notation.py``, reads any name).
The subject "I" ("ich", "én") means yourself only for the Prince and only when no player is named:
"ich spiele die Wache auf Ben" names Ben.
"""

from __future__ import annotations

import re
from typing import Any

from games.base import BadNotation
from games.i18n import catalog_of
from games.love_letter import cards
from games.love_letter.cards import TARGETS
from games.love_letter.notation_words import (BOTTOM, I, KEEP, SELF, SKIP, card_word, check_edition, english, fold,
                                              keys, one_player, readers, seat_number, unknown_card, unknown_player)
from games.love_letter.words import object_, subject, upper_first

_ = catalog_of(__name__)

_PUNCTUATION = re.compile(r"[,;:!?()\"„“”«»]")
CARD, SEAT = "card", "seat"


def _tokens(text: str) -> list[str]:
    return [token.strip(".") for token in _PUNCTUATION.sub(" ", text.lower()).split() if token.strip(".")]


def _normal(name: str) -> str:
    return " ".join(name.lower().split())


def _named(phrase: str, names: list[str], folded: bool) -> list[int]:
    """Return the seats whose name is ``phrase``: as written, or (``folded``) without accents or umlauts."""
    if folded:
        return [seat for seat, name in enumerate(names) if fold(phrase) in keys(_normal(name))]
    return [seat for seat, name in enumerate(names) if _normal(name) == phrase]


def _without_ending(token: str, names: list[str]) -> list[int]:
    """Return the seats a name with one of the language's endings names ("benre", "ben-re", "bent")."""
    found: set[int] = set()
    for ending in (*readers().endings, *english().endings):
        if fold(token).endswith(ending) and len(token) > len(ending):
            base = token[: len(token) - len(ending)].rstrip("-")
            found.update(_named(base, names, folded=True))
    return sorted(found)


def _placed(phrase: str, state: dict[str, Any], one_word: bool) -> tuple[str, Any] | None:
    """Return (kind, value) for a phrase, or None: the reader's words, #N, a name, English's words, loose names."""
    names = state["players"]
    kind = readers().words.get(fold(phrase))
    if kind is None and one_word:
        number = seat_number(phrase, state)
        if number is not None:
            return SEAT, number
    if kind is None:
        seat = one_player(_named(phrase, names, folded=False), phrase)
        if seat is not None:
            return SEAT, seat
        kind = english().words.get(fold(phrase))
    if kind is None:
        seat = one_player(_named(phrase, names, folded=True), phrase)
        if seat is None and one_word:
            seat = one_player(_without_ending(phrase, names), phrase)
        if seat is not None:
            return SEAT, seat
        return None
    return (CARD, kind) if kind in cards.ALL_CARDS else (kind, None)


def _items(text: str, state: dict[str, Any]) -> tuple[list[tuple[str, Any, str]], list[str]]:
    """Return the placed words in order as (kind, value, text), and the words nothing placed."""
    tokens = _tokens(text)
    longest = max(readers().longest, english().longest, *(len(name.split()) for name in state["players"]))
    items, unplaced = [], []
    start = 0
    while start < len(tokens):
        for size in range(min(longest, len(tokens) - start), 0, -1):
            phrase = " ".join(tokens[start:start + size])
            found = _placed(phrase, state, size == 1)
            if found is not None:
                items.append((*found, phrase))
                start += size
                break
        else:
            unplaced.append(tokens[start])
            start += 1
    return [item for item in items if item[0] != SKIP], unplaced


def _unplaced(word: str, items: list[tuple[str, Any, str]], state: dict[str, Any]) -> BadNotation:
    """Return the reason for a word nothing placed: an unknown card where a card is missing, else an unknown player."""
    kinds = [kind for kind, _value, _text in items]
    if CARD not in kinds or SEAT in kinds or SELF in kinds:
        return unknown_card(word, state["edition"])
    return unknown_player(word, state["players"])


def read_sentence(text: str, state: dict[str, Any], seat: int) -> dict[str, Any]:
    """Read ``text`` as a sentence in any order into a move, or raise ``BadNotation`` saying what is missing."""
    items, unplaced = _items(text, state)
    if unplaced:
        raise _unplaced(unplaced[0], items, state)
    if any(kind in (KEEP, BOTTOM) for kind, _value, _text in items):
        return _chancellor([item for item in items if item[0] in (CARD, KEEP, BOTTOM)], state)
    return _play(items, state, seat)


def _chancellor(items: list[tuple[str, Any, str]], state: dict[str, Any]) -> dict[str, Any]:
    """Read the Chancellor's choice: the card next to "keep" is kept, the others go under the deck as written."""
    kinds = [kind for kind, _value, _text in items]
    bottom_at = kinds.index(BOTTOM) if BOTTOM in kinds else None
    kept = None
    if KEEP in kinds:
        at = kinds.index(KEEP)
        before = at - 1 if at > 0 and kinds[at - 1] == CARD else None
        after = at + 1 if at + 1 < len(kinds) and kinds[at + 1] == CARD else None
        if before is not None and after is not None:
            # "behalte Baron, Wächterin und Priester nach unten": the cards after "keep" go on to "bottom".
            kept = before if bottom_at is not None and bottom_at > at else after
        else:
            kept = before if after is None else after
    elif bottom_at is not None and CARD in kinds[:bottom_at]:
        kept = kinds.index(CARD)
    if kept is None:
        raise BadNotation(_("Write which card to keep: 'keep baron bottom guard priest'"))
    rest = [value for index, (kind, value, _text) in enumerate(items) if kind == CARD and index != kept]
    if rest and bottom_at is None:
        raise BadNotation(_("Write 'bottom' before the cards you put under the deck"))
    edition = state["edition"]
    return {"keep": check_edition(items[kept][1], edition), "bottom": [check_edition(card, edition) for card in rest]}


def _play(items: list[tuple[str, Any, str]], state: dict[str, Any], seat: int) -> dict[str, Any]:
    """Read a play: one card (or the Guard and the card it names) and at most one player."""
    played = [value for kind, value, _text in items if kind == CARD]
    seats = list(dict.fromkeys(seat if kind == SELF else value for kind, value, _text in items if kind in (SEAT, SELF)))
    if not played:
        raise BadNotation(_("Write a move, for example 'guard bob priest' or 'handmaid'"))
    if len(played) > 2 or (len(played) == 2 and "guard" not in played):
        raise BadNotation(_("Write one card to play; only the Guard names a second card: 'guard bob priest'"))
    card = "guard" if len(played) == 2 else played[0]
    guess = None
    if len(played) == 2:
        guess = played[1] if played[0] == "guard" else played[0]
    edition = state["edition"]
    check_edition(card, edition)
    if guess is not None:
        check_edition(guess, edition)
    if not seats and TARGETS[card] == "any" and any(kind == I for kind, _value, _text in items):
        seats = [seat]  # "prinz ich": the subject pronoun is yourself only where no one else is named
    if TARGETS[card] is None:
        if seats:
            raise BadNotation(upper_first(_("{card} chooses nobody: write just '{word}'").format(
                card=subject(card), word=card_word(card))))
        return {"card": card}
    if len(seats) > 1:
        # Translators: {card} is the card with its article, as the object.
        raise BadNotation(_("Choose only one player for {card}").format(card=object_(card)))
    if card == "guard" and (guess is None) != (not seats):
        if guess is None:
            raise BadNotation(_("Name a card after the player, for example 'guard bob priest'"))
        raise BadNotation(_("Write the player the Guard chooses, for example 'guard bob priest'"))
    move: dict[str, Any] = {"card": card}
    if seats:
        move["target"] = seats[0]
    if guess is not None:
        move["guess"] = guess
    return move

