"""The account pages, the account API, allauth's pages and emails, and the site's own answers (413, 429, 503,
cursors) in English, Hungarian and German: words, dates and plurals in the reader's language, machine fields
unchanged."""

from __future__ import annotations

import gettext
import re
from datetime import datetime
from datetime import timezone as dt_timezone
from pathlib import Path

import allauth
import django
import pytest
import rest_framework
from babel.messages.pofile import read_po
from django.conf import settings
from django.test import Client
from django.utils import timezone, translation
from rest_framework.test import APIClient

from tests.platform.accounts.conftest import sent_to
from tests.platform.conftest import PASSWORD, api_token
from turnbased.accounts.services.languages import language_choose
from turnbased.accounts.templatetags.time_zones import when
from turnbased.kit.texts.allauth_texts import TEXTS
from turnbased.kit.texts.framework_texts import TEXTS as FRAMEWORK_TEXTS
from turnbased.kit.http.limits import Refusal

pytestmark = pytest.mark.django_db


def browser(user=None, language: str = "") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language) if language else Client()
    if user is not None:
        client.force_login(user)
    return client


def test_the_settings_page_speaks_the_browsers_language(alice):
    page = browser(alice, "hu").get("/accounts/settings/").content.decode()
    assert '<html lang="hu">' in page
    assert "<h1>Beállítások</h1>" in page and ">Mentés</button>" in page and "Időzóna" in page
    assert "Emlékeztető a határidő előtt (óra)" in page and "Lépések megerősítése a táblán" in page
    # The time-zone script's button is worded by the page: no English in static/js/time-zone.js.
    assert 'data-use-zone-label="Legyen a böngészőm időzónája ({zone})"' in page
    german = browser(alice, "de").get("/accounts/settings/").content.decode()
    assert "<h1>Einstellungen</h1>" in german and "Wo du angemeldet bist" in german


def test_the_accounts_language_wins_over_the_browsers(alice):
    language_choose(user=alice, language="de")
    page = browser(alice, "hu").get("/accounts/settings/").content.decode()
    assert "<h1>Einstellungen</h1>" in page and ">Speichern</button>" in page


def test_the_tokens_page_writes_dates_as_the_language_does(alice):
    key = api_token(alice, "laptop script")
    APIClient(HTTP_AUTHORIZATION=f"Token {key}").get("/api/tokens/")  # used: "last used" says how long ago
    pages = {language: browser(alice, language).get("/accounts/tokens/").content.decode()
             for language in ("en", "hu", "de")}
    today = timezone.localdate()
    assert f"<td>{today.day} {today:%b} {today.year}</td>" in pages["en"] and "<small>0\xa0minutes ago</small>" in pages["en"]
    assert f"<td>{today:%Y}. {today:%m}. {today:%d}.</td>" in pages["hu"] and "<small>0\xa0perc ezelőtt</small>" in pages["hu"]
    assert f"<td>{today:%d}.{today:%m}.{today:%Y}</td>" in pages["de"] and "<small>0\xa0Minuten her</small>" in pages["de"]
    assert "<th>Zuletzt benutzt</th>" in pages["de"] and "<th>Utoljára használva</th>" in pages["hu"]


def test_a_moment_is_worded_as_each_language_writes_it():
    moment = datetime(2026, 7, 1, 12, 0, tzinfo=dt_timezone.utc)
    expected = {
        "en": ("Wed 1 Jul, 12:00 UTC", "Wed 1 Jul 2026, 12:00 UTC"),
        "hu": ("július 1. (sze) 12:00 UTC", "2026. július 1. 12:00 UTC"),
        "de": ("Mi., 1. Juli, 12:00 UTC", "1. Juli 2026, 12:00 UTC"),
    }
    for language, (short, with_year) in expected.items():
        with translation.override(language), timezone.override(dt_timezone.utc):
            assert (when(moment), when(moment, "year")) == (short, with_year), language


CURSOR_REFUSED = {
    "": "The cursor is not one this list gave out: follow next or previous as they are, or start without one.",
    "de": "Diesen Cursor hat diese Liste nicht ausgegeben: Folge next oder previous unverändert oder beginne ohne "
          "Cursor.",
    "hu": "Ezt a kurzort nem ez a lista adta ki: kövesd a next vagy a previous linket változatlanul, vagy kezdd "
          "kurzor nélkül.",
}


