"""No input to an account page or endpoint gives a server error: every /accounts/ route is walked."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import URLPattern
from rest_framework.test import APIClient

from tests.platform.conftest import api_token
from turnbased.web.account_urls import urlpatterns

pytestmark = pytest.mark.django_db

# Stand-ins for each URL parameter, the worst first.
PARAMETERS = {
    "key": ["x", "MQ:1tT:abc", "a" * 3000, "%00", "-", "::::"],
    "uidb36": ["zzzzzzzzzzzzzzzzzzzzzzzzz", "0", "1"],
    "token_id": ["99999999999999999999", "0"],
}
BAD_FORMS = [
    {},
    {"login": "\x00alice", "password": "\x00", "username": "\x00", "email": "\x00@example.com",
     "password1": "\x00", "password2": "\x00", "oldpassword": "\x00", "name": "\x00", "lifetime_days": "\x00"},
    {"login": "a" * 100_000, "password": "p" * 100_000, "username": "u" * 5000, "email": "e" * 5000 + "@example.com",
     "name": "n" * 5000, "lifetime_days": "9" * 50},
    {"email": ["a@example.com", "b@example.com"], "action_add": "", "action_send": "", "action_remove": "",
     "action_primary": "", "revoke_tokens": ["x", "99999999999999999999"], "end_other_sessions": "maybe"},
    {"email": "not an address", "action_send": "", "key": "x", "next": "https://evil.example/\x00"},
    {"login": "😀@例え.テスト", "password": "😀", "username": "\u202eevil", "email": "😀@例え.テスト"},
]


def paths() -> list[str]:
    """Every /accounts/ path, each parameter filled in with each of its stand-ins."""
    found = []
    for pattern in urlpatterns:
        assert isinstance(pattern, URLPattern)
        route = str(pattern.pattern).lstrip("^").rstrip("$")
        variants = [route]
        for name, values in PARAMETERS.items():
            for marker in (f"<int:{name}>", f"(?P<{name}>[0-9A-Za-z]+)", f"(?P<{name}>[-:\\w]+)", f"(?P<{name}>.+)"):
                if marker in route:
                    variants = [variant.replace(marker, value) for variant in variants for value in values]
        found.extend(f"/accounts/{variant}" for variant in variants)
    assert not [path for path in found if "<" in path or "(?P" in path], "a parameter without stand-ins"
    return sorted(set(found))


@pytest.mark.parametrize("logged_in", [False, True], ids=["anonymous", "logged-in"])
def test_no_account_page_answers_with_a_server_error(alice, logged_in, settings):
    settings.ACCOUNT_RATE_LIMITS = False  # so every form is read, not turned away with 429
    api_token(alice)
    client = Client(raise_request_exception=False)
    if logged_in:
        client.force_login(alice)
    failures = []
    for path in paths():
        answers = [("GET", client.get(path)), ("GET?", client.get(path, {"next": "//evil.example", "email": "\x00"}))]
        answers += [("POST", client.post(path, form)) for form in BAD_FORMS]
        failures += [(method, path, answer.status_code) for method, answer in answers if answer.status_code >= 500]
        if logged_in and path.startswith("/accounts/logout"):
            client.force_login(alice)
    assert not failures


@pytest.mark.parametrize("path", ["/api/accounts/", "/api/auth/token/", "/api/tokens/"])
def test_no_bad_body_to_the_account_api_answers_with_a_server_error(alice, path, settings):
    settings.ACCOUNT_RATE_LIMITS = False
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {api_token(alice)}")
    bodies = [
        {"username": "\x00", "email": "\x00", "password": "\x00", "name": "\x00"},
        {"username": ["a"], "email": {"a": 1}, "password": None, "name": 5, "expires_in_days": "1e9"},
        {"username": "u" * 100_000, "email": "e" * 100_000, "password": "p" * 100_000, "name": "n" * 100_000},
        {"username": "😀", "email": "😀@例え.テスト", "password": "😀😀😀😀😀😀😀😀😀", "name": "😀"},
        [], "null", 17,
    ]
    failures = [body for body in bodies if client.post(path, body, format="json").status_code >= 500]
    assert not failures
    assert client.generic("POST", path, "{not json", content_type="application/json").status_code == 400


def test_revoking_a_token_by_an_impossible_id_is_a_404(alice):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {api_token(alice)}")
    assert client.delete("/api/tokens/99999999999999999999/").status_code == 404
    assert client.delete("/api/tokens/0/").status_code == 404
