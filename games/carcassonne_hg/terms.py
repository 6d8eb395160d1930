"""The names of Carcassonne: Hunters and Gatherers in the reader's language: pieces, features, animals, powers, tiles.

Every name the game shows a person (the history, the notation, the email text and picture, the
board) comes from here, so one thing has one name everywhere; ``docs/glossary/carcassonne-hg.md``
lists them in English, Hungarian and German with where each comes from. What is stored keeps its
codes (``hunter``, ``meadow``, ``NE``, tile ids): these functions word them when they are shown.

The tables are built once per language (``current_language()``) and kept: the board asks for them
on every page view.
"""

from __future__ import annotations

from functools import cache

from games.carcassonne_hg import tiles
from games.i18n import catalog_of, current_language

_ = catalog_of(__name__)

SIDES = ("N", "E", "S", "W", "NE", "SE", "SW", "NW")


@cache
def _names(language: str) -> dict[str, dict[str, str]]:
    """Return every single-word name of the game in ``language`` (the catalogs read it), by family and code."""
    return {
        "piece": {
            "gatherer": _.pgettext("piece", "gatherer"),
            "fisherman": _.pgettext("piece", "fisherman"),
            "hunter": _.pgettext("piece", "hunter"),
            "hut": _.pgettext("piece", "hut"),
        },
        "feature": {
            "forest": _.pgettext("feature", "forest"),
            "meadow": _.pgettext("feature", "meadow"),
            "river": _.pgettext("feature", "river"),
            "lake": _.pgettext("feature", "lake"),
            "river_system": _.pgettext("feature", "river system"),
        },
        "animal": {
            "deer": _.pgettext("animal", "deer"),
            "aurochs": _.pgettext("animal", "aurochs"),
            "mammoth": _.pgettext("animal", "mammoth"),
            "tiger": _.pgettext("animal", "tiger"),
            "fish": _.pgettext("animal", "fish"),
        },
        "icon": {
            "menhir": _.pgettext("icon", "menhir"),
            "nugget": _.pgettext("icon", "gold nugget"),
            "mushrooms": _.pgettext("icon", "mushrooms"),
        },
        "power": {
            "shaman": _.pgettext("power", "shaman"),
            "logboat": _.pgettext("power", "logboat"),
            "raft": _.pgettext("power", "raft"),
            "hunting_trap": _.pgettext("power", "hunting trap"),
            "pit_trap": _.pgettext("power", "pit trap"),
            "wildfire": _.pgettext("power", "wildfire"),
            "fire": _.pgettext("power", "fire"),
            "shrine": _.pgettext("power", "shrine"),
        },
        # The letter a power's disc shows on a tile: the first letter of its name, one letter each.
        "power_letter": {
            "shaman": _.pgettext("letter on a tile for the shaman", "S"),
            "logboat": _.pgettext("letter on a tile for the logboat", "B"),
            "raft": _.pgettext("letter on a tile for the raft", "R"),
            "hunting_trap": _.pgettext("letter on a tile for the hunting trap", "H"),
            "pit_trap": _.pgettext("letter on a tile for the pit trap", "P"),
            "wildfire": _.pgettext("letter on a tile for the wildfire", "W"),
            "fire": _.pgettext("letter on a tile for the fire", "F"),
            "shrine": "+",
        },
        # The letter of a piece on the email's map and on the board's figures.
        "piece_letter": {
            "gatherer": _.pgettext("letter for a gatherer on a map", "g"),
            "fisherman": _.pgettext("letter for a fisherman on a map", "f"),
            "hunter": _.pgettext("letter for a hunter on a map", "h"),
            "hut": _.pgettext("letter for a hut on a map", "u"),
        },
        # The letter of an edge kind on the email's map.
        "edge_letter": {
            "F": _.pgettext("letter for a forest edge on a map", "F"),
            "M": _.pgettext("letter for a meadow edge on a map", "M"),
            "R": _.pgettext("letter for a river edge on a map", "R"),
        },
        "side": {
            "N": _.pgettext("compass side", "N"),
            "E": _.pgettext("compass side", "E"),
            "S": _.pgettext("compass side", "S"),
            "W": _.pgettext("compass side", "W"),
            "NE": _.pgettext("compass side", "NE"),
            "SE": _.pgettext("compass side", "SE"),
            "SW": _.pgettext("compass side", "SW"),
            "NW": _.pgettext("compass side", "NW"),
        },
        "tile_set": {
            "revised": _.pgettext("tile set", "revised"),
            "classic-approx": _.pgettext("tile set", "classic-approx"),
        },
    }


