"""Who opens a stream (``turnbased/events/credentials.py``), asked in the test's own process: the token, the
session and its every refusal, and the CORS headers of the site's own origin. ``test_sessions.py`` opens real
streams with them through the stream process."""

from __future__ import annotations

import dataclasses

import pytest
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
from django.test import Client
from django.utils import translation
from rest_framework.exceptions import AuthenticationFailed

from tests.platform.conftest import api_token
from turnbased.accounts.models import ApiToken
from turnbased.accounts.services.languages import language_choose
from turnbased.events import credentials
from turnbased.events.selectors import Credential

pytestmark = pytest.mark.django_db

SITE = "http://pages.test:8000"


@pytest.fixture(autouse=True)
def site(settings):
    settings.SITE_URL = SITE


def session_of(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


def cookie(key: str) -> str:
    return f"other=1; {settings.SESSION_COOKIE_NAME}={key}"


def test_the_site_alone_gets_cors_headers_and_a_preflight_answer():
    assert credentials.allowed_origin(SITE) and credentials.allowed_origin(SITE.upper())
    for other in ("http://pages.test:8001", "https://pages.test:8000", "http://evil.example", "", None):
        assert not credentials.allowed_origin(other)
        assert credentials.cors_headers(other) == [] and credentials.preflight_headers(other) is None
    cors = [(b"access-control-allow-origin", SITE.encode()), (b"access-control-allow-credentials", b"true"),
            (b"vary", b"Origin")]
    assert credentials.cors_headers(SITE) == cors
    assert credentials.preflight_headers(SITE) == [*cors, (b"access-control-allow-methods", b"GET"),
                                                   (b"access-control-allow-headers", b"last-event-id"),
                                                   (b"access-control-max-age", b"600")]


def test_nothing_to_go_by_is_nobody():
    assert credentials.authenticate(authorization=None) is None
    assert credentials.authenticate(authorization="", cookie="other=1") is None


def test_a_token_names_its_account_and_the_language_it_chose(alice):
    language_choose(user=alice, language="hu")
    key = api_token(alice)
    identity = credentials.authenticate(authorization=f"Token {key}", cookie=cookie("ignored"), origin="http://x.y")
    token = ApiToken.objects.get(user=alice)
    assert identity == credentials.Identity(alice.pk, Credential(token_id=token.pk), "hu")
    with pytest.raises(dataclasses.FrozenInstanceError):  # a stream keeps it for its life: nobody changes it
        identity.user_id = 0
    assert credentials.authenticate(authorization=f"Bearer {key}") is None  # not a token scheme at all
    with pytest.raises(AuthenticationFailed):
        credentials.authenticate(authorization="Token no-such-key")


def test_a_session_names_its_account_from_the_site_or_with_no_origin(alice):
    key = session_of(alice)
    expected = credentials.Identity(alice.pk, Credential(session_key=key), "")
    assert credentials.authenticate(authorization=None, cookie=cookie(key)) == expected
    assert credentials.authenticate(authorization=None, cookie=cookie(key), origin=SITE) == expected
    # Another site's page: the browser sent the cookie, the page did not choose it.
    assert credentials.authenticate(authorization=None, cookie=cookie(key), origin="http://evil.example") is None


def refusal(key: str, language: str = "") -> str:
    with pytest.raises(AuthenticationFailed) as refused:
        credentials.authenticate(authorization=None, cookie=cookie(key), language=language)
    return str(refused.value.detail)


def test_a_refusal_for_no_language_is_worded_in_the_sites_own(settings):
    settings.LANGUAGE_CODE = "hu"
    with translation.override("de"):  # the language active where it is asked is not the stream's
        with pytest.raises(AuthenticationFailed) as refused:
            credentials.authenticate(authorization=None, cookie=cookie("nothing-like-a-key"))
    assert str(refused.value.detail) == refusal("nothing-like-a-key", language="hu")
    assert str(refused.value.detail) != refusal("nothing-like-a-key", language="en")


def test_a_session_that_no_longer_holds_is_refused(alice, bob, carol, make_bot_account):
    assert refusal("nothing-like-a-key") == "Your session has ended: log in again."
    assert refusal("nothing-like-a-key", language="de") != "Your session has ended: log in again."
    ended = session_of(alice)
    SessionStore(ended).delete()
    assert "session has ended" in refusal(ended)
    changed = session_of(bob)
    bob.set_password("another-password-entirely")
    bob.save()
    assert "session has ended" in refusal(changed)
    inactive = session_of(carol)
    type(carol).objects.filter(pk=carol.pk).update(is_active=False)
    assert "session has ended" in refusal(inactive)
    robo = make_bot_account("robo")
    assert "robo" in refusal(session_of(robo))


def test_a_session_signed_in_through_a_backend_no_longer_configured_is_refused(alice):
    key = session_of(alice)
    store = SessionStore(key)
    store[BACKEND_SESSION_KEY] = "somewhere.else.Backend"
    store.save()
    assert "session has ended" in refusal(key)
    broken = session_of(alice)
    store = SessionStore(broken)
    del store[BACKEND_SESSION_KEY]
    store.save()
    assert "session has ended" in refusal(broken)
