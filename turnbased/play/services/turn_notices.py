"""The turn notifications of a position: each person to move is told it is their turn (a turn email, a push)."""

from __future__ import annotations

from turnbased.notifications.models import NotificationKind
from turnbased.notifications.services import notifications_record
from turnbased.play.models import Game


def record_turn_notifications(game: Game, *, skip: frozenset[int] = frozenset()) -> None:
    """Tell the people to move (not bots) that it is their turn at this position, but for the seats in ``skip``
    (their only move is about to be played for them)."""
    seat_users = {seat.index: seat.user_id for seat in game.seats.all() if seat.user_id and not seat.bot}
    notifications_record(
        game=game,
        seq=game.seq,
        kind=NotificationKind.YOUR_TURN,
        user_ids=[seat_users[index] for index in game.to_move if index in seat_users and index not in skip],
    )