def names(family: str) -> dict[str, str]:
    """Return one family of names (``piece``, ``feature``, ``animal``, ``icon``, ``power``, ``side``...) by code."""
    return _names(current_language())[family]


def piece(kind: str) -> str:
    """Name a piece: ``hunter`` -> "hunter", "vadász", "Jäger"."""
    return names("piece")[kind]


def feature(kind: str) -> str:
    """Name a feature kind: ``meadow`` -> "meadow", "rét", "Wiese"; also ``river_system``."""
    return names("feature")[kind]


def side(token: str) -> str:
    """Name a compass side or corner of a tile as placed: ``NE`` -> "NE", "ÉK", "NO"."""
    return names("side").get(token, token)


def side_in_sentence(token: str) -> str:
    """Word a side of a placed tile as a history line says where a piece went: English keeps the letter ("the
    meadow NE"), German says "im Nordosten", Hungarian "az északkeleti" (before the feature: "az északkeleti rétre")."""
    phrases = {
        # Translators: where on the tile a piece's feature lies, as a history line says it ("puts a hunter on
        # the meadow {side}"): German "im Norden", Hungarian with its article, before the feature: "az északi".
        "N": lambda: _.pgettext("compass side in a sentence", "N"),
        "E": lambda: _.pgettext("compass side in a sentence", "E"),
        "S": lambda: _.pgettext("compass side in a sentence", "S"),
        "W": lambda: _.pgettext("compass side in a sentence", "W"),
        "NE": lambda: _.pgettext("compass side in a sentence", "NE"),
        "SE": lambda: _.pgettext("compass side in a sentence", "SE"),
        "SW": lambda: _.pgettext("compass side in a sentence", "SW"),
        "NW": lambda: _.pgettext("compass side in a sentence", "NW"),
    }
    return phrases[token]() if token in phrases else token


def region_label(name: str) -> str:
    """Word a region's notation name (``board.region_names``: "meadow NE", "forest") in the reader's language.

    The kind and the side are notation words, so the label reads back (``notation``): "rét ÉK", "Wiese NO".
    """
    kind, _space, token = name.partition(" ")
    word = feature(kind) if kind in names("feature") else kind
    return f"{word} {side(token)}" if token else word


def capfirst(text: str) -> str:
    """Return ``text`` with its first letter capitalised (a tile's name opening a sentence)."""
    return text[:1].upper() + text[1:]


def list_of(items: list[str]) -> str:
    """Join names as the reader's language lists them: "a", "a and b", "a, b and c"."""
    if len(items) < 2:
        return "".join(items)
    return _("{first} and {last}").format(first=", ".join(items[:-1]), last=items[-1])


def points(count: int) -> str:
    """Return "{count} points" as scored (the object of "scores": Hungarian needs its accusative)."""
    return _.npgettext("scored", "{count} point", "{count} points", count).format(count=count)


def counted(code: str, count: int) -> str:
    """Return a count of things in a list of details: "3 deer", "2 lakes", "1 tile" (nominative)."""
    forms = {
        "point": lambda n: _.npgettext("counted", "{count} point", "{count} points", n),
        "tile": lambda n: _.npgettext("counted", "{count} tile", "{count} tiles", n),
        "land tile": lambda n: _.npgettext("counted", "{count} land tile", "{count} land tiles", n),
        "bonus tile": lambda n: _.npgettext("counted", "{count} bonus tile", "{count} bonus tiles", n),
        "deer": lambda n: _.npgettext("counted", "{count} deer", "{count} deer", n),
        "aurochs": lambda n: _.npgettext("counted", "{count} aurochs", "{count} aurochs", n),
        "mammoth": lambda n: _.npgettext("counted", "{count} mammoth", "{count} mammoths", n),
        "tiger": lambda n: _.npgettext("counted", "{count} tiger", "{count} tigers", n),
        "fish": lambda n: _.npgettext("counted", "{count} fish", "{count} fish", n),
        "lake": lambda n: _.npgettext("counted", "{count} lake", "{count} lakes", n),
        "menhir": lambda n: _.npgettext("counted", "{count} menhir", "{count} menhirs", n),
        "mushrooms": lambda n: _.npgettext("counted", "{count} mushroom tile", "{count} mushroom tiles", n),
        "member": lambda n: _.npgettext("counted", "{count} tribe member", "{count} tribe members", n),
        "hut": lambda n: _.npgettext("counted", "{count} hut", "{count} huts", n),
    }
    return forms[code](count).format(count=count)


