"""Clocks: start them, charge thinking time after each move, stop them for absences, find the overdue.

Deadlines are stored so the sweep can find them with an index; they are
recomputed whenever what they depend on changes (a move, an absence).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from django.contrib.postgres.aggregates import JSONBAgg
from django.core.exceptions import ObjectDoesNotExist
from django.db import transaction
from django.db.models import OuterRef, QuerySet, Subquery
from django.db.models.functions import JSONObject
from django.utils import timezone
from django.utils.translation import gettext, ngettext, pgettext

from turnbased.kit.db import one_statement
from turnbased.accounts.models import profile_of
from turnbased.clocks.arithmetic import DAY, counted_seconds, deadline_after
from turnbased.clocks.models import Absence, ClockKind, ExpiryPolicy, SeatClock, StandIn, TableClock
from turnbased.kit.errors import Conflict, InvalidRequest, NotFound, Unprocessable
from turnbased.play.models import Game, GameStatus, MoveSource, Seat

DAYS_PER_MOVE = (1, 2, 3, 5, 7, 14)
MAX_CLOCK_DAYS = 60
# The moves that count as their player's own: sent through a door, or played for them as their only legal move at
# their request (nobody may tell the two apart: ``play.services.forced_moves``).
PEOPLE = (MoveSource.WEB, MoveSource.API, MoveSource.EMAIL, MoveSource.AUTO)


def now() -> datetime:
    return timezone.now()


# -- table clocks ----------------------------------------------------------------


def table_clock_create(*, game: Game, settings: dict | None) -> TableClock:
    """Validate a table's time control (a dict from a form or the API) and store it."""
    clock = time_control_read(settings, game=game)
    clock.save()
    return clock


def time_control_read(settings: dict | None, *, game: Game | None = None) -> TableClock:
    """Return the time control a dict asks for, checked, unsaved (a competition checks its games' clock when it is
    made); refuse a bad one."""
    if settings is not None and not isinstance(settings, dict):
        raise InvalidRequest(gettext("time_control must be an object."))
    settings = dict(settings or {})
    unknown = set(settings) - {"kind", "days_per_move", "bank_days", "increment_days", "weekends_off",
                               "allow_absence", "expiry", "stand_in"}
    if unknown:
        raise InvalidRequest(ngettext("Unknown time control setting: %(names)s.",
                                      "Unknown time control settings: %(names)s.", len(unknown))
                             % {"names": ", ".join(sorted(unknown))})
    for field in ("days_per_move", "bank_days", "increment_days"):
        value = settings.get(field, 0)
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_CLOCK_DAYS:
            raise InvalidRequest(gettext("%(field)s must be a whole number of days from 0 to %(most)s.")
                                 % {"field": field, "most": MAX_CLOCK_DAYS})
    clock = TableClock(game=game, **settings)
    if clock.kind not in ClockKind.values:
        raise InvalidRequest(gettext("time control kind must be one of %(values)s.")
                             % {"values": ", ".join(ClockKind.values)})
    if clock.expiry not in ExpiryPolicy.values:
        raise InvalidRequest(gettext("expiry must be one of %(values)s.") % {"values": ", ".join(ExpiryPolicy.values)})
    if clock.stand_in not in StandIn.values:
        raise InvalidRequest(gettext("stand_in must be one of %(values)s.") % {"values": ", ".join(StandIn.values)})
    if clock.kind == ClockKind.PER_MOVE and clock.days_per_move not in DAYS_PER_MOVE:
        raise InvalidRequest(gettext("days_per_move must be one of %(values)s.")
                             % {"values": ", ".join(map(str, DAYS_PER_MOVE))})
    if clock.kind == ClockKind.BANK:
        if not (isinstance(clock.bank_days, int) and 1 <= clock.bank_days <= 60):
            raise InvalidRequest(gettext("bank_days must be 1 to %(most)s.") % {"most": MAX_CLOCK_DAYS})
        if not (isinstance(clock.increment_days, int) and 0 <= clock.increment_days <= clock.bank_days):
            raise Unprocessable(gettext("increment_days must be 0 to bank_days."))
    for flag in ("weekends_off", "allow_absence"):
        if not isinstance(getattr(clock, flag), bool):
            raise InvalidRequest(gettext("%(field)s must be true or false.") % {"field": flag})
    return clock


