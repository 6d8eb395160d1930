"""Once a minute: act on expired deadlines, send reminders, restart stalled bot turns, queue forced moves coming due.

Each late seat is re-checked under the game's row lock by ``play_timeout``,
so two sweeps running at once (or one running twice) act once. Each game is
handled on its own: one that fails (a broken log, an engine error) is logged
and counted, and the sweep goes on to the others; the next sweep tries it again.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.db import transaction

from turnbased.accounts.models import profile_of
from turnbased.clocks.models import SeatClock
from turnbased.clocks.services import now
from turnbased.events.models import EventKind
from turnbased.events.services import NewEvent, events_record
from turnbased.play import facts
from turnbased.play.models import GameStatus

FAILED = "failed"  # the outcome of a game whose handling raised (logged with its traceback)

logger = logging.getLogger(__name__)


def late_seats() -> list[tuple[int, int]]:
    return list(
        SeatClock.objects.filter(deadline__lte=now(), turn_started_at__isnull=False, game__status=GameStatus.ACTIVE)
        .order_by("deadline")
        .values_list("game_id", "seat")[:200]
    )


def send_reminders() -> int:
    """Record one reminder per deadline for players whose deadline is within their chosen lead time."""
    sent = 0
    moment = now()
    for clock in SeatClock.objects.filter(
        deadline__gt=moment, turn_started_at__isnull=False, game__status=GameStatus.ACTIVE
    ).select_related("game"):
        seat = clock.game.seats.filter(index=clock.seat, bot="").exclude(user=None).select_related("user").first()
        if seat is None or clock.reminded_for == clock.deadline:
            continue
        lead = profile_of(seat.user).reminder_lead_hours
        if not lead or clock.deadline - timedelta(hours=lead) > moment:
            continue
        try:
            sent += _remind(clock, seat)
        except Exception:
            logger.exception("reminder for game %s seat %s failed; the next sweep tries again", clock.game_id,
                             clock.seat)
    return sent


def _remind(clock: SeatClock, seat) -> int:
    """Record the reminder of one deadline, once (re-checked under the clock's row lock), and the player's
    ``deadline_near`` event; return 1 if recorded."""
    with transaction.atomic():
        locked = SeatClock.objects.select_for_update().get(pk=clock.pk)
        if locked.reminded_for == locked.deadline:
            return 0
        facts.tell(facts.DeadlineNear(game=clock.game, seq=clock.game.seq, user_id=seat.user_id))
        locked.reminded_for = locked.deadline
        locked.save(update_fields=["reminded_for"])
        game = clock.game
        events_record(events=[NewEvent(
            user_id=seat.user_id, kind=EventKind.DEADLINE_NEAR, game_id=game.pk, seq=game.seq,
            payload={"name": game.title, "engine": game.engine, "seat": clock.seat, "deadline": locked.deadline},
        )])
    return 1


def run() -> dict:
    from turnbased.play import services
    from turnbased.play.services import forced_moves
    from turnbased.play.tasks import enqueue_forced_move

    outcomes = []
    for game_id, seat in late_seats():
        try:
            outcomes.append(services.play_timeout(game_id=game_id, seat=seat))
        except Exception:
            logger.exception("the late turn of game %s seat %s failed; the next sweep tries again", game_id, seat)
            outcomes.append(FAILED)
    # A bot turn whose task was lost where nobody saw it (the dispatcher, the broker and the workers queue the
    # waiting ones again at once when they come back: services.bot_turns). Never raises for a broker outage.
    services.queue_bot_turns_waiting(waiting_longer_than=timedelta(seconds=settings.BOT_STALL_SECONDS))
    forced_moves.back_early()
    for game_id, seq, countdown in forced_moves.to_queue():  # forced moves coming due, and any whose task was lost
        enqueue_forced_move(game_id, seq, countdown=countdown)
    return {"timeouts": outcomes, "reminders": send_reminders()}
