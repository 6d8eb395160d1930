"""A seat of a game in play changing hands (issue 46): a person takes a seat a bot took over when its player left or
ran out of time, or a player hands their own seat to another person. The core changes the seat and records the
change (``SeatChange``); who may offer a seat to whom, and how they are told, is a feature's (``turnbased.seats``).

The seat's view, its private history included, is read by seat: the person who holds it now sees what it may see,
back to the first move, and the one who left it sees what any spectator sees from then on. The game's names for its
seats (``Game.player_names``, what the engine and the record were given at the start) do not change; each logged
move names the person who made it, and the record lists the changes.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from turnbased.accounts.models import is_bot_account
from turnbased.clocks.models import SeatClock
from turnbased.clocks.services import game_deadlines_refresh
from turnbased.kit.errors import Conflict, NotFound
from turnbased.play import facts, store
from turnbased.play.models import Game, GameStatus, Seat, SeatChange
from turnbased.play.services.tables import locked_game


def seat_refusal(game: Game, seat: Seat, user: AbstractBaseUser, reason: str, *, from_user=None):
    """Return why ``user`` may not have ``seat`` of the game in play for ``reason`` (a ``Conflict``), or None. A seat
    taken: a bot took it over from a person, and plays it still. A seat handed: ``from_user`` plays it."""
    if game.status != GameStatus.ACTIVE:
        return Conflict(gettext("This game is not in play: it has not started yet, or it is over."))
    if reason == SeatChange.Reason.TAKEN and not (seat.bot and seat.user_id is not None):
        return Conflict(gettext("A person plays this seat: only a seat a bot took over can be taken."))
    if reason == SeatChange.Reason.HANDED and (seat.user_id != getattr(from_user, "pk", None) or seat.bot
                                               or seat.left_at is not None):
        return Conflict(gettext("Only the player who plays a seat can hand it on."))
    if any(other.user_id == user.pk for other in game.seats.all()):
        return Conflict(gettext("You already play at this game: one seat each."))
    if is_bot_account(user):
        return Conflict(gettext("A bot account cannot take a seat in a game in play."))
    kept = facts.why_seat_kept(game, user)
    return Conflict(kept) if kept else None


def seat_change(*, game_id: int, seat: int, user: AbstractBaseUser, reason: str, from_user=None) -> Game:
    """Give ``seat`` of the game in play to ``user`` for ``reason`` (``SeatChange.Reason``): the bot that played it
    stops, the seat's clock counts its new player's time (their time zone, their absences) with no timeout held
    against them, and it is their turn if it was the seat's. Refused, nothing changed, as ``seat_refusal`` says.
    Call it within the feature's transaction: the change and what the feature records commit together."""
    with transaction.atomic():
        game = locked_game(game_id)
        row = next((row for row in game.seats.all() if row.index == seat), None)
        if row is None:
            raise NotFound(gettext("This game has no such seat."))
        refusal = seat_refusal(game, row, user, reason, from_user=from_user)
        if refusal is not None:
            raise refusal
        left_by = row.user_id
        # Joined now: a seat joined after the game started changed hands (read without a query: ``SeatChange``).
        Seat.objects.filter(pk=row.pk).update(user=user, bot="", left_at=None, joined_at=timezone.now())
        SeatClock.objects.filter(game=game, seat=seat).update(timeouts_in_row=0)
        store.touch(game)  # a move or a bot's turn waiting for the lock reads the seat as it is now
        SeatChange.objects.create(game=game, seat=seat, left_by_id=left_by, taken_by=user, seq=game.seq,
                                  reason=reason)
        game = locked_game(game_id)  # the seats as they are now
        game_deadlines_refresh(game=game)
        facts.tell(facts.SeatTaken(game=game, seat=seat, user_id=user.pk, left_user_id=left_by))
        if seat in game.to_move:
            facts.tell(facts.TurnBegan(game=game, seq=game.seq, user_ids=(user.pk,)))
    return game
