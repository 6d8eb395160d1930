"""Outbound: the outbox, turn emails with the private position, preferences, presence, sweeps."""

from __future__ import annotations

import re
from datetime import timedelta
from unittest import mock
from urllib.parse import urlsplit

import pytest
import time_machine
from django.core import mail
from django.test import Client
from django.utils import timezone

from tests.platform.conftest import PASSWORD
from tests.platform.mail.conftest import LANGUAGES, title_in, worded
from turnbased.accounts.services.languages import language_choose
from turnbased.mail import delivery, outbox, services, tasks
from turnbased.mail.models import MailPreference, OutgoingEmail, TurnEmails
from turnbased.mail.tokens import read_reply_address
from turnbased.notifications.models import Notification, NotificationKind
from turnbased.play import services as play

pytestmark = pytest.mark.django_db


def turn_row(game, username):
    return Notification.objects.get(game=game, seq=game.seq, kind=NotificationKind.YOUR_TURN, user__username=username)


def test_turn_email_holds_the_private_position_the_moves_and_a_reply_address(started_game, alice, mailoutbox):
    assert delivery.deliver(turn_row(started_game, "alice").pk) == "sent"
    message = mailoutbox[-1]
    assert message.to == ["alice@example.com"] and message.subject == f"Your turn: Love Letter #{started_game.pk}"
    assert "Your hand: Guard (1), Handmaid (4)" in message.body
    assert "  guard bob priest\n" in message.body and "  handmaid\n" in message.body
    assert "reply to this email with your move" in message.body
    token = read_reply_address(message.reply_to[0])
    assert (token.user_id, token.game_id, token.seq) == (alice.pk, started_game.pk, 0)
    html = message.alternatives[0][0]
    assert "Your hand: Guard (1), Handmaid (4)" in html and f"/games/{started_game.pk}/" in html
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert message.extra_headers["List-Unsubscribe"].startswith("<http")


def test_turn_email_tells_what_happened_since_the_players_last_move(started_game, alice, bob, mailoutbox):
    play.submit_move(game_id=started_game.pk, user=alice, expected_seq=0, move={"card": "handmaid"})
    started_game.refresh_from_db()
    play.submit_move(game_id=started_game.pk, user=bob, expected_seq=1, move={"card": "guard"})
    started_game.refresh_from_db()
    delivery.deliver(turn_row(started_game, "alice").pk)
    body = mailoutbox[-1].body
    assert "Since your last move:" in body and "bob played the Guard: no effect, no legal target." in body
    assert "You played the Handmaid" not in body  # news starts after the player's own last move


def test_a_retried_task_sends_exactly_one_email(players_language, started_game, mailoutbox):
    row = turn_row(started_game, "alice")
    assert delivery.deliver(row.pk) == "sent"
    assert delivery.deliver(row.pk) == "settled"
    tasks.deliver_notification.delay(row.pk)
    subject = worded(players_language, "Your turn: %(game)s", game=title_in(players_language, started_game))
    assert [m.subject for m in mailoutbox if m.to == ["alice@example.com"]] == [subject]


def test_a_failed_send_leaves_the_email_in_the_outbox_and_the_sweep_sends_it_once(started_game, mailoutbox):
    row = turn_row(started_game, "alice")
    with mock.patch("django.core.mail.EmailMultiAlternatives.send", side_effect=ConnectionRefusedError):
        assert delivery.deliver(row.pk).startswith("failed: ConnectionRefusedError")
    row.refresh_from_db()
    email = OutgoingEmail.objects.get(notification=row)
    assert row.sent_at is not None and email.sent_at is None and email.attempts == 1 and not mailoutbox
    assert delivery.deliver(row.pk) == "settled"  # decided once: a retried task writes no second email
    assert outbox.due_ids() == []  # not before its retry time
    with time_machine.travel(timezone.now() + timedelta(minutes=2)):
        assert tasks.sweep_outbox.delay().get()["emails"] == 1
        tasks.sweep_outbox.delay()
    turn_emails = [m for m in mailoutbox if m.subject.startswith("Your turn")]
    assert [m.extra_headers["Message-ID"] for m in turn_emails] == [email.message_id]