def table_clock_of(game: Game) -> TableClock:
    try:
        return game.clock
    except TableClock.DoesNotExist:
        return TableClock(game=game, kind=ClockKind.NONE)


# -- what a player's clock needs to know ----------------------------------------


@dataclass(frozen=True)
class PlayerTime:
    """How a player's time counts: their time zone and their absences (starts_on, ends_on, ended_at)."""

    zone: str
    absences: tuple[tuple[date, date, datetime | None], ...]


# The absences of a seat's player, as one JSON array per seat (read with the seats, in their query).
_ABSENCE_ROWS = "absence_rows"


def seats_with_time(seats: QuerySet[Seat]) -> QuerySet[Seat]:
    """Return ``seats`` loading in the same query what their clocks need: each player's profile and absences."""
    absences = (
        Absence.objects.filter(user=OuterRef("user")).order_by().values("user")
        .annotate(rows=JSONBAgg(JSONObject(starts_on="starts_on", ends_on="ends_on", ended_at="ended_at")))
        .values("rows")
    )
    return seats.select_related("user", "user__profile").annotate(**{_ABSENCE_ROWS: Subquery(absences)})


# A seat clock's columns, read with the seats as ``clock_<column>`` (``seats_with_clocks``).
_CLOCK_COLUMNS = ("id", "bank_seconds", "extra_seconds", "turn_started_at", "deadline", "timeouts_in_row",
                  "reminded_for")


def seats_with_clocks(seats: QuerySet[Seat]) -> QuerySet[Seat]:
    """Return ``seats`` carrying their seat clocks' columns too, read in the same query (``clocks_of_seats``)."""
    clock = SeatClock.objects.filter(game=OuterRef("game"), seat=OuterRef("index"))
    return seats.annotate(**{f"clock_{column}": Subquery(clock.values(column)[:1]) for column in _CLOCK_COLUMNS})


def clocks_of_seats(game: Game, seats: list[Seat]) -> list[SeatClock] | None:
    """Return the seat clocks read with ``seats`` (``seats_with_clocks``), or None when a seat had none."""
    clocks = []
    for seat in seats:
        columns = vars(seat)
        if columns.get("clock_id") is None:
            return None
        clocks.append(SeatClock(game=game, seat=seat.index, **{column: columns[f"clock_{column}"] for column in _CLOCK_COLUMNS}))
    return clocks


def _time_zone(user) -> str:
    try:
        return user.profile.time_zone
    except ObjectDoesNotExist:
        return "UTC"  # the default a profile is created with


def _user_time(user) -> PlayerTime:
    rows = Absence.objects.filter(user=user).values_list("starts_on", "ends_on", "ended_at")
    return PlayerTime(zone=profile_of(user).time_zone, absences=tuple(rows))


def player_time(seat: Seat | None) -> PlayerTime | None:
    """Return how the seat's player's time counts; None for a bot or an empty seat (their time counts plainly).

    Seats read through ``seats_with_time`` carry it; others cost a query or two.
    """
    if seat is None or not seat.user_id or seat.bot:
        return None
    rows = vars(seat).get(_ABSENCE_ROWS, ...)
    if rows is ...:
        return _user_time(seat.user)
    absences = tuple(
        (date.fromisoformat(row["starts_on"]), date.fromisoformat(row["ends_on"]),
         datetime.fromisoformat(row["ended_at"]) if row["ended_at"] else None)
        for row in rows or ()
    )
    return PlayerTime(zone=_time_zone(seat.user), absences=absences)


