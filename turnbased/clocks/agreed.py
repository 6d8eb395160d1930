"""Time the players of a table agree to (docs/players.md, "Agreements at the table"): a pause of every clock at the
table for some days, and extra time for one seat's current or next turn. The agreements feature carries them when
everyone has agreed, under the game's row lock; what the clock's rules refuse is said here, for it to ask first."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db.models import F
from django.utils.translation import gettext

from turnbased.clocks.arithmetic import DAY
from turnbased.clocks.models import ClockKind, SeatClock, TableClock
from turnbased.clocks.services import game_deadlines_refresh, now, table_clock_of, table_pauses
from turnbased.play import store
from turnbased.play.models import Game

# The longest pause and the most extra time one agreement gives, in days.
PAUSE_DAYS_MOST = 14
EXTRA_DAYS_MOST = 7


def paused_until(table: TableClock) -> datetime | None:
    """Return when the agreed pause the table is in now ends, or None when its clocks are not paused."""
    moment = now()
    ends = [end for start, end in table_pauses(table) if start <= moment < end]
    return max(ends) if ends else None


def pause_refusal(game: Game) -> str | None:
    """Why the table's clocks may not be paused now (in the reader's language), or None when they may."""
    table = table_clock_of(game)
    if table.kind == ClockKind.NONE:
        return gettext("This table has no clock, so there is no time to pause.")
    if not table.allow_absence:
        return gettext("This table's clock never stops: its creator allowed no absences, so it cannot be paused.")
    until = paused_until(table)
    if until is not None:
        return gettext("This table is paused already, until %(when)s (UTC).") % {
            "when": until.strftime("%Y-%m-%d %H:%M")}
    return None


def extra_time_refusal(game: Game) -> str | None:
    """Why no seat at the table may be given extra time (in the reader's language), or None when one may."""
    if table_clock_of(game).kind == ClockKind.NONE:
        return gettext("This table has no clock, so there is no time to give.")
    return None


def clocks_pause(*, game: Game, days: int) -> datetime:
    """Stop every clock at the table from now for ``days`` days; return when they run again. Each running deadline
    moves out by the pause. Call under the game's row lock."""
    table = table_clock_of(game)
    start = now()
    end = start + timedelta(days=days)
    table.pauses = [*(table.pauses or []), [start.isoformat(), end.isoformat()]]
    table.save(update_fields=["pauses"])
    game_deadlines_refresh(game=game)
    store.touch(game)  # a move waiting for the lock reads the clocks as they are now
    return end


def clock_extra_time(*, game: Game, seat: int, days: int) -> None:
    """Give ``seat`` ``days`` days more for its current turn, or its next one when it is not to move; its deadline
    moves out if its clock runs. Call under the game's row lock."""
    SeatClock.objects.filter(game=game, seat=seat).update(extra_seconds=F("extra_seconds") + days * DAY)
    game_deadlines_refresh(game=game)
    store.touch(game)  # a move waiting for the lock reads the clocks as they are now
