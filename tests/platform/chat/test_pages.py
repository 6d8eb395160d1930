"""The chat on the game page and the lobby: escaping, posting with htmx, the poll, mutes, reports, unread."""

from __future__ import annotations

import pytest
from django.test import Client

from turnbased.chat import services
from turnbased.chat.models import Message, ReadMark, Report
from turnbased.play import services as play_services

pytestmark = pytest.mark.django_db

SCRIPT = '<script>alert("x")</script>'


def client_for(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def test_messages_are_escaped_on_the_page_in_the_history_and_in_the_poll(started_game, alice, bob):
    message = services.message_post(game_id=started_game.pk, user=alice, text=SCRIPT)
    page = client_for(bob).get(f"/games/{started_game.pk}/").content.decode()
    assert SCRIPT not in page
    assert page.count("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;") == 2  # the chat and the history
    poll = client_for(bob).get(f"/games/{started_game.pk}/chat/?after={message.pk - 1}").content.decode()
    assert SCRIPT not in poll and "&lt;script&gt;" in poll


def test_a_player_posts_with_htmx_and_gets_an_empty_form_and_a_trigger(started_game, alice):
    answer = client_for(alice).post(f"/games/{started_game.pk}/chat/post/", {"text": "hello"}, HTTP_HX_REQUEST="true")
    assert answer.status_code == 200 and answer["HX-Trigger"] == "chat-posted"
    assert 'id="chat-form"' in answer.content.decode()
    assert Message.objects.get().text == "hello"


def test_a_refused_post_shows_why_and_keeps_the_text(started_game, alice):
    answer = client_for(alice).post(f"/games/{started_game.pk}/chat/post/", {"text": "x" * 501}, HTTP_HX_REQUEST="true")
    assert answer.status_code == 400 and "at most 500 characters" in answer.content.decode()
    assert "HX-Trigger" not in answer and not Message.objects.exists()


def test_a_blank_post_shows_why_with_the_services_status(started_game, alice):
    # Nothing to say once cleaned: the service's 422 (the chat form's script must show it in place, as a 400).
    answer = client_for(alice).post(f"/games/{started_game.pk}/chat/post/", {"text": "  \t "}, HTTP_HX_REQUEST="true")
    assert answer.status_code == 422 and "Write something to say." in answer.content.decode()
    assert "HX-Trigger" not in answer and not Message.objects.exists()


def test_without_htmx_a_post_redirects_to_the_game(started_game, alice):
    answer = client_for(alice).post(f"/games/{started_game.pk}/chat/post/", {"text": "plain form"})
    assert answer.status_code == 302 and answer["Location"] == f"/games/{started_game.pk}/"
    assert Message.objects.get().text == "plain form"


def test_a_spectator_reads_without_a_form_and_may_not_post(started_game, alice, carol):
    services.message_post(game_id=started_game.pk, user=alice, text="for all to see")
    page = client_for(carol).get(f"/games/{started_game.pk}/").content.decode()
    assert "for all to see" in page and 'id="chat-form"' not in page and "Spectators read the table talk" in page
    assert client_for().get(f"/games/{started_game.pk}/").content.decode().count("for all to see") == 2
    answer = client_for(carol).post(f"/games/{started_game.pk}/chat/post/", {"text": "me too"}, HTTP_HX_REQUEST="true")
    assert answer.status_code == 403 and Message.objects.count() == 1


def test_a_private_games_chat_is_404_to_strangers(start_scripted_game, alice, bob, carol):
    game = start_scripted_game(alice, bob, visibility="private")
    services.message_post(game_id=game.pk, user=alice, text="hush")
    for client in (client_for(carol), client_for()):
        assert client.get(f"/games/{game.pk}/chat/?after=0").status_code == 404
    assert client_for(carol).post(f"/games/{game.pk}/chat/post/", {"text": "hi"}).status_code == 404
    assert client_for(carol).post(f"/games/{game.pk}/chat/read/", {"last": "1"}).status_code == 404
    assert client_for(carol).post(f"/games/{game.pk}/chat/mute/", {"username": "alice"}).status_code == 404
    assert client_for(carol).post(f"/games/{game.pk}/chat/report/", {"message": "1"}).status_code == 404


def test_the_poll_answers_204_until_a_message_or_the_turn_changes(started_game, alice, bob):
    poll = f"/games/{started_game.pk}/chat/"
    web = client_for(bob)
    assert web.get(poll, {"after": 0, "turn": 0}).status_code == 204
    assert web.get(poll, {"after": "x"}).status_code == 400
    message = services.message_post(game_id=started_game.pk, user=alice, text="your move soon")
    news = web.get(poll, {"after": 0, "turn": 0})
    body = news.content.decode()
    assert news.status_code == 200 and "your move soon" in body
    assert f"after={message.pk}&amp;turn=0" in body and 'data-arrived="1"' in body
    assert 'hx-swap-oob="beforeend:#chat-messages"' in body and 'hx-swap-oob="afterbegin:#history-entries"' in body
    assert web.get(poll, {"after": message.pk, "turn": 0}).status_code == 204
    play_services.submit_move(game_id=started_game.pk, user=alice, expected_seq=0, move={"card": "handmaid"})
    turned = web.get(poll, {"after": message.pk, "turn": 0})
    assert turned.status_code == 200 and 'data-your-turn="1"' in turned.content.decode()


def test_mute_hides_a_players_messages_from_the_page_and_unmute_brings_them_back(started_game, alice, bob):
    services.message_post(game_id=started_game.pk, user=bob, text="blah blah")
    web = client_for(alice)
    answer = web.post(f"/games/{started_game.pk}/chat/mute/", {"username": "bob", "action": "mute"})
    assert answer.status_code == 302
    page = web.get(f"/games/{started_game.pk}/").content.decode()
    assert "blah blah" not in page and "Muted: bob" in page
    web.post(f"/games/{started_game.pk}/chat/mute/", {"username": "bob", "action": "unmute"})
    assert "blah blah" in web.get(f"/games/{started_game.pk}/").content.decode()


def test_report_records_the_message_for_the_admins(started_game, alice, bob, admin_client):
    message = services.message_post(game_id=started_game.pk, user=bob, text="insult")
    answer = client_for(alice).post(f"/games/{started_game.pk}/chat/report/",
                                    {"message": str(message.pk), "reason": "rude"})
    assert answer.status_code == 302 and Report.objects.get().message == message
    assert Report.objects.get().reason == "rude"
    listed = admin_client.get("/admin/chat/report/").content.decode()
    assert "insult" in listed and "alice" in listed


def test_read_marks_clear_the_unread_count_of_the_lobby(started_game, alice, bob):
    message = services.message_post(game_id=started_game.pk, user=bob, text="hi alice")
    web = client_for(alice)
    lobby = web.get("/").content.decode()
    assert "1 new message" in lobby and 'data-unread="1"' in lobby and 'data-your-turn="1"' in lobby
    assert web.post(f"/games/{started_game.pk}/chat/read/", {"last": str(message.pk)}).status_code == 204
    assert web.post(f"/games/{started_game.pk}/chat/read/", {"last": "x"}).status_code == 400
    assert ReadMark.objects.get(user=alice).last_read_id == message.pk
    lobby = web.get("/").content.decode()
    assert "new message" not in lobby and 'data-unread="0"' in lobby


def test_the_lobby_watch_answers_204_until_something_changes(started_game, alice, bob):
    web = client_for(alice)
    lobby = web.get("/").content.decode()
    version = lobby.split("/lobby/changes/?v=", 1)[1].split('"', 1)[0]
    assert web.get("/lobby/changes/", {"v": version}).status_code == 204
    services.message_post(game_id=started_game.pk, user=bob, text="wake up")
    changed = web.get("/lobby/changes/", {"v": version})
    assert changed.status_code == 200 and changed["HX-Trigger"] == "lobby-changed"
    new_version = changed.content.decode().split("?v=", 1)[1].split('"', 1)[0]
    assert new_version != version and web.get("/lobby/changes/", {"v": new_version}).status_code == 204
    play_services.submit_move(game_id=started_game.pk, user=alice, expected_seq=0, move={"card": "handmaid"})
    assert web.get("/lobby/changes/", {"v": new_version}).status_code == 200


def test_older_history_pages_hold_their_messages(started_game, alice, bob):
    services.message_post(game_id=started_game.pk, user=alice, text="first words")
    page = client_for(bob).get(f"/games/{started_game.pk}/history/", {"before": 1}).content.decode()
    assert "first words" in page


def test_the_page_shares_the_chat_rate_with_the_api(started_game, alice, settings, api_client_for):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {
        **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "chat": "2/min"}}
    api_client_for(alice).post(f"/api/games/{started_game.pk}/messages/", {"text": "by api"}, format="json")
    web = client_for(alice)
    post = f"/games/{started_game.pk}/chat/post/"
    assert web.post(post, {"text": "one"}, HTTP_HX_REQUEST="true").status_code == 200
    refused = web.post(post, {"text": "two"}, HTTP_HX_REQUEST="true")
    assert refused.status_code == 429 and int(refused["Retry-After"]) >= 1
    assert "Too many chat messages (at most 2 per minute)" in refused.content.decode()
    assert Message.objects.count() == 2
