"""Halali! board geometry (rules file §3, §7): squares, straight lines of movement and the four exits.

Squares are named like chess squares: files a–g run west to east, ranks 1–7
south to north, so a7 is the north-west corner, d4 the centre and d7 the
middle of the north edge. Internally a square is the index ``r * 7 + c`` of
the rules file's coordinates (r = 0 north, c = 0 west).
"""

from __future__ import annotations

SIZE = 7
FILES = "abcdefg"

SQUARES = tuple(f"{FILES[i % SIZE]}{SIZE - i // SIZE}" for i in range(SIZE * SIZE))
INDEX = {name: i for i, name in enumerate(SQUARES)}

CENTRE = 3 * SIZE + 3  # d4, empty at setup
START_SQUARES = tuple(i for i in range(SIZE * SIZE) if i != CENTRE)  # reading order: a7..g7, a6.., ..g1

STEP = {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "W": (0, -1)}

# Exit direction -> the exit square a tile leaves from (the middle of that edge).
EXITS = {"N": INDEX["d7"], "E": INDEX["g4"], "S": INDEX["d1"], "W": INDEX["a4"]}


def name(index: int) -> str:
    """Return the square name of a board index ("c5")."""
    return SQUARES[index]


def index(square: str) -> int:
    """Return the board index of a square name; raise ``KeyError`` for an unknown square."""
    return INDEX[square]


def neighbour(index: int, direction: str) -> int | None:
    """Return the index one step from ``index`` towards ``direction``, or None off the board."""
    dr, dc = STEP[direction]
    r, c = divmod(index, SIZE)
    r, c = r + dr, c + dc
    return r * SIZE + c if 0 <= r < SIZE and 0 <= c < SIZE else None


def _ray(index: int, direction: str) -> tuple[int, ...]:
    line = []
    here = neighbour(index, direction)
    while here is not None:
        line.append(here)
        here = neighbour(here, direction)
    return tuple(line)


# Every square's rays, worked out once: the rules and the strong bot's search walk them thousands of times a move.
RAYS = {(i, direction): _ray(i, direction) for i in range(SIZE * SIZE) for direction in STEP}


def ray(index: int, direction: str) -> list[int]:
    """Return the squares from ``index`` (excluded) to the board edge towards ``direction``."""
    return list(RAYS[index, direction])


def line_between(start: int, end: int) -> tuple[str, int] | None:
    """Return (direction, distance) of the straight orthogonal line from ``start`` to ``end``, or None."""
    (r1, c1), (r2, c2) = divmod(start, SIZE), divmod(end, SIZE)
    if (r1 == r2) == (c1 == c2):  # the same square, or not on one row or column
        return None
    if r1 == r2:
        return ("E" if c2 > c1 else "W"), abs(c2 - c1)
    return ("S" if r2 > r1 else "N"), abs(r2 - r1)


def exit_path(start: int, direction: str) -> list[int] | None:
    """Return the squares a tile at ``start`` crosses to leave through exit ``direction``, or None.

    The tile must stand on the exit's row or column on the inner side of the
    exit square; the path runs up to and including the exit square (empty
    when the tile already stands on it).
    """
    exit_square = EXITS[direction]
    if start == exit_square:
        return []
    line = ray(start, direction)
    return line if line and line[-1] == exit_square else None


# Every square's way out through each exit (``exit_path`` as a tuple, or None), worked out once, as ``RAYS``.
EXIT_PATHS = {
    (i, direction): None if (path := exit_path(i, direction)) is None else tuple(path)
    for i in range(SIZE * SIZE)
    for direction in STEP
}
