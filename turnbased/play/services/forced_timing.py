"""When a forced move is played: at a moment drawn like its player's own (docs/players.md, "Forced moves").

Nothing another player reads may tell a move played for a seat from one its player chose (issue 42): a move
that comes a fifth of a second after the move before it, in the middle of the night, or while its player is away,
is one no person makes, and in Love Letter it would tell of the King behind a Countess. So the moment is drawn:

1. **A time to move**: one of the player's own recent times (``move_times``: from the move before to their move,
   for moves they chose), of the same kind as this one (an answer to another seat's move, or a second step of
   their own turn), spread by a random factor around it (log-normal), so no delay repeats one the others could
   find in an old record to the microsecond. With fewer than ``ENOUGH`` of their own, everyone's of their kind
   (people's, or bot accounts' programs'); with none at all, a default spread of that kind.
2. **In their hours**: a moment in a local hour of the day (their time zone) in which none of their sampled moves
   was made moves on to the next hour in which one was, at a random minute of it.
3. **Never while they are away**: a move of theirs would end an absence, so a moment inside one moves past its end
   (by a fresh draw), and the row waits for their return (drawn again if they come back early).
4. **Before their deadline**: a moment too close to it is drawn again within the time left, unless an absence
   keeps them away until after it (then the clock runs out for them as it would for anyone away).

The draw reads the player's times in the forced move's task, never in a request.
"""

from __future__ import annotations

import math
import random
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from turnbased.accounts.models import is_bot_account, profile_of
from turnbased.clocks.models import SeatClock
from turnbased.clocks.services import absence_intervals
from turnbased.play.models import Game, Move, Seat
from turnbased.play.move_times import MoveTime, everyones_move_times, own_move_times

# The draws: ``random.SystemRandom``, so nobody can predict one from another (tests give one of their own).
RANDOM: random.Random = random.SystemRandom()

# Times of one's own enough to draw from; fewer, and everyone's of the kind stand in.
ENOUGH = 8
# How far a drawn time spreads around the sampled one: a log-normal factor, a third either way at one sigma.
SPREAD_SIGMA = 0.3
# With no time at all to draw from: a person's median wait and a bot account's program's, and their spreads.
PERSON_MEDIAN_SECONDS, PERSON_SIGMA = 3600.0, 1.0
PROGRAM_MEDIAN_SECONDS, PROGRAM_SIGMA = 2.0, 0.5
# The longest wait, whatever the player's times (a game without a clock waits on no deadline).
LONGEST_WAIT = timedelta(days=7)
# Kept clear of a deadline: at most this share of the time left is used before it.
DEADLINE_SHARE = 0.9


def draw_seconds(times: list[MoveTime], *, after_own_move: bool, rng: random.Random) -> float | None:
    """Return a time to move drawn from ``times`` (those of the same kind when there are enough), spread around
    the one chosen; None when there are fewer than ``ENOUGH``."""
    alike = [time for time in times if time.after_own_move == after_own_move]
    chosen = alike if len(alike) >= ENOUGH else times
    if len(chosen) < ENOUGH:
        return None
    return rng.choice(chosen).seconds * math.exp(rng.gauss(0.0, SPREAD_SIGMA))


def default_seconds(*, program: bool, rng: random.Random) -> float:
    """Return a time to move for a player of whom nothing is known: a person's, or a bot account's program's."""
    median, sigma = (PROGRAM_MEDIAN_SECONDS, PROGRAM_SIGMA) if program else (PERSON_MEDIAN_SECONDS, PERSON_SIGMA)
    return median * math.exp(rng.gauss(0.0, sigma))


def in_playing_hours(moment: datetime, times: list[MoveTime], zone: ZoneInfo, rng: random.Random) -> datetime:
    """Return ``moment``, or when no sampled move was made in its local hour, a random moment of the next local hour
    in which one was (every hour, when too few were sampled to tell)."""
    hours = {time.at.astimezone(zone).hour for time in times}
    if len(times) < ENOUGH or moment.astimezone(zone).hour in hours:
        return moment
    for ahead in range(1, 25):
        local = (moment + timedelta(hours=ahead)).astimezone(zone)
        if local.hour in hours:
            start = local.replace(minute=0, second=0, microsecond=0)
            return max(moment, start + timedelta(seconds=rng.uniform(0, 3600)))
    return moment


def outside_absences(moment: datetime, absences: list[tuple[datetime, datetime]],
                     wait) -> tuple[datetime, datetime | None]:
    """Return ``moment`` moved past each absence it falls in (by ``wait()`` seconds after its end), and the end of
    the last one it was moved past (the player's return; None when it fell in none)."""
    returns = None
    for start, end in sorted(absences):
        if start <= moment < end:
            moment, returns = end + timedelta(seconds=wait()), end
    return moment, returns


def before_deadline(moment: datetime, since: datetime, deadline: datetime | None, rng: random.Random) -> datetime:
    """Return ``moment``, or when it is too close to ``deadline`` (past ``DEADLINE_SHARE`` of the time from
    ``since``), a moment drawn in the first part of that time."""
    if deadline is None or deadline <= since:
        return moment
    window = (deadline - since).total_seconds()
    if (moment - since).total_seconds() <= window * DEADLINE_SHARE:
        return moment
    return since + timedelta(seconds=window * rng.uniform(DEADLINE_SHARE / 2, DEADLINE_SHARE))


def due_moment(game: Game, seat: Seat, *, since: datetime, now: datetime,
               rng: random.Random | None = None) -> tuple[datetime, datetime | None]:
    """Return when ``seat``'s forced move at ``game``'s position (forced since ``since``) is played, and when its
    player comes back from the absence it was put off past (None when it was not)."""
    rng = rng or RANDOM
    user = seat.user
    program = is_bot_account(user)
    own = own_move_times(user.pk)
    pool = own if len(own) >= ENOUGH else everyones_move_times(bot_accounts=program)
    after_own_move = bool(game.seq) and _last_mover(game) == seat.index

    def wait() -> float:
        drawn = draw_seconds(pool, after_own_move=after_own_move, rng=rng)
        return min(drawn if drawn is not None else default_seconds(program=program, rng=rng),
                   LONGEST_WAIT.total_seconds())

    moment = in_playing_hours(since + timedelta(seconds=wait()), own, ZoneInfo(profile_of(user).time_zone), rng)
    absences = absence_intervals(user)
    moment, returns = outside_absences(moment, absences, wait)
    deadline = SeatClock.objects.filter(game=game, seat=seat.index).values_list("deadline", flat=True).first()
    kept_clear = before_deadline(moment, since, deadline, rng)
    if kept_clear != moment and outside_absences(kept_clear, absences, wait)[1] is None:
        moment = kept_clear
    return max(moment, now), returns


def _last_mover(game: Game) -> int | None:
    return Move.objects.filter(game=game, seq=game.seq).values_list("seat", flat=True).first()
