"""What a competition's table records as its game ends: each entrant's place and points, the standings moved on,
and the round closed once its last game is over; a player who ran out of time is withdrawn from the rounds to come.

Both run in the transaction that ends the game or hands the seat on (``reactions``), under the round's row lock:
two games of a round ending at once record one after the other, and the one that ends the round queues its close.
"""

from __future__ import annotations

from django.utils import timezone

from games.base import ADJUDICATED, ALL_LOSE
from turnbased.competitions import scoring, standings
from turnbased.competitions.models import (
    Competition, Entrant, EntrantStatus, EventTable, Format, Placement, Settled, TableStatus, WithdrawnBecause,
)
from turnbased.competitions.services import ladders
from turnbased.competitions.services.rounds import round_locked
from turnbased.competitions.services.entries import timeout_forgiven, timeout_recorded
from turnbased.competitions.services.withdrawals import told_removed, withdraw
from turnbased.kit.db import dispatch
from turnbased.play.models import Game
from turnbased.ratings.selectors import final_places

CLOSE_TASK = "turnbased.competitions.tasks.round_close"


def _numbers(values, count: int) -> tuple[float, ...] | None:
    if not isinstance(values, list) or len(values) != count:
        return None
    if any(not isinstance(value, (int, float)) or isinstance(value, bool) for value in values):
        return None
    return tuple(float(value) for value in values)


def table_finished(*, table: EventTable, game: Game) -> None:
    """Record the finished game of a competition's table (``table`` read under its round's lock by the caller)."""
    if table.status == TableStatus.FINISHED:
        return
    played = round_locked(table.round_id)
    competition = played.stage.competition
    count = len(table.players)
    places = final_places(game)
    points = scoring.place_points(places, scoring.points_table(count, competition.points))
    decided = (game.result or {}).get("decided")
    if decided == ADJUDICATED:  # the round's deadline stopped it, as the competition's policy says
        table.settled = Settled.ADJUDICATED
    elif decided == ALL_LOSE:  # so, or everyone left at it had withdrawn (``withdrawals.table_abandoned``)
        table.settled = Settled.ABANDONED if table.settled == Settled.ABANDONED else Settled.ALL_LOST
    elif table.settled == Settled.ABANDONED:  # its players ended it before it was stopped
        table.settled = Settled.PLAYED
    # A game every player lost was stopped with its count unfinished: it gives no score ratio.
    scores = None if decided == ALL_LOSE else _numbers((game.result or {}).get("scores"), count)
    outcome = scoring.GameOutcome(players=tuple(table.players), places=tuple(places), points=tuple(points),
                                  scores=scores)
    standings.game_recorded(played.stage_id, outcome)
    Placement.objects.bulk_create(
        Placement(table=table, entrant_id=entrant, seat=seat, place=places[seat], points=points[seat],
                  score=None if outcome.scores is None else outcome.scores[seat])
        for seat, entrant in enumerate(table.players))
    table.status = TableStatus.FINISHED
    table.save(update_fields=["status", "settled"])
    ladder = played.stage.format == Format.LADDER
    if ladder:  # a challenge won moves the ladder on, in the order the games finish (this round's lock)
        ladders.result_applied(played.stage, table, places)
    # A game played to its end by the people who sat at it takes one timeout off each of them.
    stayed = [seat.user_id for seat in game.seats.all() if seat.user_id and not seat.bot and seat.left_at is None]
    timeout_forgiven(stayed)
    if ladder and played.deadline > timezone.now():
        return  # a ladder's round stays open until its end
    if not played.tables.exclude(status=TableStatus.FINISHED).exists():
        dispatch.after_commit(CLOSE_TASK, played.pk)


def seat_timed_out(*, table: EventTable, user_id: int) -> None:
    """A bot took the seat of a player who ran out of time at a competition's table: they are withdrawn from the rounds
    to come (the game goes on, the bot playing their seat) and the timeout counts against their next entries."""
    competition = Competition.objects.select_for_update().get(pk=table.round.stage.competition_id)
    entrant = Entrant.objects.filter(competition=competition, user_id=user_id, status=EntrantStatus.ACTIVE).first()
    timeout_recorded(user_id)
    if entrant is None:
        return
    withdraw(competition, entrant, WithdrawnBecause.TIMEOUT)
    told_removed(competition, entrant)
