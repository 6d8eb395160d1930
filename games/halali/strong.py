"""Halali!'s ``strong`` bot: the search of ``games.search`` with this game's settings (issue 48).

The root searches the five moves the basic bot likes best (``basic_prior``): Halali! has up to a hundred legal moves
and most of them walk a tile into reach of a hunter. A playout plays four moves by a rule of thumb
(``threat_playout``: the best capture or exit, a tile in reach saved, none walked into reach, else a flip) and the
position is judged by the match's points, the tiles each side has captured or led out this leg and what the side to
move could take next (``judge``), through tanh: a lead of ``SCALE`` points is as good as a win of 0.88.
4,000 engine steps a move. Measured by benchmarks/bots.py on 2026-12-07: 33 wins in 50 two-player matches against
``basic`` (66%, 95% interval 52–78%; the 70% target is not met yet), a move 0.21 s of one core at the median and
0.50 s at most. Three times the steps bought nothing: 28 of the first 44 of those matches at 12,000 steps (64%).
Against ``random``: all 20 two-player matches (95% interval 84–100%). Against itself, the seats taken in turn, seat 0
won 10 of 20 (30–70%).
"""

from __future__ import annotations

import math
import random
from typing import Any

from games.base import Engine, Move, State
from games.halali import board
from games.halali.bots import Position
from games.halali.rules import FINAL, OVER
from games.halali.tiles import AIMED, BLUE, BROWN, DIRECTIONS, KINDS, POINTS, PREY, RANGE, owner
from games.search import SearchSettings

INDEX = board.INDEX
SQUARES = board.SIZE * board.SIZE
BIT = {kind: 1 << i for i, kind in enumerate(KINDS)}
PREY_BITS = {kind: sum(BIT[prey] for prey in PREY[kind]) for kind in KINDS}
OWNER = {kind: owner(kind) for kind in KINDS}

THREAT = 0.8  # of the best gain the side to move has at hand: it may still be parried
SCALE = 12.0  # points of lead as good as a win of 0.88
RISK = 0.9  # of a tile's points, for leaving it in reach of a capture (or walking it there)
FLIP = 0.3  # what a playout's flip is worth, against a quiet move: it keeps the leg going


def _lines(grid: list, colour: str):
    """Yield each face-up tile of ``colour`` that captures something, as (square, kind, line): for each way it may
    capture, the squares it reaches, up to and including the first one taken."""
    for square, cell in enumerate(grid):
        if cell is None or not cell["up"]:
            continue
        kind = cell["kind"]
        if OWNER[kind] != colour or not PREY_BITS[kind]:
            continue
        reach = RANGE[kind]
        for direction in ((cell["dir"],) if kind in AIMED else DIRECTIONS):
            line = board.RAYS[square, direction][:reach]
            for length, here in enumerate(line, start=1):
                if grid[here] is not None:
                    line = line[:length]
                    break
            yield square, kind, line


def attack_map(grid: list, colour: str) -> list[int]:
    """Return, per square, the kinds (as bits) ``colour`` could capture there with one move."""
    attack = [0] * SQUARES
    for _square, kind, line in _lines(grid, colour):
        for here in line:
            attack[here] |= PREY_BITS[kind]
    return attack


def best_gain(grid: list, colour: str, exits: bool) -> int:
    """Return the most points ``colour`` can win with one move on ``grid`` (a capture, or an exit when open)."""
    best = 0
    for _square, kind, line in _lines(grid, colour):
        target = grid[line[-1]] if line else None
        if target is not None and target["up"] and target["kind"] in PREY[kind] and POINTS[target["kind"]] > best:
            best = POINTS[target["kind"]]
    if not exits:
        return best
    for square, cell in enumerate(grid):
        if cell is None or not cell["up"] or OWNER[cell["kind"]] != colour:
            continue
        kind = cell["kind"]
        reach = RANGE[kind]
        if POINTS[kind] > best:
            for direction in DIRECTIONS:
                path = board.EXIT_PATHS[square, direction]
                if path is not None and len(path) < reach and all(grid[here] is None for here in path):
                    best = POINTS[kind]
                    break
    return best


def match_points(world: State) -> list[int]:
    """Return each seat's points in the legs played and, in a leg still going, the tiles captured or led out."""
    points = [sum(record["points"][seat] for record in world["legs"]) for seat in (0, 1)]
    if len(world["legs"]) < world["leg"]:
        for seat in (0, 1):
            points[seat] += sum(POINTS[entry["kind"]] for entry in world["piles"][seat])
    return points


def judge(engine: Engine, world: State) -> list[float]:
    """Return each seat's worth: its lead in points, with what the side to move could take next, through tanh."""
    points = match_points(world)
    lead = points[0] - points[1]
    current = world["current"]
    if current is not None and world["phase"] != OVER:
        colour = BLUE if current == world["blue"] else BROWN
        exits = world["phase"] == FINAL or world["options"]["exits_anytime"]
        gain = THREAT * best_gain(world["board"], colour, exits)
        lead += gain if current == 0 else -gain
    worth = 0.5 + 0.5 * math.tanh(lead / SCALE)
    return [worth, 1.0 - worth]


def threat_playout(engine: Engine, world: State, seat: int, moves: list[Move], rng: random.Random) -> Move:
    """Take the best capture or exit, save a tile in reach of the opponent, keep tiles out of reach; else flip."""
    grid = world["board"]
    enemy = BROWN if seat == world["blue"] else BLUE
    attack = attack_map(grid, enemy)
    best, chosen = None, []
    for move in moves:
        to = move.get("to")
        if to is None:
            score = FLIP if "flip" in move else 0.0
        else:
            start = INDEX[move["from"]]
            kind = grid[start]["kind"]
            bit = BIT[kind]
            score = 0.0
            if attack[start] & bit:
                score += RISK * POINTS[kind]
            if to == "out":
                score += POINTS[kind]
            else:
                end = INDEX[to]
                target = grid[end]
                if target is not None:
                    score += POINTS[target["kind"]]
                if attack[end] & bit:
                    score -= RISK * POINTS[kind]
        if best is None or score > best:
            best, chosen = score, [move]
        elif score == best:
            chosen.append(move)
    return chosen[rng.randrange(len(chosen))]


def basic_prior(view: dict[str, Any], moves: list[Move], history: list[dict[str, Any]],
                rng: random.Random) -> list[Move]:
    """Rank the moves as the basic bot scores them (ties in a random order)."""
    position = Position(view)
    scored = [(position.score(move), rng.random(), i) for i, move in enumerate(moves)]
    scored.sort(reverse=True)
    return [moves[i] for _score, _tie, i in scored]


SETTINGS = SearchSettings(
    steps=4000,
    exploration=0.7,
    playout_moves=4,
    playout=threat_playout,
    judge=judge,
    prior=basic_prior,
    width=5,
)
