"""Each person reads the site in their language: the account's choice, else the switcher's cookie, else the browser's
(pages), or the request's Accept-Language, else the account's (the API, the stream); emails and webhooks in the
recipient's. Choosing one costs no statement on a page."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from tests.platform.conftest import PASSWORD, api_token
from turnbased.accounts.models import profile_of
from turnbased.accounts.readers import for_reader, reader_settings
from turnbased.accounts.services.languages import language_choose
from turnbased.kit.errors import InvalidRequest
from turnbased.events.models import Event, EventKind
from turnbased.events.wording import worded_payload
from turnbased.play import services

pytestmark = pytest.mark.django_db

LOG_IN = {"en": "Log in", "hu": "Bejelentkezés", "de": "Anmelden"}
LOBBY = {"en": ">Lobby<", "hu": ">Lobbi<", "de": ">Lobby<"}


def _page(client: Client, path: str = "/accounts/login/", **headers) -> str:
    response = client.get(path, **headers)
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.parametrize("header, language", [("hu", "hu"), ("de-DE,de;q=0.9,en;q=0.5", "de"),
                                              ("fr-FR, hu;q=0.3", "hu"), ("", "en"), ("fr", "en")])
def test_a_visitor_reads_the_language_their_browser_prefers(header, language):
    page = _page(Client(), HTTP_ACCEPT_LANGUAGE=header)
    assert f'<html lang="{language}">' in page
    assert LOG_IN[language] in page
    assert all(LOG_IN[other] not in page for other in LOG_IN if other != language and LOG_IN[other] != "Log in")


def test_every_page_offers_every_language_named_in_itself():
    page = _page(Client(), HTTP_ACCEPT_LANGUAGE="de")
    assert 'action="/accounts/language/"' in page
    for code, name in (("en", "English"), ("hu", "Magyar"), ("de", "Deutsch")):
        assert f'<option value="{code}" lang="{code}"' in page and f">{name}</option>" in page
    assert '<option value="de" lang="de" selected>' in page


def test_a_visitors_choice_is_kept_in_a_cookie_and_beats_the_browser():
    client = Client()
    response = client.post("/accounts/language/", {"language": "de", "next": "/accounts/login/?next=/x/"},
                           HTTP_ACCEPT_LANGUAGE="hu")
    assert response.status_code == 302 and response["Location"] == "/accounts/login/?next=/x/"
    assert response.cookies["django_language"].value == "de"
    assert LOG_IN["de"] in _page(client, HTTP_ACCEPT_LANGUAGE="hu")


@pytest.mark.parametrize("body", [{"language": "xx"}, {"language": ""}, {}, {"language": "en-gb-x-long" * 5}])
def test_a_language_the_site_does_not_speak_is_refused_and_changes_nothing(body, alice):
    client = Client()
    client.force_login(alice)
    response = client.post("/accounts/language/", body)
    assert response.status_code == 400 and "django_language" not in response.cookies
    assert profile_of(alice).language == ""


def test_the_switcher_goes_back_only_to_this_site():
    response = Client().post("/accounts/language/", {"language": "hu", "next": "https://elsewhere.example/"})
    assert response.status_code == 302 and response["Location"] == "/"


def test_the_switcher_answers_only_posts():
    assert Client().get("/accounts/language/").status_code == 405


def test_a_persons_choice_is_kept_on_their_account_and_beats_cookie_and_browser(alice):
    client = Client()
    client.force_login(alice)
    client.post("/accounts/language/", {"language": "hu", "next": "/"})
    assert profile_of(alice).language == "hu"
    client.cookies["django_language"] = "de"
    page = _page(client, "/", HTTP_ACCEPT_LANGUAGE="de")
    assert '<html lang="hu">' in page and LOBBY["hu"] in page
    # Another browser, signed in as alice, reads Hungarian too.
    other = Client()
    other.force_login(alice)
    assert '<html lang="hu">' in _page(other, "/", HTTP_ACCEPT_LANGUAGE="en")


def test_a_person_who_chose_nothing_reads_their_browsers_language(alice):
    client = Client()
    client.force_login(alice)
    assert '<html lang="de">' in _page(client, "/", HTTP_ACCEPT_LANGUAGE="de")


def test_the_settings_form_keeps_the_language(alice):
    client = Client()
    client.force_login(alice)
    page = _page(client, "/accounts/settings/")
    assert 'name="language"' in page
    form = {"language": "de", "time_zone": "Europe/Berlin", "reminder_lead_hours": 12, "confirm_moves": "on"}
    response = client.post("/accounts/settings/", form, follow=True)
    assert profile_of(alice).language == "de"
    assert '<html lang="de">' in response.content.decode()
    response = client.post("/accounts/settings/", {**form, "language": "tlh"})
    assert response.status_code == 200 and profile_of(alice).language == "de"


def test_the_api_reads_and_sets_the_language(alice, api_client_for):
    api = api_client_for(alice)
    assert api.get("/api/me/").json()["language"] == ""
    assert api.patch("/api/me/", {"language": "hu"}, format="json").json()["language"] == "hu"
    assert profile_of(alice).language == "hu"
    refused = api.patch("/api/me/", {"language": "xx"}, format="json")
    assert refused.status_code == 400 and profile_of(alice).language == "hu"
    assert api.patch("/api/me/", {"language": ""}, format="json").json()["language"] == ""


def test_the_api_answers_in_accept_language_else_in_the_accounts(alice, api_client_for):
    language_choose(user=alice, language="hu")
    api = api_client_for(alice)
    # The refusal of a language the site does not speak, in each language; the field stays English.
    in_hungarian = api.patch("/api/me/", {"language": "xx"}, format="json").json()["errors"]
    in_german = api.patch("/api/me/", {"language": "xx"}, format="json", HTTP_ACCEPT_LANGUAGE="de").json()["errors"]
    in_english = api.patch("/api/me/", {"language": "xx"}, format="json", HTTP_ACCEPT_LANGUAGE="en").json()["errors"]
    assert in_english["language"] == ["'xx' is not a language of this site; choose one of: en, de, hu."]
    assert in_german["language"] != in_english["language"] != in_hungarian["language"]
    assert "xx" in in_german["language"][0] and "xx" in in_hungarian["language"][0]


def test_a_sign_up_keeps_the_language_it_was_made_in(client):
    form = {"username": "zsofi", "email": "zsofi@example.com", "password1": PASSWORD, "password2": PASSWORD}
    client.post("/accounts/signup/", form, HTTP_ACCEPT_LANGUAGE="hu")
    assert profile_of(_user("zsofi")).language == "hu"
    Client().post("/accounts/signup/", {**form, "username": "kim", "email": "kim@example.com"})
    assert profile_of(_user("kim")).language == ""


def _user(name):
    from django.contrib.auth import get_user_model

    return get_user_model().objects.get(username=name)


def test_for_reader_words_a_block_in_the_recipients_language_and_falls_back_to_the_active_one(alice, bob):
    language_choose(user=alice, language="de")
    with translation.override("hu"):
        with for_reader(alice):
            assert translation.get_language() == "de"
        with for_reader(bob):  # bob chose nothing: the active language stays
            assert translation.get_language() == "hu"
        assert translation.get_language() == "hu"


def test_a_changed_language_is_read_afresh(alice):
    assert reader_settings(alice).language == ""
    language_choose(user=alice, language="de")
    assert reader_settings(alice).language == "de"
    with pytest.raises(InvalidRequest):
        language_choose(user=alice, language="xx")
    assert reader_settings(alice).language == "de"


def test_a_move_event_holds_no_words_and_is_worded_for_its_reader(started_game, alice, bob):
    services.submit_move(game_id=started_game.pk, user=alice, expected_seq=started_game.seq, text="handmaid")
    event = Event.objects.get(user=bob, kind=EventKind.MOVE_PLAYED)
    assert "text" not in event.payload and all("text" not in entry for entry in event.payload["entries"])
    with translation.override("en"):
        english = worded_payload(event)
    with translation.override("hu"):
        hungarian = worded_payload(event)
    assert english["text"] == english["entries"][0]["text"] and english["text"].startswith("alice ")
    assert english["name"] == f"Love Letter #{started_game.pk}"
    assert hungarian["entries"][0].keys() == english["entries"][0].keys()
    assert {key: value for key, value in hungarian.items() if key not in ("text", "entries", "name")} == {
        key: value for key, value in english.items() if key not in ("text", "entries", "name")}


def test_the_stream_words_its_events_in_accept_language_else_the_accounts(started_game, alice, bob):
    services.submit_move(game_id=started_game.pk, user=alice, expected_seq=started_game.seq, text="handmaid")
    token = api_token(bob)
    client = Client(HTTP_AUTHORIZATION=f"Token {token}")

    def stream(**headers) -> str:
        response = client.get("/api/stream/?last_event_id=0", **headers)
        assert response.status_code == 200, response.content
        return response.content.decode()

    event = Event.objects.get(user=bob, kind=EventKind.MOVE_PLAYED)
    with translation.override("de"):
        german = worded_payload(event)["text"]
    with translation.override("en"):
        english = worded_payload(event)["text"]
    assert german in stream(HTTP_ACCEPT_LANGUAGE="de")
    assert english in stream()
    language_choose(user=bob, language="de")
    assert german in stream()
    assert english in stream(HTTP_ACCEPT_LANGUAGE="en")


@pytest.mark.parametrize("path", ["/", "/games/{id}/", "/accounts/settings/"])
def test_a_page_in_another_language_costs_no_statement_more(path, started_game, alice):
    client = Client()
    client.force_login(alice)
    url = path.format(id=started_game.pk)
    counts = {}
    for language in ("en", "hu", "de"):
        language_choose(user=alice, language=language)
        client.get(url)  # the zone and language are cached after the first read
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
        counts[language] = len(queries)
    assert counts["hu"] == counts["en"] == counts["de"], counts