def _local_midnight(day: date, zone: str) -> datetime:
    return datetime.combine(day, time(), tzinfo=ZoneInfo(zone))


def _intervals(player: PlayerTime) -> list[tuple[datetime, datetime]]:
    intervals = []
    for starts_on, ends_on, ended_at in player.absences:
        start = _local_midnight(starts_on, player.zone)
        end = _local_midnight(ends_on + timedelta(days=1), player.zone)
        if ended_at is not None:
            end = min(end, ended_at)
        if end > start:
            intervals.append((start, end))
    return intervals


def _away_until(player: PlayerTime, moment: datetime) -> date | None:
    for starts_on, ends_on, ended_at in sorted(player.absences):
        if ended_at is None and (
            _local_midnight(starts_on, player.zone) <= moment < _local_midnight(ends_on + timedelta(days=1), player.zone)
        ):
            return ends_on
    return None


# -- absences --------------------------------------------------------------------


def absence_intervals(user) -> list[tuple[datetime, datetime]]:
    """Return the user's absences as aware intervals (an absence ended early stops there)."""
    return _intervals(_user_time(user))


def local_today(user) -> date:
    return now().astimezone(ZoneInfo(profile_of(user).time_zone)).date()


def away_until(user) -> date | None:
    """Return the last day of the user's current absence, or None when they are not away."""
    return _away_until(_user_time(user), now())


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
        raise Unprocessable(gettext("An absence must end on or after the day it starts."))
    if starts_on < today:
        raise Unprocessable(gettext("An absence cannot start in the past."))
    if starts_on > today + timedelta(days=366):
        raise Unprocessable(gettext("An absence can be declared at most a year ahead."))
    if starts_on.year != ends_on.year:
        raise Unprocessable(gettext("Declare an absence that crosses New Year as two absences, one per year."))
    overlapping = Absence.objects.filter(user=user, ended_at=None, starts_on__lte=ends_on, ends_on__gte=starts_on)
    if overlapping.exists():
        raise Conflict(gettext("That overlaps an absence you already declared."))
    allowance = profile_of(user).absence_allowance_days
    used = absence_days_used(user, starts_on.year)
    wanted = (ends_on - starts_on).days + 1
    if used + wanted > allowance:
        raise Unprocessable(_over_allowance(wanted=wanted, left=allowance - used, allowance=allowance,
                                             year=starts_on.year))
    with transaction.atomic():
        absence = Absence.objects.create(user=user, starts_on=starts_on, ends_on=ends_on)
        refresh_deadlines(user=user)
    return absence


def _over_allowance(*, wanted: int, left: int, allowance: int, year: int) -> str:
    """Say that an absence of ``wanted`` days is more than the ``left`` of the year's ``allowance``: two
    sentences, each with its own count."""
    asked = ngettext("That is %(count)s day.", "That is %(count)s days.", wanted) % {"count": wanted}
    remaining = ngettext("You have %(left)s of your %(allowance)s day left in %(year)s.",
                         "You have %(left)s of your %(allowance)s days left in %(year)s.",
                         allowance) % {"left": left, "allowance": allowance, "year": year}
    return f"{asked} {remaining}"


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
        raise NotFound(gettext("No such absence."))
    if absence.starts_on <= local_today(user):
        raise Conflict(gettext("That absence has started; come back instead (any move ends it)."))
    with transaction.atomic():
        absence.delete()
        refresh_deadlines(user=user)


# -- seat clocks -----------------------------------------------------------------


def _budget(table: TableClock, clock: SeatClock) -> float:
    base = table.days_per_move * DAY if table.kind == ClockKind.PER_MOVE else clock.bank_seconds
    return base + clock.extra_seconds


def table_pauses(table: TableClock) -> list[tuple[datetime, datetime]]:
    """Return the stretches the table's players agreed every clock stops for."""
    return [(datetime.fromisoformat(start), datetime.fromisoformat(end)) for start, end in table.pauses or []]


