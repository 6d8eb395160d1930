"""The outbox: one row per email with a fixed Message-ID, claimed for a lease, sent with no lock held."""

from __future__ import annotations

import html
import socket
import threading
from datetime import timedelta
from smtplib import SMTPRecipientsRefused
from unittest import mock

import pytest
import time_machine
from anymail.backends.test import EmailBackend as AnymailTestBackend
from anymail.message import AnymailRecipientStatus
from django.core import mail
from django.core.mail.backends.base import BaseEmailBackend
from django.db import connection, transaction
from django.utils import timezone

from turnbased.mail import compose, outbox, tasks
from turnbased.mail.models import EmailKind, OutgoingEmail
from turnbased.notifications.models import Notification, NotificationKind
from turnbased.play.models import Game

pytestmark = pytest.mark.django_db


def an_email(to: str = "someone@example.com") -> OutgoingEmail:
    message = compose.build(to=to, subject="Hello", template="answer",
                            context={"heading": "Hello.", "detail": ""}, in_reply_to="<theirs@client.example>")
    return outbox.put(message, kind=EmailKind.ANSWER)


def test_a_row_keeps_the_whole_message_and_its_message_id(started_game, alice, mailoutbox, settings):
    png = b"\x89PNG\r\n\x1a\n" + b"\x00" * 16
    with mock.patch("games.love_letter.engine.LoveLetterEngine.view_picture", return_value=png):
        composed = compose.turn_email(started_game, alice)
    email = outbox.put(composed, kind=EmailKind.NOTIFICATION, user=alice)
    assert email.message_id == composed.extra_headers["Message-ID"]
    assert email.message_id.endswith(f"@{settings.MAIL_DOMAIN}>")
    assert outbox.send(email.pk) == "sent"
    sent = mailoutbox[-1]
    assert sent.extra_headers == composed.extra_headers and sent.reply_to == composed.reply_to
    assert (sent.subject, sent.body, sent.alternatives) == (composed.subject, composed.body, composed.alternatives)
    on_the_wire = sent.message()
    assert on_the_wire["Message-ID"] == email.message_id
    images = [part for part in on_the_wire.walk() if part.get_content_type() == "image/png"]
    assert [image.get_payload(decode=True) for image in images] == [png]


def test_a_message_the_outbox_cannot_keep_whole_is_refused():
    message = compose.build(to="someone@example.com", subject="Hello", template="answer", context={"heading": "Hi"})
    message.attach("rules.txt", "text", "text/plain")
    with pytest.raises(ValueError):
        outbox.put(message, kind=EmailKind.ANSWER)


def test_a_sent_row_is_not_sent_again(mailoutbox):
    email = an_email()
    assert outbox.send(email.pk) == "sent"
    assert outbox.send(email.pk) == "settled"
    assert tasks.send_email.delay(email.pk).get() == "settled"
    assert len(mailoutbox) == 1


def test_a_crash_after_the_relay_accepted_sends_again_after_the_lease_with_the_same_message_id(mailoutbox):
    """The one way an email goes out twice: the worker dies between the relay's 250 and the mark."""
    email = an_email()
    with mock.patch.object(outbox, "_mark_sent", side_effect=SystemExit("worker killed")), pytest.raises(SystemExit):
        outbox.send(email.pk)
    assert len(mailoutbox) == 1
    assert outbox.due_ids() == [] and outbox.send(email.pk) == "claimed elsewhere"  # the lease is live
    with time_machine.travel(timezone.now() + outbox.LEASE + timedelta(seconds=1)):
        assert outbox.due_ids() == [email.pk]
        tasks.sweep_outbox.delay()
    assert [m.extra_headers["Message-ID"] for m in mailoutbox] == [email.message_id] * 2
    email.refresh_from_db()
    assert email.sent_at is not None and email.attempts == 2