def test_an_api_error_answers_in_the_requests_language_and_keeps_its_shape(alice):
    key = api_token(alice)
    for language, message in (("", "No such token."), ("de", "Dieses Token gibt es nicht."),
                              ("hu", "Nincs ilyen token.")):
        client = APIClient(HTTP_ACCEPT_LANGUAGE=language) if language else APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
        answer = client.delete("/api/tokens/999999/")
        title = {"": "Not Found", "de": "Nicht gefunden", "hu": "Nem található"}[language]
        assert (answer.status_code, answer.json()) == (404, {"type": "about:blank", "title": title, "status": 404,
                                                             "detail": message})  # a problem document (issue 42)
        # A cursor of the right shape the list did not give out names no page (404); one that is not base64 breaks
        # the schema (400, naming the field). Both say so in the language asked.
        forged = client.get("/api/tokens/?cursor=forged")
        assert (forged.status_code, forged.json()["detail"]) == (404, CURSOR_REFUSED[language])
        invalid = client.get("/api/tokens/?cursor=forged!")
        assert invalid.status_code == 400 and invalid.json()["errors"] == {"cursor": [CURSOR_REFUSED[language]]}
    wrong = APIClient(HTTP_ACCEPT_LANGUAGE="de").post("/api/auth/token/", {"username": "alice", "password": "nope"},
                                                      format="json")
    assert wrong.status_code == 401 and wrong.json()["detail"] == "Falscher Benutzername oder falsches Passwort."


def test_without_accept_language_the_api_answers_in_the_accounts_language(alice):
    language_choose(user=alice, language="hu")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {api_token(alice)}")
    answer = client.delete("/api/tokens/999999/")
    assert answer.status_code == 404 and answer.json()["detail"] == "Nincs ilyen token."


def test_a_name_mixing_alphabets_is_refused_in_the_readers_words():
    answer = APIClient(HTTP_ACCEPT_LANGUAGE="de").post(
        "/api/accounts/", {"username": "\u0430lice", "email": "mixed@example.com", "password": PASSWORD}, format="json")
    assert answer.status_code == 422  # a string the schema allows, refused at sign-up
    assert answer.json()["errors"]["username"] == [
        "Verwende die Buchstaben eines einzigen Alphabets: Dieser Name mischt Kyrillisch und Lateinisch."]


@pytest.mark.parametrize(("language", "one", "five"), [
    ("en", "Try again in 1 second.", "Try again in 5 seconds."),
    ("hu", "Próbáld újra 1 másodperc múlva.", "Próbáld újra 5 másodperc múlva."),
    ("de", "Versuche es in 1 Sekunde noch einmal.", "Versuche es in 5 Sekunden noch einmal."),
])
def test_a_refusal_by_rate_counts_its_seconds_in_the_readers_language(language, one, five, settings):
    settings.RATE_LIMITS_ON = True
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK,
                               "DEFAULT_THROTTLE_RATES": {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
                                                          "moves": "1/min"}}
    with translation.override(language):
        assert Refusal(scope="moves", wait=1).detail.endswith(one)
        assert Refusal(scope="moves", wait=5).detail.endswith(five)
        refused = Refusal(scope="moves", wait=5).detail
    first = {"en": "Too many moves (at most 1 per minute).", "hu": "Túl sok lépés (percenként legfeljebb 1).",
             "de": "Zu viele Züge (höchstens 1 pro Minute)."}[language]
    assert refused == f"{first} {five}"


def test_the_rate_limited_page_counts_its_seconds_in_german(settings):
    settings.ACCOUNT_RATE_LIMITS = {**settings.ACCOUNT_RATE_LIMITS, "signup": "1/h/ip"}
    client = browser(language="de")
    client.post("/accounts/signup/", {"username": "ann", "email": "ann@example.com", "password1": PASSWORD,
                                      "password2": PASSWORD})
    page = client.post("/accounts/signup/", {"username": "ben", "email": "ben@example.com", "password1": PASSWORD,
                                             "password2": PASSWORD})
    assert page.status_code == 429
    text = page.content.decode()
    assert "<h1>Zu viele Anfragen</h1>" in text and "Du hast zu viele Anfragen gesendet." in text
    assert re.search(r"Versuche es in \d+ Sekunden noch einmal\.", text)


def test_a_body_too_large_is_refused_in_the_requests_language():
    size = settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1
    page = Client(HTTP_ACCEPT_LANGUAGE="hu").post("/accounts/settings/", data=b"x", content_type="text/plain",
                                                   CONTENT_LENGTH=str(size))
    assert page.status_code == 413
    text = page.content.decode()
    assert '<html lang="hu">' in text and "Túl nagy kérés (413)" in text and "Semmit sem mentettünk." in text
    api = APIClient(HTTP_ACCEPT_LANGUAGE="de").generic("POST", "/api/tokens/", b"x", content_type="application/json",
                                                        CONTENT_LENGTH=str(size))
    assert api.status_code == 413
    assert api.json()["detail"] == (f"Der Inhalt der Anfrage ist größer als die Grenze von "
                                    f"{settings.DATA_UPLOAD_MAX_MEMORY_SIZE} Bytes.")
    assert api.json()["title"] == "Inhalt zu groß"  # refused before LocaleMiddleware: worded in the request's language


