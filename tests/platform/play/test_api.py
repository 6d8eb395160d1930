"""REST API version 1: a whole session through HTTP, and every kind of error as JSON."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.test import Client
from django.urls import path
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from turnbased.api.views import MoveSubmitApi
from turnbased.kit.api.deprecation import WHOLE_MOVE_ANSWER
from turnbased.play.models import Game, Move

pytestmark = pytest.mark.django_db


def signup(client: APIClient, name: str) -> str:
    """Sign up through the API, follow the emailed link, and return a token."""
    response = client.post(
        "/api/accounts/", {"username": name, "email": f"{name}@example.com", "password": "a-long-enough-pass-9"},
        format="json",
    )
    assert response.status_code == 201, response.json()
    link = re.search(r"http://testserver(/accounts/confirm-email/[^/\s]+/)", mail.outbox[-1].body).group(1)
    assert Client().post(link).status_code == 302
    token = client.post("/api/auth/token/", {"username": name, "password": "a-long-enough-pass-9"}, format="json")
    assert token.status_code == 200, token.json()
    return token.json()["token"]


def authed(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


def test_a_game_played_through_the_api():
    anonymous = APIClient()
    alice = authed(signup(anonymous, "alice"))
    token = anonymous.post("/api/auth/token/", {"username": "bob", "password": "x"}, format="json")
    assert token.status_code == 401 and token.json()["detail"]
    signup(anonymous, "bob")
    bob_token = anonymous.post(
        "/api/auth/token/", {"username": "bob", "password": "a-long-enough-pass-9"}, format="json"
    ).json()["token"]
    bob = authed(bob_token)

    created = alice.post("/api/games/", {"game": "love-letter", "players": 2, "options": {}}, format="json")
    assert created.status_code == 201
    game = created.json()
    assert game["status"] == "open"
    assert game["seats"] == [{"index": 0, "username": "alice", "bot_account": False, "name": "alice", "bot": None}]
    assert bob.get("/api/games/open/").json()["results"][0]["id"] == game["id"]

    joined = bob.post(f"/api/games/{game['id']}/join/", {}, format="json")
    assert joined.status_code == 200 and joined.json()["status"] == "active"

    detail = alice.get(f"/api/games/{game['id']}/").json()
    assert set(detail) >= {"id", "game", "status", "seq", "seats", "to_move", "view", "result"}
    mover = alice if detail["to_move"] == [0] else bob
    legal = mover.get(f"/api/games/{game['id']}/legal-moves/").json()
    assert legal["seq"] == 0 and legal["moves"]
    first = legal["moves"][0]
    played = mover.post(
        f"/api/games/{game['id']}/moves/", {"text": first["text"], "expected_seq": 0, "idempotency_key": "m1"},
        format="json",
    )
    assert played.status_code == 201, played.json()
    assert played.json()["seq"] == 1 and played.json()["game"]["seq"] == 1
    repeat = mover.post(
        f"/api/games/{game['id']}/moves/", {"text": first["text"], "expected_seq": 0, "idempotency_key": "m1"},
        format="json",
    )
    assert repeat.status_code == 200 and repeat.json()["replayed"] and repeat.json()["seq"] == 1

    history = alice.get(f"/api/games/{game['id']}/history/?since=0").json()
    assert history["seq"] == 1 and all(event["seq"] == 1 for event in history["results"])
    assert alice.get(f"/api/games/{game['id']}/history/?since=1").json()["results"] == []


def test_create_refuses_scripted_options_from_users(alice, api_client_for):
    response = api_client_for(alice).post(
        "/api/games/", {"game": "love-letter", "players": 2, "options": {"deck": ["guard"] * 16}}, format="json"
    )
    assert response.status_code == 422 and "Unknown option" in response.json()["detail"]
    assert not Game.objects.exists()


def test_the_time_control_is_read_as_its_schema_says(alice, api_client_for):
    client = api_client_for(alice)
    # A key the schema does not name is ignored, as elsewhere in bodies; a value off its range is a 400 whatever the
    # kind; values in range that cannot go together are a 422.
    ignored = client.post("/api/games/", {"game": "love-letter", "players": 2,
                                          "time_control": {"kind": "per_move", "days_per_move": 2, "colour": "red"}},
                          format="json")
    assert ignored.status_code == 201, ignored.json()
    assert Game.objects.get(pk=ignored.json()["id"]).clock.days_per_move == 2
    for control, status in (({"kind": "none", "bank_days": 0}, 400), ({"kind": "per_move", "days_per_move": 4}, 400),
                            ({"kind": "bank", "bank_days": 3, "increment_days": 5}, 422)):
        refused = client.post("/api/games/", {"game": "love-letter", "players": 2, "time_control": control},
                              format="json")
        assert refused.status_code == status, (control, refused.json())
    assert Game.objects.count() == 1


def test_scripted_deck_and_seed_never_appear_in_the_api(started_game, alice, api_client_for):
    body = api_client_for(alice).get(f"/api/games/{started_game.pk}/").content.decode()
    assert "deck" not in str(api_client_for(alice).get(f"/api/games/{started_game.pk}/").json()["options"])
    assert started_game.seed not in body


@pytest.mark.parametrize(
    ("payload", "status", "needle"),
    [
        # Of the schema's shape, refused by the rules or naming no move: 422.
        ({"move": {"card": "princess"}, "expected_seq": 0}, 422, ""),
        ({"text": "fly away", "expected_seq": 0}, 422, ""),
        # Breaking the schema: 400.
        ({"move": {"card": "handmaid"}}, 400, "expected_seq"),
        ({"text": 0, "expected_seq": 0}, 400, "text"),
        ({"move": {"card": "handmaid"}, "text": "handmaid", "expected_seq": 0}, 400, "not both"),
        ({"expected_seq": 0}, 400, "neither"),
        ({"move": {"card": "handmaid"}, "expected_seq": 5}, 409, "moved on"),
        # The limits are the schema's: one over is refused for its length, at the limit the rules read it.
        ({"text": "g" * 201, "expected_seq": 0}, 400, "text: Ensure this field has no more than 200 characters."),
        ({"text": "g" * 200, "expected_seq": 0}, 422, "Unknown card 'gggg"),
        ({"move": {"card": "handmaid"}, "expected_seq": 0, "idempotency_key": "k" * 101}, 400,
         "idempotency_key: Ensure this field has no more than 100 characters."),
    ],
)
def test_move_errors_are_json_with_a_detail(started_game, alice, api_client_for, payload, status, needle):
    response = api_client_for(alice).post(f"/api/games/{started_game.pk}/moves/", payload, format="json")
    assert response.status_code == status
    assert response.json()["detail"] and needle in response.json()["detail"]
    assert Move.objects.filter(game=started_game).count() == 0


def test_stale_seq_answer_carries_the_current_seq(started_game, alice, bob, api_client_for):
    api_client_for(alice).post(
        f"/api/games/{started_game.pk}/moves/", {"move": {"card": "handmaid"}, "expected_seq": 0}, format="json"
    )
    response = api_client_for(bob).post(
        f"/api/games/{started_game.pk}/moves/", {"text": "guard alice prince", "expected_seq": 0}, format="json"
    )
    assert response.status_code == 409 and response.json()["seq"] == 1
    assert response.json()["game"]["seq"] == 1 and response.json()["game"]["to_move"] == [1]


def test_leave_and_abort_an_open_table(alice, bob, api_client_for):
    host, guest = api_client_for(alice), api_client_for(bob)
    game = host.post("/api/games/", {"game": "love-letter", "players": 3}, format="json").json()
    guest.post(f"/api/games/{game['id']}/join/", {}, format="json")
    assert guest.post(f"/api/games/{game['id']}/leave/").status_code == 204
    assert guest.post(f"/api/games/{game['id']}/abort/").status_code == 403
    assert host.post(f"/api/games/{game['id']}/abort/").json()["status"] == "aborted"


def test_malformed_json_is_a_400_with_a_detail(started_game, alice, api_client_for):
    response = api_client_for(alice).post(
        f"/api/games/{started_game.pk}/moves/", data="{not json", content_type="application/json"
    )
    assert response.status_code == 400 and "JSON" in response.json()["detail"]


def test_out_of_turn_is_a_409(started_game, bob, api_client_for):
    response = api_client_for(bob).post(
        f"/api/games/{started_game.pk}/moves/", {"text": "priest alice", "expected_seq": 0}, format="json"
    )
    assert response.status_code == 409 and "not your turn" in response.json()["detail"]


def test_no_token_is_a_401(started_game):
    response = APIClient().post(f"/api/games/{started_game.pk}/moves/", {"expected_seq": 0}, format="json")
    assert response.status_code == 401 and response.json()["detail"]


def test_a_stranger_may_watch_a_public_game_but_not_move(started_game, carol, api_client_for):
    stranger = api_client_for(carol)
    view = stranger.get(f"/api/games/{started_game.pk}/").json()
    assert view["my_seat"] is None and view["view"]["hand"] is None
    assert view["invite_url"] is None
    response = stranger.post(
        f"/api/games/{started_game.pk}/moves/", {"move": {"card": "handmaid"}, "expected_seq": 0}, format="json"
    )
    assert response.status_code == 403


def test_a_private_game_is_a_404_to_strangers(start_scripted_game, alice, bob, carol, api_client_for):
    game = start_scripted_game(alice, bob, visibility="private")
    stranger = api_client_for(carol)
    for path in ("", "legal-moves/", "history/"):
        response = stranger.get(f"/api/games/{game.pk}/{path}")
        assert response.status_code == 404 and response.json()["detail"]
    assert APIClient().get(f"/api/games/{game.pk}/").status_code == 404


def test_unknown_game_is_a_404(alice, api_client_for):
    assert api_client_for(alice).get("/api/games/424242/").status_code == 404
    response = api_client_for(alice).post("/api/games/", {"game": "chess", "players": 2}, format="json")
    assert response.status_code == 400 and "game" in response.json()["detail"]


def test_signup_errors_name_the_field():
    client = APIClient()
    signup(client, "dora")
    response = client.post(
        "/api/accounts/", {"username": "dora", "email": "not-an-address", "password": "123"}, format="json"
    )
    # Each a string the schema allows, refused at sign-up: 422, naming every field.
    assert response.status_code == 422
    assert set(response.json()["errors"]) == {"username", "email", "password"}
    malformed = client.post("/api/accounts/", {"username": 0, "email": "d@example.com", "password": "x" * 20},
                            format="json")
    assert malformed.status_code == 400 and set(malformed.json()["errors"]) == {"username"}


def test_history_since_must_be_a_number(started_game, alice, api_client_for):
    response = api_client_for(alice).get(f"/api/games/{started_game.pk}/history/?since=abc")
    assert response.status_code == 400 and "since" in response.json()["detail"]


def test_schema_and_docs_are_served():
    client = APIClient()
    schema = client.get("/api/schema/?format=json")
    assert schema.status_code == 200
    assert "/api/games/{game_id}/moves/" in schema.json()["paths"]
    docs = client.get("/api/docs/")
    assert docs.status_code == 200 and b"swagger" in docs.content.lower()


def test_game_types_list_the_engines_and_their_options():
    types = APIClient().get("/api/game-types/").json()
    love_letter = next(entry for entry in types if entry["game"] == "love-letter")
    assert love_letter["min_players"] == 2
    assert "deck" not in {option["name"] for option in love_letter["options"]}


def test_resign_through_the_api(started_game, alice, api_client_for):
    response = api_client_for(alice).post(f"/api/games/{started_game.pk}/resign/")
    assert response.status_code == 200 and response.json()["status"] == "finished"
    assert response.json()["result"]["winners"] == [1]


def test_a_players_invite_url_opens_the_invitation_in_every_game_listed(started_game, alice, api_client_for, settings):
    from django.urls import reverse

    client = api_client_for(alice)
    wanted = settings.SITE_URL + reverse("game-invite", args=[started_game.pk, started_game.invite_code])
    assert client.get(f"/api/games/{started_game.pk}/").json()["invite_url"] == wanted
    assert [game["invite_url"] for game in client.get("/api/games/").json()["results"]] == [wanted]
    path = wanted.removeprefix(settings.SITE_URL)
    assert Client().get(path).status_code in (200, 302)  # the link leads somewhere, not to a 404


def test_the_schema_of_a_move_asks_for_exactly_one_of_move_and_text_and_documents_prefer():
    generator = SchemaGenerator(patterns=[path("api/games/<int:game_id>/moves/", MoveSubmitApi.as_view())])
    schema = generator.get_schema(public=True)
    operation = schema["paths"]["/api/games/{game_id}/moves/"]["post"]
    body = operation["requestBody"]["content"]["application/json"]
    request = schema["components"]["schemas"][body["schema"]["$ref"].rsplit("/", 1)[1]]
    assert request["oneOf"] == [{"required": ["move"]}, {"required": ["text"]}]
    # The deprecation notice links to the operation by its tag and id (/api/docs/#/moves/moves_create).
    assert (operation["tags"], operation["operationId"]) == (["moves"], "moves_create")
    assert WHOLE_MOVE_ANSWER.notice == "/api/docs/#/moves/moves_create"
    assert ("header", "Prefer") in [(parameter["in"], parameter["name"]) for parameter in operation["parameters"]]
    # Each refusal documented under its own status, the conflict with the position it carries.
    answers = operation["responses"]
    assert answers["201"]["description"].startswith("The move was played")
    assert answers["200"]["description"].startswith("A repeated idempotency_key")
    assert answers["400"]["description"].startswith("Malformed: not as the schema says")
    assert answers["422"]["description"].startswith("The game refused the move")
    assert answers["403"]["description"].startswith("I watch this game but have no seat")
    assert answers["409"]["description"].startswith("Not my turn")
    assert answers["409"]["content"]["application/json"]["schema"]["$ref"].endswith("/MoveConflict")
