"""Clocks: start them, charge thinking time after each move, stop them for absences, find the overdue.

Deadlines are stored so the sweep can find them with an index; they are
recomputed whenever what they depend on changes (a move, an absence).
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from django.db import transaction
from django.utils import timezone

from turnbased.accounts.models import profile_of
from turnbased.clocks.arithmetic import DAY, counted_seconds, deadline_after
from turnbased.clocks.models import Absence, ClockKind, ExpiryPolicy, SeatClock, TableClock
from turnbased.play.errors import InvalidRequest
from turnbased.play.models import Game, GameStatus, MoveSource, Seat

DAYS_PER_MOVE = (1, 2, 3, 5, 7, 14)
MAX_CLOCK_DAYS = 60
PEOPLE = (MoveSource.WEB, MoveSource.API, MoveSource.EMAIL)


def now() -> datetime:
    return timezone.now()


# -- table clocks ----------------------------------------------------------------


def table_clock_create(*, game: Game, settings: dict | None) -> TableClock:
    """Validate a table's time control (a dict from a form or the API) and store it."""
    settings = dict(settings or {})
    unknown = set(settings) - {"kind", "days_per_move", "bank_days", "increment_days", "weekends_off",
                               "allow_absence", "expiry"}
    if unknown:
        raise InvalidRequest(f"Unknown time control setting(s): {', '.join(sorted(unknown))}.")
    for field in ("days_per_move", "bank_days", "increment_days"):
        value = settings.get(field, 0)
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_CLOCK_DAYS:
            raise InvalidRequest(f"{field} must be a whole number of days from 0 to {MAX_CLOCK_DAYS}.")
    clock = TableClock(game=game, **settings)
    if clock.kind not in ClockKind.values:
        raise InvalidRequest(f"time control kind must be one of {', '.join(ClockKind.values)}.")
    if clock.expiry not in ExpiryPolicy.values:
        raise InvalidRequest(f"expiry must be one of {', '.join(ExpiryPolicy.values)}.")
    if clock.kind == ClockKind.PER_MOVE and clock.days_per_move not in DAYS_PER_MOVE:
        raise InvalidRequest(f"days_per_move must be one of {', '.join(map(str, DAYS_PER_MOVE))}.")
    if clock.kind == ClockKind.BANK:
        if not (isinstance(clock.bank_days, int) and 1 <= clock.bank_days <= 60):
            raise InvalidRequest("bank_days must be 1 to 60.")
        if not (isinstance(clock.increment_days, int) and 0 <= clock.increment_days <= clock.bank_days):
            raise InvalidRequest("increment_days must be 0 to bank_days.")
    for flag in ("weekends_off", "allow_absence"):
        if not isinstance(getattr(clock, flag), bool):
            raise InvalidRequest(f"{flag} must be true or false.")
    clock.save()
    return clock


def table_clock_of(game: Game) -> TableClock:
    try:
        return game.clock
    except TableClock.DoesNotExist:
        return TableClock(game=game, kind=ClockKind.NONE)


# -- absences --------------------------------------------------------------------


def _local_midnight(day: date, zone: str) -> datetime:
    return datetime.combine(day, time(), tzinfo=ZoneInfo(zone))


def absence_intervals(user) -> list[tuple[datetime, datetime]]:
    """Return the user's absences as aware intervals (an absence ended early stops there)."""
    zone = profile_of(user).time_zone
    intervals = []
    for absence in Absence.objects.filter(user=user):
        start = _local_midnight(absence.starts_on, zone)
        end = _local_midnight(absence.ends_on + timedelta(days=1), zone)
        if absence.ended_at is not None:
            end = min(end, absence.ended_at)
        if end > start:
            intervals.append((start, end))
    return intervals


def local_today(user) -> date:
    return now().astimezone(ZoneInfo(profile_of(user).time_zone)).date()


