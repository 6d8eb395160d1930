"""Rematches: propose one from a finished game, accept the seat kept for you, or decline it.

A rematch is a new table with the same people and bots, the same game, options and clock, every
seat moved on by one. The player who proposes it sits at once; each other person of the finished
game accepts with one click (the seat kept for them is taken) and the table starts when the last
one does. Anyone invited may decline, which aborts the new table for all.
"""

from __future__ import annotations

import secrets

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from turnbased.aftergame.models import Rematch, RematchInvite
from turnbased.aftergame.selectors import rematch_offered
from turnbased.clocks.services import table_clock_create, table_clock_of
from turnbased.kit.errors import Conflict, GameNotFound, NotAllowed
from turnbased.notifications.models import NotificationKind
from turnbased.notifications.services import notifications_record
from turnbased.play.models import Game, GameStatus, Seat
from turnbased.play.presenters import public_options
from turnbased.play.services.tables import _check_table_caps, _start, game_transition, hidden_from, locked_table

CLOCK_FIELDS = ("kind", "days_per_move", "bank_days", "increment_days", "weekends_off", "allow_absence", "expiry", "stand_in")


def rematch_propose(*, game_id: int, user: AbstractBaseUser) -> tuple[Rematch, bool]:
    """Return the finished game's rematch and whether this call created it; a player of it only.

    The first call creates the new table (the caller seated, bots seated, a seat kept for each
    other person, who is told by email); later calls, from anyone, return that same table, and
    from a person it waits for they accept it. The finished game's row lock orders racing calls.
    """
    with transaction.atomic():
        original = locked_table(game_id)
        if hidden_from(original, user):
            raise GameNotFound()
        seats = list(original.seats.all())
        if not any(seat.user_id == user.pk for seat in seats):
            raise NotAllowed(gettext("Only the players of this game can ask for a rematch."))
        if original.status != GameStatus.FINISHED:
            raise Conflict(gettext("A rematch can only follow a finished game."))
        if not rematch_offered(original):
            raise Conflict(gettext("This table was made without a rematch."))
        existing = Rematch.objects.filter(original=original).select_related("game").first()
        if existing is not None:
            existing.game = locked_table(existing.game_id)
            if _waits_for(existing, user):
                _take_seat(existing, user)
            return existing, False
        rematch = _create(original, seats, user)
    return rematch, True


def _create(original: Game, seats: list[Seat], proposer: AbstractBaseUser) -> Rematch:
    count = len(seats)
    people = [seat for seat in seats if seat.user_id is not None]
    bots = {(seat.index + 1) % count: seat.bot or "random" for seat in seats if seat.user_id is None}
    _check_table_caps(proposer, waits_for_players=len(people) > 1, bots_only=False)
    game = Game.objects.create(
        engine=original.engine,
        engine_version=original.engine_version,
        options=public_options(original),
        seed=secrets.token_hex(16),
        visibility=original.visibility,
        invite_code=secrets.token_urlsafe(12),
        seat_count=count,
        created_by=proposer,
    )
    clock = table_clock_of(original)
    table_clock_create(game=game, settings={field: getattr(clock, field) for field in CLOCK_FIELDS})
    rematch = Rematch.objects.create(original=original, game=game, proposed_by=proposer)
    RematchInvite.objects.bulk_create(
        [RematchInvite(rematch=rematch, user_id=seat.user_id, seat=(seat.index + 1) % count) for seat in people]
    )
    for index, bot in sorted(bots.items()):
        Seat.objects.create(game=game, index=index, bot=bot)
    _take_seat(rematch, proposer)
    others = [seat.user_id for seat in people if seat.user_id != proposer.pk]
    notifications_record(game=game, seq=0, kind=NotificationKind.REMATCH_OFFERED, user_ids=others)
    return rematch


def _waits_for(rematch: Rematch, user: AbstractBaseUser) -> bool:
    """Tell whether the rematch's table still waits for ``user`` to take the seat kept for them."""
    return (
        rematch.game.status == GameStatus.OPEN
        and rematch.invites.filter(user=user).exists()
        and not rematch.game.seats.filter(user=user).exists()
    )


def _take_seat(rematch: Rematch, user: AbstractBaseUser) -> None:
    """Seat ``user`` in the seat kept for them (the table's row is locked); start the table when it is full."""
    game = rematch.game
    invite = rematch.invites.get(user=user)
    Seat.objects.create(game=game, index=invite.seat, user=user)
    if game.seats.count() == game.seat_count:
        _start(game)
    elif user.pk != rematch.proposed_by_id:
        waiting = [seat.user_id for seat in game.seats.all() if seat.user_id and seat.user_id != user.pk]
        notifications_record(game=game, seq=0, kind=NotificationKind.PLAYER_JOINED, user_ids=waiting)


def _no_longer_waiting() -> Conflict:
    return Conflict(gettext("This rematch is no longer waiting: it has started, or it was declined or aborted."))


def rematch_of(original_id: int, user: AbstractBaseUser) -> Rematch:
    """Return the rematch of a finished game the user may see, its new table locked; raise ``GameNotFound``."""
    original = Game.objects.filter(pk=original_id).prefetch_related("seats").first()
    if original is None or (user.is_authenticated and hidden_from(original, user)):
        raise GameNotFound()
    rematch = Rematch.objects.filter(original=original).first()
    if rematch is None:
        raise GameNotFound(gettext("No rematch has been proposed for this game."))
    rematch.game = locked_table(rematch.game_id)
    return rematch


def rematch_accept(*, game_id: int, user: AbstractBaseUser) -> Rematch:
    """Take the seat the rematch of finished game ``game_id`` keeps for ``user``; the last one starts it."""
    with transaction.atomic():
        rematch = rematch_of(game_id, user)
        if not rematch.invites.filter(user=user).exists():
            raise NotAllowed(gettext("This rematch is for the players of the finished game."))
        if rematch.game.seats.filter(user=user).exists():
            raise Conflict(gettext("You have already accepted this rematch."))
        if rematch.game.status != GameStatus.OPEN:
            raise _no_longer_waiting()
        _take_seat(rematch, user)
    return rematch


def rematch_decline(*, game_id: int, user: AbstractBaseUser) -> Rematch:
    """Turn the rematch of finished game ``game_id`` down for everyone: its table is aborted before it starts."""
    with transaction.atomic():
        rematch = rematch_of(game_id, user)
        if not rematch.invites.filter(user=user).exists():
            raise NotAllowed(gettext("This rematch is for the players of the finished game."))
        if rematch.game.status != GameStatus.OPEN:
            raise _no_longer_waiting()
        game_transition(game=rematch.game, to=GameStatus.ABORTED)
        rematch.declined_by, rematch.declined_at = user, timezone.now()
        rematch.save(update_fields=["declined_by", "declined_at"])
    return rematch
