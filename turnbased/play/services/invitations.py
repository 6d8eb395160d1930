"""Invitations: a player invites a person by username to an open table; the person takes the seat or declines.

Taking the seat is ``join_game``, which lets an invited person in even to a private table.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from turnbased.kit.errors import Conflict, GameNotFound, InvalidRequest, NotAllowed, Unprocessable
from turnbased.play import facts
from turnbased.play.models import Game, GameStatus, Invitation
from turnbased.play.services.tables import hidden_from, locked_table

# Django's username field is at most this long; anything longer names nobody.
USERNAME_MAX_LENGTH = 150


def invitation_create(*, game_id: int, user: AbstractBaseUser, username: str) -> tuple[Invitation, bool]:
    """Invite the person called ``username`` to the open table ``game_id``, where ``user`` plays or which they made.

    Preconditions: the table is open and has a free seat; ``username`` names an active account
    (any case; a bot account too) other than ``user`` that has no seat at it. Effects: an ``Invitation`` and an
    ``invited`` notification (the lobby shows it; an email goes out as for other game news).
    Return the invitation and whether it is new (as ``get_or_create``): inviting someone again
    returns the same invitation and tells them nothing new; a declined invitation is not renewed.
    Nothing changes when a precondition fails.
    """
    name = username.strip() if isinstance(username, str) else ""
    if not name:
        raise InvalidRequest(gettext("Give the username of the player to invite."))
    with transaction.atomic():
        game = locked_table(game_id)
        if hidden_from(game, user):
            raise GameNotFound()
        seats = list(game.seats.all())
        if game.created_by_id != user.pk and not any(seat.user_id == user.pk for seat in seats):
            raise NotAllowed(gettext("Only the players at this table can invite others to it."))
        if game.status != GameStatus.OPEN:
            raise Conflict(gettext("This table is no longer taking players."))
        if len(seats) >= game.seat_count:
            raise Conflict(gettext("Every seat is taken."))
        invitee = _active_user_called(name)
        if invitee is None:
            # The same words for a name nobody has and for a closed account: player pages show no more.
            raise Unprocessable(gettext("No player is called “%(name)s”. Check the spelling.")
                                 % {"name": name[:USERNAME_MAX_LENGTH]})
        if invitee.pk == user.pk:
            raise Unprocessable(gettext("You cannot invite yourself."))
        if any(seat.user_id == invitee.pk for seat in seats):
            raise Conflict(gettext("%(name)s already has a seat at this table.") % {"name": invitee.get_username()})
        kept = facts.why_invitation_kept(game, user, invitee)
        if kept:
            raise Conflict(kept)
        # The table's row lock orders invitations to it: no other can come between this read and the insert.
        invitation = (
            Invitation.objects.select_related("user", "user__profile", "invited_by", "invited_by__profile")
            .filter(game=game, user=invitee).first()
        )
        if invitation is not None:
            if invitation.declined_at is not None:
                raise Conflict(gettext("%(name)s declined the invitation to this table.")
                               % {"name": invitee.get_username()})
            return invitation, False
        invitation = Invitation.objects.create(game=game, user=invitee, invited_by=user)
        facts.tell(facts.PlayerInvited(game=game, user_id=invitee.pk))
    return invitation, True


def _active_user_called(name: str):
    if len(name) > USERNAME_MAX_LENGTH or "\x00" in name:
        return None
    # With the profile: the answer says whether the invited account is a bot account.
    return get_user_model().objects.filter(username__iexact=name, is_active=True).select_related("profile").first()


def invitation_decline(*, game_id: int, user: AbstractBaseUser) -> Invitation:
    """Decline ``user``'s invitation to the table ``game_id``; declining twice changes nothing.

    Raises ``GameNotFound`` for a table the user may not see, ``NotAllowed`` when they have no invitation.
    """
    with transaction.atomic():
        invitation = Invitation.objects.select_for_update().filter(game_id=game_id, user=user).first()
        if invitation is None:
            game = Game.objects.filter(pk=game_id).prefetch_related("seats").first()
            if game is None or hidden_from(game, user):
                raise GameNotFound()
            raise NotAllowed(gettext("You have no invitation to this table."))
        if invitation.declined_at is None:
            invitation.declined_at = timezone.now()
            invitation.save(update_fields=["declined_at"])
    return invitation

