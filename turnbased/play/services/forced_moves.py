"""Forced moves: a seat with exactly one legal move has it played at once, when its player asked for it.

The player's setting (``Profile.plays_forced_moves``: on for bot accounts, off for people unless they
turn it on) decides; the engine's bots move by themselves anyway. The move itself goes through the single
door, ``moves.play_forced_move`` -> ``moves._play``, with the source ``auto``, under the game's row lock.

When. Right after the move that made the position forced, by a Celery task queued when that move commits
(``play.tasks.play_forced_move``, through ``dispatch.after_commit``): the move request only asks the engine for the legal moves of a seat
whose player asked (about a millisecond; nothing for anyone else) and, when there is exactly one, writes
one row (``ForcedMoveDue``) in the move's transaction. That row is what survives a crash: if the process dies
between the commit and queueing the task, or a worker dies while playing it, the clock sweep finds the row
(``stalled``) and queues the task again. The task plays position ``seq`` only if that row is still there
for it and the game is still at ``seq``: a repeated task, or a position the player already played
themselves, changes nothing.

Nobody gets a turn email (nor anything else sent from the turn notifications) for a position about to be
played for them: the forced move follows at once. The event stream, though, tells the seat it is its turn and
then nothing of the forced move, as if its player had sent that move at once: every reader sees the ids of
one sequence of stream rows, so how many rows a move writes must not depend on whether it was forced (the
twin worlds of ``tests/platform/secrecy`` caught it). The seat's history says what was played for it.

A forced move that leads to another forced position is followed by that one too, at most
``FORCED_CHAIN_LIMIT`` in a row; after that the seat waits for its player as any other.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from turnbased import dispatch, one_statement
from turnbased.accounts.models import plays_forced_moves
from turnbased.play import store
from turnbased.play.models import ForcedMoveDue, Game, GameStatus, Seat

# Forced moves played in a row, at most (a safety valve: in the four games a chain is a few moves long;
# Halali!'s final phase, both sides boxed in, passes ten times).
FORCED_CHAIN_LIMIT = 50
# Named, not imported: play.tasks imports the services.
FORCED_MOVE_TASK = "turnbased.play.tasks.play_forced_move"


def only_move(game: Game, seat: int) -> dict | None:
    """Return the seat's only legal move at the game's position, or None when it has none or several."""
    moves = store.engine_of(game).legal_moves(game.state, seat)
    return moves[0] if len(moves) == 1 else None


def forced_seats(game: Game) -> list[tuple[Seat, dict]]:
    """Return each seat to move whose player asked for forced moves and that has exactly one legal move,
    with that move; seats loaded with their players' profiles (``store.locked``) cost no query."""
    if game.status != GameStatus.ACTIVE or game.state is None:
        return []
    found = []
    for seat in game.seats.all():
        if seat.index not in game.to_move or not seat.user_id or seat.bot or seat.left_at is not None:
            continue
        if not plays_forced_moves(seat.user):
            continue
        move = only_move(game, seat.index)
        if move is not None:
            found.append((seat, move))
    return found


def schedule_forced_moves(game: Game, *, chain: int = 0) -> frozenset[int]:
    """After a move (or the start) on the locked game: when a seat to move is forced and its player asked,
    write the position's ``ForcedMoveDue`` and queue its task once this transaction commits.

    ``chain`` is how many forced moves in a row led here (0 after any other move). Returns the seats whose
    move will be played for them: the caller records them no turn notification.
    """
    if chain >= FORCED_CHAIN_LIMIT:
        return frozenset()
    seats = frozenset(seat.index for seat, _ in forced_seats(game))
    if not seats:
        return seats
    # One statement, with the move's other writes (``one_statement``): this position's row replaces an older
    # position's.
    sql, params = one_statement.insert(
        [ForcedMoveDue(game_id=game.pk, seq=game.seq, chain=chain, due_since=timezone.now())],
        update_conflicts=True, unique_fields=["game"], update_fields=["seq", "chain", "due_since"],
    )
    one_statement.write(f"{one_statement.name('forced')} AS ({sql})", params)
    dispatch.after_commit(FORCED_MOVE_TASK, game.pk, game.seq)
    return seats


def take_due(game: Game, seq: int) -> ForcedMoveDue | None:
    """Remove and return the locked game's row for position ``seq``; None when there is none for it (played,
    or replaced by a newer position's row, which stays for its own task)."""
    due = ForcedMoveDue.objects.filter(game_id=game.pk).first()
    if due is None or due.seq != seq:
        return None
    due.delete()
    return due


def stalled() -> list[tuple[int, int]]:
    """Return (game, seq) of forced moves waiting longer than ``FORCED_STALL_SECONDS`` (a task takes milliseconds):
    their tasks were lost."""
    return list(
        ForcedMoveDue.objects.filter(due_since__lt=timezone.now() - timedelta(seconds=settings.FORCED_STALL_SECONDS)).order_by("due_since")
        .values_list("game_id", "seq")[:200]
    )
