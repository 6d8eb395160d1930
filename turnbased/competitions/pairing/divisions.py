"""A league's divisions: a season's field cut into divisions from the top down, and the order the next season starts
from once promotion and relegation have moved the players between them.

A league is a ladder of divisions, one above the other (division 1 at the top): each season every division plays a
round robin, then the best ``movers`` of each division go up one and the worst ``movers`` go down one. Pure Python:
players are entrant ids, orders are lists, best first.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

UP, DOWN, STAY, NEW = "up", "down", "stay", "new"


def divisions(order: Sequence[int], size: int, least: int) -> list[list[int]]:
    """Cut ``order`` (the league's order, best first: last season's players as promotion and relegation left them,
    then the newcomers) into divisions of ``size`` from the top; the last division, when it would hold fewer than
    ``least`` (too few for a table, or for a round robin worth the name), joins the one above it.

    The players above a vacancy keep their division and the ones below move up into it, as a pyramid fills a place
    left empty: nobody goes down for someone else's leaving.
    """
    if size < 2 or least < 2 or least > size:
        raise ValueError("a division holds at least two players, and at least as many as its least")
    if len(set(order)) != len(order):
        raise ValueError("a player is listed twice")
    cut = [list(order[start:start + size]) for start in range(0, len(order), size)]
    if len(cut) > 1 and len(cut[-1]) < least:
        cut[-2].extend(cut.pop())
    return cut


@dataclass(frozen=True)
class Carried:
    """A player of the season that ended, where they stand in the next one's order and how they got there."""

    player: int
    move: str  # UP, DOWN or STAY


def next_order(finished: Sequence[Sequence[int]], movers: int) -> list[Carried]:
    """Return the order the next season starts from: ``finished`` holds each division's final order (division 1
    first, each best first); between each division and the one below, the best ``movers`` of the lower one and the
    worst ``movers`` of the upper one change places. A division too small to give ``movers`` without giving its
    whole field gives half of it, rounded down (a division of three swaps one player each way)."""
    if movers < 1:
        raise ValueError("at least one player moves between divisions")
    moved = [list(division) for division in finished]
    move: dict[int, str] = {player: STAY for division in finished for player in division}
    for upper in range(len(moved) - 1):
        above, below = moved[upper], moved[upper + 1]
        swapped = min(movers, len(above) // 2, len(below) // 2)
        if swapped == 0:
            continue
        rising, falling = below[:swapped], above[-swapped:]
        moved[upper] = above[:-swapped] + rising
        moved[upper + 1] = falling + below[swapped:]
        for player in rising:
            move[player] = UP
        for player in falling:
            move[player] = DOWN
    return [Carried(player, move[player]) for division in moved for player in division]
