"""The words of Love Letter shared by its history, its board and its notation, in the reader's language.

A card's name is needed in three forms, because German and Hungarian inflect it where English
does not: alone (on the card, in lists, after a colon), with its article as the subject ("der
Priester", "a Pap") and with its article as the object ("den Priester", "a Papot"). Each form is
a message of its own context, so a translator words each case; a sentence names in a comment
which form its ``{card}`` is. The names are those of the published editions (docs/glossary/
love-letter.md). Tables are built once per language and kept (``_per_language``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import cache
from typing import TypeVar

from games.i18n import catalog_of, current_language
from games.love_letter import cards

_ = catalog_of(__name__)

T = TypeVar("T")


def per_language(build: Callable[[], T]) -> Callable[[], T]:
    """Return ``build`` made once per reader's language: its tables are the same for every call in that language."""
    built = cache(lambda language: build())

    def in_current_language() -> T:
        return built(current_language())

    in_current_language.__doc__ = build.__doc__
    return in_current_language


@per_language
def card_names() -> dict[str, str]:
    """Return each card's name alone ("Guard"), as the card and the tracker show it."""
    return {
        "spy": _.pgettext("card", "Spy"),
        "guard": _.pgettext("card", "Guard"),
        "priest": _.pgettext("card", "Priest"),
        "baron": _.pgettext("card", "Baron"),
        "handmaid": _.pgettext("card", "Handmaid"),
        "prince": _.pgettext("card", "Prince"),
        "chancellor": _.pgettext("card", "Chancellor"),
        "king": _.pgettext("card", "King"),
        "countess": _.pgettext("card", "Countess"),
        "princess": _.pgettext("card", "Princess"),
    }


@per_language
def card_subjects() -> dict[str, str]:
    """Return each card's name with its article, as the subject of a sentence ("the Guard", "der Priester")."""
    return {
        "spy": _.pgettext("card with its article, as the subject", "the Spy"),
        "guard": _.pgettext("card with its article, as the subject", "the Guard"),
        "priest": _.pgettext("card with its article, as the subject", "the Priest"),
        "baron": _.pgettext("card with its article, as the subject", "the Baron"),
        "handmaid": _.pgettext("card with its article, as the subject", "the Handmaid"),
        "prince": _.pgettext("card with its article, as the subject", "the Prince"),
        "chancellor": _.pgettext("card with its article, as the subject", "the Chancellor"),
        "king": _.pgettext("card with its article, as the subject", "the King"),
        "countess": _.pgettext("card with its article, as the subject", "the Countess"),
        "princess": _.pgettext("card with its article, as the subject", "the Princess"),
    }


@per_language
def card_objects() -> dict[str, str]:
    """Return each card's name with its article, as the object of a sentence ("the Guard", "den Priester", "a Papot")."""
    return {
        "spy": _.pgettext("card with its article, as the object", "the Spy"),
        "guard": _.pgettext("card with its article, as the object", "the Guard"),
        "priest": _.pgettext("card with its article, as the object", "the Priest"),
        "baron": _.pgettext("card with its article, as the object", "the Baron"),
        "handmaid": _.pgettext("card with its article, as the object", "the Handmaid"),
        "prince": _.pgettext("card with its article, as the object", "the Prince"),
        "chancellor": _.pgettext("card with its article, as the object", "the Chancellor"),
        "king": _.pgettext("card with its article, as the object", "the King"),
        "countess": _.pgettext("card with its article, as the object", "the Countess"),
        "princess": _.pgettext("card with its article, as the object", "the Princess"),
    }


@per_language
def card_effects() -> dict[str, str]:
    """Return what each card does, in a sentence or two (the board's tooltips and screen-reader descriptions)."""
    return {
        "spy": _("No effect when played. At the end of the round, if you are the only player still in it with a Spy "
                 "in your discards, you gain a token."),
        "guard": _("Choose another player and name a card other than the Guard. If they hold it, they are out of "
                   "the round."),
        "priest": _("Choose another player and look at their hand."),
        "baron": _("Choose another player and compare hands in secret: the lower value is out of the round."),
        "handmaid": _("Until your next turn, other players' cards cannot choose you."),
        "prince": _("Choose any player, yourself included: they discard their hand and draw a new card. Discarding "
                    "the Princess puts them out."),
        "chancellor": _("Draw two cards, keep one of your cards and put the others on the bottom of the deck in any "
                        "order."),
        "king": _("Choose another player and trade hands with them."),
        "countess": _("No effect, but you must play her if you also hold the King or a Prince."),
        "princess": _("If you play or discard her, you are out of the round."),
    }


@per_language
def edition_names() -> dict[str, str]:
    """Return each edition's name as a heading says it ("Classic edition")."""
    return {
        cards.CLASSIC: _("Classic edition"),
        cards.EDITION_2019: _("2019 edition"),
    }


def name(card: str) -> str:
    """Return the card's name alone, in the reader's language ("Guard", "Wächterin", "Őr")."""
    return card_names()[card]


def subject(card: str) -> str:
    """Return the card with its article as a subject ("the Guard", "die Wächterin", "az Őr")."""
    return card_subjects()[card]


def object_(card: str) -> str:
    """Return the card with its article as an object ("the Priest", "den Priester", "a Papot")."""
    return card_objects()[card]


def name_list(hand: Iterable[str]) -> str:
    """Return card names alone, separated by commas ("Guard, Priest"), or the word for none."""
    names = [name(card) for card in hand]
    return ", ".join(names) if names else _.pgettext("no cards", "nothing")


def joined(names: list[str]) -> str:
    """Return names joined by the reader's "and", each pair in turn ("Ann and Ben and Cid")."""
    if not names:
        return ""
    text = names[0]
    for following in names[1:]:
        text = _("{first} and {last}").format(first=text, last=following)
    return text


def you_in_a_list() -> str:
    """Return the word for the reader in a list of players ("You: Guard, Ben: Priest")."""
    return _.pgettext("the reader, in a list of players", "You")


def upper_first(text: str) -> str:
    """Return ``text`` with its first letter made upper case: a sentence may start with a card's article."""
    return text[:1].upper() + text[1:]
