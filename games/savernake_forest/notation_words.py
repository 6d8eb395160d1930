"""The words of the Savernake Forest notation, in the reader's language and in English.

A move is written in the reader's language (``describe_move``: English "take goat 1,0 r90 drop AN05 W",
Hungarian "vedd a kecskét 1,0 90° víztoken AN05 F", German "nimm die Ziege 1,0 90° Tropfen AN05 W") and
read back in that language or in English (``parse_move``). Every word comes from the game's catalog:

* ``written()``: the words ``describe_move`` writes (one form each);
* ``Vocabulary``: every form a player may type, each message a list of forms split by "|" (the
  translator adds the inflected ones a native player types: Hungarian "kakast", "sünt", "sünre").

Text is compared folded (``fold``): lower case, without accents (``or`` for ``őr``), German "ue" as "ü"
and "ß" as "ss", so a player without those keys is read the same. A word is read as the reader's
language means it, and only then as English (German "den" is an article, English "den" a burrow).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from games.i18n import catalog_of, in_english
from games.savernake_forest import cards
from games.savernake_forest.words import per_language

_ = catalog_of(__name__)

_DIGRAPHS = re.compile(r"ae|oe|ue")


def fold(text: str) -> str:
    """Return ``text`` lower case, without accents, German "ae"/"oe"/"ue" and "ß" as plain vowels and "ss"."""
    text = text.lower().replace("ß", "ss")
    text = "".join(ch for ch in unicodedata.normalize("NFKD", text) if not unicodedata.combining(ch))
    return _DIGRAPHS.sub(lambda match: match.group(0)[0], text)


@per_language
def written() -> dict[str, Any]:
    """The words ``describe_move`` writes in the reader's language."""
    return {
        "take": _.pgettext("notation, as written", "take"),
        "keep": _.pgettext("notation, as written", "keep"),
        "drop": _.pgettext("notation, as written", "drop"),
        "burrow": _.pgettext("notation, as written", "burrow"),
        # Translators: a card's turn in the notation; keep {degrees} (0, 90, 180 or 270).
        "turn": _.pgettext("notation, as written", "r{degrees}"),
        # Translators: the helper whose card is taken, as written after "take" (with the article and case
        # your language needs there: Hungarian "a kakast", German "den Hahn").
        "slots": {
            "rooster": _.pgettext("notation: the helper after take", "rooster"),
            "goat": _.pgettext("notation: the helper after take", "goat"),
            "armadillo": _.pgettext("notation: the helper after take", "armadillo"),
            "rabbit": _.pgettext("notation: the helper after take", "rabbit"),
        },
    }


def _forms() -> dict[str, Any]:
    """Every form a player may type, in the language of the moment: "|" between the forms of one message."""
    return {
        # Translators: every form of "take" a player may type, as a command or an infinitive ("take" may stand
        # anywhere: "take the goat", "the goat, take it").
        "take": _.pgettext("notation: forms of take", "take|t|pick"),
        # Translators: words a player may write that mean nothing to the notation: articles, prepositions,
        # pronouns, and the verbs of placing and turning a card ("put it at", "turned"), in every form.
        "skip": _.pgettext("notation: skipped words",
                           "at|to|on|onto|in|into|the|a|an|it|of|from|under|with|for|and|then|place|put|turn|"
                           "turned|rotate|rotated|clockwise|cell|card|give|corner"),
        "keep": _.pgettext("notation: forms of keep", "keep|survivor|stays"),
        "drop": _.pgettext("notation: forms of drop", "drop|water|waterdrop"),
        "burrow": _.pgettext("notation: forms of burrow", "burrow|den|lair"),
        # Translators: the words a player may write after the degrees of a turn ("90 degrees").
        "degrees": _.pgettext("notation: degrees", "deg|degree|degrees"),
        "slots": {
            "rooster": _.pgettext("notation: forms of the rooster", "rooster"),
            "goat": _.pgettext("notation: forms of the goat", "goat"),
            "armadillo": _.pgettext("notation: forms of the armadillo", "armadillo"),
            "rabbit": _.pgettext("notation: forms of the rabbit", "rabbit"),
        },
        "foods": {
            "B": _.pgettext("notation: forms of berries", "b|berry|berries"),
            "W": _.pgettext("notation: forms of worms", "w|worm|worms"),
            "E": _.pgettext("notation: forms of eggs", "e|egg|eggs"),
            "N": _.pgettext("notation: forms of nuts", "n|nut|nuts|acorn|acorns"),
        },
        "animals": {
            "AN01": _.pgettext("notation: forms of an animal's name", "fox"),
            "AN02": _.pgettext("notation: forms of an animal's name", "squirrel"),
            "AN03": _.pgettext("notation: forms of an animal's name", "beaver"),
            "AN04": _.pgettext("notation: forms of an animal's name", "skunk"),
            "AN05": _.pgettext("notation: forms of an animal's name", "hedgehog"),
            "AN06": _.pgettext("notation: forms of an animal's name", "owl"),
            "AN07": _.pgettext("notation: forms of an animal's name", "woodpecker"),
            "AN08": _.pgettext("notation: forms of an animal's name", "wildcat"),
            "AN09": _.pgettext("notation: forms of an animal's name", "badger"),
            "AN10": _.pgettext("notation: forms of an animal's name", "mole"),
            "AN11": _.pgettext("notation: forms of an animal's name", "dormouse"),
            "AN12": _.pgettext("notation: forms of an animal's name", "weasel"),
            "AN13": _.pgettext("notation: forms of an animal's name", "blackbird"),
            "AN14": _.pgettext("notation: forms of an animal's name", "wild boar"),
            "AN15": _.pgettext("notation: forms of an animal's name", "pine marten"),
            "AN16": _.pgettext("notation: forms of an animal's name", "jay"),
            "AN17": _.pgettext("notation: forms of an animal's name", "mouse"),
            "AN18": _.pgettext("notation: forms of an animal's name", "roe deer"),
            "AN19": _.pgettext("notation: forms of an animal's name", "nuthatch"),
        },
    }


