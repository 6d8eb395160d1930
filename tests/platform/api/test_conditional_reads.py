"""Reads carry an ETag; sending it back in If-None-Match gets an empty 304 until the answer changes.

Every GET of the API answers conditionally (the URL configuration is walked, so a new endpoint
cannot escape), but for the few listed with their reason; the reads a client polls are each
checked for the whole round: tag, 304, and a new tag once a move changes what it says.
"""

from __future__ import annotations

import pytest
from django.urls import URLPattern, URLResolver, get_resolver

from tests.platform.play.costs import token_client
from turnbased.kit.api.conditional import is_conditional
from turnbased.chat import services as chat_services
from turnbased.play import services

pytestmark = pytest.mark.django_db

# The reads a client polls while a game goes on; a move (and a chat message) changes each of them (a past
# position too: it says which is the latest).
READS = [
    "/api/games/{id}/", "/api/games/{id}/legal-moves/", "/api/games/{id}/history/?since=0", "/api/games/{id}/text/",
    "/api/games/{id}/positions/{seq}/", "/api/games/{id}/messages/", "/api/me/turns/", "/api/games/",
]
# GETs of the API that answer without an ETag, and why.
UNCONDITIONAL = {
    "api-schema": "the API's description, generated from the code: fetched once, not polled",
    "api-docs": "a page for people (Swagger UI), not data",
    "api-game-record": "a file to download, which carries the moment it was made: no two answers are the same",
    "api-stream": "an event stream that stays open (text/event-stream): it resumes with Last-Event-ID instead",
}


def _change(game, alice, bob) -> None:
    """Change what every read says: a move (alice's turn passes to bob), and a word at the table."""
    services.submit_move(game_id=game.pk, user=alice, expected_seq=0, move={"card": "handmaid"})
    chat_services.message_post(game_id=game.pk, user=bob, text="well played")


@pytest.mark.parametrize("path", READS)
def test_an_unchanged_read_answers_304_with_no_body_and_a_move_changes_the_tag(started_game, alice, bob, path):
    client = token_client(alice)
    url = path.format(id=started_game.pk, seq=started_game.seq)
    first = client.get(url)
    tag = first["ETag"]
    assert first.status_code == 200 and tag.startswith('"') and len(tag) > 10
    assert "private" in first["Cache-Control"] and "no-cache" in first["Cache-Control"]
    again = client.get(url, HTTP_IF_NONE_MATCH=tag)
    assert again.status_code == 304 and again.content == b"" and again["ETag"] == tag
    assert client.get(url, HTTP_IF_NONE_MATCH='"something-else"').status_code == 200
    _change(started_game, alice, bob)
    changed = client.get(url, HTTP_IF_NONE_MATCH=tag)
    assert changed.status_code == 200 and changed["ETag"] != tag


def test_if_none_match_compares_weakly_so_a_weakened_tag_still_gets_the_304(started_game, alice, bob):
    """RFC 9110 §13.1.2: If-None-Match uses the weak comparison; a proxy that compresses hands out ``W/"tag"``."""
    client = token_client(alice)
    url = f"/api/games/{started_game.pk}/"
    tag = client.get(url)["ETag"]
    weakened = client.get(url, HTTP_IF_NONE_MATCH=f'"other", W/{tag}')
    assert weakened.status_code == 304 and weakened.content == b"" and weakened["ETag"] == tag
    assert client.get(url, HTTP_IF_NONE_MATCH=f"W/{tag[:-2]}\"").status_code == 200  # another tag, weak or not
    _change(started_game, alice, bob)
    assert client.get(url, HTTP_IF_NONE_MATCH=f"W/{tag}").status_code == 200


def test_two_players_of_one_game_get_different_tags_for_their_own_views(started_game, alice, bob):
    mine = token_client(alice).get(f"/api/games/{started_game.pk}/")
    theirs = token_client(bob).get(f"/api/games/{started_game.pk}/", HTTP_IF_NONE_MATCH=mine["ETag"])
    assert theirs.status_code == 200 and theirs["ETag"] != mine["ETag"]


def test_an_error_carries_no_tag(alice):
    missing = token_client(alice).get("/api/games/999999/")
    assert missing.status_code == 404 and not missing.has_header("ETag")


def _api_views(patterns=None, prefix=""):
    for entry in get_resolver().url_patterns if patterns is None else patterns:
        route = prefix + str(entry.pattern)
        if isinstance(entry, URLResolver):
            yield from _api_views(entry.url_patterns, route)
        elif isinstance(entry, URLPattern) and route.startswith("api/"):
            yield entry.name, getattr(entry.callback, "view_class", None)


def test_every_get_of_the_api_answers_conditionally_or_says_why_not():
    views = dict(_api_views())
    readable = {name for name, view in views.items() if view is not None and hasattr(view, "get")}
    unconditional = {name for name in readable if not is_conditional(views[name].get)}
    assert unconditional == set(UNCONDITIONAL), "GETs of the API without an ETag and not explained: " + str(
        unconditional - set(UNCONDITIONAL))
    assert {"api-game", "api-messages", "api-my-turns", "api-position", "api-games"} <= readable


def test_the_schema_documents_the_etag_and_the_304_of_every_conditional_read(client):
    schema = client.get("/api/schema/?format=json").json()
    for path, item in schema["paths"].items():
        operation = item.get("get")
        if operation is None or path in ("/api/schema/", "/api/docs/", "/api/games/{game_id}/record/", "/api/stream/"):
            continue
        assert "ETag" in operation["responses"]["200"]["headers"], path
        assert "304" in operation["responses"], path
        assert any(parameter["name"] == "If-None-Match" for parameter in operation["parameters"]), path
