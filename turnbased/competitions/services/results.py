"""What a competition's table records as its game ends: each entrant's place and points, the standings moved on
(a duplicate round's when it closes: ``duplicates``), and the round closed once its last game is over; a player who
ran out of time is withdrawn from the rounds to come.

Both run in the transaction that ends the game or hands the seat on (``reactions``), under the round's row lock:
two games of a round ending at once record one after the other, and the one that ends the round queues its close.
"""

from __future__ import annotations

from django.utils import timezone

from games.base import ADJUDICATED, ALL_LOSE
from turnbased.competitions.models import (
    Competition, Entrant, EntrantStatus, EventTable, Format, Settled, TableStatus, WithdrawnBecause,
)
from turnbased.competitions.services import ladders
from turnbased.competitions.services.locks import round_locked
from turnbased.competitions.services.outcomes import outcome_recorded
from turnbased.competitions.services.entries import timeout_forgiven, timeout_recorded
from turnbased.competitions.services.withdrawals import told_removed, withdraw
from turnbased.kit.db import dispatch
from turnbased.play.models import Game

CLOSE_TASK = "turnbased.competitions.tasks.round_close"


def table_finished(*, table: EventTable, game: Game) -> None:
    """Record the finished game of a competition's table (``table`` read under its round's lock by the caller)."""
    if table.status == TableStatus.FINISHED:
        return
    played = round_locked(table.round_id)
    decided = (game.result or {}).get("decided")
    if decided == ADJUDICATED:  # the round's deadline stopped it, as the competition's policy says
        table.settled = Settled.ADJUDICATED
    elif decided == ALL_LOSE:  # so, or everyone left at it had withdrawn (``withdrawals.table_abandoned``)
        table.settled = Settled.ABANDONED if table.settled == Settled.ABANDONED else Settled.ALL_LOST
    elif table.settled == Settled.ABANDONED:  # its players ended it before it was stopped
        table.settled = Settled.PLAYED
    table.status = TableStatus.FINISHED
    table.save(update_fields=["status", "settled"])
    ladder = played.stage.format == Format.LADDER
    if not played.stage.duplicate:  # a duplicate round's results count when it closes (``duplicates``)
        places = outcome_recorded(played, table, game)
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
