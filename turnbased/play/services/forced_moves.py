"""Forced moves: a seat with exactly one legal move has it played for it, when its player asked for it, at a
moment drawn like their own (``forced_timing``).

The player's setting (``Profile.plays_forced_moves``: on for bot accounts, off for people unless they
turn it on) decides; the engine's bots move by themselves anyway. The move itself goes through the single
door, ``moves.play_forced_move`` -> ``moves._play``, with the source ``auto``, under the game's row lock.

What the others read. Nothing another player reads may tell that a move was played for its seat rather than
chosen by its player (it can tell what only the seat knows: in Love Letter, the King behind a Countess). So in
every side effect it is the player's own move (it counts as a move on time, resets the timeouts in a row), its
record and history read as one (``records.source_shown``, ``selectors._reads_forced_note``), and it comes when the
player would have sent it: after a time drawn from their own (``forced_timing``), never during their absence,
before their deadline. The event stream tells the seat it is its turn and then nothing of the forced move, as if
its player had sent that move: how many rows a move writes does not depend on whether it was forced (the twin
worlds of ``tests/platform/secrecy`` hold all of it).

When. The move that makes the position forced only asks the engine for the legal moves of a seat whose player
asked (about a millisecond; nothing for anyone else) and, when there is exactly one, writes one row
(``ForcedMoveDue``) in the move's transaction and queues the task when it commits (``play.tasks.play_forced_move``,
through ``dispatch.after_commit``). The task draws the moment and keeps it on the row; when it is near, it
queues itself for then. The clock sweep queues each row as its moment nears (``to_queue``), and again any whose
task was lost: the row is what survives a crash. The task plays position ``seq`` only if that row is still
there for it, the game still at ``seq`` and the moment come: a repeated task, or a position the player played
themselves, changes nothing. A row whose seat is no longer forced for (the player turned the setting off) is
dropped and its player told it is their turn.

Nobody gets a turn email (nor anything else sent from the turn notifications) for a position about to be
played for them. The seat's history says what was played for it.

A forced move that leads to another forced position is followed by that one too, at most
``FORCED_CHAIN_LIMIT`` in a row; after that the seat waits for its player as any other.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from turnbased.kit.db import dispatch
from turnbased.kit.db import one_statement
from turnbased.accounts.models import plays_forced_moves, profile_of
from turnbased.clocks.services import away_until
from turnbased.play import store
from turnbased.play.models import ForcedMoveDue, Game, GameStatus, Seat
from turnbased.play.services import forced_timing
from turnbased.play.services.turn_notices import record_turn_notifications

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
        [ForcedMoveDue(game_id=game.pk, seq=game.seq, chain=chain, due_since=timezone.now(), due_at=None,
                       returns_at=None)],
        update_conflicts=True, unique_fields=["game"],
        update_fields=["seq", "chain", "due_since", "due_at", "returns_at"],
    )
    one_statement.write(f"{one_statement.name('forced')} AS ({sql})", params)
    dispatch.after_commit(FORCED_MOVE_TASK, game.pk, game.seq)
    return seats


def due_row(game: Game, seq: int) -> ForcedMoveDue | None:
    """Return the locked game's row for position ``seq``, or None: there is none for it (played, or replaced by a
    newer position's row, which stays for its own task), or the game left that position (the row is dropped)."""
    due = ForcedMoveDue.objects.filter(game_id=game.pk).first()
    if due is None or due.seq != seq:
        return None
    if game.status != GameStatus.ACTIVE or game.seq != seq:
        due.delete()
        return None
    return due


def give_up(game: Game, due: ForcedMoveDue) -> None:
    """Drop the locked game's row: no seat is forced for now (the player turned the setting off, left, or a bot
    holds the seat). The people to move were told nothing of this position: tell them it is their turn."""
    due.delete()
    record_turn_notifications(game)


# A task that comes this early (a countdown's rounding) plays anyway.
EARLY = timedelta(milliseconds=50)
# A moment this near is queued for at once (a countdown); later ones are the clock sweep's, which runs each minute.
NEAR = timedelta(seconds=90)


def falls_due(game: Game, seat: Seat, due: ForcedMoveDue) -> bool:
    """Tell whether the seat's forced move is to be played now: its moment drawn (``forced_timing``) and come, and
    its player not away. Else keep the moment on the row and, when it was drawn just now and is near, queue the task
    for it (a task that comes early queues nothing: the clock sweep queues it again as the moment nears)."""
    moment = timezone.now()
    drawn = due.due_at is None
    if drawn:
        due.due_at, due.returns_at = forced_timing.due_moment(game, seat, since=due.due_since, now=moment)
    elif due.due_at <= moment + EARLY and away_until(seat.user) is not None:
        # An absence declared since the moment was drawn: no move of theirs comes until they are back.
        due.due_at, due.returns_at = forced_timing.due_moment(game, seat, since=moment, now=moment)
        drawn = True
    if due.due_at <= moment + EARLY:
        return True
    if drawn:
        due.save(update_fields=["due_at", "returns_at"])
        if due.due_at - moment <= NEAR:
            dispatch.after_commit(FORCED_MOVE_TASK, game.pk, due.seq,
                                  countdown=(due.due_at - moment).total_seconds())
    return False


def back_early() -> None:
    """For the clock sweep: the moments put off past an absence that its player ended early (the return still to
    come, and they are not away) are drawn again, from now, by their tasks, queued here."""
    back = []
    for due in ForcedMoveDue.objects.filter(returns_at__gt=timezone.now()).select_related("game")[:200]:
        players = [seat.user for seat in due.game.seats.select_related("user")
                   if seat.index in due.game.to_move and seat.user_id]
        if players and all(away_until(player) is None for player in players):
            back.append((due.game_id, due.seq))
    with transaction.atomic():
        for game_id, seq in back:
            ForcedMoveDue.objects.filter(game_id=game_id, seq=seq).update(due_since=timezone.now(), due_at=None,
                                                                         returns_at=None)
            dispatch.after_commit(FORCED_MOVE_TASK, game_id, seq)


def to_queue() -> list[tuple[int, int, float]]:
    """Return (game, seq, seconds from now) of the forced moves whose task the clock sweep queues: those whose
    moment comes within ``NEAR`` or has passed (a task lost, or a worker that died playing it), and those still
    without one after ``FORCED_STALL_SECONDS`` (their first task was lost before it drew it, or ``back_early``)."""
    moment = timezone.now()
    stalled = moment - timedelta(seconds=settings.FORCED_STALL_SECONDS)
    rows = (ForcedMoveDue.objects.filter(Q(due_at__lte=moment + NEAR) | Q(due_at=None, due_since__lt=stalled))
            .order_by("due_since").values_list("game_id", "seq", "due_at")[:200])
    return [(game_id, seq, max(0.0, (due_at - moment).total_seconds()) if due_at else 0.0)
            for game_id, seq, due_at in rows]


def setting_changed(user) -> None:
    """After the player's setting changed (in its transaction): turned off, the positions waiting to be played for
    their seats are handed back at once (their tasks find no seat forced for, drop the rows and tell the player it is
    their turn), not at the moments drawn for them."""
    if profile_of(user).plays_forced_moves:  # as saved (a user read with the request may carry the old profile)
        return
    waiting = (ForcedMoveDue.objects.filter(game__status=GameStatus.ACTIVE, game__seats__user=user)
               .values_list("game_id", "seq").distinct())
    for game_id, seq in waiting:
        dispatch.after_commit(FORCED_MOVE_TASK, game_id, seq)
