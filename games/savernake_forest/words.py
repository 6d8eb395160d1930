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


# A history line names an animal in the case its verb needs: German "den Igel nehmen", "dem Igel einen Bau
# geben", Hungarian "elvette a sünt". Each case is a message of its own per animal, so a translator writes the
# whole form and no code declines a name; English keeps the bare name in every case (its sentences say "the").


@per_language
def _animals_as_object() -> dict[str, str]:
    """The animals' names as the object of a history line (taken, kept, turned face down)."""
    # Translators: the animal as the object of a history line ("takes the Fox", "keeps the Fox"), with the
    # article and case your language needs there (Hungarian "a rókát", German accusative "den Fuchs").
    # English keeps the bare name.
    return {
        "AN01": _.pgettext("animal as object", "Fox"),
        "AN02": _.pgettext("animal as object", "Squirrel"),
        "AN03": _.pgettext("animal as object", "Beaver"),
        "AN04": _.pgettext("animal as object", "Skunk"),
        "AN05": _.pgettext("animal as object", "Hedgehog"),
        "AN06": _.pgettext("animal as object", "Owl"),
        "AN07": _.pgettext("animal as object", "Woodpecker"),
        "AN08": _.pgettext("animal as object", "Wildcat"),
        "AN09": _.pgettext("animal as object", "Badger"),
        "AN10": _.pgettext("animal as object", "Mole"),
        "AN11": _.pgettext("animal as object", "Dormouse"),
        "AN12": _.pgettext("animal as object", "Weasel"),
        "AN13": _.pgettext("animal as object", "Blackbird"),
        "AN14": _.pgettext("animal as object", "Wild Boar"),
        "AN15": _.pgettext("animal as object", "Pine Marten"),
        "AN16": _.pgettext("animal as object", "Jay"),
        "AN17": _.pgettext("animal as object", "Mouse"),
        "AN18": _.pgettext("animal as object", "Roe Deer"),
        "AN19": _.pgettext("animal as object", "Nuthatch"),
    }


@per_language
def _animals_receiving() -> dict[str, str]:
    """The animals' names as the one a token is given to ("gives the Fox a burrow")."""
    # Translators: the animal a water drop or a burrow is given to, with the article and case your language
    # needs there (German dative "dem Fuchs"; Hungarian "a róka", as in "a róka kártyájára").
    # English keeps the bare name.
    return {
        "AN01": _.pgettext("animal receiving a token", "Fox"),
        "AN02": _.pgettext("animal receiving a token", "Squirrel"),
        "AN03": _.pgettext("animal receiving a token", "Beaver"),
        "AN04": _.pgettext("animal receiving a token", "Skunk"),
        "AN05": _.pgettext("animal receiving a token", "Hedgehog"),
        "AN06": _.pgettext("animal receiving a token", "Owl"),
        "AN07": _.pgettext("animal receiving a token", "Woodpecker"),
        "AN08": _.pgettext("animal receiving a token", "Wildcat"),
        "AN09": _.pgettext("animal receiving a token", "Badger"),
        "AN10": _.pgettext("animal receiving a token", "Mole"),
        "AN11": _.pgettext("animal receiving a token", "Dormouse"),
        "AN12": _.pgettext("animal receiving a token", "Weasel"),
        "AN13": _.pgettext("animal receiving a token", "Blackbird"),
        "AN14": _.pgettext("animal receiving a token", "Wild Boar"),
        "AN15": _.pgettext("animal receiving a token", "Pine Marten"),
        "AN16": _.pgettext("animal receiving a token", "Jay"),
        "AN17": _.pgettext("animal receiving a token", "Mouse"),
        "AN18": _.pgettext("animal receiving a token", "Roe Deer"),
        "AN19": _.pgettext("animal receiving a token", "Nuthatch"),
    }


def animal_object(card: str) -> str:
    """Return the animal as the object of a sentence: "Hedgehog (AN05)", "a sünt (AN05)", "den Igel (AN05)"."""
    return _("{animal} ({card})").format(animal=_animals_as_object()[card], card=card)


def animal_receiving(card: str) -> str:
    """Return the animal a token is given to: "Hedgehog (AN05)", "a sün (AN05)", German dative "dem Igel (AN05)"."""
    return _("{animal} ({card})").format(animal=_animals_receiving()[card], card=card)


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


def _path_foods(card: str) -> str:
    """Return a path card's foods by letter, its segments apart: "W W", "B | W", "-" for a segment with none."""
    letters = food_letters()
    return " | ".join(" ".join(letters[food] for food in part) or "-" for part in cards.PATHS[card]["foods"])


def card_title(card: str) -> str:
    """Return a card as the history names it: "Hedgehog (AN05)", "straight W W (ST07)", "double curve B | W (DC01)"."""
    if cards.is_animal(card):
        return animal_label(card)
    return _("{shape} {foods} ({card})").format(shape=shape_names()[cards.PATHS[card]["shape"]],
                                                foods=_path_foods(card), card=card)


def card_taken(card: str) -> str:
    """Return a card as the object of "takes the …": the title, with the article and case the reader's language
    needs ("curve B (CU03)", German "die Kurve B (CU03)", Hungarian "az íves B kártyát (CU03)")."""
    if cards.is_animal(card):
        return animal_object(card)
    forms = {
        # Translators: a path card as the object of "takes the …" in a history line, with the article and case
        # your language needs (German "die Gerade {foods} ({card})", Hungarian "az egyenes {foods} kártyát
        # ({card})"). {foods} is the card's food letters, {card} its code.
        "ST": lambda: _.pgettext("path card as object", "straight {foods} ({card})"),
        "CU": lambda: _.pgettext("path card as object", "curve {foods} ({card})"),
        "DC": lambda: _.pgettext("path card as object", "double curve {foods} ({card})"),
    }
    return forms[cards.PATHS[card]["shape"]]().format(foods=_path_foods(card), card=card)


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

