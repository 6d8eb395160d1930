"""API tokens: create one with a name (its key is shown once), up to the most an account may hold; revoke any."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import timedelta

from django.conf import settings
from django.db import connection, transaction
from django.utils.translation import ngettext

from turnbased.accounts.models import ApiToken
from turnbased.accounts.selectors import tokens_of
from turnbased.kit.errors import PlayError

# The first key of the transaction lock taken per account while its tokens are counted (PostgreSQL's two-key
# advisory locks; the second key is the account's id).
LOCK_SPACE = 0x544F4B4E


class TooManyTokens(PlayError):
    """The account holds ``API_TOKENS_MAX_PER_USER`` live tokens already: one must be revoked first."""

    status = 409


def default_token_lifetime() -> timedelta:
    return timedelta(days=settings.API_TOKEN_DEFAULT_DAYS)


def token_create(*, user, name: str, lifetime: timedelta | None) -> tuple[ApiToken, str]:
    """Create a named token for the user, expiring after ``lifetime`` (None: never).

    Return the token and its key; only a hash of the key is stored, so it cannot be shown again. Raises
    TooManyTokens, creating nothing, when the user already holds ``API_TOKENS_MAX_PER_USER`` live tokens
    (expired ones do not count: they work no more, and go when next presented).
    """
    with transaction.atomic():
        # Two creations at once count one after the other, so neither passes the cap.
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [LOCK_SPACE, user.pk])
        most = settings.API_TOKENS_MAX_PER_USER
        if tokens_of(user).count() >= most:
            raise TooManyTokens(ngettext(
                "You have %(count)s API token, the most an account may have: revoke it first.",
                "You have %(count)s API tokens, the most an account may have: revoke one you no longer use first.",
                most) % {"count": most})
        return ApiToken.objects.create(user=user, expiry=lifetime, name=name.strip())


def token_revoke(*, user, token_id: int) -> None:
    """Revoke one of the user's tokens: the next request with it fails. Raises ApiToken.DoesNotExist."""
    ApiToken.objects.get(user=user, pk=token_id).delete()


def tokens_revoke(*, user, token_ids: Iterable[int]) -> int:
    """Revoke those of ``token_ids`` that are the user's; return how many."""
    deleted, _ = ApiToken.objects.filter(user=user, pk__in=list(token_ids)).delete()
    return deleted
