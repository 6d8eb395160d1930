"""A move in one request for a client that listens (issue 26): a current ``your_turn`` carries the seat's view and
legal moves on the stream (``?include=actions``) and to webhooks, and the answer to a move carries the mover's
legal moves when they act again, or only what the mover needs (``Prefer: return=minimal``)."""

from __future__ import annotations

import json

import pytest
import time_machine
from django.test import RequestFactory
from django.utils import timezone

from tests.platform.conftest import SCRIPTED_CLASSIC_2P, api_token
from tests.platform.events.test_asgi import nothing, run_stream
from tests.platform.play.costs import token_client
from tests.platform.secrecy.worlds import love_letter_deck
from turnbased.api.views import prefers_minimal
from turnbased.kit.api.deprecation import WHOLE_MOVE_ANSWER
from turnbased.events.asgi import StreamApplication
from turnbased.events.models import Event, EventKind
from turnbased.play import services
from turnbased.play.models import Seat
from turnbased.webhooks import delivery
from turnbased.webhooks import services as webhook_services
from turnbased.webhooks.models import WebhookDelivery

pytestmark = pytest.mark.django_db(transaction=True)

# Alice holds a Guard and draws the Chancellor (2019 edition): after playing it she keeps one of three cards.
CHANCELLOR = love_letter_deck("2019", set_aside="princess", face_up=["king", "countess", "baron"],
                              hands=["guard", "priest"], draws=["chancellor", "handmaid", "spy", "guard", "guard"])


def started(alice, bob, **options):
    game = services.create_game(creator=alice, engine_slug="love-letter", players=2,
                                options={"deck": SCRIPTED_CLASSIC_2P, "first_player": 0, **options})
    services.join_game(game_id=game.pk, user=bob)
    return game


def stream_events(user, query: bytes) -> list[dict]:
    bodies = run_stream(StreamApplication(threads=1), api_token(user), during=nothing, seconds=0.3, query=query)
    text = b"".join(bodies).decode()
    return [json.loads(line[len("data: "):]) for line in text.splitlines() if line.startswith("data: ")]


def test_a_current_turn_on_a_stream_that_asks_carries_what_the_game_and_legal_moves_say(alice, bob, settings):
    settings.STREAM_HEARTBEAT_SECONDS = 0.05
    game = started(alice, bob)
    api = token_client(alice)
    turns = [event for event in stream_events(alice, b"last_event_id=0&include=actions") if event["kind"] == "your_turn"]
    assert len(turns) == 1
    data = turns[0]["data"]
    assert data["view"] == api.get(f"/api/games/{game.pk}/").json()["view"]
    assert data["legal_moves"] == api.get(f"/api/games/{game.pk}/legal-moves/").json()["moves"]
    assert {"move": {"card": "handmaid"}, "text": "handmaid"} in data["legal_moves"]
    # A stream that does not ask gets the row as it was written.
    plain = [event for event in stream_events(alice, b"last_event_id=0") if event["kind"] == "your_turn"]
    assert "view" not in plain[0]["data"] and "legal_moves" not in plain[0]["data"]


def test_a_turn_that_has_passed_or_a_seat_a_bot_plays_carries_nothing(alice, bob, settings):
    settings.STREAM_HEARTBEAT_SECONDS = 0.05
    game = started(alice, bob)
    services.submit_move(game_id=game.pk, user=alice, expected_seq=0, move={"card": "handmaid"})
    turns = [event for event in stream_events(alice, b"last_event_id=0&include=actions") if event["kind"] == "your_turn"]
    assert [("view" in event["data"], event["seq"]) for event in turns] == [(False, 0)]  # alice's turn at 0 passed
    bobs = [event for event in stream_events(bob, b"last_event_id=0&include=actions") if event["kind"] == "your_turn"]
    assert [(event["seq"], "legal_moves" in event["data"]) for event in bobs] == [(1, True)]
    Seat.objects.filter(game=game, index=1).update(bot="random")
    bobs = [event for event in stream_events(bob, b"last_event_id=0&include=actions") if event["kind"] == "your_turn"]
    assert [(event["seq"], "legal_moves" in event["data"]) for event in bobs] == [(1, False)]


