"""Every error answer under /api/ is a problem document (RFC 9457), whoever wrote it (turnbased/kit/api/problems.py).

``type``, ``title`` and ``status`` come first, then what the answer said, kept as extension members (``detail``,
``errors``, ``retry_after``, a stale move's ``seq``), with the answer's headers. It goes as
``application/problem+json``, as ``application/json`` to a request whose ``Accept`` admits only JSON, and an
``Accept`` naming only the problem type is not refused with a 406. The error sweep (test_error_sweep.py) holds
every route to the shape; these check each writer of an error once, and what the negotiation does.
"""

from __future__ import annotations

import json

import pytest
from django.test import Client

from tests.platform.play.costs import token_client
from turnbased.kit.api.problems import PROBLEM_MEDIA_TYPE
from turnbased.play import services

pytestmark = pytest.mark.django_db

PROBLEM_MEMBERS = ["type", "title", "status", "detail"]


def problem_of(response, status: int) -> dict:
    """Return the answer's document, checked to be a problem document of ``status``."""
    assert response.status_code == status, (response.status_code, response.content[:300])
    assert response["Content-Type"] == PROBLEM_MEDIA_TYPE, response["Content-Type"]
    document = json.loads(response.content)
    assert list(document)[:4] == PROBLEM_MEMBERS, document
    assert document["type"] == "about:blank" and document["status"] == status, document
    assert isinstance(document["title"], str) and isinstance(document["detail"], str) and document["detail"], document
    return document


@pytest.mark.parametrize("debug", [False, True])
def test_an_unknown_address_under_api_is_a_problem_even_with_debug_on(settings, debug):
    """With DEBUG on (make run) Django answers an unknown address with its HTML debug page, unless this holds."""
    settings.DEBUG = debug
    answer = problem_of(Client().get("/api/no-such-thing/"), 404)
    assert answer["title"] == "Not Found" and answer["detail"] == "Not found."
    outside = Client().get("/no-such-page/")
    assert outside.status_code == 404 and outside["Content-Type"].startswith("text/html")  # the site's pages stay pages


def test_what_each_error_said_is_kept_beside_the_problem_members(alice, bob, settings):
    game = services.create_game(creator=alice, engine_slug="love-letter", players=2)
    services.join_game(game_id=game.pk, user=bob)
    client = token_client(alice)
    moves = f"/api/games/{game.pk}/moves/"

    invalid = problem_of(client.post(moves, {}, format="json"), 400)
    assert invalid["title"] == "Bad Request" and invalid["errors"]["expected_seq"] and "expected_seq" in invalid["detail"]
    stale = problem_of(client.post(moves, {"text": "guard bob priest", "expected_seq": 7}, format="json"), 409)
    assert stale["title"] == "Conflict" and stale["seq"] == game.seq and stale["game"]["id"] == game.pk
    anonymous = Client().get("/api/games/")
    assert problem_of(anonymous, 401)["title"] == "Unauthorized" and anonymous["WWW-Authenticate"] == "Token"
    wrong_method = client.put("/api/games/", {}, format="json")
    assert problem_of(wrong_method, 405)["title"] == "Method Not Allowed" and "GET" in wrong_method["Allow"]
    too_big = client.post(moves, b"{}", content_type="application/json",
                          CONTENT_LENGTH=str(settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1))
    assert problem_of(too_big, 413)["title"] == "Content Too Large"

    settings.RATE_LIMITS_ON = True
    guesses = [Client().post("/api/auth/token/", {"username": "alice", "password": "wrong"},
                             content_type="application/json") for _ in range(11)]  # 10 password guesses a minute
    problem_of(guesses[0], guesses[0].status_code)
    throttled = guesses[-1]
    refusal = problem_of(throttled, 429)
    assert refusal["retry_after"] >= 1 and throttled["Retry-After"] == str(refusal["retry_after"])


def test_the_title_and_detail_follow_the_readers_language(alice):
    answer = problem_of(token_client(alice).get("/api/games/999999/", HTTP_ACCEPT_LANGUAGE="hu"), 404)
    assert answer["title"] == "Nem található" and answer["type"] == "about:blank" and answer["status"] == 404
    assert problem_of(Client().get("/api/no-such-thing/", HTTP_ACCEPT_LANGUAGE="de"), 404)["title"] == "Nicht gefunden"


def test_the_media_type_follows_accept(alice):
    client = token_client(alice)
    missing = "/api/games/999999/"
    for accept in ("*/*", PROBLEM_MEDIA_TYPE, f"application/json;q=0.5, {PROBLEM_MEDIA_TYPE}", "text/html"):
        problem_of(client.get(missing, HTTP_ACCEPT=accept), 404)
    as_json = client.get(missing, HTTP_ACCEPT="application/json")
    assert as_json.status_code == 404 and as_json["Content-Type"] == "application/json"
    assert list(json.loads(as_json.content))[:4] == PROBLEM_MEMBERS


def test_a_client_that_accepts_only_problems_gets_its_errors_and_its_answers(alice):
    """DRF would refuse such a request with a 406 before reading it: the error the client made is the one it needs."""
    client = token_client(alice)
    problem_of(client.get("/api/games/999999/", HTTP_ACCEPT=PROBLEM_MEDIA_TYPE), 404)
    problem_of(client.post("/api/games/", {}, format="json", HTTP_ACCEPT=PROBLEM_MEDIA_TYPE), 400)
    listed = client.get("/api/games/", HTTP_ACCEPT=PROBLEM_MEDIA_TYPE)
    assert listed.status_code == 200 and listed["Content-Type"] == "application/json" and "results" in listed.json()
    refused = client.get("/api/games/", HTTP_ACCEPT="image/png")  # an answer it cannot give at all
    assert problem_of(refused, 406)["title"] == "Not Acceptable"


def test_a_bodyless_action_refuses_a_body_that_is_not_json(alice, bob):
    """Resign reads no body: a request that sent one of another type is a mistake, refused before it resigns."""
    game = services.create_game(creator=alice, engine_slug="love-letter", players=2)
    services.join_game(game_id=game.pk, user=bob)
    client = token_client(alice)
    resign = f"/api/games/{game.pk}/resign/"
    for body, content_type in (("resign please", "text/plain"), ("confirm=yes", "application/x-www-form-urlencoded")):
        refused = problem_of(client.generic("POST", resign, body, content_type=content_type), 415)
        assert refused["title"] == "Unsupported Media Type" and content_type in refused["detail"]
    problem_of(client.generic("POST", resign, "{not json", content_type="application/json"), 400)
    game.refresh_from_db()
    assert game.status == "active"
    assert client.generic("POST", resign, "", content_type="text/plain").status_code == 200  # no body: fine
