"""API token authentication: knox's hashed tokens, noting when each token was last used."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone
from knox.auth import TokenAuthentication

from turnbased.accounts.models import ApiToken

# "Last used" is for people deciding what to revoke; a minute's precision spares a write per request.
LAST_USED_PRECISION = timedelta(minutes=1)


class ApiTokenAuthentication(TokenAuthentication):
    """``Authorization: Token <key>``: a revoked or expired token fails at once (401)."""

    def validate_user(self, auth_token: ApiToken):
        user, token = super().validate_user(auth_token)
        now = timezone.now()
        if token.last_used_at is None or token.last_used_at < now - LAST_USED_PRECISION:
            ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
            token.last_used_at = now
        return user, token
