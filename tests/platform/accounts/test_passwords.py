"""Password change and reset by email, through the real pages, ending the sessions and tokens the user chooses."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from rest_framework.test import APIClient

from tests.platform.accounts.conftest import link_in, sent_to
from tests.platform.conftest import PASSWORD, api_token
from turnbased.accounts.models import ApiToken

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "another-long-pass-42"


def logged_in_browser(login: str = "alice", password: str = PASSWORD) -> Client:
    """Log in through the login page, as a browser does (so the session is listed under Sessions)."""
    browser = Client(HTTP_USER_AGENT="test browser")
    assert browser.post("/accounts/login/", {"login": login, "password": password}).status_code == 302
    return browser


def is_logged_in(browser: Client) -> bool:
    return browser.get("/accounts/settings/").status_code == 200


def works(key: str) -> bool:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client.get("/api/games/").status_code == 200


def change_password(browser: Client, **choices):
    return browser.post("/accounts/password/change/", {
        "oldpassword": PASSWORD, "password1": NEW_PASSWORD, "password2": NEW_PASSWORD, **choices,
    })


def test_changing_the_password_can_keep_the_other_sessions(alice):
    here, elsewhere = logged_in_browser(), logged_in_browser()
    response = change_password(here)  # "sign me out everywhere else" unticked
    assert response.status_code == 302
    assert is_logged_in(here) and is_logged_in(elsewhere)
    assert logged_in_browser(password=NEW_PASSWORD)


def test_changing_the_password_can_end_the_other_sessions(alice):
    here, elsewhere = logged_in_browser(), logged_in_browser()
    assert change_password(here, end_other_sessions="on").status_code == 302
    assert is_logged_in(here) and not is_logged_in(elsewhere)


def test_the_change_form_signs_out_elsewhere_and_keeps_tokens_unless_told(alice):
    api_token(alice, "bot")
    form = logged_in_browser().get("/accounts/password/change/").context["form"]
    assert form.fields["end_other_sessions"].initial is True
    assert not form.fields["revoke_tokens"].initial
    assert "bot (created" in str(form["revoke_tokens"])


def test_changing_the_password_revokes_the_chosen_tokens_only(alice):
    kept, revoked = api_token(alice, "kept"), api_token(alice, "revoked")
    revoked_id = ApiToken.objects.get(user=alice, name="revoked").pk
    assert change_password(logged_in_browser(), revoke_tokens=[revoked_id]).status_code == 302
    assert works(kept) and not works(revoked)


def test_a_wrong_current_password_changes_nothing(alice):
    key = api_token(alice)
    token_id = ApiToken.objects.get(user=alice).pk
    here, elsewhere = logged_in_browser(), logged_in_browser()
    response = here.post("/accounts/password/change/", {"oldpassword": "not it", "password1": NEW_PASSWORD,
                                                         "password2": NEW_PASSWORD, "end_other_sessions": "on",
                                                         "revoke_tokens": [token_id]})
    assert response.status_code == 200 and response.context["form"].errors["oldpassword"]
    assert is_logged_in(elsewhere) and works(key)


def reset_page(mailoutbox, email: str = "alice@example.com") -> tuple[Client, str]:
    """Ask for a reset link, follow it, and return the browser and the form's address."""
    browser = Client()
    assert browser.post("/accounts/password/reset/", {"email": email}).status_code == 302
    link = link_in(sent_to(mailoutbox, email)[-1], "/accounts/password/reset/key/")
    form_page = browser.get(link)
    assert form_page.status_code == 302 and form_page.url.endswith("-set-password/")  # the key leaves the URL
    return browser, form_page.url


def test_a_password_reset_by_email_ends_every_session_and_token_by_default(alice, mailoutbox):
    key, elsewhere = api_token(alice), logged_in_browser()
    browser, form_url = reset_page(mailoutbox)
    fields = browser.get(form_url).context["form"].fields
    assert fields["end_other_sessions"].initial is True
    response = browser.post(form_url, {  # as the form comes ticked
        "password1": NEW_PASSWORD, "password2": NEW_PASSWORD, "end_other_sessions": "on",
        "revoke_tokens": [token.pk for token in fields["revoke_tokens"].initial],
    })
    assert response.status_code == 302 and response.url == "/accounts/password/reset/key/done/"
    assert not works(key) and not is_logged_in(elsewhere)
    assert logged_in_browser(password=NEW_PASSWORD)
    assert any("password" in message.subject.lower() for message in sent_to(mailoutbox, "alice@example.com")[1:])


def test_a_password_reset_can_keep_sessions_and_tokens(alice, mailoutbox):
    key, elsewhere = api_token(alice), logged_in_browser()
    browser, form_url = reset_page(mailoutbox)
    assert browser.post(form_url, {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD}).status_code == 302
    assert works(key) and is_logged_in(elsewhere)


def test_a_reset_link_works_once(alice, mailoutbox):
    browser, form_url = reset_page(mailoutbox)
    link = link_in(sent_to(mailoutbox, "alice@example.com")[-1], "/accounts/password/reset/key/")
    browser.post(form_url, {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD})
    again = Client().get(link)
    assert again.status_code == 200 and again.context["token_fail"]


CSRF_TOKEN = re.compile(rb'(name="csrfmiddlewaretoken" value=|"X-CSRFToken": *)"[^"]*"')


def test_a_reset_for_an_address_with_no_account_mails_nobody_and_answers_the_same(alice, mailoutbox):
    """Issue 42: allauth mailed an address with no account that no account uses it, so anyone could have the site
    mail any address they liked."""
    known = Client().post("/accounts/password/reset/", {"email": "alice@example.com"}, follow=True)
    unknown = Client().post("/accounts/password/reset/", {"email": "nobody@example.com"}, follow=True)
    assert known.redirect_chain == unknown.redirect_chain == [("/accounts/password/reset/done/", 302)]
    assert known.status_code == unknown.status_code == 200
    assert CSRF_TOKEN.sub(rb"\1-", known.content) == CSRF_TOKEN.sub(rb"\1-", unknown.content)
    assert [message.to for message in mailoutbox] == [["alice@example.com"]]
    assert "/accounts/password/reset/key/" in mailoutbox[0].body


def test_the_sessions_page_lists_and_ends_the_other_sessions(alice):
    here, elsewhere = logged_in_browser(), logged_in_browser()
    page = here.get("/accounts/sessions/")
    assert page.status_code == 200 and len(page.context["sessions"]) == 2
    here.post("/accounts/sessions/")
    assert is_logged_in(here) and not is_logged_in(elsewhere)
