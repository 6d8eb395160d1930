"""Private notes (issue 46): a player keeps notes on a game they sit at, by the page, the API and an email reply;
nobody else ever reads them (another seat, a spectator, a stranger, the game's record), their own stream and
webhooks are told, and a refusal changes nothing."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.platform.mail.conftest import latest_to, reply_bytes, turn_email  # noqa: F401 - a fixture used below
from turnbased.events.models import Event, EventKind
from turnbased.events.wording import worded_payload
from turnbased.kit.errors import GameNotFound, InvalidRequest, NotAllowed
from turnbased.mail.inbound import handle_inbound
from turnbased.notes import services
from turnbased.notes.models import MAX_NOTE_CHARS, GameNote
from turnbased.play import services as play_services
from turnbased.play.models import Move
from turnbased.play.records import complete_record

pytestmark = pytest.mark.django_db

PLAN = "Bob holds the Princess, I think.\nKeep the Guard for her."


def test_a_player_keeps_notes_that_nobody_else_reads(started_game, alice, bob, carol, api_client_for):
    services.note_save(game_id=started_game.pk, user=alice, text=f"  {PLAN}\r\n ")
    assert GameNote.objects.get(user=alice).text == PLAN
    mine = api_client_for(alice).get(f"/api/games/{started_game.pk}/notes/")
    assert mine.status_code == 200 and mine.json()["text"] == PLAN and mine.json()["updated_at"]
    # Bob, who plays too, has notes of his own (none); carol watches the public game and keeps none; a visitor
    # is asked to sign in.
    assert api_client_for(bob).get(f"/api/games/{started_game.pk}/notes/").json()["text"] == ""
    assert api_client_for(carol).get(f"/api/games/{started_game.pk}/notes/").status_code == 403
    assert Client().get(f"/api/games/{started_game.pk}/notes/").status_code in (401, 403)
    # The game's pages, for everyone but alice, and its record hold none of it.
    for user in (bob, carol, None):
        client = Client()
        if user is not None:
            client.force_login(user)
        page = client.get(f"/games/{started_game.pk}/").content.decode()
        assert "Keep the Guard" not in page
    play_services.resign_game(game_id=started_game.pk, user=bob)
    started_game.refresh_from_db()
    assert "Keep the Guard" not in str(complete_record(started_game))
    alice_client = Client()
    alice_client.force_login(alice)
    assert "Keep the Guard for her." in alice_client.get(f"/games/{started_game.pk}/").content.decode()


def test_a_private_game_one_may_not_see_has_no_notes_at_all(start_scripted_game, alice, bob, carol, api_client_for):
    game = start_scripted_game(alice, bob, visibility="private")
    with pytest.raises(GameNotFound):
        services.note_save(game_id=game.pk, user=carol, text="hello")
    assert api_client_for(carol).put(f"/api/games/{game.pk}/notes/", {"text": "x"}, format="json").status_code == 404
    assert not GameNote.objects.exists()


def test_a_refused_note_changes_nothing(started_game, alice, carol, api_client_for):
    services.note_save(game_id=started_game.pk, user=alice, text=PLAN)
    with pytest.raises(InvalidRequest):
        services.note_save(game_id=started_game.pk, user=alice, text="x" * (MAX_NOTE_CHARS + 1))
    with pytest.raises(NotAllowed):
        services.note_save(game_id=started_game.pk, user=carol, text="mine")
    client = api_client_for(alice)
    for body in ({"text": 5}, {"text": "x" * (MAX_NOTE_CHARS + 1)}, {"text": None}):
        assert client.put(f"/api/games/{started_game.pk}/notes/", body, format="json").status_code == 400, body
    # Neither text nor marks (each may be left out, not both): nothing to keep.
    assert client.put(f"/api/games/{started_game.pk}/notes/", {}, format="json").status_code == 422
    assert list(GameNote.objects.values_list("user_id", "text")) == [(alice.pk, PLAN)]


def test_the_api_replaces_deletes_and_lists_my_notes(started_game, alice, api_client_for):
    client = api_client_for(alice)
    answer = client.put(f"/api/games/{started_game.pk}/notes/", {"text": "first"}, format="json")
    assert answer.status_code == 200 and answer.json()["text"] == "first"
    assert client.put(f"/api/games/{started_game.pk}/notes/", {"text": "second"}, format="json").json()["text"] \
        == "second"
    listed = client.get("/api/me/notes/").json()
    assert [(row["game"], row["text"]) for row in listed["results"]] == [(started_game.pk, "second")]
    assert client.delete(f"/api/games/{started_game.pk}/notes/").status_code == 204
    assert not GameNote.objects.exists()
    assert client.get("/api/me/notes/").json()["results"] == []


def test_the_players_own_stream_is_told_and_nobody_elses(started_game, alice, bob):
    Event.objects.all().delete()
    services.note_save(game_id=started_game.pk, user=alice, text=PLAN)
    (event,) = Event.objects.filter(kind=EventKind.GAME_NOTE)
    assert event.user_id == alice.pk and event.game_id == started_game.pk
    worded = worded_payload(event)
    assert worded["note"] == PLAN and worded["text"] == f"You saved your notes on Love Letter #{started_game.pk}."
    assert not Event.objects.filter(user=bob, kind=EventKind.GAME_NOTE).exists()


def test_the_page_keeps_my_notes(started_game, alice, carol):
    client = Client()
    client.force_login(alice)
    answer = client.post(f"/games/{started_game.pk}/notes/", {"text": PLAN})
    assert answer.status_code == 302 and answer["Location"].endswith(f"/games/{started_game.pk}/#notes")
    assert GameNote.objects.get(user=alice).text == PLAN
    assert "Keep the Guard for her." in client.get(f"/games/{started_game.pk}/notes/").content.decode()
    client.post(f"/games/{started_game.pk}/notes/", {"text": ""})
    assert not GameNote.objects.exists()
    watcher = Client()
    watcher.force_login(carol)
    assert watcher.post(f"/games/{started_game.pk}/notes/", {"text": "mine"}).status_code == 403
    assert 'id="notes"' not in watcher.get(f"/games/{started_game.pk}/").content.decode()
    assert not GameNote.objects.exists()


def test_a_reply_starting_with_note_adds_to_my_notes(started_game, alice, turn_email, mailoutbox):  # noqa: F811
    assert handle_inbound(reply_bytes(turn_email, "note Bob has the Princess")) == "noted"
    assert handle_inbound(reply_bytes(turn_email, "Note\nKeep the Guard", message_id="<n2@client.example>")) \
        == "noted"
    assert GameNote.objects.get(user=alice).text == "Bob has the Princess\n\nKeep the Guard"
    answer = latest_to(mailoutbox, "alice@example.com", "Re: ")
    assert "Added to your notes on this game" in answer.body and "Keep the Guard" in answer.body
    assert not Move.objects.filter(game=started_game).exists()  # a note is no move
    assert handle_inbound(reply_bytes(turn_email, "note", message_id="<n3@client.example>")) == "note refused: empty"
