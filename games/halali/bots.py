"""Halali! bots: ``basic`` weighs captures, keeps its tiles out of reach and leaves through the exits.

The bot reads the public picture of the view only (face-up tiles, face-down
squares, the unrevealed counts); a face-down tile's kind is never in it. It
scores every legal move as::

    points won now
    - THREAT_TAKEN × the best points the opponent can win on their reply
    + THREAT_MADE  × the best points we could win on our next turn
    + EXIT_READY × the points of our tiles that stand ready to leave (exits open)

A flip is scored as the average over what the tile may turn out to be
(``unrevealed`` counts, a hunter's rifle any of the four directions): a tile
turned over can be taken at once, or can take at once. Ties go to the rng.
"""

from __future__ import annotations

import random
from typing import Any

from games.halali import board, tiles
from games.halali.tiles import AIMED, DIRECTIONS, HUNTER, POINTS, PREY, RANGE

THREAT_TAKEN = 0.9  # the opponent will usually take what we leave en prise
THREAT_MADE = 0.35  # a threat of ours may be parried before our next turn
EXIT_READY = 0.5  # a tile that can leave next turn, per point, while final turns remain
FLIP_BIAS = 0.05  # with nothing else at stake, turning a tile over moves the leg on
QUIET_PRESSURE = 0.25  # per turn without a flip, capture or exit: stop shuffling tiles around

Grid = dict[int, dict[str, Any]]  # square index -> face-up tile {kind, dir?}


def read_board(view: dict[str, Any]) -> tuple[Grid, set[int]]:
    """Return (face-up tiles by square, face-down squares) from the view."""
    grid = {board.index(tile["square"]): {"kind": tile["kind"], "dir": tile.get("dir")} for tile in view["tiles"]}
    return grid, {board.index(square) for square in view["face_down"]}


def attacks_from(grid: Grid, down: set[int], square: int) -> int:
    """Return the most points the tile on ``square`` can capture in one move (0: none)."""
    tile = grid[square]
    kind = tile["kind"]
    prey = PREY[kind]
    if not prey:
        return 0
    best = 0
    for direction in ((tile["dir"],) if kind in AIMED else DIRECTIONS):
        for here in board.ray(square, direction)[: RANGE[kind]]:
            if here in grid:
                if grid[here]["kind"] in prey:
                    best = max(best, POINTS[grid[here]["kind"]])
                break
            if here in down:
                break
    return best


def attacks_on(grid: Grid, down: set[int], square: int, side: str) -> int:
    """Return the points ``side`` wins by capturing the face-up tile on ``square`` (0: it cannot)."""
    kind = grid[square]["kind"]
    for direction in DIRECTIONS:
        for distance, here in enumerate(board.ray(square, direction), start=1):
            if here in down:
                break
            if here not in grid:
                continue
            attacker = grid[here]
            akind = attacker["kind"]
            back = board.line_between(here, square)[0]
            if (
                tiles.owner(akind) == side
                and kind in PREY[akind]
                and distance <= RANGE[akind]
                and (akind not in AIMED or attacker["dir"] == back)
            ):
                return POINTS[kind]
            break
    return 0


def exit_gain(grid: Grid, square: int) -> int:
    """Return the points of the own tile on ``square`` if it can leave through an exit now."""
    kind = grid[square]["kind"]
    for direction in DIRECTIONS:
        path = board.exit_path(square, direction)
        if path is not None and len(path) + 1 <= RANGE[kind] and all(here not in grid for here in path):
            return POINTS[kind]
    return 0


def best_gain(grid: Grid, down: set[int], side: str, exits: bool) -> int:
    """Return the most points ``side`` can win with one move (a capture, or an exit when they are open)."""
    best = 0
    for square, tile in grid.items():
        if tiles.owner(tile["kind"]) != side:
            continue
        best = max(best, attacks_from(grid, down, square))
        if exits:
            best = max(best, exit_gain(grid, square))
    return best


def exit_ready(grid: Grid, side: str) -> int:
    """Return the points of the own tiles that could leave on the next move."""
    return sum(exit_gain(grid, square) for square, tile in grid.items() if tiles.owner(tile["kind"]) == side)


