"""The names of Savernake Forest's things in the reader's language: animals, foods, helpers, shapes, sides.

States, moves, events and views hold codes only (``AN05``, ``W``, ``goat``, ``DC``, side 2); this
module words them when a person reads them: the history, the notation, the email text and the board
all take their names from here, so one glossary holds everywhere (docs/glossary/savernake-forest.md:
the Hungarian terms are those of the original Hungarian rules text, the German ones are ours).

A name may need several forms in a sentence (Hungarian "a kakas alól", German "vom Hahn"): each form
is its own message with a context saying where it goes, so a translator writes it whole. Tables are
built once per language (``per_language``): the board asks for them on every page view.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from games.i18n import catalog_of, current_language
from games.savernake_forest import cards

_ = catalog_of(__name__)

T = TypeVar("T")


def per_language(build: Callable[[], T]) -> Callable[[], T]:
    """Return ``build`` run once per reader's language (its tables are the same for every call)."""
    built: dict[str, T] = {}

    def table() -> T:
        language = current_language()
        if language not in built:
            built[language] = build()
        return built[language]

    table.__doc__ = build.__doc__
    return table


# -- animals ---------------------------------------------------------------------------


def animal_name(card: str) -> str:
    """Return the animal's name as a label ("Hedgehog", Hungarian "sün", German "Igel")."""
    return _(cards.ANIMALS[card]["name"])


def animal_label(card: str) -> str:
    """Return "Hedgehog (AN05)": the animal's name and its card."""
    return _("{animal} ({card})").format(animal=animal_name(card), card=card)


@per_language
def _animals_with_article() -> dict[str, str]:
    """The animals' names as the subject of a history line: with the article the language puts before them."""
    # Translators: the animal as the subject of a history line, with the article your language puts before it
    # (Hungarian "a sün", "az őz"; German nominative "der Igel"). English keeps the bare name:
    # its sentences say "the".
    return {
        "AN01": _.pgettext("animal with article", "Fox"),
        "AN02": _.pgettext("animal with article", "Squirrel"),
        "AN03": _.pgettext("animal with article", "Beaver"),
        "AN04": _.pgettext("animal with article", "Skunk"),
        "AN05": _.pgettext("animal with article", "Hedgehog"),
        "AN06": _.pgettext("animal with article", "Owl"),
        "AN07": _.pgettext("animal with article", "Woodpecker"),
        "AN08": _.pgettext("animal with article", "Wildcat"),
        "AN09": _.pgettext("animal with article", "Badger"),
        "AN10": _.pgettext("animal with article", "Mole"),
        "AN11": _.pgettext("animal with article", "Dormouse"),
        "AN12": _.pgettext("animal with article", "Weasel"),
        "AN13": _.pgettext("animal with article", "Blackbird"),
        "AN14": _.pgettext("animal with article", "Wild Boar"),
        "AN15": _.pgettext("animal with article", "Pine Marten"),
        "AN16": _.pgettext("animal with article", "Jay"),
        "AN17": _.pgettext("animal with article", "Mouse"),
        "AN18": _.pgettext("animal with article", "Roe Deer"),
        "AN19": _.pgettext("animal with article", "Nuthatch"),
    }


def animal_phrase(card: str) -> str:
    """Return the animal and its card as a sentence names it: "Hedgehog (AN05)", "a sün (AN05)", "der Igel (AN05)"."""
    return _("{animal} ({card})").format(animal=_animals_with_article()[card], card=card)


# -- foods -------------------------------------------------------------------------------


@per_language
def food_kinds() -> dict[str, str]:
    """Each food as a kind, as an animal card's corner shows it: "worms" (the worms corner, a drop on worms)."""
    # Translators: a food as a kind, as an animal card's corner shows it (a water drop goes on "the worms corner").
    return {
        "B": _.pgettext("food kind", "berries"),
        "W": _.pgettext("food kind", "worms"),
        "E": _.pgettext("food kind", "eggs"),
        "N": _.pgettext("food kind", "nuts"),
    }


@per_language
def food_items() -> dict[str, str]:
    """Each food as one item on a path or in an animal's store: "worm"."""
    # Translators: one food item on a path or in an animal's store ("worm worm" lists two).
    return {
        "B": _.pgettext("food item", "berry"),
        "W": _.pgettext("food item", "worm"),
        "E": _.pgettext("food item", "egg"),
        "N": _.pgettext("food item", "nut"),
    }


@per_language
def food_letters() -> dict[str, str]:
    """Each food's letter, in card titles, the email text and the notation: "W" (Hungarian "F", for féreg)."""
    # Translators: one capital letter per food, the first of its name in your language, no two alike.
    return {
        "B": _.pgettext("food letter", "B"),
        "W": _.pgettext("food letter", "W"),
        "E": _.pgettext("food letter", "E"),
        "N": _.pgettext("food letter", "N"),
    }


