"""Reads about accounts: the address we may mail, the user's API tokens."""

from __future__ import annotations

from allauth.account.models import EmailAddress
from django.db.models import Q
from django.utils import timezone

from turnbased.accounts.models import ApiToken


def verified_email(user) -> str | None:
    """Return the user's address if it is their verified primary one, else None.

    Turn emails go to ``user.email`` and email moves are taken from it, so it counts only when
    it is the address the user proved they read (allauth keeps the two in step).
    """
    if not user.email:
        return None
    return (
        EmailAddress.objects.filter(user_id=user.pk, primary=True, verified=True, email__iexact=user.email)
        .values_list("email", flat=True)
        .first()
    )


def tokens_of(user):
    """Return the user's API tokens that have not expired, newest first (an expired one is gone when next used)."""
    alive = Q(expiry__isnull=True) | Q(expiry__gt=timezone.now())
    return ApiToken.objects.filter(alive, user=user).order_by("-created", "-id")
