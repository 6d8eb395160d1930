"""Reads about accounts: the address we may mail, the user's API tokens, the account a log in names."""

from __future__ import annotations

from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.db.models import BooleanField, Exists, ExpressionWrapper, OuterRef, Q
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


def account_named_by(login: str) -> int | None:
    """Return the id of the account a log-in string names, in one query; None when it names none.

    As allauth's backend tries them: an address of the account (any of its addresses, or the user's own field,
    without case) first, then its username (without case). A string naming several accounts at one step (no rule
    of ours lets that happen) names none.
    """
    login = login.strip()
    if not login:
        return None
    address = Q(Exists(EmailAddress.objects.filter(user_id=OuterRef("pk"), email__iexact=login))) | Q(
        email__iexact=login)
    rows = list(get_user_model().objects.filter(address | Q(username__iexact=login))
                .annotate(by_address=ExpressionWrapper(address, output_field=BooleanField()))
                .values_list("pk", "by_address")[:3])
    by_address = [pk for pk, named in rows if named]
    named = by_address or [pk for pk, _ in rows]
    return named[0] if len(named) == 1 else None
