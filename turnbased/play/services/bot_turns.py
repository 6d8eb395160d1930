"""Bot turns whose task may have been lost, queued again (issue 42).

A bot's turn is a Celery task (``play.tasks.play_bot_turn``) named by the move's commit and queued by the
dispatcher. A fault can lose it: the dispatcher down or restarting (a NOTIFY no one LISTENs to is dropped), the
broker down or restarted empty (what it held, and what a worker had in hand unacknowledged, is gone), a worker
killed with turns in hand (they stay in the broker's unacknowledged set until its visibility timeout, twenty
minutes), PostgreSQL restarted under a turn being played. Whoever learns of such a fault queues every waiting
bot turn again at once: the dispatcher each time its LISTEN is in place and whenever the broker is back, a
worker when it starts. The clock sweep does it for the turns waiting longer than ``BOT_STALL_SECONDS``, for what
nobody saw.

A turn queued twice is played once: ``play_bot_turn`` plays only the position it was queued for, under the
game's row lock. A turn queued again keeps the rest of its pause (``BOT_MOVE_DELAY_SECONDS``), so a bot never
moves sooner than it would have.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from turnbased.kit.db import dispatch
from turnbased.play import selectors
from turnbased.play.services.tables import BOT_TURN_TASK


def queue_bot_turns_waiting(*, waiting_longer_than: timedelta | None = None) -> int:
    """Queue the bot turn of every game in play whose position waits on a bot (of those waiting longer than
    ``waiting_longer_than``, if given), each after what is left of its pause; return how many were queued.

    Stops at the first the broker refuses: it is away, and whoever finds it back queues them all again.
    """
    moment = timezone.now()
    since_before = moment - waiting_longer_than if waiting_longer_than is not None else None
    queued = 0
    for game_id, seq, waiting_since in selectors.bot_turns_waiting(since_before=since_before):
        left = settings.BOT_MOVE_DELAY_SECONDS - (moment - waiting_since).total_seconds()
        if not dispatch.queue(BOT_TURN_TASK, [game_id, seq], countdown=max(0.0, left)):
            break
        queued += 1
    return queued
