"""How long players take to move: the reads a forced move's moment is drawn from (``services.forced_timing``).

A move's time is the time from the move before it in its game (or the game's start) to the move itself, for the
moves a player chose and sent: through the page, the API or an email (never a bot's, a timeout's, a resignation or
a move played for them). Reads bounded by a count, newest first, through the log's indexes (its user, its
``(game, seq)``); a task's reads, never a request's.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import F, OuterRef, Subquery
from django.db.models.functions import Coalesce

from games.base import RESIGN
from turnbased.play.models import Move, MoveSource

# The doors a person (or a bot account's program) sends a move of its own through.
OWN_DOORS = (MoveSource.WEB, MoveSource.API, MoveSource.EMAIL)
# A player's latest moves read for their times.
OWN_SAMPLE = 60
# Everyone's latest moves read when a player has too few of their own (a new account).
SITE_SAMPLE = 300


@dataclass(frozen=True)
class MoveTime:
    """One move a player chose: how long after the move before it, when, and whether that was their own."""

    seconds: float
    at: datetime
    after_own_move: bool  # the move before was the same seat's (a second step of one turn: a Chancellor's choice)


def _timed(moves, count: int) -> list[MoveTime]:
    before = Move.objects.filter(game=OuterRef("game"), seq=OuterRef("seq") - 1)
    rows = (
        moves.filter(source__in=OWN_DOORS).exclude(move=RESIGN).order_by("-id")
        .annotate(before_at=Coalesce(Subquery(before.values("created_at")[:1]), F("game__started_at")),
                  before_seat=Subquery(before.values("seat")[:1]))
        .values_list("created_at", "before_at", "seat", "before_seat")[:count]
    )
    return [
        MoveTime(seconds=max(0.0, (at - before_at).total_seconds()), at=at, after_own_move=before_seat == seat)
        for at, before_at, seat, before_seat in rows
        if before_at is not None
    ]


def own_move_times(user_id: int, *, count: int = OWN_SAMPLE) -> list[MoveTime]:
    """Return the times of the player's latest ``count`` moves of their own, newest first."""
    return _timed(Move.objects.filter(user_id=user_id), count)


def everyones_move_times(*, bot_accounts: bool, count: int = SITE_SAMPLE) -> list[MoveTime]:
    """Return the times of the latest ``count`` moves of anyone's own, of bot accounts' programs or of people."""
    return _timed(Move.objects.filter(user__profile__is_bot_account=bot_accounts), count)