def test_failures_wait_longer_each_time_and_a_refused_address_is_given_up_at_once(mailoutbox):
    email = an_email()
    with mock.patch("django.core.mail.EmailMultiAlternatives.send", side_effect=OSError("relay down")):
        moment = timezone.now()
        for attempt in range(1, outbox.MAX_ATTEMPTS + 1):
            with time_machine.travel(moment, tick=False):
                assert outbox.send(email.pk).startswith("given up" if attempt == outbox.MAX_ATTEMPTS else "failed")
            email.refresh_from_db()
            if attempt < outbox.MAX_ATTEMPTS:
                wait = email.claimed_until - moment
                assert wait == min(outbox.FIRST_RETRY * 2 ** (attempt - 1), outbox.LONGEST_RETRY)
                moment = email.claimed_until
    assert email.given_up_at is not None and email.last_error == "OSError: relay down" and not mailoutbox
    refused = an_email("nobody@example.com")
    with mock.patch("django.core.mail.EmailMultiAlternatives.send",
                    side_effect=SMTPRecipientsRefused({"nobody@example.com": (550, b"no such user")})):
        assert outbox.send(refused.pk).startswith("given up")
    with time_machine.travel(timezone.now() + timedelta(days=1)):
        assert outbox.due_ids() == []


def test_every_task_that_sends_ends_before_its_claim_could_run_out(settings):
    for task in (tasks.send_email, tasks.deliver_notification, tasks.deliver_game_notifications):
        assert task.soft_time_limit < task.time_limit < outbox.LEASE.total_seconds()
        assert task.soft_time_limit > 2 * settings.EMAIL_TIMEOUT  # room for a connect and a command


def test_mail_has_its_own_queue_and_the_reply_task_stays_with_the_moves():
    from turnbased.celery import app

    route = app.amqp.router.route
    for task in (tasks.send_email, tasks.deliver_notification, tasks.deliver_game_notifications,
                 tasks.sweep_outbox, tasks.send_daily_digests):
        assert route({}, task.name)["queue"].name == "mail", task.name
    assert route({}, tasks.process_inbound_email.name)["queue"].name == "celery"


class _GatedBackend(BaseEmailBackend):
    """Keeps what it is given; the first send waits at the gate while the test tries a second one."""

    sent: list = []
    sending = threading.Event()
    gate = threading.Event()

    def send_messages(self, messages):
        first = not self.sent
        self.sent.extend(messages)
        if first:
            self.sending.set()
            self.gate.wait(timeout=10)
        return len(messages)


def _in_thread(function, *args):
    """Run ``function`` on a thread of its own (its own database connection); return (thread, results)."""
    results = []

    def run():
        try:
            results.append(function(*args))
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    return thread, results


@pytest.mark.django_db(transaction=True)
def test_two_workers_sending_one_row_at_once_send_it_once(settings):
    settings.EMAIL_BACKEND = f"{__name__}._GatedBackend"
    _GatedBackend.sent, _GatedBackend.sending, _GatedBackend.gate = [], threading.Event(), threading.Event()
    email = an_email()
    first, first_result = _in_thread(outbox.send, email.pk)
    assert _GatedBackend.sending.wait(timeout=10)  # the first is talking to the relay, its claim committed
    second, second_result = _in_thread(outbox.send, email.pk)
    second.join(timeout=10)
    _GatedBackend.gate.set()
    first.join(timeout=10)
    assert (first_result, second_result) == (["sent"], ["claimed elsewhere"])
    assert [m.extra_headers["Message-ID"] for m in _GatedBackend.sent] == [email.message_id]


def game_with_mail_undelivered(start_scripted_game, alice, bob) -> Game:
    """Start a game in a committing test without its notifications being delivered at the commit."""
    with mock.patch("turnbased.kit.db.dispatch.queue"):
        return start_scripted_game(alice, bob)


class _StalledRelay:
    """An SMTP relay that accepts connections and never says a word."""

    def __init__(self):
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.connected = threading.Event()
        self.held: list[socket.socket] = []
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()

    def _accept(self):
        try:
            while True:
                client, _ = self.listener.accept()
                self.held.append(client)
                self.connected.set()
        except OSError:  # closed
            return

    def close(self):
        self.listener.close()
        for client in self.held:
            client.close()


