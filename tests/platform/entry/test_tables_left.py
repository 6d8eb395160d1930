"""A person whose seat a bot took leaves the tables they were waiting to start, and is told why (issue 44, fair
entry): the tables they joined are left, the ones they made aborted, in their stream and by email; tables they
joined afterwards are theirs; a lost task is done by the sweep, and doing it twice leaves nothing twice."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.utils.translation import override

from turnbased.clocks.models import SeatClock
from turnbased.entry import services as entry_services
from turnbased.entry import tasks
from turnbased.events.models import Event, EventKind
from turnbased.events.wording import worded_payload
from turnbased.kit.db import dispatch
from turnbased.mail.models import EmailKind, OutgoingEmail
from turnbased.play import services
from turnbased.play.models import Game, GameStatus, Seat

pytestmark = pytest.mark.django_db

REMOVE = {"kind": "per_move", "days_per_move": 1, "expiry": "remove"}


def _late(player, other) -> Game:
    """A started game at a table that removes a late player, where ``player`` is to move (the seed has the first
    seat begin)."""
    game = services.create_game(creator=player, engine_slug="love-letter", players=2, time_control=REMOVE, seed="c")
    services.join_game(game_id=game.pk, user=other)
    game.refresh_from_db()
    return game


def _time_runs_out(game, capture):
    """The player to move runs out of time: a bot takes their seat (what follows the commit runs); return when."""
    seat = game.to_move[0]
    moment = SeatClock.objects.get(game=game, seat=seat).deadline + timedelta(minutes=1)
    with time_machine.travel(moment, tick=False), capture(execute=True):
        assert services.play_timeout(game_id=game.pk, seat=seat) == "seat handed to the bot"
    return moment


def _open(creator, players=3) -> Game:
    return services.create_game(creator=creator, engine_slug="love-letter", players=players)


def test_the_tables_are_left_the_own_ones_aborted_and_the_person_told(django_capture_on_commit_callbacks, alice, bob,
                                                                       carol):
    game = _late(bob, alice)
    joined, own = _open(carol), _open(bob)
    services.join_game(game_id=joined.pk, user=bob)
    others_own = _open(alice)  # a table bob never sat at: untouched
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):  # the email is sent once it commits
        _time_runs_out(game, django_capture_on_commit_callbacks)
    joined.refresh_from_db(), own.refresh_from_db(), others_own.refresh_from_db()
    assert not Seat.objects.filter(game=joined, user=bob).exists() and joined.status == GameStatus.OPEN
    assert own.status == GameStatus.ABORTED
    assert others_own.status == GameStatus.OPEN and others_own.seats.count() == 1
    told = Event.objects.get(user=bob, kind=EventKind.TABLES_LEFT)
    assert told.payload == {"game": {"id": game.pk, "engine": "love-letter"},
                            "tables": [{"id": joined.pk, "engine": "love-letter", "aborted": False},
                                       {"id": own.pk, "engine": "love-letter", "aborted": True}]}
    with override("en"):
        assert worded_payload(told)["text"] == (
            f"A bot took your seat at Love Letter #{game.pk}, so you left the tables you were waiting to start: "
            f"Love Letter #{joined.pk}, Love Letter #{own.pk}.")
    assert not Event.objects.filter(kind=EventKind.TABLES_LEFT).exclude(user=bob).exists()
    email = OutgoingEmail.objects.get(user=bob, kind=EmailKind.TABLES_LEFT)
    assert f"A bot took your seat at Love Letter #{game.pk}" in email.subject
    sent = [message for message in mail.outbox if message.to == [bob.email]
            and "you left your tables" in message.subject]
    assert len(sent) == 1
    assert f"/games/{joined.pk}/" in sent[0].body and "aborted: you created it" in sent[0].body


def test_tables_joined_after_the_bot_took_over_are_kept_and_nothing_is_done_twice(django_capture_on_commit_callbacks,
                                                                                  alice, bob, carol):
    game = _late(bob, alice)
    before = _open(carol)
    services.join_game(game_id=before.pk, user=bob)
    moment = _time_runs_out(game, django_capture_on_commit_callbacks)
    with time_machine.travel(moment + timedelta(minutes=1), tick=False):
        after = _open(carol)
        services.join_game(game_id=after.pk, user=bob)
    assert entry_services.waiting_tables_leave(user_id=bob.pk) == []
    assert tasks.sweep_tables_left_waiting() == 0
    assert Seat.objects.filter(game=after, user=bob).exists()
    assert Event.objects.filter(user=bob, kind=EventKind.TABLES_LEFT).count() == 1


def test_a_person_with_no_table_waiting_is_told_nothing(django_capture_on_commit_callbacks, alice, bob):
    _time_runs_out(_late(bob, alice), django_capture_on_commit_callbacks)
    assert not Event.objects.filter(kind=EventKind.TABLES_LEFT).exists()
    assert not OutgoingEmail.objects.filter(kind=EmailKind.TABLES_LEFT).exists()


def test_a_lost_task_is_done_by_the_sweep(django_capture_on_commit_callbacks, monkeypatch, alice, bob, carol):
    game = _late(bob, alice)
    table = _open(carol)
    services.join_game(game_id=table.pk, user=bob)
    monkeypatch.setattr(dispatch, "queue", lambda task, args, countdown=0: False)  # the broker lost it
    _time_runs_out(game, django_capture_on_commit_callbacks)
    assert Seat.objects.filter(game=table, user=bob).exists()
    assert entry_services.people_waiting_to_leave() == [bob.pk]
    monkeypatch.undo()
    assert tasks.sweep_tables_left_waiting() == 1
    assert not Seat.objects.filter(game=table, user=bob).exists()
    assert entry_services.people_waiting_to_leave() == []


def test_a_table_that_started_in_the_meantime_is_played_on(django_capture_on_commit_callbacks, alice, bob, carol):
    game = _late(bob, alice)
    table = _open(carol, players=2)
    services.join_game(game_id=table.pk, user=bob)  # full: it starts
    _time_runs_out(game, django_capture_on_commit_callbacks)
    table.refresh_from_db()
    assert table.status == GameStatus.ACTIVE and Seat.objects.filter(game=table, user=bob).exists()
    assert not Event.objects.filter(kind=EventKind.TABLES_LEFT).exists()
