"""Each player's events are written with the change they tell of, as their seat may know it, and nowhere else;
they are worded when read."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
import time_machine
from rest_framework.test import APIClient

from tests.platform.conftest import SCRIPTED_CLASSIC_2P, api_token
from turnbased.accounts.models import profile_of
from turnbased.chat import services as chat
from turnbased.clocks import sweep
from turnbased.kit.errors import IllegalMoveError, StaleSequence
from turnbased.events.models import Event, EventKind
from turnbased.events.wording import worded_payload
from turnbased.play import services
from turnbased.play.models import Game
from turnbased.play.services import tables

pytestmark = pytest.mark.django_db

# Three players, top first: set aside, the deal (seat 0, 1, 2), then the draws. Seat 0 starts.
SCRIPTED_CLASSIC_3P = ["princess", "guard", "priest", "baron", "handmaid", "guard", "guard", "guard", "guard",
                       "priest", "baron", "handmaid", "prince", "prince", "king", "countess"]


def told(user, **filters) -> list[tuple[str, int | None]]:
    """Return (kind, seq) of the user's events, oldest first."""
    return list(Event.objects.filter(user=user, **filters).order_by("id").values_list("kind", "seq"))


def payloads(user, kind: str) -> list[dict]:
    """Return the user's events of ``kind`` as they read them (worded in the active language)."""
    return [worded_payload(event) for event in Event.objects.filter(user=user, kind=kind).order_by("id")]


@pytest.fixture
def three(alice, bob, carol):
    game = services.create_game(creator=alice, engine_slug="love-letter", players=3,
                                options={"deck": SCRIPTED_CLASSIC_3P, "first_player": 0})
    services.join_game(game_id=game.pk, user=bob)
    services.join_game(game_id=game.pk, user=carol)
    game.refresh_from_db()
    return game


def test_a_start_tells_every_player_their_seat_and_the_first_to_move_their_turn(started_game, alice, bob):
    assert told(alice) == [(EventKind.GAME_STARTED, 0), (EventKind.YOUR_TURN, 0)]
    assert told(bob) == [(EventKind.GAME_STARTED, 0)]
    (start,) = payloads(bob, EventKind.GAME_STARTED)
    assert start == {"name": started_game.title, "engine": "love-letter", "engine_version": started_game.engine_version,
                     "seat": 1, "players": ["alice", "bob"]}
    assert Event.objects.filter(user=bob).get().game_id == started_game.pk


def test_a_table_with_a_bot_tells_only_its_person(alice):
    game = services.create_game(creator=alice, engine_slug="love-letter", players=2, bots={1: "random"},
                                options={"deck": SCRIPTED_CLASSIC_2P, "first_player": 0})
    assert told(alice) == [(EventKind.GAME_STARTED, 0), (EventKind.YOUR_TURN, 0)]
    assert set(Event.objects.values_list("user_id", flat=True)) == {alice.pk}
    services.submit_move(game_id=game.pk, user=alice, expected_seq=0, move={"card": "handmaid"})
    services.play_bot_turn(game_id=game.pk, seq=1)
    # The bot's move is told to alice as her seat sees it, then her turn.
    assert told(alice)[2:] == [(EventKind.MOVE_PLAYED, 2), (EventKind.YOUR_TURN, 2)]


def test_a_move_is_told_to_each_other_player_as_their_seat_sees_it(three, alice, bob, carol):
    services.submit_move(game_id=three.pk, user=alice, expected_seq=0, move={"card": "handmaid"})
    assert told(alice, kind=EventKind.MOVE_PLAYED) == []  # the mover has the answer to the request
    assert told(bob)[-2:] == [(EventKind.MOVE_PLAYED, 1), (EventKind.YOUR_TURN, 1)]
    assert told(carol)[-1:] == [(EventKind.MOVE_PLAYED, 1)]
    for user, seat in ((bob, 1), (carol, 2)):
        (played,) = payloads(user, EventKind.MOVE_PLAYED)
        history = APIClient()
        history.credentials(HTTP_AUTHORIZATION=f"Token {api_token(user)}")
        entries = history.get(f"/api/games/{three.pk}/history/?since=0").json()["results"]
        assert played["entries"] == entries, "the same words as the history gives this seat"
        assert played["seat"] == seat and played["player"] == "alice" and played["mover_seat"] == 0
        assert played["text"] == "alice played the Handmaid: protected until alice's next turn."
    # Bob drew a card: he reads which one, carol only that he drew.
    bob_lines = [entry["text"] for entry in payloads(bob, EventKind.MOVE_PLAYED)[0]["entries"]]
    carol_lines = [entry["text"] for entry in payloads(carol, EventKind.MOVE_PLAYED)[0]["entries"]]
    assert "You drew the Guard." in bob_lines
    assert not any("Guard" in line for line in carol_lines), carol_lines


