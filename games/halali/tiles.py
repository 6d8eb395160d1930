"""Halali! tile table (Kosmos 2000 edition, rules file §1 and §5): kinds, counts, sides, points, ranges, prey.

Tiles are identified by kind only. A hunter also carries a fixed rifle
direction (N, E, S or W) from setup; no other kind has an orientation.
"""

from __future__ import annotations

from games.i18n import catalog_of

_ = catalog_of(__name__)

BEAR = "bear"
FOX = "fox"
LUMBERJACK = "lumberjack"
HUNTER = "hunter"
PHEASANT = "pheasant"
DUCK = "duck"
TREE = "tree"

KINDS = (BEAR, FOX, LUMBERJACK, HUNTER, PHEASANT, DUCK, TREE)

BLUE = "blue"  # the animals: bears and foxes
BROWN = "brown"  # the humans: hunters and lumberjacks
GREEN = "green"  # neutral: pheasants, ducks and trees
SIDES = (BLUE, BROWN)

COUNTS = {BEAR: 2, FOX: 6, LUMBERJACK: 2, HUNTER: 8, PHEASANT: 8, DUCK: 7, TREE: 15}
COLOUR = {BEAR: BLUE, FOX: BLUE, LUMBERJACK: BROWN, HUNTER: BROWN, PHEASANT: GREEN, DUCK: GREEN, TREE: GREEN}
POINTS = {BEAR: 10, FOX: 5, LUMBERJACK: 5, HUNTER: 5, PHEASANT: 3, DUCK: 2, TREE: 2}

UNLIMITED = 7  # enough to cross the whole 7×7 board and step off it through an exit
RANGE = {BEAR: 1, FOX: UNLIMITED, LUMBERJACK: 1, HUNTER: UNLIMITED, PHEASANT: UNLIMITED, DUCK: UNLIMITED, TREE: 0}

# The capture matrix (§5): attacker -> the kinds it may capture.
PREY: dict[str, frozenset[str]] = {
    BEAR: frozenset({HUNTER, LUMBERJACK}),
    FOX: frozenset({PHEASANT, DUCK}),
    HUNTER: frozenset({BEAR, FOX, PHEASANT, DUCK}),
    LUMBERJACK: frozenset({TREE}),
    PHEASANT: frozenset(),
    DUCK: frozenset(),
    TREE: frozenset(),
}
AIMED = frozenset({HUNTER})  # kinds that capture only in their rifle direction

# Ducks and pheasants: moved by either player, and locked for the opponent after a flip or (by default) a move (§4).
SHARED = frozenset({PHEASANT, DUCK})

DIRECTIONS = ("N", "E", "S", "W")

# The letters of layout specs (an option for tests and bug reports): codes, the same in every language.
SHORT = {BEAR: "B", FOX: "F", LUMBERJACK: "L", HUNTER: "H", PHEASANT: "P", DUCK: "D", TREE: "T"}


def full_set() -> list[str]:
    """Return the 48 tile kinds of one game, in table order."""
    return [kind for kind in KINDS for _copy in range(COUNTS[kind])]


def owner(kind: str) -> str | None:
    """Return the side that owns ``kind`` (blue or brown), or None for a green tile."""
    colour = COLOUR[kind]
    return None if colour == GREEN else colour


def can_capture(attacker: str, target: str) -> bool:
    """Tell whether ``attacker`` may capture ``target`` (direction aside)."""
    return target in PREY[attacker]


def spec(cell: dict) -> str:
    """Return the layout spec of a tile: its kind, or "hunter:N" for a hunter."""
    return f"{cell['kind']}:{cell['dir']}" if cell["kind"] == HUNTER else cell["kind"]


def parse_spec(text: str) -> dict:
    """Return the face-down tile a layout spec names, or raise ``ValueError``.

    Accepted: a kind ("fox"), a one-letter code ("F"), and for hunters the
    direction after a colon or directly ("hunter:N", "HN", "hn"): codes, in English whatever the
    reader's language. The error says what is wrong in the reader's language.
    """
    if not isinstance(text, str):
        raise ValueError(_("a tile spec must be text, not {value}").format(value=repr(text)))
    word = text.strip().lower()
    kind, _colon, direction = word.partition(":")
    by_code = {code.lower(): name for name, code in SHORT.items()}
    if kind not in KINDS:
        if kind in by_code:
            kind = by_code[kind]
        elif len(kind) == 2 and kind[0] == "h" and not direction:
            kind, direction = HUNTER, kind[1]
        else:
            raise ValueError(_("unknown tile {spec}").format(spec=repr(text)))
    if kind == HUNTER:
        direction = direction.upper()
        if direction not in DIRECTIONS:
            raise ValueError(
                _("the hunter {spec} needs a rifle direction N, E, S or W (e.g. 'hunter:N')").format(spec=repr(text))
            )
        return {"kind": HUNTER, "up": False, "dir": direction}
    if direction:
        raise ValueError(_("only hunters have a direction, not {spec}").format(spec=repr(text)))
    return {"kind": kind, "up": False}
