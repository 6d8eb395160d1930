"""A followed game tells its followers of its moves and its end as a turn is told (issue 46): a notice written with
the move, at no statement of its own, delivered once by the mail (an email as the person's settings say, at most one
an hour of a game's moves) and told to their stream and webhooks, always as any spectator sees it; nothing for a game
nobody follows, nothing to one who stopped following, took a seat, or may no longer see it."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.platform.following.conftest import play_one, two_player
from tests.platform.notifications.conftest import push_service, subscribe, vapid_key  # noqa: F401 - fixtures
from turnbased.events.models import Event, EventKind
from turnbased.events.wording import worded_payload
from turnbased.following import services
from turnbased.following.models import Watch
from turnbased.groups import services as group_services
from turnbased.kit.db import dispatch
from turnbased.mail.models import OutgoingEmail
from turnbased.mail.services import preferences_update
from turnbased.notifications import tasks as notification_tasks  # noqa: F401 - the push task, run inline
from turnbased.notifications.models import Notification, NotificationKind
from turnbased.play import services as play_services
from turnbased.play.models import Game, Visibility

pytestmark = pytest.mark.django_db

FOLLOWED = (NotificationKind.FOLLOWED_MOVE, NotificationKind.FOLLOWED_END)


def _notices(user) -> list[tuple[int, str, str]]:
    return [(row.seq, row.kind, row.skip_reason or ("sent" if row.sent_at else "waiting"))
            for row in Notification.objects.filter(user=user, kind__in=FOLLOWED).order_by("pk")]


def _emails(user) -> list[OutgoingEmail]:
    return list(OutgoingEmail.objects.filter(user=user).order_by("pk"))


def _events(user) -> list[Event]:
    return list(Event.objects.filter(user=user, kind__in=(EventKind.FOLLOWED_MOVE, EventKind.FOLLOWED_END))
                .order_by("pk"))


def test_each_move_is_told_once_and_emailed_at_most_once_an_hour(game, alice, bob, carol,
                                                                 django_capture_on_commit_callbacks):
    services.watch_make(user=carol, kind="game", target_id=game.pk)
    with django_capture_on_commit_callbacks(execute=True):
        game = play_one(game, alice, bob)
    first = game.seq
    with django_capture_on_commit_callbacks(execute=True):
        game = play_one(game, alice, bob)
    assert _notices(carol) == [(first, "followed_move", "sent"),
                               (game.seq, "followed_move", "emailed within the hour")]
    (email,) = _emails(carol)
    assert email.subject == f"A move in a game you follow: {game.title}" and email.reply_to.startswith("watch+")
    assert f'To stop following {game.title}, reply "stop".' in email.text
    assert "a game you follow, moved on" in email.text and "/following/" in email.text
    assert "The game as any spectator sees it:" in email.text
    assert "Waiting for alice." in email.text or "Waiting for bob." in email.text  # who was to move when it was sent
    events = _events(carol)
    assert [event.seq for event in events] == [first, game.seq], "the stream hears of every move"
    worded = worded_payload(events[0])
    assert worded["seat"] is None and worded["text"].startswith(f"{game.title}, which you follow, moved on.")
    assert all(not entry["private"] for entry in worded["entries"])
    # Nobody at the table hears of it as a follower.
    assert not Notification.objects.filter(kind__in=FOLLOWED).exclude(user=carol).exists()


def test_a_watch_of_ends_is_told_the_end_alone_and_off_tells_nothing(game, alice, bob, carol, make_user,
                                                                     django_capture_on_commit_callbacks):
    dave = make_user("dave")
    services.watch_make(user=carol, kind="game", target_id=game.pk, notify="ends")
    services.watch_make(user=dave, kind="game", target_id=game.pk, notify="off")
    with django_capture_on_commit_callbacks(execute=True):
        game = play_one(game, alice, bob)
    assert _notices(carol) == []
    with django_capture_on_commit_callbacks(execute=True):
        play_services.resign_game(game_id=game.pk, user=alice)
    game.refresh_from_db()
    assert _notices(carol) == [(game.seq, "followed_end", "sent")]
    (email,) = _emails(carol)
    assert email.subject == f"Game over in a game you follow: {game.title}"
    assert game.result_line in email.text
    (event,) = _events(carol)
    assert worded_payload(event)["text"] == f"{game.title}, which you follow, is over. {game.result_line}"
    assert _notices(dave) == [] and _events(dave) == [] and _emails(dave) == []


def test_a_notice_is_skipped_for_one_who_stopped_following_or_sat_down_and_emails_follow_the_settings(
        game, alice, bob, carol, django_capture_on_commit_callbacks):
    watch, _ = services.watch_make(user=carol, kind="game", target_id=game.pk)
    with django_capture_on_commit_callbacks(execute=False) as waiting:
        game = play_one(game, alice, bob)
    services.watch_remove(watch_id=watch.pk, user=carol)
    for callback in waiting:
        callback()
    assert _notices(carol) == [(game.seq, "followed_move", "no longer followed")]
    assert _events(carol) == [] and _emails(carol) == []
    services.watch_make(user=carol, kind="game", target_id=game.pk)
    preferences_update(user=carol, turn_emails="immediate", game_emails=False)
    with django_capture_on_commit_callbacks(execute=True):
        game = play_one(game, alice, bob)
    assert _notices(carol)[-1] == (game.seq, "followed_move", "game emails off")
    assert len(_events(carol)) == 1, "the stream hears of it whatever the email settings"


def test_a_move_nobody_follows_costs_no_statement_and_wakes_no_worker(alice, bob, carol, monkeypatch,
                                                                      django_capture_on_commit_callbacks):
    """The question "who follows this game?" is a part of the move's own statement: a move of a followed game and of
    one nobody follows send the same number of statements, and only the followed one queues a delivery."""
    queued = []
    monkeypatch.setattr(dispatch, "queue", lambda task, args, countdown=0: queued.append((task, args)) or True)
    counts = {}
    for followed in (False, True):
        game = two_player(alice, bob, seed=f"budget {followed}")
        game = play_one(game, alice, bob)  # past the first move's own reads
        if followed:
            services.watch_make(user=carol, kind="game", target_id=game.pk)
        queued.clear()
        game.refresh_from_db()
        seat = game.to_move[0]
        user = alice if game.seats.get(index=seat).user_id == alice.pk else bob
        from games import get_engine
        move = get_engine(game.engine).legal_moves(game.state, seat)[0]
        with django_capture_on_commit_callbacks(execute=True), CaptureQueriesContext(connection) as sent:
            play_services.submit_move(game_id=game.pk, user=user, expected_seq=game.seq, move=move)
        counts[followed] = len(sent.captured_queries)
        deliveries = [args for task, args in queued if task == "turnbased.mail.tasks.deliver_game_notifications"]
        game.refresh_from_db()
        told = Notification.objects.filter(game=game, seq=game.seq, kind=NotificationKind.FOLLOWED_MOVE).count()
        assert told == (1 if followed else 0)
        if followed:
            assert [game.pk, game.seq] in deliveries
    assert counts[True] == counts[False], counts


def test_a_held_table_tells_its_followers_nothing_until_it_is_let_go(alice, bob, carol,
                                                                     django_capture_on_commit_callbacks):
    game = two_player(alice, bob)
    services.watch_make(user=carol, kind="game", target_id=game.pk, notify="moves")
    Game.objects.filter(pk=game.pk).update(held=True)
    with django_capture_on_commit_callbacks(execute=True):
        game = play_one(game, alice, bob)
        play_services.resign_game(game_id=game.pk, user=alice)
    assert _notices(carol) == []
    with django_capture_on_commit_callbacks(execute=True):
        play_services.game_release(game_ids=[game.pk])
    game.refresh_from_db()
    assert _notices(carol) == [(game.seq, "followed_end", "sent")]
    assert Watch.objects.filter(user=carol).exists()


def test_a_move_superseded_before_its_delivery_is_not_emailed_and_a_group_left_tells_nothing_more(
        alice, bob, carol, django_capture_on_commit_callbacks):
    club = group_services.group_create(user=alice, name="Thursday Club")
    for person in (bob, carol):
        group_services.join(user=person, group_id=club.pk)
    game = two_player(alice, bob, visibility=Visibility.PRIVATE, terms={"group": club.pk})
    services.watch_make(user=carol, kind="group", target_id=club.pk, notify="moves")
    with django_capture_on_commit_callbacks(execute=False) as late:
        game = play_one(game, alice, bob)
    first = game.seq
    with django_capture_on_commit_callbacks(execute=True):
        game = play_one(game, alice, bob)
    for callback in late:
        callback()
    assert sorted(_notices(carol)) == [(first, "followed_move", "superseded"), (game.seq, "followed_move", "sent")]
    assert len(_emails(carol)) == 1 and len(_events(carol)) == 2
    group_services.leave(user=carol, group_id=club.pk)
    with django_capture_on_commit_callbacks(execute=True):
        game = play_one(game, alice, bob)
    assert _notices(carol)[-1] == (game.seq, "followed_move", "may not see the game")
    assert len(_events(carol)) == 2, "a private table of a group she left tells her nothing"


def test_a_followed_move_and_end_are_pushed_as_a_turn_is_saying_only_the_game(
        game, alice, bob, carol, push_service, subscribe, django_capture_on_commit_callbacks):
    phone = push_service.device("phone")
    subscribe(carol, phone)
    services.watch_make(user=carol, kind="game", target_id=game.pk)
    with django_capture_on_commit_callbacks(execute=True):
        game = play_one(game, alice, bob)
    with django_capture_on_commit_callbacks(execute=True):
        play_services.resign_game(game_id=game.pk, user=alice)
    received = [push.payload for push in push_service.pushes_to(phone)]
    assert received == [
        {"title": game.title, "body": "A game you follow moved on.", "url": f"/games/{game.pk}/",
         "tag": f"followed-{game.pk}", "icon": "/static/icons/icon-192.png"},
        {"title": game.title, "body": "A game you follow is over.", "url": f"/games/{game.pk}/",
         "tag": f"followed-{game.pk}", "icon": "/static/icons/icon-192.png"},
    ]
