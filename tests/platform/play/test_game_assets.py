"""Each game's static assets (Engine.assets) at a content-hashed URL: cached for good, listed in the API.

The answer is the engine's JSON, with ``Cache-Control: public, max-age=31536000, immutable`` and an
ETag; a stale or made-up digest is redirected, uncached, to the current URL; an unknown game or name
is a JSON 404; no path of that shape answers a server error.
"""

from __future__ import annotations

import gzip
import json
import re

import pytest
from django.template import Context, Template
from django.test import Client

from games import engines, get_engine
from turnbased.web import assets

pytestmark = pytest.mark.django_db

A_YEAR = "max-age=31536000"
CARCASSONNE = "carcassonne-hg"


@pytest.fixture
def fresh_assets():
    """Let a test change an engine's assets: the encoded assets are kept per process."""
    assets._assets_of.cache_clear()
    yield
    assets._assets_of.cache_clear()


def current(name: str = "art-revised", slug: str = CARCASSONNE) -> str:
    return assets.asset_url(slug, name)


def test_an_asset_is_served_as_the_engines_json_with_year_long_caching():
    url = current()
    assert re.fullmatch(r"/assets/games/carcassonne-hg/art-revised\.[0-9a-f]{16}\.json", url)
    response = Client().get(url)
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    assert json.loads(response.content) == get_engine(CARCASSONNE).assets()["art-revised"]
    control = {part.strip() for part in response["Cache-Control"].split(",")}
    assert control == {"public", A_YEAR, "immutable"}
    assert response["ETag"] == f'W/"{url.split(".")[-2]}"'
    assert "Cookie" not in response.get("Vary", "") and "Set-Cookie" not in response


def test_a_client_that_has_it_gets_304_and_head_gets_the_headers_alone():
    url = current()
    client = Client()
    first = client.get(url)
    again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and again.content == b""
    assert again["ETag"] == first["ETag"] and A_YEAR in again["Cache-Control"]
    head = client.head(url)
    assert head.status_code == 200 and head.content == b""
    assert head["Content-Type"] == "application/json" and head["ETag"] == first["ETag"]
    assert A_YEAR in head["Cache-Control"]


def test_a_browser_that_accepts_gzip_gets_it_compressed():
    response = Client().get(current(), HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    assert response["Content-Encoding"] == "gzip" and "Accept-Encoding" in response["Vary"]
    assert json.loads(gzip.decompress(response.content)) == get_engine(CARCASSONNE).assets()["art-revised"]
    assert len(response.content) < len(Client().get(current()).content) / 4


def test_a_stale_or_made_up_digest_is_redirected_uncached_to_the_current_one():
    for digest in ("0000000000000000", "old", "a.b", "%E2%9C%93", "x" * 3000):
        response = Client().get(f"/assets/games/{CARCASSONNE}/art-revised.{digest}.json")
        assert response.status_code == 302, digest
        assert response["Location"] == current() and "no-cache" in response["Cache-Control"]


def test_unknown_games_and_names_are_json_404s_and_nothing_answers_a_server_error():
    for path in (
        "/assets/games/no-such-game/art-revised.0000000000000000.json",
        f"/assets/games/{CARCASSONNE}/art-modern.0000000000000000.json",
        f"/assets/games/{CARCASSONNE}/ART-REVISED.{current().split('.')[-2]}.json",
        "/assets/games/love-letter/cards.0000000000000000.json",  # a game without assets
    ):
        response = Client().get(path)
        assert response.status_code == 404 and response.json() == {"detail": "No such asset."}, path
    for path in (
        f"/assets/games/{CARCASSONNE}/art-revised.json",
        f"/assets/games/{CARCASSONNE}/art-revised..json",
        f"/assets/games/{CARCASSONNE}/.0000000000000000.json",
        f"/assets/games/{CARCASSONNE}/art-revised.0000000000000000.json/x",
        "/assets/games/%00/art.0.json",
        "/assets/games/carcassonne%2Fhg/art-revised.0.json",
        "/assets/games/" + "x" * 5000 + "/art.0.json",
        "/assets/games/ca\u0308rcassonne/art.0.json",
    ):
        assert Client().get(path).status_code == 404, path


def test_only_get_and_head_are_answered():
    client = Client()
    for method in ("post", "put", "patch", "delete"):
        assert getattr(client, method)(current()).status_code == 405


def test_new_content_gets_a_new_url_and_the_old_one_leads_to_it(fresh_assets, monkeypatch):
    engine = get_engine("love-letter")
    monkeypatch.setattr(engine, "assets", lambda: {"faces": {"guard": 1}})
    old = current("faces", "love-letter")
    assert json.loads(Client().get(old).content) == {"guard": 1}
    monkeypatch.setattr(engine, "assets", lambda: {"faces": {"guard": 2}})
    assets._assets_of.cache_clear()
    new = current("faces", "love-letter")
    assert new != old
    assert Client().get(old)["Location"] == new
    assert json.loads(Client().get(new).content) == {"guard": 2}


def test_game_types_lists_every_games_asset_urls_and_they_serve():
    listed = {entry["game"]: entry["assets"] for entry in Client().get("/api/game-types/").json()}
    assert set(listed) == set(engines())
    for slug, urls in listed.items():
        assert set(urls) == set(get_engine(slug).assets())
        for name, url in urls.items():
            assert url == f"http://testserver{current(name, slug)}"
            assert json.loads(Client().get(url).content) == get_engine(slug).assets()[name]
    assert set(listed[CARCASSONNE]) == {"art-revised", "art-classic"}


def test_templates_get_an_assets_url_by_game_and_name():
    template = Template("{% load game_assets %}[{% game_asset_url slug name %}]")
    assert template.render(Context({"slug": CARCASSONNE, "name": "art-classic"})) == f"[{current('art-classic')}]"
    for slug, name in ((CARCASSONNE, "nothing"), ("no-such-game", "art-classic"), (None, None)):
        assert template.render(Context({"slug": slug, "name": name})) == "[]"
