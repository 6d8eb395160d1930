"""The names of Halali!'s tiles, sides and exits in the reader's language, in each role a sentence gives them.

English says "the Bear" whether the bear moves, is taken or leaves; Hungarian inflects it ("a medve",
"a medvét", "a medvével") and German declines it ("der Bär", "den Bären"). So each role is its own
message, with a context naming the role, and a sentence takes the whole phrase (article included)
from the role it needs. The names are the German edition's (Kosmos) and, for Hungarian, the hunting
words a player would use: docs/glossary/halali.md lists them with their sources.

Each function words its phrase at the moment it is called, in the reader's language
(``games.i18n``); the literal ``pgettext`` calls are what the catalog tooling gathers.
"""

from __future__ import annotations

from games.halali.tiles import BEAR, BLUE, DUCK, FOX, HUNTER, LUMBERJACK, PHEASANT, TREE
from games.i18n import catalog_of

_ = catalog_of(__name__)


def tile_name(kind: str) -> str:
    """Return a kind's name on its own, capitalised as a label ("Bear", "Medve", "Bär")."""
    return {
        BEAR: _.pgettext("tile name", "Bear"),
        FOX: _.pgettext("tile name", "Fox"),
        LUMBERJACK: _.pgettext("tile name", "Lumberjack"),
        HUNTER: _.pgettext("tile name", "Hunter"),
        PHEASANT: _.pgettext("tile name", "Pheasant"),
        DUCK: _.pgettext("tile name", "Duck"),
        TREE: _.pgettext("tile name", "Tree"),
    }[kind]


def tile_word(kind: str) -> str:
    """Return a kind's name inside a label, as the language writes a noun there ("bear", "medve", "Bär")."""
    return {
        BEAR: _.pgettext("tile in a label", "bear"),
        FOX: _.pgettext("tile in a label", "fox"),
        LUMBERJACK: _.pgettext("tile in a label", "lumberjack"),
        HUNTER: _.pgettext("tile in a label", "hunter"),
        PHEASANT: _.pgettext("tile in a label", "pheasant"),
        DUCK: _.pgettext("tile in a label", "duck"),
        TREE: _.pgettext("tile in a label", "tree"),
    }[kind]


def the_subject(kind: str) -> str:
    """Return "The Bear" opening a sentence, as its subject ("A medve", "Der Bär")."""
    return {
        BEAR: _.pgettext("the tile, subject", "The Bear"),
        FOX: _.pgettext("the tile, subject", "The Fox"),
        LUMBERJACK: _.pgettext("the tile, subject", "The Lumberjack"),
        HUNTER: _.pgettext("the tile, subject", "The Hunter"),
        PHEASANT: _.pgettext("the tile, subject", "The Pheasant"),
        DUCK: _.pgettext("the tile, subject", "The Duck"),
        TREE: _.pgettext("the tile, subject", "The Tree"),
    }[kind]


def the_object(kind: str) -> str:
    """Return "the Bear" as the object of a sentence: taken, brought out ("a medvét", "den Bären")."""
    return {
        BEAR: _.pgettext("the tile, object", "the Bear"),
        FOX: _.pgettext("the tile, object", "the Fox"),
        LUMBERJACK: _.pgettext("the tile, object", "the Lumberjack"),
        HUNTER: _.pgettext("the tile, object", "the Hunter"),
        PHEASANT: _.pgettext("the tile, object", "the Pheasant"),
        DUCK: _.pgettext("the tile, object", "the Duck"),
        TREE: _.pgettext("the tile, object", "the Tree"),
    }[kind]


def the_moved(kind: str) -> str:
    """Return "the Bear" as the tile someone moved: Hungarian says "lépett a medvével", German "hat den Bären gezogen"."""
    return {
        BEAR: _.pgettext("the tile moved", "the Bear"),
        FOX: _.pgettext("the tile moved", "the Fox"),
        LUMBERJACK: _.pgettext("the tile moved", "the Lumberjack"),
        HUNTER: _.pgettext("the tile moved", "the Hunter"),
        PHEASANT: _.pgettext("the tile moved", "the Pheasant"),
        DUCK: _.pgettext("the tile moved", "the Duck"),
        TREE: _.pgettext("the tile moved", "the Tree"),
    }[kind]


