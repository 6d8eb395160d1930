"""Savernake Forest card catalogue: 19 animal cards and 45 path cards, RECONSTRUCTED.

The publisher's card list could not be found. These tables copy the
reconstruction of the rules file (docs/rules/savernake-forest.md,
§15.3) verbatim. A faithful catalogue replaces the ``ANIMAL_ROWS`` and
``PATH_ROWS`` data below and nothing else: the engine reads cards only
through this module.

Only codes live here (ids, food letters B W E N, slots, shapes, sides): a state, move,
event or view never holds a word. The animals' English names are marked for the game's
catalog; ``words.py`` gives every name in the reader's language.

Geometry (rules file §3): sides are N=0, E=1, S=2, W=3 in the printed
orientation; a rotation of ``r`` quarter turns clockwise moves side ``e`` to
``(e + r) % 4``.
"""

from __future__ import annotations

from typing import Any

from games.i18n import catalog_of

N_ = catalog_of(__name__).noop

FOODS = ("B", "W", "E", "N")  # berries, worms, eggs, nuts

SIDES = ("N", "E", "S", "W")
ROTATIONS = (0, 1, 2, 3)

# The market board (rules file §4): slot order is the deal order of a row (ruling 12a).
SLOTS = ("rooster", "goat", "armadillo", "rabbit")
PATH_SLOTS = ("rooster", "goat", "armadillo")
ANIMAL_SLOT = "rabbit"
# What each helper gives, as a code (the view's market names it; words.py words it).
HELPER_BONUS = {"rooster": "first_player", "goat": "water_drop", "armadillo": "burrow", "rabbit": "animal"}
TOKENS_PER_KIND = 15  # 15 water drops and 15 burrows (rules file §2)

# Forest size: every forest ends as a full 4×4 square (rules file §6, §9).
GRID = 4
FOREST_SIZE = GRID * GRID
ROUNDS = FOREST_SIZE - 1

EXIT_PATTERNS: dict[str, tuple[int, ...]] = {"1": (0,), "S": (0, 2), "C": (0, 1)}
SHAPES: dict[str, tuple[tuple[int, int], ...]] = {"ST": ((0, 2),), "CU": ((0, 1),), "DC": ((0, 1), (2, 3))}

# id, English name (marked for the catalog), base VP, capacity, food values, exit pattern (rules file §15.1 / §15.3).
ANIMAL_ROWS: tuple[tuple[str, str, int, int, dict[str, int], str], ...] = (
    ("AN01", N_("Fox"), 4, 2, {"B": 0, "W": 2, "E": 4, "N": 0}, "1"),
    ("AN02", N_("Squirrel"), 3, 5, {"B": 0, "W": 0, "E": 0, "N": 3}, "S"),
    ("AN03", N_("Beaver"), 5, 3, {"B": 3, "W": 0, "E": 0, "N": 3}, "1"),
    ("AN04", N_("Skunk"), 2, 4, {"B": 2, "W": 2, "E": 2, "N": 2}, "C"),
    ("AN05", N_("Hedgehog"), 5, 3, {"B": 1, "W": 3, "E": 2, "N": 0}, "1"),
    ("AN06", N_("Owl"), 5, 2, {"B": 0, "W": 3, "E": 3, "N": 0}, "1"),
    ("AN07", N_("Woodpecker"), 5, 3, {"B": 0, "W": 3, "E": 0, "N": 2}, "1"),
    ("AN08", N_("Wildcat"), 6, 2, {"B": 0, "W": 0, "E": 4, "N": 0}, "1"),
    ("AN09", N_("Badger"), 2, 3, {"B": 2, "W": 3, "E": 1, "N": 1}, "C"),
    ("AN10", N_("Mole"), 5, 3, {"B": 0, "W": 4, "E": 0, "N": 0}, "1"),
    ("AN11", N_("Dormouse"), 5, 2, {"B": 4, "W": 0, "E": 0, "N": 2}, "1"),
    ("AN12", N_("Weasel"), 2, 3, {"B": 1, "W": 2, "E": 3, "N": 0}, "S"),
    ("AN13", N_("Blackbird"), 4, 4, {"B": 3, "W": 2, "E": 0, "N": 0}, "1"),
    ("AN14", N_("Wild Boar"), 1, 5, {"B": 2, "W": 2, "E": 1, "N": 2}, "S"),
    ("AN15", N_("Pine Marten"), 4, 3, {"B": 2, "W": 0, "E": 3, "N": 0}, "C"),
    ("AN16", N_("Jay"), 3, 3, {"B": 0, "W": 0, "E": 2, "N": 4}, "1"),
    ("AN17", N_("Mouse"), 4, 4, {"B": 2, "W": 1, "E": 0, "N": 2}, "C"),
    ("AN18", N_("Roe Deer"), 4, 4, {"B": 3, "W": 0, "E": 0, "N": 0}, "S"),
    ("AN19", N_("Nuthatch"), 5, 3, {"B": 1, "W": 2, "E": 0, "N": 3}, "1"),
)

