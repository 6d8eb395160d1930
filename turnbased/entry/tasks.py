"""Fair entry's tasks: a person whose seat a bot took leaves the tables they wait to start, and the minute sweep
that does it for anyone whose task was lost (the broker down when it was queued)."""

from __future__ import annotations

from celery import shared_task

from turnbased.entry import services


@shared_task(soft_time_limit=50, time_limit=60)
def leave_waiting_tables(user_id: int) -> list[int]:
    """Idempotent: a second run finds no table to leave."""
    return services.waiting_tables_leave(user_id=user_id)


@shared_task(soft_time_limit=50, time_limit=60)
def sweep_tables_left_waiting() -> int:
    """Take out of their tables everyone who still sits at one they should have left (their task was lost on the
    way: the dispatcher or the broker was down); return how many people. Idempotent, as the task is."""
    people = services.people_waiting_to_leave()
    for user_id in people:
        services.waiting_tables_leave(user_id=user_id)
    return len(people)