@pytest.mark.parametrize("query", [b"include=everything", b"include=actions,views", b"include=ACTIONS"])
def test_a_stream_asked_for_what_it_cannot_add_is_a_400(alice, settings, query):
    bodies = run_stream(StreamApplication(threads=1), api_token(alice), during=nothing, seconds=0.05, query=query)
    assert "actions" in json.loads(b"".join(bodies))["detail"]


def test_a_webhook_is_sent_the_current_turns_actions(alice, bob, settings):
    settings.WEBHOOKS_ALLOW_PRIVATE_ADDRESSES = settings.WEBHOOKS_ALLOW_HTTP = True
    hook, _ = webhook_services.webhook_create(owner=bob, url="http://127.0.0.1:9999/hook", kinds=["your_turn"])
    game = started(alice, bob)
    services.submit_move(game_id=game.pk, user=alice, expected_seq=0, move={"card": "handmaid"})
    turn = Event.objects.get(user=bob, kind=EventKind.YOUR_TURN, game=game)
    now = timezone.now()
    sent = delivery.document(WebhookDelivery(hook=hook, event_id=turn.pk, kind=turn.kind, created_at=now,
                                             next_attempt_at=now), hook)
    bobs = token_client(bob)
    assert sent["data"]["legal_moves"] == bobs.get(f"/api/games/{game.pk}/legal-moves/").json()["moves"]
    assert sent["data"]["view"] == bobs.get(f"/api/games/{game.pk}/").json()["view"]


def test_the_answer_to_a_move_carries_the_movers_next_step_and_nothing_when_it_is_not_theirs(alice, bob):
    game = started(alice, bob, edition="2019", deck=CHANCELLOR)
    api = token_client(alice)
    first = api.post(f"/api/games/{game.pk}/moves/", {"move": {"card": "chancellor"}, "expected_seq": 0},
                     format="json").json()
    assert first["legal_moves"] == api.get(f"/api/games/{game.pk}/legal-moves/").json()["moves"] != []
    second = api.post(f"/api/games/{game.pk}/moves/", {"move": first["legal_moves"][0]["move"], "expected_seq": 1},
                      format="json").json()
    assert second["legal_moves"] == [] and second["game"]["to_move"] == [1]


def test_a_lean_answer_says_what_the_mover_needs(alice, bob):
    game = started(alice, bob, edition="2019", deck=CHANCELLOR)
    api = token_client(alice)
    response = api.post(f"/api/games/{game.pk}/moves/", {"move": {"card": "chancellor"}, "expected_seq": 0},
                        format="json", HTTP_PREFER="return=minimal")
    assert response.status_code == 201 and response["Preference-Applied"] == "return=minimal"
    lean = response.json()
    whole = api.get(f"/api/games/{game.pk}/").json()
    assert set(lean) == {"seq", "text", "replayed", "game_seq", "status", "to_move", "view", "legal_moves", "result"}
    assert (lean["seq"], lean["game_seq"], lean["status"], lean["to_move"]) == (1, 1, "active", [0])
    assert lean["view"] == whole["view"] and lean["result"] is None
    assert lean["legal_moves"] == api.get(f"/api/games/{game.pk}/legal-moves/").json()["moves"]
    step = lean["legal_moves"][0]["move"]
    response = api.post(f"/api/games/{game.pk}/moves/", {"move": step, "expected_seq": 1}, format="json",
                        HTTP_PREFER="return=minimal")
    assert response.status_code == 201 and response.json()["legal_moves"] == [] and response.json()["to_move"] == [1]
    bobs = token_client(bob)
    move = bobs.get(f"/api/games/{game.pk}/legal-moves/").json()["moves"][0]["move"]
    whole = bobs.post(f"/api/games/{game.pk}/moves/", {"move": move, "expected_seq": 2}, format="json")
    assert len(response.content) < len(whole.content) - 1000  # the whole game's summary is not sent


