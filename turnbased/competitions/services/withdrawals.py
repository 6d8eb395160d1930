"""Withdrawing an entrant, whoever decides it (themselves, the organiser, a timeout, the requirements checked again),
and telling them when it was not their own choice. Called under the competition's row lock.

A game in play whose every person still at the table has withdrawn is closed at once (``table_abandoned``, queued
when the withdrawal commits): nobody is left to play it for the competition, and its round must not wait for its
deadline. Every player at it loses; a game with a player still in the competition goes on.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from games.base import ALL_LOSE
from turnbased.competitions import selectors
from turnbased.competitions.models import Competition, Entrant, EntrantStatus, EventTable, Settled, TableStatus
from turnbased.competitions.services import ladders
from turnbased.competitions.signals import entrant_removed
from turnbased.events.models import EventKind
from turnbased.events.services import NewEvent, events_record
from turnbased.kit.db import dispatch
from turnbased.play.models import GameStatus
from turnbased.play.services import game_decide

ABANDONED_TASK = "turnbased.competitions.tasks.table_abandoned"


def withdraw(competition: Competition, entrant: Entrant, because: str) -> None:
    """Withdraw the entrant: paired no more; their place freed (the count kept on the row)."""
    entrant.status, entrant.withdrawn_because, entrant.withdrawn_at = EntrantStatus.WITHDRAWN, because, timezone.now()
    entrant.save(update_fields=["status", "withdrawn_because", "withdrawn_at"])
    Competition.objects.filter(pk=competition.pk).update(entrant_count=F("entrant_count") - 1)
    competition.entrant_count -= 1
    if competition.ladder:
        ladders.entrant_left(competition, entrant)
    for table in _playing_tables_of(entrant):
        if _everyone_left_withdrew(table):
            dispatch.after_commit(ABANDONED_TASK, table.pk)


def _playing_tables_of(entrant: Entrant) -> list[EventTable]:
    return list(EventTable.objects.filter(round__stage__competition_id=entrant.competition_id,
                                          status=TableStatus.PLAYING, players__contains=[entrant.pk],
                                          game__status=GameStatus.ACTIVE)
                .select_related("game").prefetch_related("game__seats"))


def _everyone_left_withdrew(table: EventTable) -> bool:
    """Tell whether every person still at the table's game (a seat of theirs no bot took) has withdrawn from the
    competition; False when nobody is (bots play every seat: they finish it by themselves)."""
    people = {seat.user_id for seat in table.game.seats.all() if seat.user_id and not seat.bot}
    if not people:
        return False
    return not Entrant.objects.filter(competition_id=table.round.stage.competition_id, user_id__in=people,
                                      status=EntrantStatus.ACTIVE).exists()


def table_abandoned(*, table_id: int) -> bool:
    """Close a table whose every person still at it has withdrawn: its game ends now, every player losing
    (``play.services.game_decide``), and is recorded as any finished game (``results.table_finished``); return
    whether it was closed. Nothing for a table that finished meanwhile, or at which someone still in the
    competition sits (idempotent)."""
    table = (EventTable.objects.select_related("game", "round__stage").prefetch_related("game__seats")
             .filter(pk=table_id).first())
    if table is None or table.status != TableStatus.PLAYING or table.game is None \
            or table.game.status != GameStatus.ACTIVE or not _everyone_left_withdrew(table):
        return False
    with transaction.atomic():
        # Marked first, so the record of the game's end says why it stopped (a game its players end meanwhile
        # is marked as played: ``results.table_finished``).
        EventTable.objects.filter(pk=table.pk, status=TableStatus.PLAYING).update(settled=Settled.ABANDONED)
    game_decide(game_id=table.game_id, how=ALL_LOSE)
    return True


def told_removed(competition: Competition, entrant: Entrant) -> None:
    """Tell an entrant they were withdrawn by someone or something else (stream, webhooks, email)."""
    events_record(events=[NewEvent(user_id=entrant.user_id, kind=EventKind.COMPETITION_REMOVED, payload={
        "competition": selectors.summary(competition), "because": entrant.withdrawn_because})])
    entrant_removed.send(sender=Entrant, competition=competition, entrant=entrant)
