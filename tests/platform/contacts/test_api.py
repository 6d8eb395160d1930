"""/api/me/following/, /api/me/blocked/ and /api/friends/: lists by cursor, adds by name (201, then 200), removes
(204), refusals as problem documents that change nothing, and the throttle scope of their own."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from turnbased.contacts.models import Block, Follow
from turnbased.play import services as play_services

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("path, model", [("/api/me/following/", Follow), ("/api/me/blocked/", Block)])
def test_add_list_and_remove_by_name(alice, bob, carol, api_client_for, path, model):
    client = api_client_for(alice)
    answer = client.post(path, {"username": "Bob"}, format="json")
    assert answer.status_code == 201, answer.json()
    assert answer.json()["username"] == "bob" and answer.json()["bot_account"] is False
    assert answer["Location"] == f"{path}bob/"
    assert client.post(path, {"username": "bob"}, format="json").status_code == 200
    client.post(path, {"username": "carol"}, format="json")
    first = client.get(path, {"page_size": 1}).json()
    assert [row["username"] for row in first["results"]] == ["carol"]
    assert [row["username"] for row in client.get(first["next"]).json()["results"]] == ["bob"]
    assert client.delete(f"{path}bob/").status_code == 204
    assert client.delete(f"{path}bob/").status_code == 204
    assert model.objects.count() == 1


@pytest.mark.parametrize("body, status", [
    ({}, 400), ({"username": ""}, 400), ({"username": 5}, 400), ({"username": "x" * 151}, 400),
    ({"username": "nobody"}, 422), ({"username": "alice"}, 422), ({"username": ["bob"]}, 400),
])
def test_bad_input_is_a_problem_document_and_changes_nothing(alice, bob, api_client_for, body, status):
    client = api_client_for(alice)
    for path in ("/api/me/following/", "/api/me/blocked/"):
        answer = client.post(path, body, format="json")
        assert answer.status_code == status, (path, answer.json())
        assert answer["Content-Type"].startswith("application/problem+json")
    assert client.delete("/api/me/following/nobody/").status_code == 404
    assert client.delete("/api/me/blocked/alice/").status_code == 404
    assert not Follow.objects.exists() and not Block.objects.exists()


def test_a_visitor_is_refused(alice):
    for path in ("/api/me/following/", "/api/me/blocked/", "/api/friends/tables/", "/api/friends/games/"):
        assert APIClient().get(path).status_code == 401


def test_friends_tables_and_games(alice, bob, carol, api_client_for):
    client = api_client_for(alice)
    client.post("/api/me/following/", {"username": "bob"}, format="json")
    table = play_services.create_game(creator=bob, engine_slug="love-letter", players=3)
    game = play_services.create_game(creator=bob, engine_slug="love-letter", players=2)
    play_services.join_game(game_id=game.pk, user=carol)
    tables = client.get("/api/friends/tables/").json()["results"]
    assert [(row["id"], row["status"], row["players"]) for row in tables] == [(table.pk, "open", ["bob"])]
    games = client.get("/api/friends/games/").json()["results"]
    assert [(row["id"], row["status"], row["players"]) for row in games] == [(game.pk, "active", ["bob", "carol"])]


def test_the_changes_count_against_their_own_rate(alice, bob, api_client_for, settings):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {
        **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "contacts": "2/hour"}}
    client = api_client_for(alice)
    assert client.post("/api/me/following/", {"username": "bob"}, format="json").status_code == 201
    assert client.delete("/api/me/following/bob/").status_code == 204
    refused = client.post("/api/me/blocked/", {"username": "bob"}, format="json")
    assert refused.status_code == 429 and "Retry-After" in refused
    assert not Block.objects.exists()