def _counting(table: TableClock, player: PlayerTime | None) -> dict:
    """Return how a player's time is counted: their zone, weekends, and their absences if the table allows; and
    the table's agreed pauses, for every seat."""
    if player is None:
        return {"zone": "UTC", "weekends_off": False, "pauses": table_pauses(table)}
    return {
        "zone": player.zone,
        "weekends_off": table.weekends_off,
        "pauses": (_intervals(player) if table.allow_absence else []) + table_pauses(table),
    }


def _set_deadline(table: TableClock, clock: SeatClock, player: PlayerTime | None) -> None:
    if table.kind == ClockKind.NONE or clock.turn_started_at is None:
        clock.deadline = None
        return
    clock.deadline = deadline_after(clock.turn_started_at, _budget(table, clock), **_counting(table, player))


def clocks_start(*, game: Game) -> None:
    """Give every seat its clock as the game starts and start the clocks of the seats to move (none without a clock)."""
    table = table_clock_of(game)
    if table.kind == ClockKind.NONE:
        return
    moment = now()
    clocks = []
    for seat in game.seats.all():
        clock = SeatClock(game=game, seat=seat.index, bank_seconds=table.bank_days * DAY)
        if seat.index in game.to_move:
            clock.turn_started_at = moment
            _set_deadline(table, clock, player_time(seat))
        clocks.append(clock)
    SeatClock.objects.bulk_create(clocks)


def _is_away(seat: Seat) -> bool:
    player = player_time(seat)
    return player is not None and _away_until(player, now()) is not None


def clocks_after_move(*, game: Game, mover: int, source: str) -> list[SeatClock] | None:
    """Charge the mover's thinking time, stop clocks not to move, start the clocks now to move.

    A person's move during their absence ends it, in any game. A game without a
    clock has nothing else to do. With one, the game's seat clocks (read with
    its seats under its row lock, ``play.store.locked``, or else here) are
    written in one statement; what the players' time needs comes with the
    seats (``seats_with_time``). Call under the game's row lock, which guards
    the clocks of a game in play. Return the clocks as written (None without a
    clock).
    """
    seats = {seat.index: seat for seat in game.seats.all()}
    mover_seat = seats.get(mover)
    if source in PEOPLE and mover_seat is not None and _is_away(mover_seat):
        absence_end(user=mover_seat.user)
        vars(mover_seat).pop(_ABSENCE_ROWS, None)  # read again: the absence has an end now
    table = table_clock_of(game)
    if table.kind == ClockKind.NONE:
        return None
    moment = now()
    clocks = list(game.seat_clocks.all())
    for clock in clocks:
        player = player_time(seats.get(clock.seat))
        if clock.seat == mover:
            if clock.turn_started_at is not None and table.kind == ClockKind.BANK:
                used = counted_seconds(clock.turn_started_at, moment, **_counting(table, player))
                from_bank = max(0.0, used - clock.extra_seconds)  # the agreed extra time is spent first
                clock.bank_seconds = min(table.bank_days * DAY, clock.bank_seconds - from_bank + table.increment_days * DAY)
            if clock.turn_started_at is not None:
                clock.extra_seconds = 0.0  # given for one turn: what it did not use is not kept
            clock.turn_started_at = None
            if source in PEOPLE:
                clock.timeouts_in_row = 0
        if game.status != GameStatus.ACTIVE or clock.seat not in game.to_move:
            clock.turn_started_at = None
        elif clock.turn_started_at is None:
            clock.turn_started_at = moment
        _set_deadline(table, clock, player)
    if clocks:  # with the move's other writes when it sends them together (``one_statement``)
        sql, params = one_statement.bulk_update(
            clocks, ["bank_seconds", "extra_seconds", "turn_started_at", "deadline", "timeouts_in_row"])
        one_statement.write(f"{one_statement.name('clocks')} AS ({sql})", params)
    return clocks


