"""Round robins: splitting a field into pools of equal strength, and the rounds in which everyone of a pool meets.

Two-player pools use the circle (Berger) method, so every pair meets once per cycle and first seats alternate;
pools of larger tables play every possible table of the pool, which is the only way every pair meets equally
often whatever the sizes. Everything here is deterministic: the same pool gives the same schedule.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations

import networkx as nx

# Every k-subset of a pool is played: the count grows fast (C(12, 4) = 495), and an organiser who would need more
# tables than this is better served by smaller pools.
MAX_TABLES = 100


def pools(players: Sequence[int], pool_size: int, table_size: int) -> list[list[int]]:
    """Split ``players`` (strongest first) into pools of about ``pool_size``, dealt as a snake (1, 2, 3, 3, 2, 1,
    ...) so that each pool gets a strong and a weak share alike.

    There are ceil(n / pool_size) pools, fewer when that would leave a pool short of ``table_size - 1`` players
    (the smallest table a game of ``table_size`` seats is still played at); sizes differ by at most one.
    """
    if pool_size < 1 or table_size < 2:
        raise ValueError("a pool holds at least one player and a table at least two")
    if len(set(players)) != len(players):
        raise ValueError("a player is listed twice")
    if len(players) < max(table_size - 1, 1):
        raise ValueError("too few players for a single table")
    count = -(-len(players) // pool_size)
    while count > 1 and len(players) // count < table_size - 1:
        count -= 1
    dealt: list[list[int]] = [[] for _ in range(count)]
    for place, player in enumerate(players):
        sweep, position = divmod(place, count)
        dealt[position if sweep % 2 == 0 else count - 1 - position].append(player)
    return dealt


def round_robin(pool: Sequence[int], table_size: int, cycles: int = 1) -> list[list[tuple[int, ...]]]:
    """Return the rounds of a round robin in ``pool``, each a list of tables in seat order.

    Within a round each player sits at most once; a player absent from a round rests (an odd pool of two-player
    tables rests one player each round). ``cycles`` plays the whole schedule that many times.
    """
    if cycles < 1:
        raise ValueError("a round robin has at least one cycle")
    if table_size < 2:
        raise ValueError("a table has at least two seats")
    if len(set(pool)) != len(pool):
        raise ValueError("a player is listed twice")
    if len(pool) < 2:
        raise ValueError("a pool needs at least two players")
    if table_size == 2:
        return _circle(list(pool), cycles)
    if len(pool) <= table_size:
        # One table of the whole pool: each cycle turns the seats by one, so over len(pool) cycles every player
        # has sat in every seat once.
        return [[tuple(pool[(start + seat) % len(pool)] for seat in range(len(pool)))]
                for start in range(cycles)]
    return _every_table(list(pool), table_size, cycles)


def all_at_once(rounds: Iterable[Iterable[tuple[int, ...]]]) -> list[tuple[int, ...]]:
    """Return every table of ``rounds`` in one list, in order: for an event that starts all its tables at once
    (asynchronous play lets a player sit at several tables together)."""
    return [table for tables in rounds for table in tables]


def _circle(players: list[int | None], cycles: int) -> list[list[tuple[int, ...]]]:
    """The circle method: the last player stays put while the others turn around a circle, one place a round.

    The player facing the fixed one takes seat 0 in even rounds, and of every other table the one on the top row
    of the circle takes seat 0. A turning player visits each place of the circle once per cycle, so they sit first
    on every top-row place and at most once more: first seats of any two players differ by at most one per cycle.
    An odd pool is made even by a ``None`` that stays put: whoever faces it rests. Odd cycles repeat the first
    with seats swapped, so over two cycles everyone sits first exactly as often as second.
    """
    if len(players) % 2:
        players.append(None)
    size = len(players)
    turning, fixed = players[:-1], players[-1]
    first_cycle: list[list[tuple[int, ...]]] = []
    for number in range(size - 1):
        circle = turning[number:] + turning[:number]
        tables: list[tuple[int, ...]] = []
        facing = (circle[0], fixed) if number % 2 == 0 else (fixed, circle[0])
        for place in range(1, size // 2):
            tables.append((circle[place], circle[size - 1 - place]))
        tables.insert(0, facing)
        first_cycle.append([table for table in tables if None not in table])
    rounds = []
    for cycle in range(cycles):
        for tables in first_cycle:
            rounds.append([table if cycle % 2 == 0 else table[::-1] for table in tables])
    return rounds


def _every_table(pool: list[int], table_size: int, cycles: int) -> list[list[tuple[int, ...]]]:
    """Every ``table_size``-subset of ``pool``, ``cycles`` times, dealt into rounds and seated.

    Each pair of players shares C(p-2, k-2) of the subsets, the same for every pair. Rounds are filled one at a
    time from the tables left, those whose players have the most tables left first, so that nobody is left with
    a long tail of tables while the others wait; a table joins a round when none of its players sits there yet.
    """
    subsets = [tuple(subset) for subset in combinations(pool, table_size)] * cycles
    if len(subsets) > MAX_TABLES:
        raise ValueError(f"a round robin of {len(pool)} at tables of {table_size} needs {len(subsets)} tables; "
                         f"pick smaller pools")
    rank = {player: place for place, player in enumerate(pool)}
    left = {player: 0 for player in pool}
    for subset in subsets:
        for player in subset:
            left[player] += 1
    remaining = list(subsets)
    rounds: list[list[tuple[int, ...]]] = []
    while remaining:
        remaining.sort(key=lambda subset: -sum(left[player] for player in subset))
        seated: set[int] = set()
        chosen, kept = [], []
        for subset in remaining:
            if seated.isdisjoint(subset):
                chosen.append(subset)
                seated.update(subset)
            else:
                kept.append(subset)
        for subset in chosen:
            for player in subset:
                left[player] -= 1
        rounds.append(chosen)
        remaining = kept
    return _seated(rounds, rank)


def _seated(rounds: list[list[tuple[int, ...]]], rank: dict[int, int]) -> list[list[tuple[int, ...]]]:
    """Seat each table, in schedule order, so that every player sits in each seat about equally often.

    Each table's seats go to its players as an assignment of least cost: first the times each player has already
    sat in the seat given (so seat counts even out), then how far their lean (the sum of seat - middle seat so
    far) would end from zero (so no one sits early more than late). Taking each table's best in turn is greedy,
    not the best over the whole schedule, which would be a far larger problem for a small gain.
    """
    counts: dict[int, list[int]] = {}
    lean = dict.fromkeys(rank, 0.0)
    seated_rounds = []
    for tables in rounds:
        seated_tables = []
        for table in tables:
            size = len(table)
            middle = (size - 1) / 2
            for player in table:
                counts.setdefault(player, [0] * size)
            order = sorted(table, key=rank.__getitem__)
            costs = {(i, size + seat): (counts[player][seat], round(4 * (lean[player] + seat - middle) ** 2))
                     for i, player in enumerate(order) for seat in range(size)}
            seats = [0] * size
            for i, seat in _assignment(costs):
                seats[seat - size] = order[i]
            for seat, player in enumerate(seats):
                counts[player][seat] += 1
                lean[player] += seat - middle
            seated_tables.append(tuple(seats))
        seated_rounds.append(seated_tables)
    return seated_rounds


def _assignment(costs: dict[tuple[int, int], tuple[int, int]]) -> list[tuple[int, int]]:
    """The perfect matching of least cost (first parts first) between players 0..k-1 and seats k..2k-1."""
    worst_second = max(second for _, second in costs.values())
    size = len({player for player, _ in costs})
    unit = size * worst_second + 1  # one more time in a seat outweighs any sum of lean costs
    top = max(first for first, _ in costs.values()) * unit + worst_second + 1
    graph = nx.Graph()
    graph.add_weighted_edges_from((player, seat, top - first * unit - second)
                                  for (player, seat), (first, second) in costs.items())
    return [tuple(sorted(edge)) for edge in nx.max_weight_matching(graph, maxcardinality=True)]