# id, shape, food list of each segment in the order the shape lists them (rules file §15.2 / §15.3).
PATH_ROWS: tuple[tuple[str, str, tuple[tuple[str, ...], ...]], ...] = (
    ("ST01", "ST", (("B",),)), ("ST02", "ST", (("W",),)), ("ST03", "ST", (("E",),)),
    ("ST04", "ST", (("N",),)), ("ST05", "ST", (("W",),)), ("ST06", "ST", (("B", "B"),)),
    ("ST07", "ST", (("W", "W"),)), ("ST08", "ST", (("E", "E"),)), ("ST09", "ST", (("N", "N"),)),
    ("ST10", "ST", (("B", "W"),)), ("ST11", "ST", (("E", "N"),)), ("ST12", "ST", (("W", "E"),)),
    ("ST13", "ST", (("B", "N", "B"),)), ("ST14", "ST", (("W", "E", "W"),)), ("ST15", "ST", (("N", "E", "N"),)),
    ("CU01", "CU", ((),)), ("CU02", "CU", (("B",),)), ("CU03", "CU", (("B",),)),
    ("CU04", "CU", (("W",),)), ("CU05", "CU", (("E",),)), ("CU06", "CU", (("E",),)),
    ("CU07", "CU", (("N",),)), ("CU08", "CU", (("N",),)), ("CU09", "CU", (("B",),)),
    ("CU10", "CU", (("B", "B"),)), ("CU11", "CU", (("W", "W"),)), ("CU12", "CU", (("E", "E"),)),
    ("CU13", "CU", (("N", "N"),)), ("CU14", "CU", (("B", "E"),)), ("CU15", "CU", (("W", "N"),)),
    ("CU16", "CU", (("B", "W"),)), ("CU17", "CU", (("E", "N"),)), ("CU18", "CU", (("W", "B", "E"),)),
    ("DC01", "DC", (("B",), ("W",))), ("DC02", "DC", (("E",), ("N",))), ("DC03", "DC", (("W",), ("E",))),
    ("DC04", "DC", (("N",), ("B",))), ("DC05", "DC", (("N",), ("W",))), ("DC06", "DC", (("B",), ())),
    ("DC07", "DC", (("W",), ())), ("DC08", "DC", (("E",), ())), ("DC09", "DC", (("N",), ())),
    ("DC10", "DC", (("N",), ())), ("DC11", "DC", (("E", "B"), ())), ("DC12", "DC", ((), ())),
)  # fmt: skip

ANIMALS: dict[str, dict[str, Any]] = {
    card: {"name": name, "base": base, "capacity": capacity, "values": dict(values), "exits": exits}
    for card, name, base, capacity, values, exits in ANIMAL_ROWS
}
PATHS: dict[str, dict[str, Any]] = {
    card: {"shape": shape, "foods": [list(foods) for foods in segments]} for card, shape, segments in PATH_ROWS
}
ANIMAL_IDS: tuple[str, ...] = tuple(ANIMALS)
PATH_IDS: tuple[str, ...] = tuple(PATHS)
ALL_IDS: tuple[str, ...] = PATH_IDS + ANIMAL_IDS


def is_animal(card: str) -> bool:
    """Tell whether ``card`` is an animal card (red back)."""
    return card in ANIMALS


def exists(card: str) -> bool:
    """Tell whether ``card`` is an id in the catalogue."""
    return card in ANIMALS or card in PATHS


def rotate(side: int, rot: int) -> int:
    """Return where printed side ``side`` lies after ``rot`` quarter turns clockwise."""
    return (side + rot) % 4


def exits(card: str, rot: int) -> tuple[int, ...]:
    """Return an animal card's den exits after rotation, sorted."""
    return tuple(sorted(rotate(side, rot) for side in EXIT_PATTERNS[ANIMALS[card]["exits"]]))


def segments(card: str, rot: int) -> list[tuple[tuple[int, int], list[str]]]:
    """Return a path card's segments after rotation as ((side, side), foods) in printed order."""
    info = PATHS[card]
    return [
        (tuple(sorted(rotate(side, rot) for side in ends)), list(foods))
        for ends, foods in zip(SHAPES[info["shape"]], info["foods"])
    ]


def card_info(card: str) -> dict[str, Any]:
    """Return the printed facts of ``card`` as JSON codes and numbers (for views: pictures need them).

    The animal's name is not among them: it is a word, given in the reader's language by ``words.py``.
    """
    if card in ANIMALS:
        info = ANIMALS[card]
        return {
            "id": card,
            "type": "animal",
            "base": info["base"],
            "capacity": info["capacity"],
            "values": dict(info["values"]),
            "exits": list(EXIT_PATTERNS[info["exits"]]),
            "pattern": info["exits"],
        }
    info = PATHS[card]
    return {
        "id": card,
        "type": "path",
        "shape": info["shape"],
        "segments": [
            {"sides": list(ends), "foods": list(foods)} for ends, foods in zip(SHAPES[info["shape"]], info["foods"])
        ],
    }