def test_the_sweep_sends_rows_that_a_broker_outage_left_behind(started_game, mailoutbox):
    Notification.objects.update(created_at=timezone.now() - timedelta(minutes=5))
    assert tasks.sweep_outbox.delay().get()["notifications"] >= 1
    assert any(m.subject.startswith("Your turn") for m in mailoutbox)
    assert not Notification.objects.filter(sent_at=None, skipped_at=None).exists()


def test_a_move_survives_a_broker_outage_and_the_sweep_sends_its_email(started_game, alice, mailoutbox):
    with mock.patch("turnbased.mail.tasks.deliver_game_notifications.apply_async", side_effect=OSError("broker down")):
        with mock.patch("django.db.transaction.on_commit", side_effect=lambda fn, *a, **k: fn()):
            play.submit_move(game_id=started_game.pk, user=alice, expected_seq=0, move={"card": "handmaid"})
    started_game.refresh_from_db()
    assert started_game.seq == 1
    row = turn_row(started_game, "bob")
    assert row.sent_at is None
    Notification.objects.filter(pk=row.pk).update(created_at=timezone.now() - timedelta(minutes=2))
    tasks.sweep_outbox.delay()
    row.refresh_from_db()
    assert row.sent_at is not None


def test_superseded_turn_notices_are_skipped(started_game, alice, mailoutbox):
    row = turn_row(started_game, "alice")
    play.submit_move(game_id=started_game.pk, user=alice, expected_seq=0, move={"card": "handmaid"})
    assert delivery.deliver(row.pk) == "skipped: superseded"
    assert not [m for m in mailoutbox if m.subject.startswith("Your turn") and m.to == ["alice@example.com"]]


def test_turn_emails_off_and_digest_preferences(started_game, alice, bob, mailoutbox):
    services.preferences_update(user=alice, turn_emails=TurnEmails.OFF, game_emails=False)
    assert delivery.deliver(turn_row(started_game, "alice").pk) == "skipped: turn emails off"
    services.preferences_update(user=alice, turn_emails=TurnEmails.DIGEST, game_emails=False)
    assert delivery.send_digests() == 1
    digest = mailoutbox[-1]
    assert digest.to == ["alice@example.com"] and digest.subject == "1 game waiting for you"
    assert "Your hand: Guard (1), Handmaid (4)" in digest.body and "play+" in digest.body
    assert delivery.send_digests() == 0  # once a day


def test_no_digest_goes_to_an_address_its_owner_has_not_confirmed(started_game, alice, mailoutbox):
    from allauth.account.models import EmailAddress

    services.preferences_update(user=alice, turn_emails=TurnEmails.DIGEST, game_emails=False)
    EmailAddress.objects.filter(user=alice).update(verified=False)
    assert delivery.send_digests() == 0
    assert not [m for m in mailoutbox if m.to == ["alice@example.com"] and "waiting" in m.subject]


def test_no_turn_email_while_the_player_has_the_game_open_and_it_goes_out_once_they_leave(started_game, alice, mailoutbox):
    client = Client()
    client.login(username="alice", password=PASSWORD)
    assert client.get(f"/games/{started_game.pk}/panel/?seq=0&status=active&seated=2").status_code == 204
    row = turn_row(started_game, "alice")
    assert delivery.deliver(row.pk) == "waiting"
    assert not mailoutbox
    with time_machine.travel(timezone.now() + timedelta(minutes=2)):  # alice closed the page two minutes ago
        tasks.sweep_outbox.delay()
    assert [m.subject for m in mailoutbox if m.to == ["alice@example.com"] and m.subject.startswith("Your turn")] == [
        f"Your turn: Love Letter #{started_game.pk}"
    ]


def test_game_start_and_end_emails(start_scripted_game, alice, bob, mailoutbox, deliver_all):
    game = start_scripted_game(alice, bob)
    deliver_all()
    subjects = {(m.to[0], m.subject) for m in mailoutbox}
    assert ("bob@example.com", f"Game started: Love Letter #{game.pk}") in subjects
    assert ("alice@example.com", f"Your turn: Love Letter #{game.pk}") in subjects
    play.resign_game(game_id=game.pk, user=bob)
    deliver_all()
    over = [m for m in mailoutbox if m.subject.startswith("Game over")]
    assert {m.to[0] for m in over} == {"alice@example.com", "bob@example.com"}
    assert "alice wins" in over[0].body