def any_subject(kind: str) -> str:
    """Return "A Bear" opening a rule said of any such tile ("A medve", "Ein Bär")."""
    return {
        BEAR: _.pgettext("a tile, subject", "A Bear"),
        FOX: _.pgettext("a tile, subject", "A Fox"),
        LUMBERJACK: _.pgettext("a tile, subject", "A Lumberjack"),
        HUNTER: _.pgettext("a tile, subject", "A Hunter"),
        PHEASANT: _.pgettext("a tile, subject", "A Pheasant"),
        DUCK: _.pgettext("a tile, subject", "A Duck"),
        TREE: _.pgettext("a tile, subject", "A Tree"),
    }[kind]


def any_object(kind: str) -> str:
    """Return "a Bear" as the object of a rule said of any such tile ("medvét", "einen Bären")."""
    return {
        BEAR: _.pgettext("a tile, object", "a Bear"),
        FOX: _.pgettext("a tile, object", "a Fox"),
        LUMBERJACK: _.pgettext("a tile, object", "a Lumberjack"),
        HUNTER: _.pgettext("a tile, object", "a Hunter"),
        PHEASANT: _.pgettext("a tile, object", "a Pheasant"),
        DUCK: _.pgettext("a tile, object", "a Duck"),
        TREE: _.pgettext("a tile, object", "a Tree"),
    }[kind]


def counted(kind: str, count: int) -> str:
    """Return "3 bears" (Hungarian keeps the noun singular after a number: "3 medve")."""
    forms = {
        BEAR: _.ngettext("{count} bear", "{count} bears", count),
        FOX: _.ngettext("{count} fox", "{count} foxes", count),
        LUMBERJACK: _.ngettext("{count} lumberjack", "{count} lumberjacks", count),
        HUNTER: _.ngettext("{count} hunter", "{count} hunters", count),
        PHEASANT: _.ngettext("{count} pheasant", "{count} pheasants", count),
        DUCK: _.ngettext("{count} duck", "{count} ducks", count),
        TREE: _.ngettext("{count} tree", "{count} trees", count),
    }
    return forms[kind].format(count=count)


def grid_letter(kind: str) -> str:
    """Return the letters that stand for a kind in the plain-text board of emails (at most two; a hunter's one)."""
    return {
        # Translators: the plain-text board draws each tile in two characters: these letters (one or two,
        # different for every kind), or for a hunter its one letter then an arrow. The legend line must match.
        BEAR: _.pgettext("grid letter", "B"),
        FOX: _.pgettext("grid letter", "F"),
        LUMBERJACK: _.pgettext("grid letter", "L"),
        HUNTER: _.pgettext("grid letter", "H"),
        PHEASANT: _.pgettext("grid letter", "P"),
        DUCK: _.pgettext("grid letter", "D"),
        TREE: _.pgettext("grid letter", "T"),
    }[kind]


def side_name(side: str) -> str:
    """Return a side's name ("Blue", "Kék", "Blau")."""
    return _.pgettext("side", "Blue") if side == BLUE else _.pgettext("side", "Brown")


def aim(direction: str) -> str:
    """Return where a rifle points, as it follows "aiming" ("north", "északra", "nach Norden")."""
    return {
        "N": _.pgettext("aiming direction", "north"),
        "E": _.pgettext("aiming direction", "east"),
        "S": _.pgettext("aiming direction", "south"),
        "W": _.pgettext("aiming direction", "west"),
    }[direction]


def through_exit(direction: str) -> str:
    """Return the exit a tile leaves by, as it follows "through" ("the north exit", "az északi kijáraton", "den Nordausgang")."""
    return {
        "N": _.pgettext("exit, after through", "the north exit"),
        "E": _.pgettext("exit, after through", "the east exit"),
        "S": _.pgettext("exit, after through", "the south exit"),
        "W": _.pgettext("exit, after through", "the west exit"),
    }[direction]


def exit_name(direction: str) -> str:
    """Return an exit's name as a label ("North exit", "Északi kijárat", "Nordausgang")."""
    return {
        "N": _.pgettext("exit name", "North exit"),
        "E": _.pgettext("exit name", "East exit"),
        "S": _.pgettext("exit name", "South exit"),
        "W": _.pgettext("exit name", "West exit"),
    }[direction]


def exit_letter(direction: str) -> str:
    """Return the letter of an exit's direction as the notation writes it ("N", "É", "N"; "E", "K", "O"...)."""
    return {
        "N": _.pgettext("exit letter", "N"),
        "E": _.pgettext("exit letter", "E"),
        "S": _.pgettext("exit letter", "S"),
        "W": _.pgettext("exit letter", "W"),
    }[direction]
