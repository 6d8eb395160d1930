"""Who opens a stream, and from which pages: an API token, or the browser's session, with the rules of every other door.

A client sends ``Authorization: Token <key>``, checked as every API request checks it
(``ApiTokenAuthentication``). A page of the site sends its session cookie instead (an
``EventSource``): the session must not have ended or expired, its account must be active and not a
bot account (a bot plays through the API with a token: docs/api-guide.md, "Bot accounts"), and the
session must still match the account's password, as Django checks it for every page; a refused
session is answered as a revoked token is (401). Nothing is written: a session is only read. A stream is a GET
that changes nothing, so it needs no CSRF token.

Under ``make run`` the pages (port 8000) and the stream (port 8001) are two origins of one site: a
page's ``EventSource`` is then a cross-origin request with credentials, answered with CORS headers
for the site's own origin (``SITE_URL``'s) and no other. A request whose ``Origin`` is another site
is read as if it carried no cookie (cookies are sent by the browser, not chosen by the page), so no
other site's page can open a stream as its visitor; a token works from anywhere, as for the API.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module
from types import SimpleNamespace

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model, load_backend
from django.core.exceptions import ValidationError
from django.http.cookie import parse_cookie
from django.utils import translation
from django.utils.crypto import constant_time_compare
from django.utils.translation import gettext
from rest_framework.exceptions import AuthenticationFailed

from turnbased.accounts.authentication import ApiTokenAuthentication
from turnbased.accounts.bot_sessions import REFUSAL as BOT_ACCOUNT_REFUSAL
from turnbased.accounts.models import is_bot_account
from turnbased.accounts.readers import chosen_language
from turnbased.events.origins import origin_of
from turnbased.events.selectors import Credential

# How long a browser may keep the answer to its CORS preflight (Chromium keeps it at most 2 hours).
PREFLIGHT_MAX_AGE_SECONDS = 600


@dataclass(frozen=True)
class Identity:
    """Whom a stream is for, what it was opened with, and the language the account chose ("" for none)."""

    user_id: int
    credential: Credential
    language: str


def site_origin() -> str | None:
    """Return the site's own origin (``scheme://host[:port]`` of ``SITE_URL``), the one origin CORS answers."""
    return origin_of(settings.SITE_URL)


def allowed_origin(origin: str | None) -> bool:
    """Tell whether a request's ``Origin`` header names the site itself."""
    return bool(origin) and origin.lower() == site_origin()


def cors_headers(origin: str | None) -> list[tuple[bytes, bytes]]:
    """Return the headers that let the site's own pages read the answer across origins (none for other origins)."""
    if not allowed_origin(origin):
        return []
    return [(b"access-control-allow-origin", origin.encode("latin-1")),
            (b"access-control-allow-credentials", b"true"), (b"vary", b"Origin")]


def preflight_headers(origin: str | None) -> list[tuple[bytes, bytes]] | None:
    """Return the answer's headers to a CORS preflight from the site's own origin, or None for any other.

    An ``EventSource`` that reconnects sends ``Last-Event-ID``, which a browser may ask about first.
    """
    if not allowed_origin(origin):
        return None
    return [*cors_headers(origin), (b"access-control-allow-methods", b"GET"),
            (b"access-control-allow-headers", b"last-event-id"),
            (b"access-control-max-age", str(PREFLIGHT_MAX_AGE_SECONDS).encode())]


def authenticate(*, authorization: str | None, cookie: str | None = None, origin: str | None = None,
                 language: str = "") -> Identity | None:
    """Return whom a stream is for, from an ``Authorization: Token <key>`` header or else the session cookie;
    None with neither.

    Refusals (a revoked, expired or unknown token, an ended session, an inactive account, a bot
    account's session) raise ``AuthenticationFailed``, worded in ``language`` (the database threads
    do not share the stream's active language).
    """
    with translation.override(language or settings.LANGUAGE_CODE):
        if authorization:
            return _token_identity(authorization)
        session_key = parse_cookie(cookie or "").get(settings.SESSION_COOKIE_NAME)
        if not session_key or (origin and not allowed_origin(origin)):
            return None
        return _session_identity(session_key)


def _token_identity(authorization: str) -> Identity | None:
    """The same check as every API request: a revoked or expired token, or an inactive account, is refused with the
    same words."""
    request = SimpleNamespace(headers={"authorization": authorization})  # all DRF's header reader reads
    found = ApiTokenAuthentication().authenticate(request)
    if found is None:
        return None
    user, token = found
    return Identity(user.pk, Credential(token_id=token.pk), chosen_language(user))


def _session_identity(session_key: str) -> Identity:
    """Django's own check of a session (``django.contrib.auth.get_user``), without its writes: a session that does not
    hold is refused here, and the next page the browser asks for ends it."""
    user = _session_user(session_key)
    if user is None:
        raise AuthenticationFailed(gettext("Your session has ended: log in again."))
    if is_bot_account(user):  # reads the profile, which the account's language then comes from
        raise AuthenticationFailed(str(BOT_ACCOUNT_REFUSAL % {"name": user.get_username()}))
    return Identity(user.pk, Credential(session_key=session_key), chosen_language(user))


def _session_user(session_key: str):
    """Return the active account the session is signed in to, or None (no such session, ended, expired, signed in
    with a backend no longer configured, an inactive account, or a password changed since)."""
    session = import_module(settings.SESSION_ENGINE).SessionStore(session_key)
    try:
        user_id = get_user_model()._meta.pk.to_python(session[SESSION_KEY])
        backend_path = session[BACKEND_SESSION_KEY]
    except (KeyError, ValueError, ValidationError):
        return None
    if backend_path not in settings.AUTHENTICATION_BACKENDS:
        return None
    user = load_backend(backend_path).get_user(user_id)  # None for an inactive account
    if user is None:
        return None
    given = session.get(HASH_SESSION_KEY)
    # The current secret's hash, or a fallback secret's (a page cycles the session onto the current one).
    hashes = [user.get_session_auth_hash(), *user.get_session_auth_fallback_hash()]
    if not given or not any(constant_time_compare(given, expected) for expected in hashes):
        return None
    return user