def test_a_bad_cursor_is_refused_in_the_requests_language(alice):
    client = APIClient(HTTP_ACCEPT_LANGUAGE="hu")
    client.credentials(HTTP_AUTHORIZATION=f"Token {api_token(alice)}")
    answer = client.get("/api/tokens/?page_size=0")
    assert answer.status_code == 400
    assert answer.json()["errors"] == {"page_size": ["A page_size 1 és 200 közötti egész szám lehet."]}


# allauth's pages and emails


def test_allauths_pages_speak_the_sites_words(alice):
    german = browser(language="de").get("/accounts/login/").content.decode()
    assert "Anmelden" in german and "Benutzername oder E-Mail-Adresse" in german and "Passwort vergessen?" in german
    hungarian = browser(language="hu").get("/accounts/login/").content.decode()
    assert "Bejelentkezés" in hungarian and "Felhasználónév vagy e-mail-cím" in hungarian
    assert "Belépés" not in hungarian  # allauth's own word, which the glossary words otherwise
    sessions = browser(alice, "hu").get("/accounts/sessions/").content.decode()
    assert "IP-cím" in sessions and "Vissza a beállításokhoz" in sessions


def test_a_sign_up_from_a_german_browser_is_confirmed_in_german(mailoutbox):
    client = browser(language="de")
    client.post("/accounts/signup/", {"username": "ann", "email": "ann@example.com", "password1": PASSWORD,
                                      "password2": PASSWORD})
    (message,) = sent_to(mailoutbox, "ann@example.com")
    assert message.subject == "[turnbased] Bitte bestätige deine E-Mail-Adresse"
    assert message.body.startswith("Hallo von turnbased!")
    assert "Du erhältst diese E-Mail, weil ann deine E-Mail-Adresse angegeben hat" in message.body
    assert "Sie " not in message.body and "Ihre" not in message.body  # informal, as the whole site


def test_a_password_reset_email_is_in_the_accounts_language_whoever_asks(alice, mailoutbox):
    language_choose(user=alice, language="hu")
    assert browser(language="en").post("/accounts/password/reset/", {"email": "alice@example.com"}).status_code == 302
    (message,) = sent_to(mailoutbox, "alice@example.com")
    assert message.subject == "[turnbased] Új jelszó beállítása"
    assert message.body.startswith("Szia, itt a turnbased!")
    assert "Azért kaptad ezt az e-mailt, mert te (vagy valaki más) új jelszót kértél a fiókodhoz." in message.body
    assert "Ha elfelejtetted volna, a felhasználóneved: alice." in message.body


def test_the_texts_we_word_again_are_still_allauths_and_ours_win():
    """Each text of turnbased/kit/texts/allauth_texts.py is one allauth uses (an upgrade that changes one is noticed here), and
    the project catalog's wording is the one read, not allauth's."""
    folder = Path(allauth.__file__).parent / "locale"
    for language in ("hu", "de"):
        with (folder / language / "LC_MESSAGES" / "django.po").open("rb") as source:
            theirs = read_po(source, locale=language)
        with (Path(settings.BASE_DIR) / "locale" / language / "LC_MESSAGES" / "django.po").open("rb") as source:
            ours = read_po(source, locale=language)
        for text in TEXTS:
            assert theirs.get(text) is not None, f"allauth no longer uses {text!r}"
            with translation.override(language):
                assert translation.gettext(text) == ours.get(text).string != "", (language, text)
    with translation.override("de"):
        assert translation.gettext("Sign In") == "Anmelden"  # allauth's own German says "Anmeldung"


def test_the_frameworks_texts_we_word_again_are_still_theirs_and_ours_win():
    """Each text of turnbased/kit/texts/framework_texts.py is one Django or DRF uses, and ours (informal) is the one read."""
    folders = [Path(django.__file__).parent / "conf" / "locale", Path(rest_framework.__file__).parent / "locale"]
    for language in ("hu", "de"):
        theirs = [gettext.translation("django", localedir=folder, languages=[language]) for folder in folders]
        with (Path(settings.BASE_DIR) / "locale" / language / "LC_MESSAGES" / "django.po").open("rb") as source:
            ours = read_po(source, locale=language)
        for text in FRAMEWORK_TEXTS:
            assert any(catalog.gettext(text) != text for catalog in theirs), f"Django and DRF no longer use {text!r}"
            with translation.override(language):
                assert translation.gettext(text) == ours.get(text).string != "", (language, text)
    with translation.override("de"):
        assert "Sie" not in translation.gettext("You do not have permission to perform this action.")
