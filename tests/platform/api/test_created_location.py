"""A 201 says where the resource it made is read: its Location (issue 27), and the schema says so."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.platform.conftest import api_token
from tests.platform.notifications.conftest import push_service, vapid_key  # noqa: F401  (fixtures)

pytestmark = pytest.mark.django_db


def _client(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {api_token(user)}")
    return client


def test_a_new_table_a_move_and_a_webhook_answer_201_with_a_location_that_reads_them(alice, bob, settings):
    settings.WEBHOOKS_ALLOW_PRIVATE_ADDRESSES = settings.WEBHOOKS_ALLOW_HTTP = True
    api, players = _client(alice), {0: _client(alice), 1: _client(bob)}
    made = api.post("/api/games/", {"game": "love-letter", "players": 2}, format="json")
    assert made.status_code == 201
    assert api.get(made["Location"]).json()["id"] == made.json()["id"]
    game = made.json()["id"]
    assert players[1].post(f"/api/games/{game}/join/", {}, format="json").status_code == 200
    mover = players[api.get(f"/api/games/{game}/").json()["to_move"][0]]
    legal = mover.get(f"/api/games/{game}/legal-moves/").json()
    move = {"expected_seq": legal["seq"], "move": legal["moves"][0]["move"], "idempotency_key": "once"}
    played = mover.post(f"/api/games/{game}/moves/", move, format="json")
    assert played.status_code == 201 and played["Location"] == f"/api/games/{game}/positions/{played.json()['seq']}/"
    assert mover.get(played["Location"]).status_code == 200
    again = mover.post(f"/api/games/{game}/moves/", move, format="json")
    assert again.status_code == 200 and "Location" not in again  # a replay made nothing
    hook = api.post("/api/webhooks/", {"url": "http://127.0.0.1:8080/hook"}, format="json")
    assert hook.status_code == 201 and api.get(hook["Location"]).json()["id"] == hook.json()["id"]


def test_the_schema_documents_the_location_of_those_201s():
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    for path, method in (("/api/games/", "post"), ("/api/games/{game_id}/moves/", "post"), ("/api/webhooks/", "post"),
                         ("/api/games/{game_id}/rematch/", "post")):
        assert "Location" in schema["paths"][path][method]["responses"]["201"]["headers"], path


def test_a_rematch_answers_201_with_its_location_once_and_200_after(alice, bob):
    from turnbased.play import services

    game = services.create_game(creator=alice, engine_slug="halali", players=2)
    services.join_game(game_id=game.pk, user=bob)
    services.resign_game(game_id=game.pk, user=bob)
    api = _client(alice)
    asked = api.post(f"/api/games/{game.pk}/rematch/", format="json")
    assert asked.status_code == 201 and asked["Location"] == f"/api/games/{game.pk}/rematch/"
    assert api.get(asked["Location"]).json() == asked.json()
    again = api.post(f"/api/games/{game.pk}/rematch/", format="json")
    assert again.status_code == 200 and "Location" not in again


def test_a_new_token_absence_message_and_device_answer_201_with_a_location_that_reads_them(alice, bob,
                                                                                         push_service):
    from datetime import timedelta

    from turnbased.clocks.services import local_today
    from turnbased.play import services

    api = _client(alice)
    game = services.create_game(creator=alice, engine_slug="love-letter", players=3)
    soon = local_today(alice) + timedelta(days=3)
    made = {
        "token": api.post("/api/tokens/", {"name": "laptop"}, format="json"),
        "absence": api.post("/api/absences/", {"starts_on": str(soon), "ends_on": str(soon)}, format="json"),
        "message": api.post(f"/api/games/{game.pk}/messages/", {"text": "hello"}, format="json"),
        "device": api.post("/api/me/push-subscriptions/", push_service.device("phone").subscription(),
                           format="json"),
    }
    for what, answer in made.items():
        assert answer.status_code == 201, (what, answer.json())
        read = api.get(answer["Location"])
        assert read.status_code == 200 and read.json()["id"] == answer.json()["id"], what
    assert "token" not in api.get(made["token"]["Location"]).json()  # the key is shown once, when made
    # Another account reads none of what is alice's own; a public table's talk is for anyone to read.
    other = _client(bob)
    assert {what: other.get(answer["Location"]).status_code for what, answer in made.items()} == {
        "token": 404, "absence": 404, "message": 200, "device": 404}
