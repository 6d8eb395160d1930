"""Celery tasks for play: bots take their turns a moment after the position is theirs, forced moves when their
player would have (``services.forced_timing``)."""

from __future__ import annotations

import logging

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.db import InterfaceError, OperationalError

from turnbased.play import services

logger = logging.getLogger(__name__)


# A bot turn is tried again, a second later and then after 2, 4, 8 ... (at most 8) seconds, when its pool process
# dies under it (Celery acknowledges such a task as failed otherwise, and it would wait for the clock sweep) or
# PostgreSQL is away or restarting (issue 42): within seconds of either's return. Eight tries cover about 45 s
# of an outage; after that the dispatcher, which queues every waiting bot turn when its LISTEN connection is
# back, and the clock sweep take over. Trying again is safe: a try that failed changed nothing, and a try plays
# only position ``seq``. One move: far under a second; the limits only stop a stuck query holding the worker.
RETRIED = {"autoretry_for": (OperationalError, InterfaceError), "retry_backoff": 1, "retry_backoff_max": 8,
           "retry_jitter": False, "retry_on_worker_lost": True, "default_retry_delay": 1, "max_retries": 8,
           "soft_time_limit": 30, "time_limit": 45}


# A strong bot's search is bounded in engine steps, under two seconds of one core (benchmarks/bots.py). One that
# runs five times longer is stuck (an engine slowed by a pathological position, a starved machine): it is stopped,
# and the game's basic bot plays the turn in the time left before the hard limit.
BOT_TURN = {**RETRIED, "soft_time_limit": 10, "time_limit": 25}


@shared_task(**BOT_TURN)
def play_bot_turn(game_id: int, seq: int) -> int:
    """Play position ``seq`` for the bots to move (nothing if the game moved on: the task is idempotent)."""
    try:
        return len(services.play_bot_turn(game_id=game_id, seq=seq))
    except SoftTimeLimitExceeded:
        logger.warning("a bot's search in game %s at move %s ran out of time: the basic bot plays the turn",
                       game_id, seq)
        return len(services.play_bot_turn(game_id=game_id, seq=seq, plain=True))


# Tried again as a bot turn is (a forced move of a bot account's seat comes within seconds, like its program's).
@shared_task(**RETRIED)
def play_forced_move(game_id: int, seq: int) -> bool:
    """Play position ``seq``'s only legal move for its seat if its moment has come, drawing the moment first
    (idempotent: a repeat, an early run, or a position played since, changes nothing but the drawn moment).
    Returns whether a move was played."""
    return services.play_forced_move(game_id=game_id, seq=seq) is not None


def enqueue_forced_move(game_id: int, seq: int, *, countdown: float = 0) -> None:
    """Queue a forced move's task (``countdown`` seconds from now); its ``ForcedMoveDue`` row lets the clock sweep
    queue it again if this fails."""
    try:
        play_forced_move.apply_async((game_id, seq), countdown=countdown or None)
    except Exception:
        logger.warning("could not queue the forced move of game %s at %s; the sweep will", game_id, seq,
                       exc_info=True)