def refresh_deadlines(*, user) -> None:
    """Recompute the running deadlines of the user's active games (after an absence changed)."""
    player = _user_time(user)
    for seat in Seat.objects.filter(user=user, game__status=GameStatus.ACTIVE, bot="").select_related("game"):
        table = table_clock_of(seat.game)
        for clock in SeatClock.objects.filter(game=seat.game, seat=seat.index, turn_started_at__isnull=False):
            _set_deadline(table, clock, player)
            clock.save(update_fields=["deadline"])


def game_deadlines_refresh(*, game: Game) -> None:
    """Recompute the running deadlines of the game's seats (after the table's agreed pauses or a seat's agreed extra
    time changed: ``clocks.agreed``). Call under the game's row lock."""
    table = table_clock_of(game)
    seats = {seat.index: seat for seat in game.seats.all()}
    for clock in SeatClock.objects.filter(game=game, turn_started_at__isnull=False):
        _set_deadline(table, clock, player_time(seats.get(clock.seat)))
        clock.save(update_fields=["deadline"])


def remaining_seconds(table: TableClock, clock: SeatClock, player: PlayerTime | None) -> float | None:
    """Return the counted time the seat has left (None without a clock)."""
    if table.kind == ClockKind.NONE:
        return None
    budget = _budget(table, clock)
    if clock.turn_started_at is None:
        return budget
    return max(0.0, budget - counted_seconds(clock.turn_started_at, now(), **_counting(table, player)))


def clock_summaries(game: Game) -> list[dict]:
    """Return each seat's clock as players may see it: time left, deadline, and absence.

    Read from what the game has loaded when it has (its seats through
    ``seats_with_time``, its ``seat_clocks`` prefetched). A game without a
    clock has no seat clock to read: the seats to move are the ones running.
    """
    table = table_clock_of(game)
    clocked = table.kind != ClockKind.NONE
    clocks = {clock.seat: clock for clock in game.seat_clocks.all()} if clocked else {}
    moment = now()
    rows = []
    for seat in game.seats.all():
        player = player_time(seat)
        away = _away_until(player, moment) if player is not None and table.allow_absence else None
        if not clocked:
            rows.append({
                "seat": seat.index,
                "running": game.status == GameStatus.ACTIVE and seat.index in game.to_move,
                "deadline": None,
                "remaining_seconds": None,
                "away_until": away,
                "bot": seat.bot or None,
                "timeouts_in_row": 0,
            })
            continue
        clock = clocks.get(seat.index)
        rows.append({
            "seat": seat.index,
            "running": bool(clock and clock.turn_started_at),
            "deadline": clock.deadline if clock else None,
            "remaining_seconds": remaining_seconds(table, clock, player) if clock else None,
            "away_until": away,
            "bot": seat.bot or None,
            "timeouts_in_row": clock.timeouts_in_row if clock else 0,
        })
    return rows


def _days(count: int) -> str:
    return ngettext("%(count)s day", "%(count)s days", count) % {"count": count}


def _hours(count: int) -> str:
    return ngettext("%(count)s hour", "%(count)s hours", count) % {"count": count}


def _minutes(count: int) -> str:
    return ngettext("%(count)s minute", "%(count)s minutes", count) % {"count": count}


def format_duration(seconds: float | None) -> str:
    """Return a time left in words, in the active language, to the two largest units ("2 days 3 hours",
    "5 hours", "20 minutes"); "" for none."""
    if seconds is None:
        return ""
    seconds = int(seconds)
    days, rest = divmod(seconds, DAY)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    if days and hours:
        return pgettext("a duration", "%(days)s %(hours)s") % {"days": _days(days), "hours": _hours(hours)}
    if days:
        return _days(days)
    if hours and minutes:
        return pgettext("a duration", "%(hours)s %(minutes)s") % {"hours": _hours(hours), "minutes": _minutes(minutes)}
    if hours:
        return _hours(hours)
    return _minutes(minutes)
