"""API authentication: knox's hashed tokens, noting when each token was last used, and the browser's session; either
words the answer in the account's language when the request asks for none."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone
from django.utils.translation import gettext as _
from knox.auth import TokenAuthentication
from knox.signals import token_expired
from rest_framework.authentication import SessionAuthentication
from rest_framework.exceptions import AuthenticationFailed

from turnbased.accounts.models import ApiToken
from turnbased.accounts.readers import activate_account_language

# "Last used" is for people deciding what to revoke; a minute's precision spares a write per request.
LAST_USED_PRECISION = timedelta(minutes=1)


class ApiTokenAuthentication(TokenAuthentication):
    """``Authorization: Token <key>``: a revoked or expired token fails at once (401).

    A request costs one query (the token with its user), and a write of
    ``last_used_at`` at most once a minute.
    """

    def authenticate_credentials(self, token: bytes):
        """Refuse a key that is not UTF-8 (knox would raise decoding it: a 500) as any bad key is refused."""
        try:
            token.decode("utf-8")
        except UnicodeDecodeError:
            raise AuthenticationFailed(_("Invalid token.")) from None
        return super().authenticate_credentials(token)

    def _cleanup_token(self, auth_token: ApiToken) -> bool:
        """Delete this token if it has expired (and fail it); knox's sweep of the user's other tokens costs a
        query on every request, so expired tokens are left out of the token lists instead (``tokens_of``)."""
        if auth_token.expiry is not None and auth_token.expiry < timezone.now():
            username = auth_token.user.get_username()
            auth_token.delete()
            token_expired.send(sender=self.__class__, username=username, source="auth_token")
            return True
        return False

    def validate_user(self, auth_token: ApiToken):
        user, token = super().validate_user(auth_token)
        now = timezone.now()
        if token.last_used_at is None or token.last_used_at < now - LAST_USED_PRECISION:
            ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
            token.last_used_at = now
        return user, token


class _InTheAccountsLanguage:
    """Word the API's answer in the account's language when the request asks for none (``Accept-Language``)."""

    def authenticate(self, request):
        found = super().authenticate(request)
        if found is not None:
            activate_account_language(request, found[0])
        return found


class AccountApiTokenAuthentication(_InTheAccountsLanguage, ApiTokenAuthentication):
    """The API's token authentication; the account's profile comes with the token, so its language costs no query."""


class AccountSessionAuthentication(_InTheAccountsLanguage, SessionAuthentication):
    """The browser's session (DRF's, with its CSRF check); the language is read from the cache the pages use."""
