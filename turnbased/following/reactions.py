"""What following does when the core tells: a move of a game in play, or a game's end, is recorded as a notice for
each person whose watch asks for it (``Notify``), as they would be told of their turn: a row of the notifications'
outbox, delivered once by the mail app (``mail.delivery``), which also tells their stream and webhooks.

Every move asks who follows its game, its group and its competition, and most find nobody: so the question and the
rows it writes are one part of the move's own statement (``one_statement``), costing no round trip, and the worker
that delivers them is woken only when a row was written (``dispatch.write_then_queue_if_rows``). Whether the follower
may still see the game, still sits apart from it, still follows it, is decided at delivery, not here: the move reads
nothing more for its followers.
"""

from __future__ import annotations

from turnbased.following.models import Notify, Watch
from turnbased.following.selectors import covering
from turnbased.kit.db import dispatch
from turnbased.notifications.models import NotificationKind
from turnbased.notifications.services import DELIVERY_TASK
from turnbased.play import facts
from turnbased.play.models import Game, GameStatus, Seat


def followers(game_id: int, levels: tuple[str, ...]):
    """The people following the game (itself, its group's games, its competition's games) whose watch notifies at one
    of ``levels``, the game's own players left out: ids, each once."""
    seated = Seat.objects.filter(game_id=game_id, user_id__isnull=False).values("user_id")
    return (Watch.objects.filter(covering(game_id), notify__in=levels).exclude(user_id__in=seated)
            .values_list("user_id", flat=True).distinct())


def _record_notices(game: Game, seq: int, kind: str, levels: tuple[str, ...]) -> None:
    select, params = followers(game.pk, levels).query.sql_with_params()
    sql = ("INSERT INTO notifications_notification (user_id, game_id, seq, kind, created_at, skip_reason) "
           f"SELECT followed.user_id, %s, %s, %s, now(), '' FROM ({select}) AS followed "
           "ON CONFLICT DO NOTHING RETURNING 1")
    dispatch.write_then_queue_if_rows(sql, [game.pk, seq, kind, *params], DELIVERY_TASK, game.pk, seq)


# A table a feature holds (a duplicate round's deal, played at several tables) is seen by its seats alone until it is
# released: its followers hear nothing of it before, and of its end when it is let go.


@facts.reacting_to(facts.MovePlayed)
def move_played(fact: facts.MovePlayed) -> None:
    if fact.game.status == GameStatus.ACTIVE and not fact.game.held:
        _record_notices(fact.game, fact.seq, NotificationKind.FOLLOWED_MOVE, (Notify.MOVES,))


@facts.reacting_to(facts.GameFinished)
def game_finished(fact: facts.GameFinished) -> None:
    if not fact.game.held:
        _record_notices(fact.game, fact.game.seq, NotificationKind.FOLLOWED_END, (Notify.MOVES, Notify.ENDS))


@facts.reacting_to(facts.GameReleased)
def game_released(fact: facts.GameReleased) -> None:
    _record_notices(fact.game, fact.game.seq, NotificationKind.FOLLOWED_END, (Notify.MOVES, Notify.ENDS))
