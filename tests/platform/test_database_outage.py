"""While the database is away, clients get a 503 to retry (JSON under /api/), and a saved move is never answered 500.

The outage is simulated inside Django's connection: every statement raises the OperationalError a
dropped or refused connection raises. The fault suite (tests/faults/) stops the real server.
"""

from __future__ import annotations

import pytest
from django.db import OperationalError, connection
from django.test import Client
from rest_framework.test import APIClient

from tests.platform.conftest import api_token
from turnbased.play import services
from turnbased.play.models import Move

pytestmark = pytest.mark.django_db


class Outage:
    """An execute wrapper that fails every statement while ``down`` is set."""

    def __init__(self):
        self.down = False
        self.refused = 0

    def __call__(self, execute, sql, params, many, context):
        if self.down:
            self.refused += 1
            raise OperationalError("server closed the connection unexpectedly")
        return execute(sql, params, many, context)


def _api(user) -> APIClient:
    client = APIClient(raise_request_exception=False)
    client.credentials(HTTP_AUTHORIZATION=f"Token {api_token(user)}")
    return client


# Issue 27: with DEBUG on (make run) Django answered its debug page instead, a 500 of 230 KB of HTML.
WHATEVER_DEBUG_SAYS = pytest.mark.parametrize("debug", [False, True], ids=["DEBUG off", "DEBUG on"])


@WHATEVER_DEBUG_SAYS
def test_the_api_answers_a_json_503_with_retry_after_while_the_database_is_down(started_game, alice, settings, debug):
    settings.DEBUG = debug
    client, outage = _api(alice), Outage()
    with connection.execute_wrapper(outage):
        outage.down = True
        response = client.get(f"/api/games/{started_game.pk}/")
        posted = client.post(f"/api/games/{started_game.pk}/moves/", {"text": "guard bob priest", "expected_seq": 0},
                             format="json")
        outage.down = False
    assert outage.refused >= 2
    for answer in (response, posted):
        assert answer.status_code == 503
        assert answer["Content-Type"] == "application/problem+json" and answer.json()["status"] == 503
        assert answer["Retry-After"] == "5"
        assert "nothing was saved" in answer.json()["detail"]
        assert len(answer.content) < 300
    assert not Move.objects.filter(game=started_game).exists()


@WHATEVER_DEBUG_SAYS
def test_a_page_answers_a_503_page_while_the_database_is_down(started_game, alice, settings, debug):
    settings.DEBUG = debug
    client, outage = Client(raise_request_exception=False), Outage()
    client.force_login(alice)
    with connection.execute_wrapper(outage):
        outage.down = True
        response = client.get(f"/games/{started_game.pk}/")
        outage.down = False
    assert response.status_code == 503
    assert response["Content-Type"].startswith("text/html")
    assert response["Retry-After"] == "5"
    assert b"Back in a moment" in response.content


def test_a_move_saved_just_before_the_database_went_away_is_answered_201(started_game, alice, monkeypatch):
    """The answer to a move is built from the game in memory: no statement after the commit can fail it."""
    outage, submit = Outage(), services.submit_move

    def submit_then_lose_the_database(**arguments):
        outcome = submit(**arguments)
        outage.down = True
        return outcome

    monkeypatch.setattr(services, "submit_move", submit_then_lose_the_database)
    client = _api(alice)
    with connection.execute_wrapper(outage):
        response = client.post(f"/api/games/{started_game.pk}/moves/", {"text": "guard bob priest", "expected_seq": 0},
                               format="json")
        outage.down = False
    assert response.status_code == 201, response.content[:300]
    assert response.json()["seq"] == 1
    assert outage.refused == 0
    assert Move.objects.filter(game=started_game).count() == 1
