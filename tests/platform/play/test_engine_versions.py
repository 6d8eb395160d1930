"""A game is played and shown with the engine version it pinned; one this installation lacks is refused clearly."""

from __future__ import annotations

import pytest
from django.test import Client

from games import engines
from tests.platform.conftest import PASSWORD
from turnbased.kit.errors import EngineUnavailable
from turnbased.play import services, store
from turnbased.play.models import Game

pytestmark = pytest.mark.django_db


def table_in_play(alice, bob, slug="halali"):
    game = services.create_game(creator=alice, engine_slug=slug, players=2, seed="versions")
    services.join_game(game_id=game.pk, user=bob)
    return Game.objects.get(pk=game.pk)


def test_a_new_game_pins_the_newest_version_and_is_played_with_it(alice, bob):
    for slug, engine in engines().items():
        game = table_in_play(alice, bob, slug)
        assert game.engine_version == engine.version
        assert store.engine_of(game).version == engine.version


def test_a_game_pinned_to_an_older_version_is_played_with_that_version(alice, bob):
    game = table_in_play(alice, bob, "love-letter")
    Game.objects.filter(pk=game.pk).update(engine_version=1)
    game.refresh_from_db()
    assert store.engine_of(game).version == 1
    assert store.replay(game) == game.state  # version 2 changed only the stored shape: the same play


def test_an_unknown_version_is_refused_by_the_store(alice, bob):
    game = table_in_play(alice, bob)
    game.engine_version = 99
    with pytest.raises(EngineUnavailable, match="engine version 99"):
        store.engine_of(game)


def test_an_unknown_version_gets_a_clear_409_on_pages_and_the_api_never_a_500(alice, bob, api_client_for):
    game = table_in_play(alice, bob)
    seat = game.to_move[0]
    mover = alice if game.seats.get(index=seat).user_id == alice.pk else bob
    text = api_client_for(mover).get(f"/api/games/{game.pk}/legal-moves/").json()["moves"][0]["text"]
    services.submit_move(game_id=game.pk, user=mover, text=text, expected_seq=0)
    Game.objects.filter(pk=game.pk).update(engine_version=99)
    client = Client(raise_request_exception=False)
    client.login(username="alice", password=PASSWORD)
    for url in [f"/games/{game.pk}/", f"/games/{game.pk}/panel/", f"/games/{game.pk}/history/"]:
        response = client.get(url)
        assert response.status_code == 409, url
        assert "engine version 99" in response.content.decode()
    lobby = client.get("/")
    assert lobby.status_code == 200  # the other games stay reachable; this one's line is left out
    api = api_client_for(alice)
    response = api.get(f"/api/games/{game.pk}/")
    assert response.status_code == 409
    assert "engine version 99" in response.json()["detail"]
    moved = client.post(f"/games/{game.pk}/move/", {"text": text, "expected_seq": 1})
    assert moved.status_code in (302, 409)
    assert Game.objects.get(pk=game.pk).seq == 1
