"""Login lockout and sign-up limits, shared by the web and the API, each answered with 429 and Retry-After."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
import time_machine
from django.test import Client
from rest_framework.test import APIClient

from tests.platform.accounts.conftest import link_in, sent_to
from tests.platform.conftest import PASSWORD

pytestmark = pytest.mark.django_db

LOCKOUT_AFTER = 5  # failed attempts per account (or per name of no account) in 5 minutes (RATE_LIMIT_LOGIN_FAILED)
NEW_PASSWORD = "another-long-pass-42"


def web_login(login: str, password: str, client: Client | None = None):
    return (client or Client()).post("/accounts/login/", {"login": login, "password": password})


def api_login(login: str, password: str, *, address: str = "127.0.0.1"):
    return APIClient(REMOTE_ADDR=address).post("/api/auth/token/", {"username": login, "password": password},
                                               format="json")


def retry_after(response) -> int:
    return int(response["Retry-After"])


def test_the_web_login_locks_a_name_out_after_failed_attempts_with_a_clear_429(make_user):
    make_user("alice")
    for _ in range(LOCKOUT_AFTER):
        failed = web_login("alice", "wrong password")
        assert failed.status_code == 200 and "not correct" in failed.content.decode()
    locked = web_login("alice", PASSWORD)  # even the right password, while locked out
    assert locked.status_code == 429 and "Too many failed login attempts" in locked.content.decode()
    assert 0 < retry_after(locked) <= 300
    assert "_auth_user_id" not in locked.wsgi_request.session


def test_the_api_locks_out_with_429_and_retry_after(make_user):
    make_user("alice")
    for _ in range(LOCKOUT_AFTER):
        assert api_login("alice", "wrong password").status_code == 401
    locked = api_login("alice", PASSWORD)
    assert locked.status_code == 429 and "Too many failed log in attempts" in locked.json()["detail"]
    assert 0 < retry_after(locked) <= 300


def test_web_and_api_failures_count_together(make_user):
    make_user("alice")
    for _ in range(3):
        web_login("alice", "wrong password")
    for _ in range(LOCKOUT_AFTER - 3):
        api_login("alice", "wrong password")
    assert web_login("alice", PASSWORD).status_code == 429
    assert api_login("alice", PASSWORD).status_code == 429


def test_the_lockout_lifts_when_its_window_has_passed(make_user):
    make_user("alice")
    with time_machine.travel("2027-03-01 10:00:00", tick=False):
        for _ in range(LOCKOUT_AFTER):
            api_login("alice", "wrong password")
        assert retry_after(api_login("alice", PASSWORD)) == 300
    with time_machine.travel("2027-03-01 10:03:00", tick=False):
        assert retry_after(api_login("alice", PASSWORD)) == 120
    with time_machine.travel("2027-03-01 10:05:01", tick=False):
        assert api_login("alice", PASSWORD).status_code == 200


def test_a_right_password_does_not_spend_the_allowance(make_user):
    make_user("alice")
    for _ in range(LOCKOUT_AFTER + 2):
        assert api_login("alice", PASSWORD).status_code == 200


@pytest.mark.parametrize(("failing", "then"), [
    ("alice", "alice@example.com"), ("alice@example.com", "alice"), ("alice", "ALICE@Example.com"),
    ("Alice", "alice"),
])
def test_the_lockout_holds_the_account_whichever_name_or_address_is_typed(failing, then, make_user):
    """Issue 42: the lockout was keyed by the string typed, so a guesser locked out under the username went on
    under the address (5 more guesses each window), and the other way round."""
    make_user("alice")
    for _ in range(LOCKOUT_AFTER):
        assert api_login(failing, "wrong password").status_code == 401
    locked = api_login(then, PASSWORD)
    assert locked.status_code == 429 and 0 < retry_after(locked) <= 300
    assert web_login(then, PASSWORD).status_code == 429


def test_failures_under_the_name_and_the_address_count_together(make_user):
    make_user("alice")
    for attempt in range(LOCKOUT_AFTER):
        web_login("alice" if attempt % 2 else "alice@example.com", "wrong password")
    assert api_login("alice", PASSWORD).status_code == 429


def test_another_account_and_names_of_no_account_keep_their_own_counts(make_user):
    """Each guesser from an address of its own, so that the limit per address (10 a minute) is not what holds."""
    make_user("alice")
    make_user("bob")
    for _ in range(LOCKOUT_AFTER):
        api_login("nobody", "wrong password", address="198.51.100.1")
        api_login("bob@example.com", "wrong password", address="198.51.100.2")
    # A name no account has locks out as a known one does (the lockout does not tell which exist) ...
    assert api_login("nobody", "wrong password", address="198.51.100.3").status_code == 429
    assert api_login("bob", PASSWORD, address="198.51.100.3").status_code == 429
    # ... and locks nobody else out.
    assert api_login("alice", PASSWORD, address="198.51.100.3").status_code == 200
    assert api_login("nobody@example.com", "wrong password", address="198.51.100.3").status_code == 401


def test_a_password_reset_lifts_the_lockout_under_the_username_too(make_user, mailoutbox):
    """allauth clears the count of each of the account's addresses after a reset: keyed by the string typed, a
    lockout under the username outlived the reset."""
    make_user("alice")
    for _ in range(LOCKOUT_AFTER):
        web_login("alice", "wrong password")
    assert web_login("alice", PASSWORD).status_code == 429
    browser = Client()
    assert browser.post("/accounts/password/reset/", {"email": "alice@example.com"}).status_code == 302
    form_url = browser.get(link_in(sent_to(mailoutbox, "alice@example.com")[-1], "/accounts/password/reset/key/")).url
    assert browser.post(form_url, {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD}).status_code == 302
    assert web_login("alice", NEW_PASSWORD).status_code == 302


def test_the_login_page_does_not_say_whether_a_name_exists(make_user):
    make_user("alice")
    known, unknown = web_login("alice", "wrong password"), web_login("nobody", "wrong password")
    assert known.status_code == unknown.status_code == 200
    assert known.context["form"].errors == unknown.context["form"].errors
    assert api_login("alice", "wrong password").json() == api_login("nobody", "wrong password").json()


def test_the_login_never_sends_the_browser_off_site(make_user):
    make_user("alice")
    for next_url in ("https://evil.example/", "//evil.example/", "https:evil.example"):
        response = Client().post(f"/accounts/login/?next={next_url}", {"login": "alice", "password": PASSWORD})
        assert response.status_code == 302 and response.url == "/", next_url
        response = Client().post("/accounts/login/", {"login": "alice", "password": PASSWORD, "next": next_url})
        assert response.url == "/", next_url
    response = Client().post("/accounts/login/?next=/games/new/", {"login": "alice", "password": PASSWORD})
    assert response.url == "/games/new/"


def test_sign_ups_from_one_address_are_limited_on_the_web_and_the_api_together(settings):
    settings.ACCOUNT_RATE_LIMITS = {**settings.ACCOUNT_RATE_LIMITS, "signup": "3/h/ip"}

    def web(name):
        return Client().post("/accounts/signup/", {"username": name, "email": f"{name}@example.com",
                                                   "password1": PASSWORD, "password2": PASSWORD})

    def api(name):
        return APIClient().post("/api/accounts/", {"username": name, "email": f"{name}@example.com",
                                                   "password": PASSWORD}, format="json")

    assert [web("ann").status_code, api("ben").status_code, web("cat").status_code] == [302, 201, 302]
    page, answer = web("dan"), api("eve")
    assert page.status_code == answer.status_code == 429
    assert "too many requests" in page.content.decode() and "Too many sign-ups" in answer.json()["detail"]
    assert 3000 < retry_after(page) <= 3600 and 3000 < retry_after(answer) <= 3600


def test_password_reset_requests_are_limited(settings, make_user):
    settings.ACCOUNT_RATE_LIMITS = {**settings.ACCOUNT_RATE_LIMITS, "reset_password": "2/m/ip"}
    make_user("alice")
    for _ in range(2):
        assert Client().post("/accounts/password/reset/", {"email": "alice@example.com"}).status_code == 302
    limited = Client().post("/accounts/password/reset/", {"email": "alice@example.com"})
    assert limited.status_code == 429 and 0 < retry_after(limited) <= 60


def test_rate_limits_off_turns_the_account_limits_off():
    script = "import django; django.setup(); from django.conf import settings; " \
             "import json; print(json.dumps(settings.ACCOUNT_RATE_LIMITS))"
    environment = {**os.environ, "DJANGO_SETTINGS_MODULE": "turnbased.settings"}
    read = [json.loads(subprocess.run([sys.executable, "-c", script], env={**environment, "RATE_LIMITS": value},
                                      capture_output=True, text=True, check=True).stdout)
            for value in ("off", "on")]
    assert read[0] is False
    assert read[1]["login_failed"] == "10/m/ip,5/5m/key"


def test_rate_limits_off_lets_every_attempt_through(settings, make_user):
    settings.ACCOUNT_RATE_LIMITS = False
    make_user("alice")
    for _ in range(LOCKOUT_AFTER + 2):
        assert api_login("alice", "wrong password").status_code == 401
    assert api_login("alice", PASSWORD).status_code == 200


def test_the_admin_logs_in_through_the_account_login_page():
    response = Client().get("/admin/login/?next=/admin/")
    assert response.status_code == 302 and response.url.startswith("/accounts/login/?next=")