def _split(forms: str) -> list[str]:
    """Return the folded forms of one message, multi-word forms joined ("wild boar" -> "wildboar")."""
    return [re.sub(r"[\s_-]+", "", fold(form)) for form in forms.split("|") if form.strip()]


@dataclass
class Vocabulary:
    """The forms of one language, folded: what each word a player may type means."""

    take: set[str] = field(default_factory=set)
    skip: set[str] = field(default_factory=set)
    keywords: dict[str, str] = field(default_factory=dict)  # form -> "keep", "drop" or "burrow"
    degrees: set[str] = field(default_factory=set)
    slots: dict[str, str] = field(default_factory=dict)  # form -> slot
    foods: dict[str, str] = field(default_factory=dict)  # form -> food letter code
    animals: dict[str, str] = field(default_factory=dict)  # form -> card id
    phrases: set[str] = field(default_factory=set)  # folded multi-word forms, words split by one space

    @classmethod
    def from_forms(cls, forms: dict[str, Any]) -> "Vocabulary":
        vocabulary = cls(take=set(_split(forms["take"])), skip=set(_split(forms["skip"])),
                         degrees=set(_split(forms["degrees"])))
        for keyword in ("keep", "drop", "burrow"):
            vocabulary.keywords.update(dict.fromkeys(_split(forms[keyword]), keyword))
        for table, entries in (("slots", forms["slots"]), ("foods", forms["foods"]), ("animals", forms["animals"])):
            for code, message in entries.items():
                getattr(vocabulary, table).update(dict.fromkeys(_split(message), code))
        every = [forms["take"], forms["skip"], forms["keep"], forms["drop"], forms["burrow"],
                 *forms["slots"].values(), *forms["foods"].values(), *forms["animals"].values()]
        vocabulary.phrases = {" ".join(re.split(r"[\s_-]+", fold(form).strip())) for message in every
                              for form in message.split("|") if re.search(r"\S[\s_-]+\S", form)}
        return vocabulary

    def knows(self, word: str) -> bool:
        """Tell whether ``word`` means something in this language (any kind of form)."""
        return (word in self.take or word in self.skip or word in self.keywords or word in self.slots
                or word in self.foods or word in self.animals)


@per_language
def readers() -> Vocabulary:
    """The reader's language's forms."""
    return Vocabulary.from_forms(_forms())


@cache
def english() -> Vocabulary:
    """The English forms, accepted in every language."""
    with in_english():
        return Vocabulary.from_forms(_forms())


def both() -> tuple[Vocabulary, Vocabulary]:
    """Return (the reader's vocabulary, English): look a word up in that order."""
    return readers(), english()


def lookup(table: str, word: str) -> str | None:
    """Return what ``word`` means in ``table`` (slots, foods, animals, keywords): the reader's language first."""
    for vocabulary in both():
        found = getattr(vocabulary, table).get(word)
        if found is not None:
            return found
    return None


def skipped(word: str) -> bool:
    """Tell whether ``word`` means nothing to the notation (in the reader's language, else in English)."""
    mine, theirs = both()
    return word in mine.skip or (word in theirs.skip and not mine.knows(word))


def is_take(word: str) -> bool:
    """Tell whether ``word`` is a form of "take" (in the reader's language, else in English)."""
    mine, theirs = both()
    return word in mine.take or (word in theirs.take and not mine.knows(word))


def animal(word: str) -> str | None:
    """Return the animal card a word names: its id (``an05``) or a form of its name in either language."""
    card = word.upper()
    if card in cards.ANIMALS:
        return card
    return lookup("animals", word)
