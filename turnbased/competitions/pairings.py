"""Each stage's next round as tables to plan, read from the database and decided by the pure pairing library
(``pairing``): the standings in order, the stage's earlier tables and byes, the entrants still playing and the
pairs that block each other. Nothing here writes; ``services.rounds`` writes what it returns in one transaction.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from games import get_engine
from turnbased.competitions import pairing, selectors
from turnbased.competitions.models import (
    Bye, Competition, Entrant, EntrantStatus, EventTable, Format, Placement, Round, Stage, Standing,
)
from turnbased.contacts.models import Block


@dataclass(frozen=True)
class PlannedTable:
    players: tuple[int, ...]  # entrant ids, seat order
    pool: int = 0
    match: str = ""


@dataclass(frozen=True)
class Plan:
    """A round to write: its tables and byes; walkovers are bracket matches decided without a game (a player
    withdrew), written as finished tables."""

    tables: list[PlannedTable] = field(default_factory=list)
    byes: list[int] = field(default_factory=list)
    walkovers: list[tuple[PlannedTable, int]] = field(default_factory=list)  # (table, winner)

    @property
    def empty(self) -> bool:
        return not self.tables and not self.byes and not self.walkovers


# Swiss pairs are matched in windows of this many players down the standing (``pairing.swiss_pairs``): a thousand
# entrants are paired in well under a second (benchmarks/swiss_pairing.py), with no pair met twice in the runs.
SWISS_WINDOW = 32


def _rng(stage: Stage, number: int) -> random.Random:
    # The seed of a round's draws is the stage's own: replaying a pairing gives the same tables.
    return random.Random(f"competition:{stage.competition_id}:stage:{stage.number}:round:{number}")


def _active(stage: Stage) -> set[int]:
    return set(Standing.objects.filter(stage=stage, entrant__status=EntrantStatus.ACTIVE)
               .values_list("entrant_id", flat=True))


def forbidden_pairs(entrant_ids) -> set[frozenset[int]]:
    """Return the pairs of entrants either of whom blocked the other (never seated together)."""
    users = dict(Entrant.objects.filter(pk__in=list(entrant_ids)).values_list("user_id", "pk"))
    pairs = Block.objects.filter(blocker_id__in=list(users), blocked_id__in=list(users))
    return {frozenset((users[blocker], users[blocked])) for blocker, blocked in pairs.values_list("blocker_id",
                                                                                                    "blocked_id")}


def history(stage: Stage) -> pairing.History:
    # In the order played: who sat first more recently breaks a tie of seats.
    tables = [table.players for table in EventTable.objects.filter(round__stage=stage)
              .order_by("round__number", "number").only("players")]
    byes = Bye.objects.filter(round__stage=stage).values_list("entrant_id", flat=True)
    return pairing.History.of(tables, byes)


def standing_order(stage: Stage) -> tuple[list[int], dict[int, float]]:
    """Return the stage's entrants still playing, best first, and their points."""
    active = _active(stage)
    order, points = [], {}
    for group in selectors.standings_ranked(stage):
        for row in group:
            if row.entrant_id in active:
                order.append(row.entrant_id)
                points[row.entrant_id] = row.points
    return order, points


def round_robin_schedule(stage: Stage) -> list[list[PlannedTable]]:
    """Return every round of a round-robin stage, pool by pool (the pools fixed when the stage began, each in
    seed order): all of them in one round unless the stage is sequential."""
    competition = stage.competition
    pools: dict[int, list[int]] = {}
    for entrant_id, pool in (Standing.objects.filter(stage=stage).order_by("pool", "entrant__seed", "entrant_id")
                             .values_list("entrant_id", "pool")):
        pools.setdefault(pool, []).append(entrant_id)
    rounds: list[list[PlannedTable]] = []
    for pool, members in sorted(pools.items()):
        schedule = pairing.round_robin(members, competition.table_size, stage.rounds)
        if not stage.sequential:
            schedule = [pairing.all_at_once(schedule)]
        for number, tables in enumerate(schedule):
            while len(rounds) <= number:
                rounds.append([])
            rounds[number].extend(PlannedTable(players=tuple(table), pool=pool) for table in tables)
    return rounds


def _seated_still(table: PlannedTable, active: set[int], least: int) -> PlannedTable | None:
    """Return the table without its withdrawn players, or None when too few are left to play it."""
    players = tuple(player for player in table.players if player in active)
    return PlannedTable(players=players, pool=table.pool, match=table.match) if len(players) >= least else None


def least_at_a_table(competition: Competition) -> int:
    engine = get_engine(competition.engine)
    return max(2, engine.min_players, competition.table_size - 1)


