"""The clock sweep: late turns, reminders, and bot turns whose task was lost."""

from __future__ import annotations

from celery import shared_task

from turnbased.clocks import sweep


@shared_task
def sweep_clocks() -> dict:
    return sweep.run()