@pytest.mark.parametrize("prefer", ["RETURN=Minimal", "respond-async, return=minimal", 'return="minimal"; x=1',
                                    " return = minimal "])
def test_return_minimal_is_read_in_any_case_quoted_or_among_other_preferences(alice, bob, prefer):
    game = started(alice, bob)
    response = token_client(alice).post(f"/api/games/{game.pk}/moves/", {"move": {"card": "handmaid"},
                                                                         "expected_seq": 0},
                                        format="json", HTTP_PREFER=prefer)
    assert response.status_code == 201 and "game" not in response.json()
    assert response["Preference-Applied"] == "return=minimal"


@pytest.mark.parametrize("prefer", ["return=representation", "return", "=minimal", "return=minimal-ish", "\x7f"])
def test_any_other_preference_gets_the_whole_answer(alice, bob, prefer):
    game = started(alice, bob)
    response = token_client(alice).post(f"/api/games/{game.pk}/moves/", {"move": {"card": "handmaid"},
                                                                         "expected_seq": 0},
                                        format="json", HTTP_PREFER=prefer)
    assert response.status_code == 201 and "game" in response.json() and "Preference-Applied" not in response
    # A bool, as the function says, for any other caller: never a None that only reads as false.
    assert prefers_minimal(RequestFactory().post("/", HTTP_PREFER=prefer)) is False
    assert prefers_minimal(RequestFactory().post("/")) is False


def test_the_whole_game_in_a_moves_answer_is_announced_as_deprecated_and_the_lean_one_is_not(alice, bob):
    game = started(alice, bob)
    api = token_client(alice)
    whole = api.post(f"/api/games/{game.pk}/moves/", {"move": {"card": "handmaid"}, "expected_seq": 0}, format="json")
    assert whole.status_code == 201 and "game" in whole.json()
    assert whole["Sunset"] == "Wed, 02 Jun 2027 00:00:00 GMT" and whole["Deprecation"].startswith("@")
    assert 'rel="deprecation"' in whole["Link"]
    move = token_client(bob).get(f"/api/games/{game.pk}/legal-moves/").json()["moves"][0]["move"]
    lean = token_client(bob).post(f"/api/games/{game.pk}/moves/", {"move": move, "expected_seq": 1}, format="json",
                                  HTTP_PREFER="return=minimal")
    assert lean.status_code == 201 and "game" not in lean.json()
    assert not {"Deprecation", "Sunset", "Link"} & set(lean.headers)


def test_from_the_sunset_on_every_move_gets_the_movers_answer(alice, bob):
    game = started(alice, bob)
    with time_machine.travel(WHOLE_MOVE_ANSWER.sunset_on.isoformat() + "T00:00:01Z"):
        response = token_client(alice).post(f"/api/games/{game.pk}/moves/",
                                            {"move": {"card": "handmaid"}, "expected_seq": 0}, format="json")
    assert response.status_code == 201 and "Preference-Applied" not in response and "Sunset" not in response
    assert set(response.json()) == {"seq", "text", "replayed", "game_seq", "status", "to_move", "view",
                                    "legal_moves", "result"}


def test_a_streams_read_of_a_current_turn_costs_two_statements_however_many_turns(alice, bob, carol):
    """The read (its credential checked in it) and the turns' seats: one statement each, for one turn or several."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from turnbased.accounts.models import ApiToken
    from turnbased.events.selectors import Credential, events_after

    api_token(alice)
    credential = Credential(token_id=ApiToken.objects.get(user=alice).pk)
    started(alice, bob)
    for many in (False, True):
        with CaptureQueriesContext(connection) as captured:
            rows = events_after(user_id=alice.pk, after_id=0, credential=credential, with_current=True)
        assert len(captured.captured_queries) == 2, [query["sql"] for query in captured.captured_queries]
        assert len([row for row in rows if getattr(row, "current", None)]) == (3 if many else 1)
        if not many:
            started(alice, carol)
            started(alice, bob)