@pytest.mark.django_db(transaction=True)
def test_a_stalled_relay_fails_the_send_in_time_and_locks_nothing_meanwhile(start_scripted_game, alice, bob,
                                                                           settings):
    game = game_with_mail_undelivered(start_scripted_game, alice, bob)
    relay = _StalledRelay()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_TIMEOUT = "127.0.0.1", relay.port, 2
    row = Notification.objects.get(game=game, kind=NotificationKind.YOUR_TURN, user__username="alice")
    try:
        started = timezone.now()
        sender, outcome = _in_thread(tasks.deliver_notification, row.pk)
        assert relay.connected.wait(timeout=10)
        # While the worker waits on the relay, moves and sweeps can lock the game and its notifications.
        with transaction.atomic():
            Game.objects.select_for_update(nowait=True).get(pk=game.pk)
            Notification.objects.select_for_update(nowait=True).get(pk=row.pk)
            email = OutgoingEmail.objects.select_for_update(nowait=True).get(notification=row)
            assert email.claimed_until > timezone.now()  # claimed, committed, and not locked
        sender.join(timeout=20)
        elapsed = (timezone.now() - started).total_seconds()
    finally:
        relay.close()
    assert not sender.is_alive() and outcome[0].startswith("failed: ") and elapsed < 10
    email.refresh_from_db()
    assert email.sent_at is None and email.given_up_at is None and email.attempts == 1
    assert email.claimed_until > timezone.now() and "timed out" in email.last_error  # pending, for a later attempt
    assert not mail.outbox


@pytest.mark.django_db(transaction=True)
def test_one_stalled_send_leaves_the_positions_other_emails_for_the_sweep(start_scripted_game, alice, bob, settings):
    game = game_with_mail_undelivered(start_scripted_game, alice, bob)
    relay = _StalledRelay()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_TIMEOUT = "127.0.0.1", relay.port, 1
    try:
        outcomes = tasks.deliver_game_notifications.delay(game.pk, game.seq).get()
    finally:
        relay.close()
    failed = [n for n, outcome in enumerate(outcomes) if outcome.startswith("failed")]
    assert len(failed) == 1 and "written" in outcomes[failed[0] + 1:]
    assert not [outcome for outcome in outcomes if outcome == "sent"]
    assert OutgoingEmail.objects.filter(attempts=0, sent_at=None).count() == outcomes.count("written")


def test_the_admin_lists_the_outbox_with_each_rows_attempts_and_last_error(admin_client):
    email = an_email()
    with mock.patch("django.core.mail.EmailMultiAlternatives.send", side_effect=OSError("relay down")):
        outbox.send(email.pk)
    listing = admin_client.get("/admin/mail/outgoingemail/")
    assert listing.status_code == 200 and b"OSError: relay down" in listing.content
    page = admin_client.get(f"/admin/mail/outgoingemail/{email.pk}/change/")
    assert page.status_code == 200 and html.escape(email.message_id).encode() in page.content
    assert admin_client.post(f"/admin/mail/outgoingemail/{email.pk}/change/", {"to": "x@example.com"}).status_code == 403


class _RefusingProvider(AnymailTestBackend):
    """anymail's test backend, answering as a provider does for an address it will never deliver to."""

    def parse_recipient_status(self, response, payload, message):
        rejected = AnymailRecipientStatus(message_id=None, status="rejected")
        return {email: rejected for email in payload.recipient_emails}


def test_a_provider_through_anymail_gets_the_rows_message_id_and_a_rejection_is_given_up(settings, mailoutbox):
    settings.EMAIL_BACKEND = "anymail.backends.test.EmailBackend"
    email = an_email()
    assert outbox.send(email.pk) == "sent"
    assert mailoutbox[-1].anymail_test_params["extra_headers"]["Message-ID"] == email.message_id
    settings.EMAIL_BACKEND = f"{__name__}._RefusingProvider"
    refused = an_email("bounces@example.com")
    assert outbox.send(refused.pk).startswith("given up: AnymailRecipientsRefused")
