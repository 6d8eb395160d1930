"""Celery tasks for play: bots take their turns a moment after the position is theirs."""

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
