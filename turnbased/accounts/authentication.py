"""API authentication: knox's hashed tokens, noting when each token was last used, and the browser's session; either
words the answer in the account's language when the request asks for none."""

from __future__ import annotations

import binascii
from hmac import compare_digest
from datetime import timedelta

from django.utils import timezone
from django.utils.translation import gettext as _
from knox.auth import TokenAuthentication
from knox.crypto import hash_token
from knox.settings import CONSTANTS
from knox.signals import token_expired
from rest_framework.authentication import SessionAuthentication
from rest_framework.exceptions import AuthenticationFailed

from turnbased.accounts.models import ApiToken
from turnbased.kit.db.prepared import PreparedQuery
from turnbased.accounts.readers import activate_account_language

# "Last used" is for people deciding what to revoke; a minute's precision spares a write per request.
LAST_USED_PRECISION = timedelta(minutes=1)


class ApiTokenAuthentication(TokenAuthentication):
    """``Authorization: Token <key>``: a revoked or expired token fails at once (401).

    A request costs one statement: the token with its user and profile, read in the statement that also
    notes ``last_used_at`` when the one stored is more than a minute old (``_TOKENS_BY_KEY``).
    """

    def authenticate_credentials(self, token: bytes):
        """Find the token as knox does (its key's first characters, then the digest compared in constant time);
        refuse a key that is not UTF-8 or not a key (knox would raise decoding it: a 500) as any bad key is
        refused; read it noting its use.

        The query is compiled once per thread (``PreparedQuery``): building it on every request cost as much
        as PostgreSQL's answer.
        """
        try:
            key = token.decode("utf-8")
            digest = hash_token(key)
        except (UnicodeDecodeError, TypeError, binascii.Error):
            raise AuthenticationFailed(_("Invalid token.")) from None
        now = timezone.now()
        found = _TOKENS_BY_KEY(token_key=key[:CONSTANTS.TOKEN_KEY_LENGTH], digest=digest, now=now,
                               noted_before=now - LAST_USED_PRECISION)
        for auth_token in found:
            if self._cleanup_token(auth_token):
                continue
            if compare_digest(digest, auth_token.digest):
                user, auth_token = self.validate_user(auth_token)
                if auth_token.last_used_at is None or auth_token.last_used_at < now - LAST_USED_PRECISION:
                    auth_token.last_used_at = now  # what the statement wrote
                return user, auth_token
        raise AuthenticationFailed(_("Invalid token."))

    def _cleanup_token(self, auth_token: ApiToken) -> bool:
        """Delete this token if it has expired (and fail it); knox's sweep of the user's other tokens costs a
        query on every request, so expired tokens are left out of the token lists instead (``tokens_of``)."""
        if auth_token.expiry is not None and auth_token.expiry < timezone.now():
            username = auth_token.user.get_username()
            auth_token.delete()
            token_expired.send(sender=self.__class__, username=username, source="auth_token")
            return True
        return False


# The tokens whose key starts as the one sent, with their users and profiles (knox's lookup, and the
# profile for the account's language and whether it is a bot's). knox's settings here renew no token
# (``AUTO_REFRESH`` off), so nothing else is written but the token's last use, in the same statement: a
# data-modifying WITH before knox's SELECT. The write names the token by its digest, so only the token
# that was sent is noted, and only when the stored time is over a minute old. The SELECT sees the row as
# it was: the caller sets the new time.
_TOKENS_BY_KEY = PreparedQuery(
    lambda token_key: ApiToken.objects.filter(token_key=token_key),
    before=(f'WITH noted AS (UPDATE "{ApiToken._meta.db_table}" SET "last_used_at" = %s WHERE "digest" = %s '
            f'AND ("last_used_at" IS NULL OR "last_used_at" < %s)) ', ("now", "digest", "noted_before")),
    token_key="sentinel-key-xx",
)


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
