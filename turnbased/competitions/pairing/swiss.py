"""Swiss pairings: who sits with whom next round, from the standing, the points and what earlier rounds did.

Two-player Swiss (``swiss_pairs``) is a maximum-weight matching whose weights rank the rules strictly: blocks
first (a blocked pair is no edge at all), then who has the bye, then rematches, then score differences, then
seat balance; none of a lower rule's costs can ever outweigh one unit of a higher one. Multi-player Swiss
(``swiss_tables``) fills tables down the standing and swaps players between neighbouring tables to undo
rematches and blocks. All randomness comes from the caller's ``random.Random``: the same inputs and seed give
the same pairing, so a round can be redrawn and checked.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import accumulate

import networkx as nx

from .history import History

# Points in steps finer than a twelfth (halves, thirds and quarters are exact) count as the nearest twelfth: the
# matching wants integer weights, for which networkx's blossom algorithm computes exactly.
_SCORE_STEPS = 144
# A window whose best matching still holds a rematch grows, one chunk at a time, up to this many chunks: beyond
# it the blossom algorithm's cubic time costs more than the rematch it would avoid.
_MAX_CHUNKS = 4


@dataclass(frozen=True)
class Pairing:
    """One round: each table in seat order (the top board first), and the players who have a bye."""

    tables: tuple[tuple[int, ...], ...]
    byes: tuple[int, ...] = ()


@dataclass(frozen=True)
class _Field:
    """The players of a round and what the rules read of them, shared by the steps of one pairing."""

    order: tuple[int, ...]
    points: Mapping[int, float]
    history: History
    blocked: frozenset[tuple[int, int]]

    @cached_property
    def rank(self) -> dict[int, int]:
        return {player: place for place, player in enumerate(self.order)}

    @cached_property
    def imbalance(self) -> dict[int, int]:
        """First seats minus other seats so far, by player: above zero, the player is owed a second seat."""
        return {player: 2 * self.history.first_seats(player) - self.history.games(player) for player in self.order}

    def allowed(self, a: int, b: int) -> bool:
        return ((a, b) if a < b else (b, a)) not in self.blocked

    def bye_order(self) -> list[int]:
        """The players in the order they are owed a bye: fewest byes so far first, then the lowest-ranked."""
        rank = self.rank
        return sorted(self.order, key=lambda player: (self.history.byes_of(player), -rank[player]))

    def seated(self, a: int, b: int) -> tuple[int, int]:
        """Order a table of two: seat 0 to whoever is owed it most.

        The lower imbalance first; then fewer first seats; then whoever sat first longer ago, so that equals take
        turns; then the lower-ranked player, as moving first is the usual advantage.
        """
        rank, history = self.rank, self.history

        def owed(player: int) -> tuple[int, int, int, int]:
            return (self.imbalance[player], history.first_seats(player), history.last_first_seat(player),
                    -rank[player])

        return (a, b) if owed(a) <= owed(b) else (b, a)


def swiss_pairs(standing: Sequence[int], points: Mapping[int, float], history: History, *,
                forbidden: Collection[frozenset[int]] = (), rng: random.Random, chunk: int = 48) -> Pairing:
    """Pair ``standing`` (best first, ties already broken) for a round of two-player Swiss.

    The rules, each above all those after it: a forbidden pair never sits together, and a player left with
    nobody allowed has a bye; an odd field gives one bye, to the lowest-ranked of those with the fewest byes; no
    rematch where one can be avoided; the least sum of squared point gaps; seat balance. A player missing from
    ``points`` has none. Fields above ``2 * chunk`` are paired in windows of about ``chunk`` players down the
    standing (see ``_in_windows``), which keeps a field of 1,000 under a second.
    """
    order = _distinct(standing)
    if chunk < 2:
        raise ValueError("a window holds at least two players")
    field = _Field(order, points, history, _pairs_of(forbidden))
    if len(order) <= 2 * chunk:
        pairs, byes = _whole(field, rng)
    else:
        pairs, byes = _in_windows(field, rng, chunk)
    rank = field.rank
    tables = sorted((field.seated(a, b) for a, b in pairs), key=lambda table: min(rank[p] for p in table))
    return Pairing(tables=tuple(tables), byes=tuple(sorted(byes, key=rank.__getitem__)))


def _distinct(standing: Sequence[int]) -> tuple[int, ...]:
    order = tuple(standing)
    if len(set(order)) != len(order):
        raise ValueError("a player is listed twice in the standing")
    return order


def _pairs_of(forbidden: Iterable[Collection[int]]) -> frozenset[tuple[int, int]]:
    return frozenset(tuple(sorted(pair)) for pair in forbidden if len(pair) == 2)


def _weights(costs: Mapping[tuple[int, int], tuple[int, ...]], edges_in_matching: int) -> dict[tuple[int, int], int]:
    """Turn cost tuples (the most important rule first) into integer weights that rank the rules strictly.

    Each rule's unit is worth more than the most that every lower rule can add up to over a whole matching, so a
    maximum-weight matching of maximum size minimises the first rule's total, then the second's, and so on.
    """
    tiers = len(next(iter(costs.values())))
    maxima = [max(cost[tier] for cost in costs.values()) for tier in range(tiers)]
    scale = [1] * tiers
    below = maxima[-1]
    for tier in range(tiers - 2, -1, -1):
        scale[tier] = edges_in_matching * below + 1
        below += maxima[tier] * scale[tier]
    return {edge: below + 1 - sum(unit * part for unit, part in zip(scale, cost)) for edge, cost in costs.items()}


def _match(size: int, costs: dict[tuple[int, int], tuple[int, ...]], rng: random.Random) -> list[tuple[int, int]]:
    """Return a maximum matching of least cost over nodes 0..size-1, as sorted pairs.

    The nodes are added in an order drawn from ``rng``: among matchings of equal cost the blossom algorithm
    keeps the first it meets, so this draws the choice among equals (a random pairing within a score group)
    instead of always favouring the same players.
    """
    if not costs:
        return []
    graph = nx.Graph()
    nodes = list(range(size))
    rng.shuffle(nodes)
    graph.add_nodes_from(nodes)
    weights = _weights(costs, size // 2)
    edges = list(weights.items())
    rng.shuffle(edges)
    graph.add_weighted_edges_from((a, b, weight) for (a, b), weight in edges)
    return sorted(tuple(sorted(edge)) for edge in nx.max_weight_matching(graph, maxcardinality=True))


def _largest_matching(players: Sequence[int], field: _Field) -> int:
    graph = nx.Graph()  # the allowed pairs, unweighted: how many tables they can fill at most
    graph.add_nodes_from(players)
    graph.add_edges_from((a, b) for i, a in enumerate(players) for b in players[i + 1:] if field.allowed(a, b))
    return len(nx.max_weight_matching(graph, maxcardinality=True))


def _whole(field: _Field, rng: random.Random) -> tuple[list[tuple[int, int]], list[int]]:
    """Pair the whole field in one matching, the byes chosen inside it.

    Each bye is a node of its own, joined to every player at a cost of the player's place in the bye order: as
    many bye nodes as the blocks and an odd count make necessary, so the matching is perfect, and it puts the
    byes where the bye order says unless that would leave someone unpairable.
    """
    players = list(field.order)
    size = len(players)
    needs_check = any(not field.allowed(a, b) for i, a in enumerate(players) for b in players[i + 1:])
    byes = size - 2 * (_largest_matching(players, field) if needs_check else size // 2)
    owed = {player: place for place, player in enumerate(field.bye_order())}
    costs: dict[tuple[int, int], tuple[int, ...]] = {
        edge: (0, *cost) for edge, cost in _costs_among(players, field).items()}
    for i, a in enumerate(players):
        for bye in range(size, size + byes):
            costs[(i, bye)] = (owed[a], 0, 0, 0)
    pairs = [(players[i], players[j]) for i, j in _match(size + byes, costs, rng) if j < size]
    seated = {player for pair in pairs for player in pair}
    return pairs, [player for player in players if player not in seated]


def _in_windows(field: _Field, rng: random.Random, chunk: int) -> tuple[list[tuple[int, int]], list[int]]:
    """Pair a large field in windows of about ``chunk`` players down the standing.

    The blossom algorithm takes minutes on a dense graph of 1,000 players but milliseconds on 48, and pairing each
    player with the next in the standing is what squared gaps on a line prefer anyway, so cutting the standing at
    even places loses nothing by score. A window whose matching holds a rematch or leaves someone unpaired
    (blocks) is merged with the next and matched again (the bottom one with the one above), so nobody floats down
    unpaired. Should the whole field leave someone unpaired, it is paired in one matching, which places byes best.
    """
    byes = _bye_before_windows(field)
    rest = [player for player in field.order if player not in byes]
    pieces: list[tuple[int, list[tuple[int, int]]]] = []
    start = 0
    while start < len(rest):
        end = _window_end(start, len(rest), chunk)
        while True:
            window = rest[start:end]
            pairs = [(window[i], window[j]) for i, j in _match(len(window), _costs_among(window, field), rng)]
            unpaired = len(window) - 2 * len(pairs)
            rematch = any(field.history.met(a, b) for a, b in pairs)
            if not unpaired and (not rematch or len(window) >= _MAX_CHUNKS * chunk):
                break
            if end < len(rest):
                end = _window_end(end, len(rest), chunk)
            elif pieces:
                start = pieces.pop()[0]
            elif unpaired:
                return _whole(field, rng)
            else:
                break
        pieces.append((start, pairs))
        start = end
    return [pair for _, pairs in pieces for pair in pairs], byes


def _window_end(start: int, count: int, chunk: int) -> int:
    """Where a window from ``start`` ends: about ``chunk`` on, at an even size, and at the bottom of the standing
    when what would be left is less than half a chunk (too small a window to pair well)."""
    end = start + chunk + chunk % 2
    return count if count - end < max(chunk // 2, 2) else end


def _costs_among(players: Sequence[int], field: _Field) -> dict[tuple[int, int], tuple[int, int, int]]:
    """What seating each allowed pair of ``players`` costs under the rules after the bye, by their indices:
    (rematches, squared point gap, seat clash).

    The lower imbalance takes seat 0 and goes up by one, the other goes down by one: the clash is how far either
    would end beyond one seat of balance (two players both owed a second seat cannot both have it). Written as
    one loop over plain lists: it runs for every pair of every window, the larger part of a round's time.
    """
    points = [field.points.get(player, 0) for player in players]
    imbalances = [field.imbalance[player] for player in players]
    met, allowed, checked = field.history.met, field.allowed, bool(field.blocked)
    costs = {}
    for i, a in enumerate(players):
        for j in range(i + 1, len(players)):
            b = players[j]
            if checked and not allowed(a, b):
                continue
            gap = points[i] - points[j]
            low, high = min(imbalances[i], imbalances[j]), max(imbalances[i], imbalances[j])
            clash = (low if low > 0 else 0) + (-high if high < 0 else 0)
            costs[(i, j)] = (met(a, b), round(gap * gap * _SCORE_STEPS), clash)
    return costs


def _bye_before_windows(field: _Field) -> list[int]:
    """The byes of a field paired in windows, chosen before the windows: everyone blocked with every other
    player, then for an odd remainder the first player in the bye order whose leaving takes away nobody's last
    allowed partner."""
    order = field.order
    partners = dict.fromkeys(order, len(order) - 1)
    for a, b in field.blocked:
        if a in partners and b in partners:
            partners[a] -= 1
            partners[b] -= 1
    byes = [player for player in order if partners[player] == 0]
    if (len(order) - len(byes)) % 2:
        owed = [player for player in field.bye_order() if player not in byes]
        byes.append(next((candidate for candidate in owed if not any(
            partners[other] == 1 and field.allowed(candidate, other) for other in order if other != candidate)),
            owed[0]))
    return byes


# -- multi-player Swiss ------------------------------------------------------------------------------------------

_KICKS = 60  # random moves of a blocked player (each followed by the best swaps) before giving up


def swiss_tables(standing: Sequence[int], points: Mapping[int, float], history: History, table_size: int, *,
                 forbidden: Collection[frozenset[int]] = (), rng: random.Random) -> Pairing:
    """Seat ``standing`` (best first) at tables of ``table_size`` for a round of multi-player Swiss.

    Tables of ``table_size`` and, only as many as needed, of one seat fewer (at the bottom) seat everyone; when
    no such mix adds up, the fewest byes that make one go down the bye order (fewest byes, then lowest-ranked).
    Tables are filled down the standing, the leaders at the top table; then players are swapped between
    neighbouring tables, among equal points (or neighbours in the standing when no one at the two tables has
    equal points), while a swap undoes a blocked pair or a rematch. A blocked pair that those swaps leave
    together is moved further, anywhere; a ValueError says no seating keeps the blocks apart. Tables of two are
    ``swiss_pairs``.
    """
    if table_size < 2:
        raise ValueError("a table has at least two seats")
    if table_size == 2:
        return swiss_pairs(standing, points, history, forbidden=forbidden, rng=rng)
    order = _distinct(standing)
    if not order:
        return Pairing(tables=())
    field = _Field(order, points, history, _pairs_of(forbidden))
    sizes, bye_count = _table_sizes(len(order), table_size)
    byes = field.bye_order()[:bye_count]
    seated = [player for player in order if player not in byes]
    bounds = [0, *accumulate(sizes)]
    tables = [seated[start:end] for start, end in zip(bounds, bounds[1:])]
    _swap_neighbours(tables, field)
    if sum(_table_cost(table, field)[0] for table in tables):
        _unblock(tables, field, rng)
    return Pairing(tables=tuple(_seat_order(table, history, rng) for table in tables),
                   byes=tuple(sorted(byes, key=field.rank.__getitem__)))


def _table_sizes(count: int, table_size: int) -> tuple[list[int], int]:
    """The table sizes (largest first) and the number of byes: the fewest byes, then the fewest short tables."""
    for byes in range(count):
        seated = count - byes
        short = -seated % table_size
        if seated >= short * (table_size - 1):
            return [table_size] * ((seated - short * (table_size - 1)) // table_size) + [table_size - 1] * short, byes
    raise ValueError(f"too few players for a table of {table_size - 1} or {table_size}")


def _table_cost(table: Sequence[int], field: _Field) -> tuple[int, int]:
    """Blocked pairs at ``table``, then rematches (each earlier meeting of a pair counts)."""
    blocks = rematches = 0
    for i, a in enumerate(table):
        for b in table[i + 1:]:
            blocks += not field.allowed(a, b)
            rematches += field.history.met(a, b)
    return blocks, rematches


def _swapped_cost(upper: list[int], lower: list[int], x: int, y: int, field: _Field) -> tuple[int, int]:
    one, two = (_table_cost([new if player == old else player for player in table], field)
                for table, old, new in ((upper, x, y), (lower, y, x)))
    return one[0] + two[0], one[1] + two[1]


def _swap(upper: list[int], lower: list[int], x: int, y: int) -> None:
    upper[upper.index(x)], lower[lower.index(y)] = y, x


def _swap_neighbours(tables: list[list[int]], field: _Field) -> None:
    """Swap players between neighbouring tables while a swap lowers (blocked pairs, rematches) of the two.

    Of the swaps that help most, the one that moves players least far in the standing is made, so the leaders
    stay at the top table unless moving one of them helps more. Every swap lowers the total, so this ends.
    """
    rank, points = field.rank, field.points
    improved = True
    while improved:
        improved = False
        for upper, lower in zip(tables, tables[1:]):
            one, two = _table_cost(upper, field), _table_cost(lower, field)
            before = (one[0] + two[0], one[1] + two[1])
            if before == (0, 0):
                continue
            swaps = [(x, y) for x in upper for y in lower if points.get(x, 0) == points.get(y, 0)]
            if not swaps:
                swaps = [(x, y) for x in upper for y in lower if abs(rank[x] - rank[y]) == 1]
            best = min(((_swapped_cost(upper, lower, x, y, field), abs(rank[x] - rank[y]), rank[x], x, y)
                        for x, y in swaps), default=None)
            if best is not None and best[0] < before:
                _swap(upper, lower, best[3], best[4])
                improved = True


def _unblock(tables: list[list[int]], field: _Field, rng: random.Random) -> None:
    """Move blocked players anywhere until no blocked pair shares a table, or say it cannot be done.

    Each step makes the best swap of a blocked player with anyone at another table (fewest blocks, then fewest
    rematches, then the shortest move in the standing); when no swap helps, a random one shakes the tables
    and the search goes on, up to ``_KICKS`` times.
    """
    if len(tables) < 2:
        raise ValueError("a blocked pair shares the only table")
    rank = field.rank
    for _ in range(_KICKS + 1):
        while blocked := _blocked_seats(tables, field):
            costs = [_table_cost(table, field) for table in tables]
            best = min(((after[0] - costs[t][0] - costs[u][0], after[1] - costs[t][1] - costs[u][1],
                         abs(rank[x] - rank[y]), rank[x], rank[y]), t, u, x, y)
                       for t, x in blocked for u, other in enumerate(tables) if u != t for y in other
                       for after in [_swapped_cost(tables[t], other, x, y, field)])
            if best[0][:2] >= (0, 0):
                break
            _, t, u, x, y = best
            _swap(tables[t], tables[u], x, y)
        else:
            return
        t, x = rng.choice(blocked)
        u = rng.choice([u for u in range(len(tables)) if u != t])
        _swap(tables[t], tables[u], x, rng.choice(tables[u]))
    raise ValueError("no seating keeps every blocked pair apart")


def _blocked_seats(tables: list[list[int]], field: _Field) -> list[tuple[int, int]]:
    """(table index, player) for every player who shares a table with someone they are blocked with."""
    return [(t, player) for t, table in enumerate(tables) for player in table
            if any(not field.allowed(player, other) for other in table if other != player)]


def _seat_order(table: Sequence[int], history: History, rng: random.Random) -> tuple[int, ...]:
    """Seat a table so that whoever has sat later so far sits earlier now (the largest lean takes seat 0).

    Giving the earliest seats to the largest leans brings every player's lean as close to zero as one table can
    (the rearrangement inequality); equal leans are ordered by ``rng``, so nobody is favoured by their id.
    """
    players = list(table)
    rng.shuffle(players)
    return tuple(sorted(players, key=lambda player: -history.seat_lean(player)))