def away_until(user) -> date | None:
    """Return the last day of the user's current absence, or None when they are not away."""
    moment = now()
    zone = profile_of(user).time_zone
    for absence in Absence.objects.filter(user=user, ended_at=None):
        if _local_midnight(absence.starts_on, zone) <= moment < _local_midnight(absence.ends_on + timedelta(days=1), zone):
            return absence.ends_on
    return None


def absence_days_used(user, year: int) -> int:
    used = 0
    for absence in Absence.objects.filter(user=user, starts_on__year__lte=year, ends_on__year__gte=year):
        first = max(absence.starts_on, date(year, 1, 1))
        last = min(absence.ends_on, date(year, 12, 31))
        if absence.ended_at is not None:
            last = min(last, absence.ended_at.date())
        used += max(0, (last - first).days + 1)
    return used


def absence_declare(*, user, starts_on: date, ends_on: date) -> Absence:
    """Declare an absence from the yearly allowance; clocks stop in every game that allows it."""
    today = local_today(user)
    if ends_on < starts_on:
        raise InvalidRequest("An absence must end on or after the day it starts.")
    if starts_on < today:
        raise InvalidRequest("An absence cannot start in the past.")
    if starts_on > today + timedelta(days=366):
        raise InvalidRequest("An absence can be declared at most a year ahead.")
    if starts_on.year != ends_on.year:
        raise InvalidRequest("Declare an absence that crosses New Year as two absences, one per year.")
    overlapping = Absence.objects.filter(user=user, ended_at=None, starts_on__lte=ends_on, ends_on__gte=starts_on)
    if overlapping.exists():
        raise InvalidRequest("That overlaps an absence you already declared.")
    allowance = profile_of(user).absence_allowance_days
    used = absence_days_used(user, starts_on.year)
    wanted = (ends_on - starts_on).days + 1
    if used + wanted > allowance:
        raise InvalidRequest(
            f"That is {wanted} days; you have {allowance - used} of your {allowance} days left in {starts_on.year}."
        )
    with transaction.atomic():
        absence = Absence.objects.create(user=user, starts_on=starts_on, ends_on=ends_on)
        refresh_deadlines(user=user)
    return absence


def absence_end(*, user) -> bool:
    """End the user's current absence now (they are back); return whether there was one."""
    if away_until(user) is None:
        return False
    moment = now()
    with transaction.atomic():
        zone = profile_of(user).time_zone
        for absence in Absence.objects.filter(user=user, ended_at=None):
            if _local_midnight(absence.starts_on, zone) <= moment:
                absence.ended_at = moment
                absence.save(update_fields=["ended_at"])
        refresh_deadlines(user=user)
    return True


def absence_cancel(*, user, absence_id: int) -> None:
    """Withdraw an absence that has not started yet."""
    absence = Absence.objects.filter(user=user, pk=absence_id, ended_at=None).first()
    if absence is None:
        raise InvalidRequest("No such absence.")
    if absence.starts_on <= local_today(user):
        raise InvalidRequest("That absence has started; come back instead (any move ends it).")
    with transaction.atomic():
        absence.delete()
        refresh_deadlines(user=user)


# -- seat clocks -----------------------------------------------------------------


def _seat_user(game: Game, index: int):
    seat = next((s for s in game.seats.all() if s.index == index), None)
    return seat.user if seat is not None and seat.user_id and not seat.bot else None


def _budget(table: TableClock, clock: SeatClock) -> float:
    return table.days_per_move * DAY if table.kind == ClockKind.PER_MOVE else clock.bank_seconds


def _counting(table: TableClock, user) -> dict:
    """Return how a player's time is counted: their zone, weekends, and their absences if the table allows."""
    if user is None:
        return {"zone": "UTC", "weekends_off": False, "pauses": []}
    return {
        "zone": profile_of(user).time_zone,
        "weekends_off": table.weekends_off,
        "pauses": absence_intervals(user) if table.allow_absence else [],
    }


