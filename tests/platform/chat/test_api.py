"""GET/POST /api/games/{id}/messages/: players write, public spectators read, pages by id and cursor, limits and mutes."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from turnbased.chat import services
from turnbased.chat.models import Message

pytestmark = pytest.mark.django_db


def url(game) -> str:
    return f"/api/games/{game.pk}/messages/"


def test_a_player_posts_and_the_other_reads_it(started_game, alice, bob, api_client_for):
    answer = api_client_for(alice).post(url(started_game), {"text": "hi <b>bob</b>"}, format="json")
    assert answer.status_code == 201, answer.json()
    body = answer.json()
    assert (body["author"], body["text"], body["seq"]) == ("alice", "hi <b>bob</b>", 0)
    listed = api_client_for(bob).get(url(started_game)).json()
    assert listed == {"next": None, "previous": None, "results": [body]}
    assert Message.objects.get().source == "api"


def test_pages_follow_after_and_the_cursor(started_game, alice, api_client_for):
    ids = [services.message_post(game_id=started_game.pk, user=alice, text=f"m{n}").pk for n in range(5)]
    client = api_client_for(alice)
    first = client.get(url(started_game), {"page_size": 2}).json()
    assert [m["text"] for m in first["results"]] == ["m0", "m1"] and first["previous"] is None
    second = client.get(first["next"]).json()
    assert [m["text"] for m in second["results"]] == ["m2", "m3"]
    assert [m["text"] for m in client.get(second["previous"]).json()["results"]] == ["m0", "m1"]
    last = client.get(second["next"]).json()
    assert [m["text"] for m in last["results"]] == ["m4"] and last["next"] is None
    rest = client.get(url(started_game), {"after": ids[1], "page_size": 10}).json()
    assert [m["text"] for m in rest["results"]] == ["m2", "m3", "m4"] and rest["next"] is None


def test_limit_still_sets_the_page_size_and_says_it_is_deprecated(started_game, alice, api_client_for):
    for n in range(3):
        services.message_post(game_id=started_game.pk, user=alice, text=f"m{n}")
    answer = api_client_for(alice).get(url(started_game), {"limit": 2})
    assert [m["text"] for m in answer.json()["results"]] == ["m0", "m1"] and answer.json()["next"]
    assert answer["Deprecation"].startswith("@") and answer["Sunset"] and 'rel="deprecation"' in answer["Link"]
    assert not api_client_for(alice).get(url(started_game), {"page_size": 2}).has_header("Deprecation")


@pytest.mark.parametrize("query", [{"after": "-1"}, {"after": "x"}, {"after": "²"}, {"limit": "0"}, {"limit": "201"},
                                   {"after": "9" * 30}, {"page_size": "0"}, {"page_size": "201"},
                                   {"page_size": "x"}, {"cursor": "x!"}, {"cursor": ""}])
def test_bad_pages_are_400(started_game, alice, api_client_for, query):
    answer = api_client_for(alice).get(url(started_game), query)
    assert answer.status_code == 400 and "detail" in answer.json()
    assert set(query) <= set(answer.json()["errors"])


# Of a cursor's shape, but not one the list gave out: no such page.
@pytest.mark.parametrize("cursor", ["x", "cD1hYmM="])
def test_a_cursor_the_chat_did_not_give_out_is_404(started_game, alice, api_client_for, cursor):
    answer = api_client_for(alice).get(url(started_game), {"cursor": cursor})
    assert answer.status_code == 404
    assert answer.json()["detail"].startswith("The cursor is not one this list gave out")


def test_a_spectator_of_a_public_game_reads_but_may_not_write(started_game, alice, carol, api_client_for):
    services.message_post(game_id=started_game.pk, user=alice, text="hello")
    assert APIClient().get(url(started_game)).json()["results"][0]["text"] == "hello"  # anonymous
    spectator = api_client_for(carol)
    assert spectator.get(url(started_game)).status_code == 200
    answer = spectator.post(url(started_game), {"text": "can I?"}, format="json")
    assert answer.status_code == 403 and Message.objects.count() == 1
    assert APIClient().post(url(started_game), {"text": "anon"}, format="json").status_code == 401


def test_a_private_games_chat_is_404_to_strangers(start_scripted_game, alice, bob, carol, api_client_for):
    game = start_scripted_game(alice, bob, visibility="private")
    services.message_post(game_id=game.pk, user=alice, text="secret plans")
    assert api_client_for(carol).get(url(game)).status_code == 404
    assert APIClient().get(url(game)).status_code == 404
    assert api_client_for(carol).post(url(game), {"text": "hi"}, format="json").status_code == 404
    assert api_client_for(bob).get(url(game)).json()["results"][0]["text"] == "secret plans"


@pytest.mark.parametrize("body", [{}, {"text": ""}, {"text": "x" * 501}, {"text": ["a"]}, {"text": 0},
                                  {"text": None}, {"text": "\x00"}])
def test_malformed_messages_are_400_and_change_nothing(started_game, alice, api_client_for, body):
    answer = api_client_for(alice).post(url(started_game), body, format="json")
    assert answer.status_code == 400 and "detail" in answer.json()
    assert "text" in answer.json()["errors"]
    assert not Message.objects.exists()


# A string of the schema's shape that holds nothing to say once blanks and control characters are dropped.
@pytest.mark.parametrize("text", ["   ", "\n\t ", "\x1b\x07"])
def test_messages_blank_once_cleaned_are_422_and_change_nothing(started_game, alice, api_client_for, text):
    answer = api_client_for(alice).post(url(started_game), {"text": text}, format="json")
    assert answer.status_code == 422
    assert answer.json()["detail"] == "Write something to say."
    assert not Message.objects.exists()


def test_muted_players_are_left_out_for_the_muter(started_game, alice, bob, api_client_for):
    services.message_post(game_id=started_game.pk, user=bob, text="spam")
    services.player_mute(user=alice, username="bob")
    assert api_client_for(alice).get(url(started_game)).json()["results"] == []


def test_posting_is_rate_limited_with_retry_after(started_game, alice, api_client_for, settings):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {
        **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "chat": "2/min"}}
    client = api_client_for(alice)
    answers = [client.post(url(started_game), {"text": f"m{n}"}, format="json") for n in range(3)]
    assert [a.status_code for a in answers] == [201, 201, 429]
    assert int(answers[2]["Retry-After"]) >= 1 and "chat messages" in answers[2].json()["detail"]
    assert Message.objects.count() == 2
    assert client.get(url(started_game)).status_code == 200  # reading is not the chat's budget


def test_rate_limits_off_lets_every_message_through(started_game, alice, api_client_for, settings):
    settings.RATE_LIMITS_ON = False
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {
        **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "chat": "1/min"}}
    client = api_client_for(alice)
    assert [client.post(url(started_game), {"text": "x"}, format="json").status_code for _ in range(3)] == [201] * 3
