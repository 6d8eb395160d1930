"""Sign-up on the web and through the API: verification first, and no answer tells whether an address is registered."""

from __future__ import annotations

import smtplib

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.test import Client
from rest_framework.test import APIClient

from tests.platform.accounts.conftest import link_in, sent_to
from tests.platform.conftest import PASSWORD

pytestmark = pytest.mark.django_db
User = get_user_model()


def web_signup(client: Client, username: str, email: str, query: str = ""):
    return client.post(f"/accounts/signup/{query}", {
        "username": username, "email": email, "password1": PASSWORD, "password2": PASSWORD,
    })


def api_signup(client: APIClient, username: str, email: str, password: str = PASSWORD):
    return client.post("/api/accounts/", {"username": username, "email": email, "password": password}, format="json")


def api_token(client: APIClient, login: str, password: str = PASSWORD, **extra):
    return client.post("/api/auth/token/", {"username": login, "password": password, **extra}, format="json")


def test_the_whole_api_flow_sign_up_follow_the_link_get_a_token_and_play(mailoutbox):
    client = APIClient()
    answer = api_signup(client, "ann", "Ann@Example.com")
    assert answer.status_code == 201 and "Check your email" in answer.json()["detail"]
    assert set(answer.json()) == {"detail"}  # no token, no id: nothing that differs for a registered address
    refused = api_token(client, "ann")
    assert refused.status_code == 403 and "Confirm your email address" in refused.json()["detail"]

    (message,) = sent_to(mailoutbox, "ann@example.com")
    confirm = link_in(message, "/accounts/confirm-email/")
    page = Client()
    assert page.get(confirm).status_code == 200  # a page with a button: link scanners confirm nothing
    assert not EmailAddress.objects.get(email="ann@example.com").verified
    assert page.post(confirm).status_code == 302
    assert EmailAddress.objects.get(email="ann@example.com").verified

    token = api_token(client, "ann@example.com", name="my bot")  # the address works as the login too
    assert token.status_code == 200 and token.json()["name"] == "my bot"
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.json()['token']}")
    assert client.get("/api/games/").status_code == 200


def test_api_sign_up_with_a_registered_address_answers_the_same_and_mails_its_owner(make_user, mailoutbox):
    make_user("alice")
    fresh = api_signup(APIClient(), "newcomer", "fresh@example.com")
    taken = api_signup(APIClient(), "intruder", "ALICE@example.com")
    assert (taken.status_code, taken.json()) == (fresh.status_code, fresh.json()) == (201, taken.json())
    assert not User.objects.filter(username="intruder").exists()
    (warning,) = sent_to(mailoutbox, "alice@example.com")
    assert "already" in warning.body and "/accounts/password/reset/" in warning.body


def test_web_sign_up_with_a_registered_address_answers_the_same_and_mails_its_owner(make_user, mailoutbox):
    make_user("alice")
    fresh = web_signup(Client(), "newcomer", "fresh@example.com")
    taken = web_signup(Client(), "intruder", "Alice@Example.COM")
    assert (taken.status_code, taken.url) == (fresh.status_code, fresh.url) == (302, "/accounts/confirm-email/")
    assert not User.objects.filter(username="intruder").exists()
    assert len(sent_to(mailoutbox, "alice@example.com")) == 1


def test_an_unverified_account_cannot_log_in_on_the_web_and_gets_a_new_link(make_user, mailoutbox):
    make_user("dora", email_verified=False)
    response = Client().post("/accounts/login/", {"login": "dora", "password": PASSWORD})
    assert response.status_code == 302 and response.url == "/accounts/confirm-email/"
    assert link_in(sent_to(mailoutbox, "dora@example.com")[-1], "/accounts/confirm-email/")


def test_api_sign_up_checks_the_same_rules_as_the_web_form(make_user):
    make_user("alice")
    response = api_signup(APIClient(), "Alice", "not-an-address", password="alice")
    assert response.status_code == 422  # each field a string the schema allows: refused for what it says
    errors = response.json()["errors"]
    assert set(errors) == {"username", "email", "password"}
    assert "taken" in errors["username"][0]
    page = web_signup(Client(), "Alice", "x@example.com")
    assert page.status_code == 200 and b"That username is taken." in page.content


def test_sign_up_never_sends_the_browser_off_site():
    response = web_signup(Client(), "erin", "erin@example.com", query="?next=https://evil.example/")
    assert response.status_code == 302 and response.url == "/accounts/confirm-email/"
    response = Client().post("/accounts/signup/", {
        "username": "fred", "email": "fred@example.com", "password1": PASSWORD, "password2": PASSWORD,
        "next": "//evil.example/",
    })
    assert "evil.example" not in response.url


def test_following_the_link_after_a_sign_up_with_an_off_site_next_stays_here(mailoutbox):
    client = Client()
    web_signup(client, "erin", "erin@example.com", query="?next=https://evil.example/steal")
    response = client.post(link_in(mailoutbox[-1], "/accounts/confirm-email/"))
    assert response.status_code == 302 and "evil.example" not in response.url
    assert client.get("/").context["user"].username == "erin"


def test_sign_up_keeps_an_on_site_next(mailoutbox):
    client = Client()
    web_signup(client, "erin", "erin@example.com", query="?next=/games/new/")
    response = client.post(link_in(mailoutbox[-1], "/accounts/confirm-email/"))
    assert response.url == "/games/new/"


def test_api_sign_up_gives_no_session():
    response = api_signup(APIClient(), "ann", "ann@example.com")
    assert response.status_code == 201 and not response.cookies


def test_a_mail_server_failure_does_not_fail_the_sign_up(monkeypatch, caplog):
    def refuse(self, messages):
        raise smtplib.SMTPServerDisconnected("down")

    monkeypatch.setattr("django.core.mail.backends.locmem.EmailBackend.send_messages", refuse)
    assert web_signup(Client(), "erin", "erin@example.com").status_code == 302
    assert api_signup(APIClient(), "fred", "fred@example.com").status_code == 201
    assert "not sent" in caplog.text