# -- tiles in words ---------------------------------------------------------------------------------


def _catalogue_tile(tile_id: str, edition: str | None = None) -> tiles.Tile | None:
    """Return the catalogue tile ``tile_id`` of ``edition`` (or of the first edition that has it)."""
    for each in (edition,) if edition else tiles.EDITIONS:
        found = tiles.catalogue(each).get(tile_id)
        if found:
            return found[0]
    return None


def _tile_kind(tile: tiles.Tile) -> str:
    """Return which name a tile goes by: ``start``, a power's title (``Shaman``), or its landscape with its deck."""
    if tile.deck == tiles.START:
        return "start"
    if tile.name != tile.id and not tile.name.lower().startswith("plain"):
        return tile.name.split(" (")[0].split(" / ")[0].removeprefix("The ")
    edges = set(tile.edges)
    landscape = "river" if "R" in edges else {frozenset("F"): "forest", frozenset("M"): "meadow"}.get(
        frozenset(edges), "forest and meadow")
    return f"{'bonus' if tile.deck == tiles.BONUS else 'land'} {landscape}"


def is_named(tile_id: str, edition: str | None = None) -> bool:
    """Tell whether a tile goes by a name of its own ("the Shaman bonus tile", "the start tile"), not by its
    landscape ("a river tile"): a definite object, which a language may word apart (Hungarian "húzta" for the
    named tile, "húzott" for "egy folyós lapkát")."""
    tile = _catalogue_tile(tile_id, edition)
    return tile is None or not _tile_kind(tile).startswith(("bonus ", "land "))


# What a tile is called before its details, as the subject of a sentence or in a label ...
_NOUNS = {
    "start": lambda: _.pgettext("tile", "the start tile"),
    "Mushrooms": lambda: _.pgettext("tile", "the Mushrooms bonus tile"),
    "Wildfire": lambda: _.pgettext("tile", "the Wildfire bonus tile"),
    "Shaman": lambda: _.pgettext("tile", "the Shaman bonus tile"),
    "Raft": lambda: _.pgettext("tile", "the Raft bonus tile"),
    "Pit Trap": lambda: _.pgettext("tile", "the Pit Trap bonus tile"),
    "Logboat": lambda: _.pgettext("tile", "the Logboat bonus tile"),
    "Hunting Trap": lambda: _.pgettext("tile", "the Hunting Trap bonus tile"),
    "Shrine": lambda: _.pgettext("tile", "the Shrine bonus tile"),
    "Fire": lambda: _.pgettext("tile", "the Fire bonus tile"),
    "Aurochs": lambda: _.pgettext("tile", "the Aurochs bonus tile"),
    "bonus river": lambda: _.pgettext("tile", "a river bonus tile"),
    "bonus forest": lambda: _.pgettext("tile", "a forest bonus tile"),
    "bonus meadow": lambda: _.pgettext("tile", "a meadow bonus tile"),
    "bonus forest and meadow": lambda: _.pgettext("tile", "a forest and meadow bonus tile"),
    "land river": lambda: _.pgettext("tile", "a river tile"),
    "land forest": lambda: _.pgettext("tile", "a forest tile"),
    "land meadow": lambda: _.pgettext("tile", "a meadow tile"),
    "land forest and meadow": lambda: _.pgettext("tile", "a forest and meadow tile"),
}
# ... and as the object of a verb ("draws", "places"): Hungarian puts it in the accusative ("egy folyós lapkát").
_OBJECT_NOUNS = {
    "start": lambda: _.pgettext("tile, as the object of a sentence", "the start tile"),
    "Mushrooms": lambda: _.pgettext("tile, as the object of a sentence", "the Mushrooms bonus tile"),
    "Wildfire": lambda: _.pgettext("tile, as the object of a sentence", "the Wildfire bonus tile"),
    "Shaman": lambda: _.pgettext("tile, as the object of a sentence", "the Shaman bonus tile"),
    "Raft": lambda: _.pgettext("tile, as the object of a sentence", "the Raft bonus tile"),
    "Pit Trap": lambda: _.pgettext("tile, as the object of a sentence", "the Pit Trap bonus tile"),
    "Logboat": lambda: _.pgettext("tile, as the object of a sentence", "the Logboat bonus tile"),
    "Hunting Trap": lambda: _.pgettext("tile, as the object of a sentence", "the Hunting Trap bonus tile"),
    "Shrine": lambda: _.pgettext("tile, as the object of a sentence", "the Shrine bonus tile"),
    "Fire": lambda: _.pgettext("tile, as the object of a sentence", "the Fire bonus tile"),
    "Aurochs": lambda: _.pgettext("tile, as the object of a sentence", "the Aurochs bonus tile"),
    "bonus river": lambda: _.pgettext("tile, as the object of a sentence", "a river bonus tile"),
    "bonus forest": lambda: _.pgettext("tile, as the object of a sentence", "a forest bonus tile"),
    "bonus meadow": lambda: _.pgettext("tile, as the object of a sentence", "a meadow bonus tile"),
    "bonus forest and meadow": lambda: _.pgettext("tile, as the object of a sentence",
                                                  "a forest and meadow bonus tile"),
    "land river": lambda: _.pgettext("tile, as the object of a sentence", "a river tile"),
    "land forest": lambda: _.pgettext("tile, as the object of a sentence", "a forest tile"),
    "land meadow": lambda: _.pgettext("tile, as the object of a sentence", "a meadow tile"),
    "land forest and meadow": lambda: _.pgettext("tile, as the object of a sentence", "a forest and meadow tile"),
}


