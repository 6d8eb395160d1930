"""The turn of a position begins for each person to move: told as a fact (``facts.TurnBegan``), which the
notifications turn into a turn email or a push."""

from __future__ import annotations

from turnbased.play import facts
from turnbased.play.models import Game


def record_turn_notifications(game: Game, *, skip: frozenset[int] = frozenset()) -> None:
    """Tell that the position's turn begins for the people to move (not bots), but for the seats in ``skip`` (their
    only move is about to be played for them)."""
    seat_users = {seat.index: seat.user_id for seat in game.seats.all() if seat.user_id and not seat.bot}
    told = tuple(seat_users[index] for index in game.to_move if index in seat_users and index not in skip)
    if told:
        facts.tell(facts.TurnBegan(game=game, seq=game.seq, user_ids=told))
