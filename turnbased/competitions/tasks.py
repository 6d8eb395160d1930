"""Competitions' tasks: a competition started, a round's games made, a round closed, and the minute sweep that
queues whatever a lost or killed task left undone. Each takes ids and is idempotent (``services.rounds``)."""

from __future__ import annotations

from celery import shared_task

from turnbased.competitions.services import rounds, withdrawals
from turnbased.kit.db import dispatch


@shared_task(soft_time_limit=110, time_limit=120)
def competition_start(competition_id: int) -> bool:
    return rounds.competition_start(competition_id=competition_id) is not None


@shared_task(soft_time_limit=540, time_limit=600)
def round_open(round_id: int) -> int:
    """Make a round's games in batches (a round of 500 tables takes a few seconds of a worker)."""
    return rounds.round_open(round_id=round_id)


@shared_task(soft_time_limit=110, time_limit=120)
def round_close(round_id: int) -> bool:
    return rounds.round_close(round_id=round_id) is not None


@shared_task(soft_time_limit=110, time_limit=120)
def round_deadline(round_id: int) -> int:
    return rounds.round_deadline(round_id=round_id)


@shared_task(soft_time_limit=50, time_limit=60)
def table_abandoned(table_id: int) -> bool:
    return withdrawals.table_abandoned(table_id=table_id)


@shared_task(soft_time_limit=50, time_limit=60)
def sweep_competitions() -> dict[str, int]:
    """Recheck the requirements of competitions starting within a day, and queue the competitions due to start,
    the rounds still opening (a worker killed halfway), the rounds whose games have all finished (a lost close),
    the rounds past their deadline and the tables every player left at had withdrawn from; return how many of
    each."""
    rechecked = rounds.requirements_due_rechecked()
    due = rounds.due_work()
    for competition_id in due["starting"]:
        dispatch.queue("turnbased.competitions.tasks.competition_start", [competition_id])
    for round_id in due["opening"]:
        dispatch.queue("turnbased.competitions.tasks.round_open", [round_id])
    for round_id in due["closing"]:
        dispatch.queue("turnbased.competitions.tasks.round_close", [round_id])
    for round_id in due["late"]:
        dispatch.queue("turnbased.competitions.tasks.round_deadline", [round_id])
    for table_id in due["abandoned"]:
        dispatch.queue("turnbased.competitions.tasks.table_abandoned", [table_id])
    return {"rechecked": rechecked, **{name: len(ids) for name, ids in due.items()}}
