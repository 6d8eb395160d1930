"""Turn pushes end to end against a local push service that checks the VAPID signature and decrypts each
push with the device's own keys: what a push says, the rules it shares with turn emails, at most once,
and subscriptions the push service says are gone."""

from __future__ import annotations

import socket
import threading
import time
from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from tests.platform.notifications.conftest import turn_row
from turnbased.accounts.services.languages import language_choose
from turnbased.events.presence import record_visit
from turnbased.mail import delivery
from turnbased.mail.models import MailPreference, TurnEmails
from turnbased.notifications import push, services, tasks
from turnbased.notifications.models import PushSubscription
from turnbased.play import services as play

pytestmark = pytest.mark.django_db

CHROME_ON_ANDROID = ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
                     "Chrome/131.0.0.0 Mobile Safari/537.36")


def deliver(notification, capture) -> str:
    """Settle and send the turn email as the worker does; the push task runs when that commits."""
    with capture(execute=True):
        return delivery.deliver(notification.pk)


def test_a_turn_is_pushed_to_each_device_signed_encrypted_and_saying_only_the_game_and_the_turn(
        started_game, alice, push_service, subscribe, django_capture_on_commit_callbacks, mailoutbox):
    phone, laptop = push_service.device("phone"), push_service.device("laptop")
    subscribe(alice, phone, CHROME_ON_ANDROID)
    subscribe(alice, laptop)
    assert deliver(turn_row(started_game, "alice"), django_capture_on_commit_callbacks) == "sent"
    assert push_service.refused == []
    expected = {"title": f"Love Letter #{started_game.pk}", "body": "It is your turn.",
                "url": f"/games/{started_game.pk}/", "tag": f"turn-{started_game.pk}",
                "icon": "/static/icons/icon-192.png"}
    for device in (phone, laptop):
        [received] = push_service.pushes_to(device)
        assert received.payload == expected  # nothing of the position: no hand, no card, no move
        assert received.headers["topic"] == f"turn-{started_game.pk}" and received.headers["urgency"] == "normal"
    assert [m.to for m in mailoutbox] == [["alice@example.com"]]  # the email goes too
    assert all(row.last_pushed_at for row in PushSubscription.objects.filter(user=alice))


@pytest.mark.parametrize(("language", "title", "body"), [
    ("hu", "Love Letter #{pk}", "Te következel."),
    ("de", "Love Letter #{pk}", "Du bist am Zug."),
])
def test_a_push_is_worded_in_the_players_language(language, title, body, started_game, alice, push_service, subscribe,
                                                  django_capture_on_commit_callbacks):
    language_choose(user=alice, language=language)
    phone = push_service.device("phone")
    subscribe(alice, phone)
    deliver(turn_row(started_game, "alice"), django_capture_on_commit_callbacks)
    [received] = push_service.pushes_to(phone)
    assert (received.payload["title"], received.payload["body"]) == (title.format(pk=started_game.pk), body)


def test_the_game_is_named_as_the_players_language_names_it(start_scripted_game, alice, bob, push_service, subscribe,
                                                           django_capture_on_commit_callbacks):
    from turnbased.play.models import Game

    language_choose(user=alice, language="hu")
    game = play.create_game(creator=alice, engine_slug="carcassonne-hg", players=2, options={})
    play.join_game(game_id=game.pk, user=bob, invite_code=game.invite_code if game.visibility == "private" else None)
    game = Game.objects.get(pk=game.pk)
    to_move = game.seats.get(index=game.to_move[0]).user
    language_choose(user=to_move, language="hu")
    phone = push_service.device("phone")
    subscribe(to_move, phone)
    deliver(turn_row(game, to_move.username), django_capture_on_commit_callbacks)
    [received] = push_service.pushes_to(phone)
    assert received.payload["title"] == f"Carcassonne: Vadászok és gyűjtögetők #{game.pk}"


def test_no_push_while_the_player_has_the_game_open_then_one_once_they_left(
        started_game, alice, push_service, subscribe, django_capture_on_commit_callbacks):
    phone = push_service.device("phone")
    subscribe(alice, phone)
    record_visit(user_id=alice.pk, game_id=started_game.pk)
    row = turn_row(started_game, "alice")
    assert deliver(row, django_capture_on_commit_callbacks) == "waiting"
    assert push.push_turn(row.pk) == ["waiting"]  # a push task run early waits for the email's decision
    assert push_service.pushes_to(phone) == []
    with time_machine.travel(timezone.now() + timedelta(minutes=2)):
        assert deliver(row, django_capture_on_commit_callbacks) == "sent"
    assert len(push_service.pushes_to(phone)) == 1