# -- paths and sides ---------------------------------------------------------------------


@per_language
def shape_names() -> dict[str, str]:
    """The path cards' shapes: "straight", "curve", "double curve"."""
    return {
        "ST": _.pgettext("path shape", "straight"),
        "CU": _.pgettext("path shape", "curve"),
        "DC": _.pgettext("path shape", "double curve"),
    }


@per_language
def side_letters() -> tuple[str, ...]:
    """The sides of a card as compass letters, north first: "N", "E", "S", "W"."""
    # Translators: compass points as one or two letters (the email draws a card's path ends with them).
    return (_.pgettext("side letter", "N"), _.pgettext("side letter", "E"), _.pgettext("side letter", "S"),
            _.pgettext("side letter", "W"))


@per_language
def side_names() -> tuple[str, ...]:
    """The sides of a card as compass points, north first: "north", "east", "south", "west"."""
    return (_.pgettext("side", "north"), _.pgettext("side", "east"), _.pgettext("side", "south"),
            _.pgettext("side", "west"))


def card_title(card: str) -> str:
    """Return a card as the history names it: "Hedgehog (AN05)", "straight W W (ST07)", "double curve B | W (DC01)"."""
    if cards.is_animal(card):
        return animal_label(card)
    letters = food_letters()
    foods = " | ".join(" ".join(letters[food] for food in part) or "-" for part in cards.PATHS[card]["foods"])
    return _("{shape} {foods} ({card})").format(shape=shape_names()[cards.PATHS[card]["shape"]], foods=foods,
                                                card=card)


# -- the helpers of the market board -------------------------------------------------------


@per_language
def slot_names() -> dict[str, str]:
    """The four helpers, as a label names them: "rooster" (Hungarian "kakas", German "Hahn")."""
    return {
        "rooster": _.pgettext("helper", "rooster"),
        "goat": _.pgettext("helper", "goat"),
        "armadillo": _.pgettext("helper", "armadillo"),
        "rabbit": _.pgettext("helper", "rabbit"),
    }


@per_language
def slots_from() -> dict[str, str]:
    """The helpers a card is taken from, as "from the {slot}" needs them (German "vom Hahn")."""
    # Translators: the helper a card is taken from, as "{player} takes … from the {slot}" needs it
    # (Hungarian "a kakas alól", German "vom Hahn"). English keeps the bare name.
    return {
        "rooster": _.pgettext("from the helper", "rooster"),
        "goat": _.pgettext("from the helper", "goat"),
        "armadillo": _.pgettext("from the helper", "armadillo"),
        "rabbit": _.pgettext("from the helper", "rabbit"),
    }


@per_language
def slots_under() -> dict[str, str]:
    """The helpers a card lies under, as "under the {slot}" needs them (German "unter dem Hahn")."""
    # Translators: where a market card lies, as "there is no card under the {slot}" needs it
    # (Hungarian "a kakas alatt", German "unter dem Hahn"). English keeps the bare name.
    return {
        "rooster": _.pgettext("under the helper", "rooster"),
        "goat": _.pgettext("under the helper", "goat"),
        "armadillo": _.pgettext("under the helper", "armadillo"),
        "rabbit": _.pgettext("under the helper", "rabbit"),
    }


@per_language
def helper_bonuses() -> dict[str, str]:
    """What each helper gives, by the view's bonus code."""
    return {
        "first_player": _("go first next round"),
        "water_drop": _("a water drop: +1 per stored food of one kind"),
        "burrow": _("a burrow: +1 storage"),
        "animal": _("a new animal"),
    }


def slot_bonus(slot: str) -> str:
    """Return what the helper ``slot`` gives, in words."""
    return helper_bonuses()[cards.HELPER_BONUS[slot]]


# -- lists of names -------------------------------------------------------------------------


def and_list(items: list[str]) -> str:
    """Return items joined as the reader's language lists them ("Alice and Bob and Carol" in English)."""
    if len(items) < 2:
        return "".join(items)
    # Translators: joins the names of a list except the last two; English keeps "and" between all of them.
    rest = _.pgettext("between the items of a list, before the last two", " and ").join(items[:-1])
    return _("{rest} and {last}").format(rest=rest, last=items[-1])


def or_list(items: list[str]) -> str:
    """Return choices joined as the reader's language lists them ("AN05 or AN06 or AN09" in English)."""
    if len(items) < 2:
        return "".join(items)
    rest = _.pgettext("between the choices of a list, before the last two", " or ").join(items[:-1])
    return _("{rest} or {last}").format(rest=rest, last=items[-1])