def next_round(stage: Stage, number: int) -> Plan | None:
    """Return round ``number`` of the stage to write, or None when the stage has no more rounds to play."""
    competition = stage.competition
    active = _active(stage)
    rng = _rng(stage, number)
    if stage.format == Format.ROUND_ROBIN:
        schedule = round_robin_schedule(stage)
        if number > len(schedule):
            return None
        least = least_at_a_table(competition)
        tables = [kept for table in schedule[number - 1] if (kept := _seated_still(table, active, least))]
        return Plan(tables=tables)
    if stage.format == Format.SWISS:
        if number > stage.rounds:
            return None
        order, points = standing_order(stage)
        forbidden = forbidden_pairs(order)
        if competition.table_size == 2:
            found = pairing.swiss_pairs(order, points, history(stage), forbidden=forbidden, rng=rng,
                                        chunk=SWISS_WINDOW)
            return Plan(tables=[PlannedTable(players=tuple(table)) for table in found.tables], byes=list(found.byes))
        return _swiss_tables(stage, order, points, forbidden, rng)
    if competition.table_size == 2:
        return _bracket_round(stage, active)
    return _elimination_round(stage, number, active)


def _swiss_tables(stage: Stage, order: list[int], points: dict, forbidden: set, rng: random.Random) -> Plan:
    """A multi-player Swiss round; a player no table can take without seating them with someone they block (or who
    blocks them) sits the round out with a bye, the lowest-placed such player first, until the rest fit."""
    competition = stage.competition
    sitting_out: list[int] = []
    while True:
        try:
            found = pairing.swiss_tables(order, points, history(stage), competition.table_size,
                                         forbidden=forbidden, rng=rng)
        except ValueError:
            blocked = [player for player in reversed(order) if any(player in pair for pair in forbidden)]
            if not blocked:
                raise
            order = [player for player in order if player != blocked[0]]
            sitting_out.append(blocked[0])
            continue
        return Plan(tables=[PlannedTable(players=tuple(table)) for table in found.tables],
                    byes=[*found.byes, *sitting_out])


def bracket_winners(stage: Stage) -> dict[str, int]:
    """Return each bracket match decided so far and its winner (the entrant placed first; on a shared first place
    the higher seed: the resolution we adopt, docs/players.md)."""
    seeds = {entrant: index for index, entrant in enumerate(stage.seeds)}
    winners: dict[str, int] = {}
    placements = (Placement.objects.filter(table__round__stage=stage).exclude(table__match="")
                  .values_list("table__match", "entrant_id", "place"))
    best: dict[str, tuple[int, int, int]] = {}
    for match, entrant, place in placements:
        key = (place, seeds.get(entrant, len(seeds)), entrant)
        if match not in best or key < best[match]:
            best[match] = key
    for match, (_, _, entrant) in best.items():
        winners[match] = entrant
    return winners


def _bracket_round(stage: Stage, active: set[int]) -> Plan | None:
    matches = pairing.bracket_from_json(stage.bracket)
    winners = bracket_winners(stage)
    plan = Plan()
    while True:
        playable = pairing.playable(matches, stage.seeds, winners)
        if not playable:
            break
        decided = False
        for match, first, second in playable:
            table = PlannedTable(players=(first, second), match=match.id)
            if first in active and second in active:
                plan.tables.append(table)
                continue
            # A withdrawn player's match goes to the other (both gone: the higher seed's, out at once after).
            winner = first if first in active or second not in active else second
            plan.walkovers.append((table, winner))
            winners[match.id] = winner
            decided = True
        if not decided:
            break
    return None if plan.empty else plan


def _elimination_round(stage: Stage, number: int, active: set[int]) -> Plan | None:
    competition = stage.competition
    if number == 1:
        ranked = [entrant for entrant in stage.seeds if entrant in active]
    else:
        last = Round.objects.get(stage=stage, number=number - 1)
        tables: dict[int, list[tuple[int, int]]] = {}
        for table_id, entrant, place in (Placement.objects.filter(table__round=last)
                                         .order_by("table__number", "place", "seat")
                                         .values_list("table_id", "entrant_id", "place")):
            tables.setdefault(table_id, []).append((entrant, place))
        if len(tables) <= 1 and sum(len(seated) for seated in tables.values()) <= competition.table_size:
            return None  # the final table was played
        ranked = [entrant for entrant in pairing.advancing(list(tables.values()), stage.advance) if entrant in active]
    if not ranked:
        return None
    if len(ranked) < least_at_a_table(competition):
        return None
    if pairing.final_reached(len(ranked), competition.table_size):
        return Plan(tables=[PlannedTable(players=tuple(ranked))])
    return Plan(tables=[PlannedTable(players=tuple(table))
                        for table in pairing.elimination_tables(ranked, competition.table_size)])