def test_a_push_task_finds_the_player_back_on_the_game_page_and_sends_nothing(
        started_game, alice, push_service, subscribe, monkeypatch, django_capture_on_commit_callbacks):
    subscribe(alice, phone := push_service.device("phone"))
    queued = []
    monkeypatch.setattr(push, "enqueue", queued.append)
    row = turn_row(started_game, "alice")
    deliver(row, django_capture_on_commit_callbacks)
    record_visit(user_id=alice.pk, game_id=started_game.pk)  # back between the email and the push
    assert push.push_turn(queued[0]) == ["skipped: has the game open"]
    assert push_service.pushes_to(phone) == []


@pytest.mark.parametrize("choice", [TurnEmails.DIGEST, TurnEmails.OFF])
def test_no_push_for_players_who_chose_the_digest_or_no_turn_emails(choice, started_game, alice, push_service,
                                                                    subscribe, django_capture_on_commit_callbacks):
    MailPreference.objects.update_or_create(user=alice, defaults={"turn_emails": choice})
    subscribe(alice, phone := push_service.device("phone"))
    row = turn_row(started_game, "alice")
    assert deliver(row, django_capture_on_commit_callbacks).startswith("skipped")
    assert push.push_turn(row.pk) == ["skipped: no turn email"]
    assert push_service.pushes_to(phone) == []


def test_a_turn_is_pushed_once_however_often_its_task_runs(started_game, alice, push_service, subscribe,
                                                          django_capture_on_commit_callbacks):
    subscribe(alice, phone := push_service.device("phone"))
    row = turn_row(started_game, "alice")
    deliver(row, django_capture_on_commit_callbacks)
    assert tasks.push_turn.delay(row.pk).get() == ["settled"]
    assert push.push_turn(row.pk) == ["settled"]
    with time_machine.travel(timezone.now() + timedelta(minutes=1)):
        assert tasks.sweep_pushes.delay().get() == 0
    assert len(push_service.pushes_to(phone)) == 1


def test_a_turn_the_game_moved_past_is_not_pushed(started_game, alice, push_service, subscribe, monkeypatch,
                                                 django_capture_on_commit_callbacks):
    subscribe(alice, phone := push_service.device("phone"))
    queued = []
    monkeypatch.setattr(push, "enqueue", queued.append)
    deliver(turn_row(started_game, "alice"), django_capture_on_commit_callbacks)
    play.submit_move(game_id=started_game.pk, user=alice, expected_seq=0, move={"card": "handmaid"})
    assert push.push_turn(queued[0]) == ["skipped: superseded"]
    assert push_service.pushes_to(phone) == []


def test_the_sweep_pushes_a_turn_whose_task_was_lost_and_only_a_recent_one(
        started_game, alice, push_service, subscribe, monkeypatch, django_capture_on_commit_callbacks):
    subscribe(alice, phone := push_service.device("phone"))
    monkeypatch.setattr(push, "enqueue", lambda notification_id: None)  # the broker was down
    row = turn_row(started_game, "alice")
    deliver(row, django_capture_on_commit_callbacks)
    assert tasks.sweep_pushes.delay().get() == 0  # the prompt task still has its chance
    with time_machine.travel(timezone.now() + timedelta(minutes=20)):
        assert push.due_ids() == []  # too old to say "now": the email said it
    with time_machine.travel(timezone.now() + timedelta(minutes=1)):
        assert tasks.sweep_pushes.delay().get() == 1
    assert len(push_service.pushes_to(phone)) == 1


@pytest.mark.parametrize("status", [404, 410])
def test_a_subscription_the_push_service_says_is_gone_is_removed(status, started_game, alice, push_service, subscribe,
                                                                django_capture_on_commit_callbacks):
    old_phone, laptop = push_service.device("old-phone"), push_service.device("laptop")
    subscribe(alice, old_phone)
    subscribe(alice, laptop)
    old_phone.answer = status
    deliver(turn_row(started_game, "alice"), django_capture_on_commit_callbacks)
    assert list(PushSubscription.objects.filter(user=alice).values_list("endpoint", flat=True)) == [laptop.endpoint]
    assert len(push_service.pushes_to(laptop)) == 1


