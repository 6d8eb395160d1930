"""Reads: a finished game told in short for its end screen (issue 47): each player's moves and time, and the turning
points of the count every player could see.

Everything here is what the finished game shows anyone who may see it: the log's times (a move's time is the time
from the move before it, as the history's order shows), who played each move (a person, their only move played for
them, a bot), and the engine's ``public_scores`` after each move, replayed from the seed (``games.takebacks
.LogReplay``, takebacks included). A lead is one seat alone ahead on that count; a turning point is a move after which
another seat leads. The last one is the decisive lead when its seat won. A game no feature holds any more and that
is over is the only one summarised (``positions.is_over``); the summary never changes then and is kept in the cache.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.core.cache import cache

from games.takebacks import LogReplay
from turnbased.play import store
from turnbased.play.models import Game, GameStatus, Move, MoveSource
from turnbased.play.positions import is_over

# The doors a person's own move comes through, and a move the site played for them (their only legal move).
OWN = (MoveSource.WEB, MoveSource.API, MoveSource.EMAIL, MoveSource.AUTO)
# The turning points the end screen lists: the latest ones (a long game's earlier swings are in its replay).
TURNS_SHOWN = 5
SUMMARY_SECONDS = 7 * 24 * 3600


@dataclass(frozen=True)
class SeatSummary:
    """One seat's part: the moves its player made, the moves bots made for it, and the player's time."""

    seat: int
    moves: int
    bot_moves: int
    seconds: float          # the time from the move before each of the player's moves to it, added up
    longest_seconds: float  # the longest of those


@dataclass(frozen=True)
class TurningPoint:
    """After move ``seq``, seat ``leader`` alone led the count, ``scores`` (every seat's, in seat order)."""

    seq: int
    leader: int
    scores: list[float]


@dataclass(frozen=True)
class GameSummary:
    seats: list[SeatSummary]
    moves: int                          # every entry of the log
    seconds: float                      # from the start to the end
    turning_points: list[TurningPoint] = field(default_factory=list)  # the latest TURNS_SHOWN, oldest first
    lead_changes: int = 0               # how many there were in all
    decisive: TurningPoint | None = None  # the last, when the seat it put ahead won the game


def summary(game: Game) -> GameSummary | None:
    """Return the finished game in short (None while it is not over, or held by a feature)."""
    if game.status != GameStatus.FINISHED or not is_over(game) or game.started_at is None or game.state is None:
        return None
    key = f"aftergame:summary:{game.pk}:{game.seq}:{game.engine_version}"
    found = cache.get(key)
    if found is None:
        found = _summarised(game)
        cache.set(key, found, SUMMARY_SECONDS)
    return found


def _summarised(game: Game) -> GameSummary:
    rows = list(Move.objects.filter(game=game).order_by("seq").values_list("seat", "source", "created_at", "move"))
    seats = game.seat_count
    moves, bot_moves, seconds, longest = [0] * seats, [0] * seats, [0.0] * seats, [0.0] * seats
    before = game.started_at
    for seat, source, at, _move in rows:
        if 0 <= seat < seats:
            if source in OWN:
                taken = max(0.0, (at - before).total_seconds())
                moves[seat] += 1
                seconds[seat] += taken
                longest[seat] = max(longest[seat], taken)
            elif source in (MoveSource.BOT, MoveSource.TIMEOUT):
                bot_moves[seat] += 1
        before = at
    points, changes = _lead_changes(game, rows)
    winners = list((game.result or {}).get("winners", []))
    last = points[-1] if points else None
    return GameSummary(
        seats=[SeatSummary(seat, moves[seat], bot_moves[seat], seconds[seat], longest[seat]) for seat in range(seats)],
        moves=len(rows),
        seconds=max(0.0, ((game.finished_at or before) - game.started_at).total_seconds()),
        turning_points=points[-TURNS_SHOWN:],
        lead_changes=changes,
        decisive=last if last is not None and winners == [last.leader] else None,
    )


def _lead_changes(game: Game, rows: list) -> tuple[list[TurningPoint], int]:
    """Replay the log and return the moves after which another seat alone led the public count, and their number."""
    engine = store.engine_of(game)
    if engine.public_scores(store.initial_state(game)) is None:
        return [], 0
    replay = LogReplay(engine, store.initial_state(game))
    leader, points = None, []
    for seq, (seat, _source, _at, move) in enumerate(rows, start=1):
        replay.play(seat, move)
        scores = engine.public_scores(replay.state)
        if not scores:
            continue
        best = max(scores)
        ahead = [index for index, value in enumerate(scores) if value == best]
        if len(ahead) == 1 and ahead[0] != leader and best > 0:
            leader = ahead[0]
            points.append(TurningPoint(seq=seq, leader=leader, scores=list(scores)))
    return points, len(points)
