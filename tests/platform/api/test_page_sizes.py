"""The lists' page sizes: the games lists hold as many games a page as the lobby, and a public list pages for a
visitor too (apart from test_pagination.py, whose world of its module would stand in these lists)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.platform.api.test_pagination import _lists, _schema
from tests.platform.conftest import api_token
from turnbased.play import services

pytestmark = pytest.mark.django_db


def test_a_public_list_pages_for_a_visitor_too(alice):
    body = APIClient().get("/api/ratings/?game=halali").json()
    assert (body["next"], body["previous"], body["results"], body["count"]) == (None, None, [], 0)


def test_the_games_lists_hold_as_many_games_a_page_as_the_lobby_and_the_schema_says_so(alice, bob, settings):
    from turnbased.play.selectors import LOBBY_PAGE_GAMES

    settings.MAX_OPEN_TABLES_PER_ACCOUNT = 100
    for _ in range(LOBBY_PAGE_GAMES + 1):
        services.create_game(creator=bob, engine_slug="halali", players=2)  # open tables alice could join
        services.create_game(creator=alice, engine_slug="halali", players=2)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {api_token(alice, 'pager')}")
    schema = _lists(_schema())
    for path in ("/api/games/", "/api/games/open/"):
        first = client.get(path).json()
        assert len(first["results"]) == LOBBY_PAGE_GAMES and first["next"], path
        assert len(client.get(first["next"]).json()["results"]) == 1, path
        sizes = [parameter for parameter in schema[path]["parameters"] if parameter["name"] == "page_size"]
        assert sizes[0]["schema"]["default"] == LOBBY_PAGE_GAMES, path
