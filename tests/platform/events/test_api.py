"""GET /api/stream/ answered by the web process: the same opening and events as the stream, then the end."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from turnbased.events.models import Event
from turnbased.play import services

pytestmark = pytest.mark.django_db


def test_the_web_process_answers_the_waiting_events_and_ends(started_game, alice, bob, api_client_for):
    services.submit_move(game_id=started_game.pk, user=alice, expected_seq=0, move={"card": "handmaid"})
    started, played, turn = Event.objects.filter(user=bob).order_by("id")
    client = api_client_for(bob)
    response = client.get("/api/stream/", HTTP_LAST_EVENT_ID=str(started.id), HTTP_ACCEPT="text/event-stream")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/event-stream; charset=utf-8"
    body = response.content.decode()
    assert body.startswith("retry: 3000\n\n")
    assert f"id: {played.id}\nevent: move_played\ndata: {{\"id\":{played.id}," in body
    assert body.endswith(f"id: {turn.id}\nevent: your_turn\ndata: " + body.rsplit("data: ", 1)[1])
    assert str(started.id) not in body.split("\n\n", 1)[1].split("\n")[0]  # resumed after it
    # The query parameter does the same for clients that cannot set headers; without either, a bare id.
    assert client.get(f"/api/stream/?last_event_id={started.id}").content.decode() == body
    assert client.get("/api/stream/").content.decode() == f"retry: 3000\nid: {turn.id}\n\n"


def test_bad_requests_are_json(alice, api_client_for):
    assert APIClient().get("/api/stream/").status_code == 401
    refused = APIClient().get("/api/stream/", HTTP_ACCEPT="text/event-stream")
    assert refused.status_code == 401 and refused["Content-Type"] == "application/problem+json" and refused.json()["detail"]
    client = api_client_for(alice)
    for bad in ("x", "-3", "1" * 19, " 4"):
        answer = client.get("/api/stream/", HTTP_LAST_EVENT_ID=bad, HTTP_ACCEPT="text/event-stream")
        assert answer.status_code == 400 and "Last-Event-ID" in answer.json()["detail"], bad
        assert client.get(f"/api/stream/?last_event_id={bad}").status_code == 400
        # The header wins, but a malformed parameter beside a good header is still refused (issue 27: schemathesis).
        beside = client.get(f"/api/stream/?last_event_id={bad}", HTTP_LAST_EVENT_ID="1")
        assert beside.status_code == 400, bad
    assert client.post("/api/stream/", {}, format="json").status_code == 405


def test_a_key_that_is_no_text_is_refused_as_a_bad_token(alice):
    refused = APIClient().get("/api/stream/", HTTP_AUTHORIZATION="Token \xff\xfe")
    # Issue 42: a header that is no text is bad input, refused before anyone reads it as a key.
    assert refused.status_code == 400 and "Authorization" in refused.json()["detail"]
