"""The request guards refuse what is not text (issue 42) before anything reads it, in the reader's language.

An outside probe sent a lone surrogate (``"\\ud800"``) in a choice field: DRF's refusal quoted it back ("... is
not a valid choice"), the answer could not be encoded, and the 500 that followed took 17 seconds under ``make
run``, where DEBUG's error page printed every local variable of every frame and then failed to encode as well.
The sweeps of the API (``api/test_error_sweep.py``) and of the site's forms (``test_every_form_...``) walk
every field; this holds what they do not: DEBUG on, languages and declared charsets. The mail webhooks'
guard is held in ``mail/test_text_that_is_not_valid.py``, with the rest of email.
"""

from __future__ import annotations

import json

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from tests.platform.conftest import api_token
from tests.platform.play.test_bad_input import database_rows
from turnbased.chat.models import Message

pytestmark = pytest.mark.django_db

# What the probe sent, each to the endpoint that takes it.
PROBED = [
    ("/api/games/", {"game": "\ud800", "players": 2}, "game"),
    ("/api/games/", {"game": "love-letter", "visibility": "\ud800"}, "visibility"),
    ("/api/games/", {"game": "love-letter", "time_control": {"kind": "\ud800"}}, "time_control.kind"),
    ("/api/webhooks/", {"url": "https://example.com/hook", "kinds": ["\ud800"]}, "kinds.0"),
]


@pytest.mark.parametrize(("path", "body", "place"), PROBED, ids=[place for _, _, place in PROBED])
def test_a_lone_surrogate_in_a_choice_field_is_a_400_before_any_statement_even_with_debug_on(alice, settings, path,
                                                                                           body, place):
    settings.DEBUG = True  # make run: a server error was DEBUG's technical page, 17 seconds of it
    client = Client(raise_request_exception=True)  # an exception would fail the test, not hide in a 500
    token = api_token(alice)
    before = database_rows()
    with CaptureQueriesContext(connection) as statements:
        answer = client.post(path, json.dumps(body), content_type="application/json",
                             HTTP_AUTHORIZATION=f"Token {token}")
    assert answer.status_code == 400 and answer["Content-Type"].split(";")[0].endswith("json")
    detail = answer.json()["detail"]
    assert f"{place}: " in detail and "U+D800" in detail
    assert len(statements) == 0  # refused before the token was read: nothing of the request reached the database
    assert database_rows() == before


def worded(language: str, english: str) -> str:
    with translation.override(language):
        found = translation.gettext(english)
    assert found != english, f"no {language} words for {english!r}"
    return found


def test_the_api_says_where_the_text_is_not_valid_in_the_readers_language(alice):
    client = Client()
    token = {"HTTP_AUTHORIZATION": f"Token {api_token(alice)}"}
    query = client.get("/api/games/?page_size=%FF", HTTP_ACCEPT_LANGUAGE="hu", **token)
    assert query.status_code == 400
    assert query.json()["detail"] == worded("hu", 'The query string is not valid text: "%(field)s" is not '
                                                  '%(encoding)s once its percent-escapes are decoded.') % {
        "field": "page_size=%FF", "encoding": "UTF-8"}
    header = client.get("/api/games/", HTTP_ACCEPT_LANGUAGE="de", HTTP_IF_NONE_MATCH="\"caf\xe9\"", **token)
    assert header.status_code == 400
    assert header.json()["detail"] == worded("de", "The header %(name)s is not valid text: its value is not "
                                                   "UTF-8.") % {"name": "If-None-Match"}
    body = client.post("/api/games/", '{"game": "\\udc00"}', content_type="application/json",
                       HTTP_ACCEPT_LANGUAGE="de", **token)
    assert body.status_code == 400
    assert body.json()["detail"].startswith(worded("de", "JSON parse error - %(detail)s") % {"detail": "game: "})


def test_a_page_answers_a_plain_400_page_that_says_why_in_the_readers_language(started_game, alice):
    client = Client()
    client.force_login(alice)
    page = client.get(f"/games/{started_game.pk}/?seq=%C3", HTTP_ACCEPT_LANGUAGE="hu")
    assert page.status_code == 400 and page["Content-Type"].startswith("text/html")
    text = page.content.decode()
    assert worded("hu", "Bad request (400)") in text
    assert "seq=%C3" in text and worded("hu", "The page could not read what your browser sent. Nothing was "
                                              "changed.") in text
    before = database_rows()
    posted = client.post(f"/games/{started_game.pk}/chat/post/", "text=caf%E9",
                         content_type="application/x-www-form-urlencoded")
    assert posted.status_code == 400 and b"text=caf%E9" in posted.content
    assert database_rows() == before


def test_a_form_is_utf8_and_a_query_is_read_in_the_charset_the_request_declares(started_game, alice, settings):
    settings.DEBUG = True  # Django's own refusal of another charset would be DEBUG's technical page
    client = Client()
    client.force_login(alice)
    path = f"/games/{started_game.pk}/chat/post/"
    utf8 = client.post(path, "text=caf%C3%A9", content_type="application/x-www-form-urlencoded; charset=UTF-8")
    assert utf8.status_code == 302 and Message.objects.get().text == "café"
    latin = client.post(path, "text=caf%E9", content_type="application/x-www-form-urlencoded; charset=iso-8859-1")
    assert latin.status_code == 400 and b"charset iso-8859-1" in latin.content
    # UTF-7 writes "\ud800" as "+2AA-": Django would decode the query to a string nothing can encode again.
    query = client.get(f"/games/{started_game.pk}/?seq=%2B2AA-", CONTENT_TYPE="text/plain; charset=utf-7")
    assert query.status_code == 400 and b"UTF-7" in query.content
    assert Message.objects.count() == 1