def test_another_account_naming_a_players_endpoint_leaves_her_pushes_as_they_were(
        started_game, alice, bob, push_service, subscribe, django_capture_on_commit_callbacks):
    """Issue 42: bob subscribing the endpoint of alice's phone with keys of his own took her device over, so her
    turns were pushed nowhere."""
    phone, impostor = push_service.device("phone"), push_service.device("impostor")
    subscribe(alice, phone)
    services.push_subscription_save(user=bob, endpoint=phone.endpoint, p256dh=impostor.p256dh,
                                    auth=impostor.subscription()["keys"]["auth"])
    deliver(turn_row(started_game, "alice"), django_capture_on_commit_callbacks)
    [received] = push_service.pushes_to(phone)  # decrypted with the phone's own keys: alice's row, as she kept it
    assert received.payload["body"] == "It is your turn." and push_service.refused == []


def test_a_push_service_that_fails_keeps_the_subscription(started_game, alice, push_service, subscribe, monkeypatch,
                                                         django_capture_on_commit_callbacks):
    subscribe(alice, phone := push_service.device("phone"))
    phone.answer = 503
    queued = []
    monkeypatch.setattr(push, "enqueue", queued.append)
    deliver(turn_row(started_game, "alice"), django_capture_on_commit_callbacks)
    assert push.push_turn(queued[0]) == ["failed: 503"]
    assert PushSubscription.objects.filter(user=alice).count() == 1


def test_a_push_service_that_never_answers_fails_within_the_timeout(started_game, alice, vapid_key, settings, subscribe,
                                                                   monkeypatch, django_capture_on_commit_callbacks):
    from tests.platform.notifications.push_service import PushService
    from turnbased.notifications.vapid import public_key_of

    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(5)  # accepts connections (the kernel does) and never answers
    held = []
    stop = threading.Event()

    def accept():
        silent.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(silent.accept()[0])
            except OSError:
                pass

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    settings.WEB_PUSH_TIMEOUT_SECONDS = 0.5
    device = PushService(vapid_public_key=public_key_of(vapid_key), subject="x").device("phone")
    device.endpoint = f"http://127.0.0.1:{silent.getsockname()[1]}/push/phone"
    subscribe(alice, device)
    queued = []
    monkeypatch.setattr(push, "enqueue", queued.append)
    deliver(turn_row(started_game, "alice"), django_capture_on_commit_callbacks)
    started = time.monotonic()
    try:
        assert push.push_turn(queued[0]) == ["failed: ReadTimeout"]
        assert time.monotonic() - started < 3
    finally:
        stop.set()
        thread.join(2)
        for connection in held:
            connection.close()
        silent.close()


def test_a_push_to_a_host_no_longer_allowed_is_not_sent(started_game, alice, push_service, subscribe, settings,
                                                       monkeypatch, django_capture_on_commit_callbacks):
    subscribe(alice, phone := push_service.device("phone"))
    queued = []
    monkeypatch.setattr(push, "enqueue", queued.append)
    deliver(turn_row(started_game, "alice"), django_capture_on_commit_callbacks)
    settings.WEB_PUSH_SERVICES = ["fcm.googleapis.com"]
    assert push.push_turn(queued[0]) == ["refused: not a push service we send to"]
    assert push_service.pushes_to(phone) == []


def test_without_a_vapid_key_nothing_is_queued(started_game, alice, push_service, subscribe, settings, monkeypatch,
                                              django_capture_on_commit_callbacks):
    subscribe(alice, push_service.device("phone"))
    settings.VAPID_PRIVATE_KEY = ""
    queued = []
    monkeypatch.setattr(push, "enqueue", queued.append)
    assert deliver(turn_row(started_game, "alice"), django_capture_on_commit_callbacks) == "sent"
    assert queued == []


def test_a_player_without_devices_queues_no_push(started_game, alice, vapid_key, monkeypatch,
                                                django_capture_on_commit_callbacks):
    queued = []
    monkeypatch.setattr(push, "enqueue", queued.append)
    assert deliver(turn_row(started_game, "alice"), django_capture_on_commit_callbacks) == "sent"
    assert queued == []
