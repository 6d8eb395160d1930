"""Reads about invitations to a table: who is invited, whose invitations wait, whom to suggest inviting."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import BooleanField, Count, Exists, F, Max, OuterRef, QuerySet, Subquery, Value
from django.db.models.functions import Coalesce

from turnbased.accounts.models import is_bot_account
from turnbased.play.models import Game, GameStatus, Invitation, Seat

# How many people the invite form suggests (those the user played with most recently).
RECENT_OPPONENTS = 20


def is_invited(game: Game, user: AbstractBaseUser | AnonymousUser) -> bool:
    """Tell whether the user holds a pending invitation to the open table (it lets them see and join a private one)."""
    return bool(
        user.is_authenticated and game.status == GameStatus.OPEN
        and Invitation.objects.filter(game_id=game.pk, user_id=user.pk, declined_at=None).exists()
    )


def pending_invitations(user: AbstractBaseUser) -> list[Invitation]:
    """Return the user's invitations to open tables with a free seat that they do not sit at, newest first."""
    return list(pending_invitations_query(user).order_by("-created_at", "-pk"))


def pending_invitations_query(user: AbstractBaseUser) -> QuerySet[Invitation]:
    """Return the user's invitations to open tables with a free seat that they do not sit at, as a query."""
    mine = Seat.objects.filter(game=OuterRef("game"), user_id=user.pk)
    seated = Seat.objects.filter(game=OuterRef("game")).order_by().values("game").annotate(n=Count("pk")).values("n")
    return (
        Invitation.objects.filter(user=user, declined_at=None, game__status=GameStatus.OPEN)
        .exclude(Exists(mine))
        .annotate(seated=Coalesce(Subquery(seated), 0))
        .filter(seated__lt=F("game__seat_count"))
        .select_related("game", "invited_by", "invited_by__profile")
    )


def invitation_row(invitation: Invitation, status: str) -> dict:
    """Return an invitation as the API and the table page show it: who, by whom, when, where it stands."""
    return {
        "id": invitation.pk,
        "username": invitation.user.get_username(),
        "bot_account": is_bot_account(invitation.user),
        "invited_by": invitation.invited_by.get_username(),
        "invited_by_bot_account": is_bot_account(invitation.invited_by),
        "created_at": invitation.created_at,
        "status": status,
    }


def invitations_of(game: Game) -> list[dict]:
    """Return who was invited to the table, by whom, and whether they declined or took a seat, oldest first."""
    return invitation_rows(game, list(invitations_to(game)))


def invitations_to(game: Game) -> QuerySet[Invitation]:
    """Return the table's invitations, with who was invited and by whom, as a query."""
    return Invitation.objects.filter(game=game).select_related(
        "user", "user__profile", "invited_by", "invited_by__profile"
    )


def invitation_rows(game: Game, invitations: list[Invitation]) -> list[dict]:
    """Return each invitation to the table (its seats read) as whom, by whom, when, and where it stands."""
    seated = {seat.user_id for seat in game.seats.all() if seat.user_id}
    return [
        invitation_row(
            invitation,
            "seated" if invitation.user_id in seated else "declined" if invitation.declined_at else "pending",
        )
        for invitation in invitations
    ]


def recent_opponents(user: AbstractBaseUser) -> list[dict]:
    """Return the ``RECENT_OPPONENTS`` accounts the user played with most recently (``played_with``)."""
    return list(played_with(user).order_by("-last_played_at", "username")[:RECENT_OPPONENTS])


def played_with(user: AbstractBaseUser) -> QuerySet:
    """Return the accounts the user played with (built-in bots and closed accounts aside, bot accounts
    included), as a query of ``username``, whether it is a ``bot_account``, and ``last_played_at``, when
    the latest game they shared started."""
    games = Seat.objects.filter(user_id=user.pk, game__started_at__isnull=False).values("game")
    return (
        Seat.objects.filter(game__in=games, user__isnull=False, user__is_active=True)
        .exclude(user_id=user.pk)
        # An account without a profile is no bot account (the join finds no row).
        .annotate(bot_account=Coalesce("user__profile__is_bot_account", Value(False), output_field=BooleanField()))
        .values("user__username", "bot_account")
        .annotate(last_played_at=Max("game__started_at"))
        .values("last_played_at", "bot_account", username=F("user__username"))
    )