class Position:
    """The public position as the mover sees it, and the scoring of one move."""

    def __init__(self, view: dict[str, Any]):
        self.grid, self.down = read_board(view)
        self.side = view["your_side"]
        self.enemy = tiles.BROWN if self.side == tiles.BLUE else tiles.BLUE
        me = view["you"]
        self.exits = view["phase"] == "final" or bool(view["options"].get("exits_anytime"))
        left = view["final_turns_left"]
        # After our move: does the opponent reply, and do we get another turn?
        self.reply = left is None or left[1 - me] > 0
        self.again = left is None or left[me] > 1
        self.unrevealed = {kind: count for kind, count in view["unrevealed"].items() if count > 0}
        self.enemy_base = best_gain(self.grid, self.down, self.enemy, self.exits)
        self.mine_base = best_gain(self.grid, self.down, self.side, False)
        self.ready_base = exit_ready(self.grid, self.side) if self.exits else 0
        self.flip_bias = FLIP_BIAS + QUIET_PRESSURE * view.get("quiet_turns", 0)

    def evaluate(self, grid: Grid, down: set[int]) -> float:
        """Return the outlook of the position after our move (threats both ways, exits)."""
        score = 0.0
        if self.reply:
            score -= THREAT_TAKEN * best_gain(grid, down, self.enemy, self.exits)
        if self.again:
            # Our own ways out count once, through EXIT_READY, not as threats too.
            score += THREAT_MADE * best_gain(grid, down, self.side, False)
            if self.exits:
                score += EXIT_READY * exit_ready(grid, self.side)
        return score

    def score(self, move: dict[str, Any]) -> float:
        """Return the value of ``move`` for the mover."""
        if "flip" in move:
            return self.flip_score(board.index(move["flip"]))
        if "pass" in move:
            return self.evaluate(self.grid, self.down)
        start = board.index(move["from"])
        grid = dict(self.grid)
        tile = grid.pop(start)
        if move["to"] == "out":
            return POINTS[tile["kind"]] + self.evaluate(grid, self.down)
        end = board.index(move["to"])
        gained = POINTS[grid[end]["kind"]] if end in grid else 0
        grid[end] = tile
        return gained + self.evaluate(grid, self.down)

    def flip_score(self, square: int) -> float:
        """Return the expected value of turning the tile on ``square`` over.

        Turning a tile over changes only that square (it was an obstacle and
        stays one), so only captures of it or by it are new.
        """
        down = self.down - {square}
        total = sum(self.unrevealed.values())
        if not total:
            return 0.0
        expected = 0.0
        for kind, count in self.unrevealed.items():
            for rifle in (DIRECTIONS if kind == HUNTER else (None,)):
                weight = count / total / (len(DIRECTIONS) if kind == HUNTER else 1)
                grid = dict(self.grid)
                grid[square] = {"kind": kind, "dir": rifle}
                enemy, mine = self.enemy_base, self.mine_base
                owner = tiles.owner(kind)
                if owner == self.enemy:
                    enemy = max(enemy, attacks_from(grid, down, square))
                elif owner == self.side:
                    mine = max(mine, attacks_from(grid, down, square))
                enemy = max(enemy, attacks_on(grid, down, square, self.enemy))
                mine = max(mine, attacks_on(grid, down, square, self.side))
                ready = self.ready_base
                if self.exits:
                    ready = exit_ready(grid, self.side)
                elif not down:  # the last flip opens the exits: recount everything
                    enemy = best_gain(grid, down, self.enemy, True)
                    ready = exit_ready(grid, self.side)
                value = 0.0
                if self.reply:
                    value -= THREAT_TAKEN * enemy
                if self.again:
                    value += THREAT_MADE * mine + EXIT_READY * ready
                expected += weight * value
        return expected + self.flip_bias


class BasicBot:
    """Take the most valuable capture, keep tiles out of reach, leave in the final phase; see the module docstring."""

    def choose(self, view, moves, history, rng: random.Random):
        position = Position(view)
        scored = [position.score(move) for move in moves]
        best = max(scored)
        return moves[rng.choice([i for i, score in enumerate(scored) if score >= best - 1e-9])]

