"""API tokens: create one with a name (its key is shown once), revoke any."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import timedelta

from django.conf import settings

from turnbased.accounts.models import ApiToken


def default_token_lifetime() -> timedelta:
    return timedelta(days=settings.API_TOKEN_DEFAULT_DAYS)


def token_create(*, user, name: str, lifetime: timedelta | None) -> tuple[ApiToken, str]:
    """Create a named token for the user, expiring after ``lifetime`` (None: never).

    Return the token and its key; only a hash of the key is stored, so it cannot be shown again.
    """
    return ApiToken.objects.create(user=user, expiry=lifetime, name=name.strip())


def token_revoke(*, user, token_id: int) -> None:
    """Revoke one of the user's tokens: the next request with it fails. Raises ApiToken.DoesNotExist."""
    ApiToken.objects.get(user=user, pk=token_id).delete()


def tokens_revoke(*, user, token_ids: Iterable[int]) -> int:
    """Revoke those of ``token_ids`` that are the user's; return how many."""
    deleted, _ = ApiToken.objects.filter(user=user, pk__in=list(token_ids)).delete()
    return deleted