def test_a_refused_move_writes_no_event(started_game, alice, bob):
    before = Event.objects.count()
    with pytest.raises(IllegalMoveError):
        services.submit_move(game_id=started_game.pk, user=alice, expected_seq=0, move={"card": "princess"})
    with pytest.raises(StaleSequence):
        services.submit_move(game_id=started_game.pk, user=alice, expected_seq=3, move={"card": "handmaid"})
    assert Event.objects.count() == before


def test_the_events_are_written_in_the_moves_transaction(started_game, alice, bob, monkeypatch):
    """A move that fails after its events were written leaves none of them: they share its transaction."""
    def fail(game):
        raise RuntimeError("the move fails after its events")

    before = Event.objects.count()
    monkeypatch.setattr("turnbased.play.services.moves.schedule_bot_turns", fail)
    with pytest.raises(RuntimeError):
        services.submit_move(game_id=started_game.pk, user=alice, expected_seq=0, move={"card": "handmaid"})
    assert Event.objects.count() == before
    assert Game.objects.get(pk=started_game.pk).seq == 0
    monkeypatch.undo()
    services.submit_move(game_id=started_game.pk, user=alice, expected_seq=0, move={"card": "handmaid"})
    assert Event.objects.count() == before + 2


def test_a_start_that_fails_writes_no_event(alice, bob, monkeypatch):
    game = services.create_game(creator=alice, engine_slug="love-letter", players=2)
    monkeypatch.setattr(tables, "schedule_bot_turns", lambda game: (_ for _ in ()).throw(RuntimeError("late")))
    with pytest.raises(RuntimeError):
        services.join_game(game_id=game.pk, user=bob)
    assert not Event.objects.exists()


def test_the_end_tells_every_player_the_result(started_game, alice, bob):
    services.resign_game(game_id=started_game.pk, user=bob)
    game = Game.objects.get(pk=started_game.pk)
    assert told(bob)[-1:] == [(EventKind.GAME_FINISHED, 1)]  # bob resigned: no move_played for his own
    assert told(alice)[-2:] == [(EventKind.MOVE_PLAYED, 1), (EventKind.GAME_FINISHED, 1)]
    (finished,) = payloads(alice, EventKind.GAME_FINISHED)
    # The stored result, its summary worded for the reader as the game's page words it (the row keeps the record's).
    assert finished["result"] == {**game.result, "summary": game.result_line} and finished["seat"] == 0
    assert "alice" in finished["result"]["summary"]
    assert Event.objects.get(user=alice, kind=EventKind.GAME_FINISHED).payload["result"] == game.result


def test_a_message_is_told_to_the_other_players_who_did_not_mute_its_author(three, alice, bob, carol):
    chat.player_mute(user=carol, username="alice")
    message = chat.message_post(game_id=three.pk, user=alice, text="good luck")
    assert told(alice, kind=EventKind.MESSAGE_POSTED) == []
    assert told(carol, kind=EventKind.MESSAGE_POSTED) == []
    (said,) = payloads(bob, EventKind.MESSAGE_POSTED)
    assert said == {"name": three.title, "engine": "love-letter", "seat": 1, "author": "alice", "text": "good luck",
                    "message": message.pk}
    assert Event.objects.get(user=bob, kind=EventKind.MESSAGE_POSTED).seq == 0
    message.refresh_from_db()  # the row was written as save() would have
    assert message.text == "good luck" and message.created_at is not None


def test_a_message_nobody_else_may_hear_is_still_kept(started_game, alice, bob):
    chat.player_mute(user=bob, username="alice")
    message = chat.message_post(game_id=started_game.pk, user=alice, text="anyone?")
    assert message.pk and not Event.objects.filter(kind=EventKind.MESSAGE_POSTED).exists()


def test_a_deadline_near_comes_with_the_reminder(alice, bob):
    with time_machine.travel(datetime(2026, 11, 27, 12, 0, tzinfo=timezone.utc), tick=False) as clock:
        profile = profile_of(alice)
        profile.reminder_lead_hours = 6
        profile.save()
        game = services.create_game(creator=alice, engine_slug="love-letter", players=2,
                                    options={"deck": SCRIPTED_CLASSIC_2P, "first_player": 0},
                                    time_control={"kind": "per_move", "days_per_move": 1})
        services.join_game(game_id=game.pk, user=bob)
        clock.shift(timedelta(hours=19))
        assert sweep.send_reminders() == 1
        assert sweep.send_reminders() == 0
    (near,) = payloads(alice, EventKind.DEADLINE_NEAR)
    assert near["seat"] == 0 and near["deadline"] == "2026-11-28T12:00:00Z"
    assert told(bob, kind=EventKind.DEADLINE_NEAR) == []