def test_game_emails_can_be_turned_off(start_scripted_game, alice, bob, mailoutbox, deliver_all):
    services.preferences_update(user=bob, turn_emails=TurnEmails.IMMEDIATE, game_emails=False)
    start_scripted_game(alice, bob)
    deliver_all()
    assert not [m for m in mailoutbox if m.to == ["bob@example.com"]]


def test_one_click_unsubscribe_stops_every_email(started_game, alice, mailoutbox, settings):
    settings.SITE_URL = "https://games.example.org:8443"  # the link is the site's, whatever its address
    delivery.deliver(turn_row(started_game, "alice").pk)
    link = re.search(r"<(http[^>]+)>", mailoutbox[-1].extra_headers["List-Unsubscribe"]).group(1)
    assert link.startswith("https://games.example.org:8443/mail/unsubscribe/")
    path = urlsplit(link).path
    assert Client().get(path).status_code == 200  # a confirmation page, no change yet
    assert MailPreference.objects.get(user=alice).turn_emails == TurnEmails.IMMEDIATE
    response = Client(enforce_csrf_checks=True).post(path, {"List-Unsubscribe": "One-Click"})
    assert response.status_code == 200
    preference = MailPreference.objects.get(user=alice)
    assert preference.turn_emails == TurnEmails.OFF and not preference.game_emails
    assert Client().post("/mail/unsubscribe/forged-token/").status_code == 404


def test_email_settings_page(alice):
    client = Client()
    client.login(username="alice", password=PASSWORD)
    assert b"Turn emails" in client.get("/accounts/email/").content
    client.post("/accounts/email/", {"turn_emails": "digest", "game_emails": ""})
    preference = MailPreference.objects.get(user=alice)
    assert preference.turn_emails == TurnEmails.DIGEST and not preference.game_emails


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_email_shows_another_seats_hidden_cards(make_user, mailoutbox, deliver_all, language):
    """Two games differ only in bob's card and the set-aside card; alice's emails must be identical, in each language."""
    alice, bob = make_user("alice"), make_user("bob")
    language_choose(user=alice, language=language)
    face_up = ["king", "countess", "baron"]
    rest = ["guard", "guard", "guard", "guard", "priest", "baron", "handmaid", "prince", "prince"]
    bodies = []
    for deck in (["princess", *face_up, "guard", "priest", "handmaid", *rest],
                 ["priest", *face_up, "guard", "princess", "handmaid", *rest]):
        mail.outbox.clear()
        game = play.create_game(creator=alice, engine_slug="love-letter", players=2,
                                options={"deck": deck, "first_player": 0})
        play.join_game(game_id=game.pk, user=bob)
        play.submit_move(game_id=game.pk, user=alice, expected_seq=0, move={"card": "handmaid"})
        play.submit_move(game_id=game.pk, user=bob, expected_seq=1, move={"card": "guard"})
        deliver_all()
        texts = []
        for message in mail.outbox:
            if message.to == ["alice@example.com"]:
                body = message.body + message.alternatives[0][0]
                body = re.sub(r"play\+[^@\s]+@", "play+<token>@", body)
                body = re.sub(rf"Love Letter #{game.pk}\b", "Love Letter #<id>", body)
                body = re.sub(r"/games/\d+/", "/games/<id>/", body)
                # Unsubscribe tokens carry their signing time: equal content, different seconds.
                body = re.sub(r"/mail/unsubscribe/[^/]+/", "/mail/unsubscribe/<token>/", body)
                texts.append((re.sub(rf"Love Letter #{game.pk}\b", "Love Letter #<id>", message.subject), body))
        bodies.append(sorted(texts))
    assert bodies[0] == bodies[1] and bodies[0]


def test_a_game_that_draws_its_position_gets_the_picture_in_the_turn_email(started_game, mailoutbox):
    png = b"\x89PNG\r\n\x1a\n" + b"\x00" * 16
    with mock.patch("games.love_letter.engine.LoveLetterEngine.view_picture", return_value=png):
        delivery.deliver(turn_row(started_game, "alice").pk)
    message = mailoutbox[-1]
    assert 'src="cid:position"' in message.alternatives[0][0]
    attached = message.message()
    images = [part for part in attached.walk() if part.get_content_type() == "image/png"]
    assert len(images) == 1 and images[0]["Content-ID"] == "<position>"
