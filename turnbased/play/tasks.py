"""Celery tasks for play: bots take their turns a moment after the position is theirs, forced moves when their
player would have (``services.forced_timing``)."""

from __future__ import annotations

import logging

from celery import shared_task
from django.conf import settings

from turnbased.play import services

logger = logging.getLogger(__name__)


@shared_task
def play_bot_turn(game_id: int, seq: int) -> int:
    """Play position ``seq`` for the bots to move (nothing if the game moved on: the task is idempotent)."""
    return len(services.play_bot_turn(game_id=game_id, seq=seq))


def enqueue_bot_turn(game_id: int, seq: int) -> None:
    """Queue a bot turn after the configured pause; the clock sweep re-queues it if the broker is down."""
    try:
        play_bot_turn.apply_async((game_id, seq), countdown=settings.BOT_MOVE_DELAY_SECONDS)
    except Exception:
        logger.warning("could not queue the bot turn for game %s at %s; the sweep will", game_id, seq, exc_info=True)


# One move and its notifications: far under a second. The limits only stop a stuck query holding the worker.
@shared_task(soft_time_limit=30, time_limit=45)
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
