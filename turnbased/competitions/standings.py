"""Standings kept up to date as games end: a finished table's changes (``scoring.changes_for_game``) written to
the rows they touch in one statement, never a recomputation; and the recomputation from scratch that must give
the same rows (the tests compare them; ``manage.py competition_standings`` does on a live database).

Concurrency: every change to a stage's rows is made under its round's row lock (``results``), so two games of a
round ending at once change the rows one after the other and no update is lost or deadlocks another.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence

from django.db import connection

from turnbased.competitions import scoring
from turnbased.competitions.models import Bye, Placement, Stage, Standing
from turnbased.competitions.selectors import as_row, outcome_of

COLUMNS = scoring.COLUMNS
WHOLE = {"games", "byes", "wins", "second_places", "third_places", "score_ratio_games"}


def apply(stage_id: int, changes: Iterable[scoring.Change]) -> None:
    """Add the changes to the stage's rows, in one statement (each row's columns summed first)."""
    totals: dict[int, dict[str, float]] = defaultdict(lambda: dict.fromkeys(COLUMNS, 0.0))
    for change in changes:
        totals[change.player][change.column] += change.amount
    if not totals:
        return
    casts = ", ".join(f"%s::{'integer' if column in WHOLE else 'double precision'}" for column in COLUMNS)
    values = ", ".join(f"(%s::integer, {casts})" for _ in totals)
    params: list = []
    for entrant_id, row in sorted(totals.items()):
        params.append(entrant_id)
        params.extend(round(row[column]) if column in WHOLE else row[column] for column in COLUMNS)
    assignments = ", ".join(f"{column} = s.{column} + v.{column}" for column in COLUMNS)
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE competitions_standing AS s SET {assignments} "  # noqa: S608 - column names are ours
            f"FROM (VALUES {values}) AS v(entrant_id, {', '.join(COLUMNS)}) "
            "WHERE s.stage_id = %s AND s.entrant_id = v.entrant_id",
            [*params, stage_id],
        )


def history_of(stage_id: int, players: Sequence[int]) -> dict[int, list[tuple[int, float]]]:
    """Return, for each of ``players``, their earlier games of the stage as (opponent, factor) pairs: 1 where they
    placed above that opponent, 0.5 level, 0 below (one query)."""
    tables: dict[int, list[tuple[int, int]]] = defaultdict(list)
    rows = (Placement.objects.filter(table__round__stage_id=stage_id,
                                     table__placements__entrant_id__in=list(players))
            .values_list("table_id", "entrant_id", "place").distinct())
    for table_id, entrant_id, place in rows:
        tables[table_id].append((entrant_id, place))
    history: dict[int, list[tuple[int, float]]] = {player: [] for player in players}
    for seated in tables.values():
        for player, place in seated:
            if player not in history:
                continue
            for other, other_place in seated:
                if other != player:
                    history[player].append((other, 1.0 if place < other_place else 0.5 if place == other_place
                                            else 0.0))
    return history


def points_of(stage_id: int, players: Sequence[int]) -> dict[int, float]:
    return dict(Standing.objects.filter(stage_id=stage_id, entrant_id__in=list(players))
                .values_list("entrant_id", "points"))


def game_recorded(stage_id: int, outcome: scoring.GameOutcome) -> None:
    """Move the standings on for a finished table; call before its placements are written (the history read here
    is of the games before it)."""
    players = list(outcome.players)
    changes = scoring.changes_for_game(outcome, history_of(stage_id, players), points_of(stage_id, players))
    apply(stage_id, changes)


def bye_recorded(stage_id: int, entrant_id: int, points: float) -> None:
    """Move the standings on for a bye (its points, and its knock-on on earlier opponents' tie-breaks)."""
    history = history_of(stage_id, [entrant_id])
    apply(stage_id, scoring.changes_for_bye(entrant_id, points, history))


def recomputed(stage: Stage) -> dict[int, scoring.Row]:
    """Return the stage's rows as a recomputation from its placements and byes gives them."""
    events: list = []
    tables: dict[int, list[Placement]] = defaultdict(list)
    for placement in Placement.objects.filter(table__round__stage=stage).order_by("table__round__number",
                                                                                   "table_id", "seat"):
        tables[placement.table_id].append(placement)
    events.extend(outcome_of(placements) for placements in tables.values())
    events.extend(scoring.Bye(player=bye.entrant_id, points=bye.points)
                  for bye in Bye.objects.filter(round__stage=stage))
    entrants = Standing.objects.filter(stage=stage).values_list("entrant_id", flat=True)
    return scoring.from_scratch(events, entrants)


def differences(stage: Stage) -> list[str]:
    """Return each column where the kept rows differ from a recomputation (none when they agree)."""
    kept = {row.entrant_id: as_row(row) for row in Standing.objects.filter(stage=stage)}
    fresh = recomputed(stage)
    found = []
    for entrant_id, row in kept.items():
        again = fresh.get(entrant_id, scoring.Row())
        for column in COLUMNS:
            if abs(getattr(row, column) - getattr(again, column)) > 1e-6:
                found.append(f"entrant {entrant_id}: {column} kept {getattr(row, column)}, "
                             f"recomputed {getattr(again, column)}")
    return found