def _set_deadline(table: TableClock, clock: SeatClock, user) -> None:
    if table.kind == ClockKind.NONE or clock.turn_started_at is None:
        clock.deadline = None
        return
    clock.deadline = deadline_after(clock.turn_started_at, _budget(table, clock), **_counting(table, user))


def clocks_start(*, game: Game) -> None:
    """Give every seat its clock as the game starts and start the clocks of the seats to move."""
    table = table_clock_of(game)
    moment = now()
    for seat in game.seats.all():
        clock = SeatClock(game=game, seat=seat.index, bank_seconds=table.bank_days * DAY)
        if seat.index in game.to_move:
            clock.turn_started_at = moment
            _set_deadline(table, clock, _seat_user(game, seat.index))
        clock.save()


def clocks_after_move(*, game: Game, mover: int, source: str) -> None:
    """Charge the mover's thinking time, stop clocks not to move, start the clocks now to move."""
    table = table_clock_of(game)
    moment = now()
    for clock in SeatClock.objects.select_for_update().filter(game=game):
        user = _seat_user(game, clock.seat)
        if clock.seat == mover:
            if clock.turn_started_at is not None and table.kind == ClockKind.BANK:
                used = counted_seconds(clock.turn_started_at, moment, **_counting(table, user))
                clock.bank_seconds = min(table.bank_days * DAY, clock.bank_seconds - used + table.increment_days * DAY)
            clock.turn_started_at = None
            if source in PEOPLE:
                clock.timeouts_in_row = 0
        if game.status != GameStatus.ACTIVE or clock.seat not in game.to_move:
            clock.turn_started_at = None
        elif clock.turn_started_at is None:
            clock.turn_started_at = moment
        _set_deadline(table, clock, user)
        clock.save()
    if source in PEOPLE:
        seat = next((s for s in game.seats.all() if s.index == mover), None)
        if seat is not None and seat.user_id:
            absence_end(user=seat.user)  # moving during an absence ends it


def refresh_deadlines(*, user) -> None:
    """Recompute the running deadlines of the user's active games (after an absence changed)."""
    for seat in Seat.objects.filter(user=user, game__status=GameStatus.ACTIVE, bot="").select_related("game"):
        table = table_clock_of(seat.game)
        for clock in SeatClock.objects.filter(game=seat.game, seat=seat.index, turn_started_at__isnull=False):
            _set_deadline(table, clock, user)
            clock.save(update_fields=["deadline"])


def remaining_seconds(table: TableClock, clock: SeatClock, user) -> float | None:
    """Return the counted time the seat has left (None without a clock)."""
    if table.kind == ClockKind.NONE:
        return None
    budget = _budget(table, clock)
    if clock.turn_started_at is None:
        return budget
    return max(0.0, budget - counted_seconds(clock.turn_started_at, now(), **_counting(table, user)))


def clock_summaries(game: Game) -> list[dict]:
    """Return each seat's clock as players may see it: time left, deadline, and absence."""
    table = table_clock_of(game)
    clocks = {clock.seat: clock for clock in SeatClock.objects.filter(game=game)}
    rows = []
    for seat in game.seats.all():
        clock = clocks.get(seat.index)
        user = seat.user if seat.user_id and not seat.bot else None
        away = away_until(user) if user is not None and table.allow_absence else None
        rows.append({
            "seat": seat.index,
            "running": bool(clock and clock.turn_started_at),
            "deadline": clock.deadline if clock else None,
            "remaining_seconds": remaining_seconds(table, clock, user) if clock else None,
            "away_until": away,
            "bot": seat.bot or None,
            "timeouts_in_row": clock.timeouts_in_row if clock else 0,
        })
    return rows


def format_duration(seconds: float | None) -> str:
    if seconds is None:
        return ""
    seconds = int(seconds)
    days, rest = divmod(seconds, DAY)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    if days:
        return f"{days}d {hours}h"
    if hours:
        return f"{hours}h {minutes}m"
    return f"{minutes}m"
