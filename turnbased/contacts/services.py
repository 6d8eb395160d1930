"""Following a friend and blocking a person: one service each way, by the other person's username.

A follow is one-way (like a follow on lichess): it tells the followed person nothing and asks nothing of them.
A block is one-way and silent: the blocked person is never told, and what it refuses them (``reactions``) is
refused in words that do not name it. Blocking someone ends following them; it leaves every game already under
way as it is (docs/players.md, "Friends and blocks").
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext

from turnbased.contacts.models import Block, Follow
from turnbased.kit.errors import Conflict, InvalidRequest, Unprocessable

# Django's username field is at most this long; anything longer names nobody.
USERNAME_MAX_LENGTH = 150
# How many people one account may follow, and block: enough for any club, few enough that every list stays short.
MAX_FOLLOWED = 1000
MAX_BLOCKED = 1000


def person_named(user: AbstractBaseUser, username) -> AbstractBaseUser:
    """Return the active account called ``username`` (any case) other than ``user``; refuse anything else."""
    name = username.strip() if isinstance(username, str) else ""
    if not name:
        raise InvalidRequest(gettext("Give the player's username."))
    other = None
    if len(name) <= USERNAME_MAX_LENGTH and "\x00" not in name:
        other = get_user_model().objects.filter(username__iexact=name, is_active=True).first()
    if other is None:
        # The same words for a name nobody has and for a closed account: player pages show no more.
        raise Unprocessable(gettext("No player is called “%(name)s”. Check the spelling.")
                             % {"name": name[:USERNAME_MAX_LENGTH]})
    if other.pk == user.pk:
        raise Unprocessable(gettext("That is your own name."))
    return other


def _within_cap(rows, cap: int, refusal: str) -> None:
    if rows.count() >= cap:
        raise Conflict(refusal % {"cap": cap})


def follow_add(*, user: AbstractBaseUser, username) -> tuple[AbstractBaseUser, bool]:
    """Follow the person called ``username``; return them and whether the follow is new (following twice changes
    nothing). A person one blocked is not followed."""
    other = person_named(user, username)
    with transaction.atomic():
        # The follower's row lock orders their changes: two at once cannot both pass the cap.
        get_user_model().objects.select_for_update().only("pk").get(pk=user.pk)
        if Block.objects.filter(blocker=user, blocked=other).exists():
            raise Conflict(gettext("You blocked %(name)s: unblock them first.") % {"name": other.get_username()})
        if Follow.objects.filter(follower=user, followed=other).exists():
            return other, False
        _within_cap(Follow.objects.filter(follower=user), MAX_FOLLOWED,
                    gettext("You follow as many players as one account may (%(cap)s): stop following one first."))
        Follow.objects.create(follower=user, followed=other)
    return other, True


def follow_remove(*, user: AbstractBaseUser, username) -> AbstractBaseUser:
    """Stop following the person called ``username`` (nothing happens if one did not follow them); return them."""
    other = person_named(user, username)
    Follow.objects.filter(follower=user, followed=other).delete()
    return other


def block_add(*, user: AbstractBaseUser, username) -> tuple[AbstractBaseUser, bool]:
    """Block the person called ``username``, and stop following them; return them and whether the block is new.

    Nothing is told to anyone; the games already under way play on as they are."""
    other = person_named(user, username)
    with transaction.atomic():
        get_user_model().objects.select_for_update().only("pk").get(pk=user.pk)
        Follow.objects.filter(follower=user, followed=other).delete()
        if Block.objects.filter(blocker=user, blocked=other).exists():
            return other, False
        _within_cap(Block.objects.filter(blocker=user), MAX_BLOCKED,
                    gettext("You blocked as many players as one account may (%(cap)s): unblock one first."))
        Block.objects.create(blocker=user, blocked=other)
    return other, True


def block_remove(*, user: AbstractBaseUser, username) -> AbstractBaseUser:
    """Unblock the person called ``username`` (nothing happens if they were not blocked); return them."""
    other = person_named(user, username)
    Block.objects.filter(blocker=user, blocked=other).delete()
    return other