def _tile_details(tile: tiles.Tile, edition: str | None) -> list[str]:
    """Return what a tile shows, each as it follows "with" in the reader's language (German: a dative)."""
    details = []
    lakes = [r for r in tile.regions if r.kind == tiles.LAKE]
    if lakes:
        lake = _.npgettext("on a tile", "a lake", "{count} lakes", len(lakes)).format(count=len(lakes))
        fish = sum(r.fish for r in lakes)
        if fish:
            lake = _.ngettext("{lakes} ({count} fish)", "{lakes} ({count} fish)", fish).format(lakes=lake, count=fish)
        details.append(lake)
    if any(r.inner_end == "source" for r in tile.regions):
        details.append(_.pgettext("on a tile", "a spring"))
    if any(r.menhir for r in tile.regions):
        classic = edition == tiles.CLASSIC
        details.append(_.pgettext("on a tile", "a gold nugget") if classic else _.pgettext("on a tile", "a menhir"))
    if any(r.mushrooms for r in tile.regions) and "mushroom" not in tile.name.lower().split(" (")[0]:
        details.append(_.pgettext("on a tile", "mushrooms"))
    animals: dict[str, int] = {}
    for region in tile.regions:
        for animal, count in region.animals:
            animals[animal] = animals.get(animal, 0) + count
    forms = {
        "deer": lambda n: _.npgettext("on a tile", "a deer", "{count} deer", n),
        "aurochs": lambda n: _.npgettext("on a tile", "an aurochs", "{count} aurochs", n),
        "mammoth": lambda n: _.npgettext("on a tile", "a mammoth", "{count} mammoths", n),
        "tiger": lambda n: _.npgettext("on a tile", "a tiger", "{count} tigers", n),
    }
    details += [forms[animal](count).format(count=count) for animal, count in animals.items() if animal in forms]
    return details


def tile_name(tile_id: str, edition: str | None = None) -> str:
    """Name a tile in words, as people tell tiles apart: "a river tile with a lake (2 fish) and a deer".

    The landscape comes from the tile's edges, the details from its regions; a bonus tile with a power
    is called by the power's name. Catalogue ids (``R-L67``) mean nothing to a player. This is the name as
    a label or the subject of a sentence (Hungarian "egy folyós lapka, rajta egy szarvas"); ``tile_object``
    is the name as a verb's object.
    """
    tile = _catalogue_tile(tile_id, edition)
    if tile is None:
        return _.pgettext("tile", "the tile {tile}").format(tile=tile_id)
    noun = _NOUNS[_tile_kind(tile)]()
    details = _tile_details(tile, edition)
    if not details:
        return noun
    return _("{tile} with {details}").format(tile=noun, details=list_of(details))


def tile_object(tile_id: str, edition: str | None = None) -> str:
    """Name a tile as the object of "draws" or "places" (Hungarian "egy folyós lapkát, amelyen egy szarvas van";
    English and German as ``tile_name``)."""
    tile = _catalogue_tile(tile_id, edition)
    if tile is None:
        return _.pgettext("tile, as the object of a sentence", "the tile {tile}").format(tile=tile_id)
    noun = _OBJECT_NOUNS[_tile_kind(tile)]()
    details = _tile_details(tile, edition)
    if not details:
        return noun
    return _.pgettext("a tile as the object of a sentence", "{tile} with {details}").format(
        tile=noun, details=list_of(details))
