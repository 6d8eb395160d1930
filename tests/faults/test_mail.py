"""Mail under faults, with real Celery workers, a real Redis broker and a real SMTP server.

- The sending worker is killed after the relay accepted a message and before the outbox row was
  marked sent: the message goes out once more after the lease, with the same Message-ID, and never a
  third time.
- The broker is killed after 30 of a hundred moves and comes back, empty, after 50: every move is made
  once, and once the sweeps have caught up every outbox row is sent exactly once. The workers run
  under a supervisor that starts them again if they exit, as compose's restart policy does.
- The relay stalls (it takes connections and never answers): bots go on moving and late turns are
  still acted on, because mail has a queue and a worker of its own.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from datetime import timedelta
from email.utils import make_msgid

import pytest
from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db import connection
from django.utils import timezone

from tests.faults.stack import Broker, Sink, celery, seed, stop_all, wait_for, worker_environment
from tests.platform.conftest import SCRIPTED_CLASSIC_2P
from tests.serving.served import database_url_for
from turnbased.accounts.services.accounts import account_create
from turnbased.clocks.models import SeatClock
from turnbased.local.services import BASE_DIR
from turnbased.mail import outbox
from turnbased.mail.models import EmailKind, OutgoingEmail
from turnbased.notifications.models import Notification
from turnbased.play import services
from turnbased.play.models import Move

pytestmark = [pytest.mark.faults, pytest.mark.django_db(transaction=True)]

FAST_SWEEPS = {"SWEEP_SECONDS": "0.5", "MAIL_SWEEP_AFTER_SECONDS": "0", "BOT_MOVE_DELAY_SECONDS": "0"}


def _outbox_row(number: int = 0) -> OutgoingEmail:
    message = EmailMultiAlternatives(subject=f"Fault test {number}", body="A message.",
                                     from_email=settings.DEFAULT_FROM_EMAIL, to=[f"player{number}@example.com"],
                                     headers={"Message-ID": make_msgid(domain=settings.MAIL_DOMAIN)})
    return outbox.put(message, kind=EmailKind.NOTIFICATION)


def test_a_sender_killed_after_the_relay_accepted_sends_the_same_message_id_once_more(tmp_path):
    email = _outbox_row()
    broker = Broker(tmp_path / "redis")
    mailer = celery("mailer", ["worker", "-Q", "mail", "--concurrency=1", "--loglevel=info"], tmp_path)
    beat = celery("beat", ["beat", "--loglevel=info", f"--schedule={tmp_path / 'beat-schedule'}"], tmp_path)
    killed = []

    def kill_the_sender(message_id: str) -> None:
        if not killed:  # the relay has the message; the sender dies before it hears so
            killed.append(message_id)
            mailer.signal(signal.SIGKILL)

    broker.start()
    try:
        with Sink(kill_the_sender) as sink:
            environment = worker_environment(database_url_for(connection.settings_dict["NAME"]), broker.url,
                                             EMAIL_HOST="127.0.0.1", EMAIL_PORT=str(sink.port),
                                             MAIL_LEASE_SECONDS="3", **FAST_SWEEPS)
            mailer.start(environment)
            beat.start(environment)
            try:
                wait_for(lambda: killed, "the first delivery", processes=[beat])
                mailer.popen.wait(10)
                email.refresh_from_db()
                assert email.sent_at is None and email.claimed_until is not None
                mailer.start(environment)  # a supervisor restarts it
                wait_for(lambda: OutgoingEmail.objects.filter(pk=email.pk, sent_at__isnull=False).exists(),
                         "the send after the lease", processes=[mailer, beat])
                time.sleep(2)  # a few more sweeps: nothing else goes out
            finally:
                stop_all(beat, mailer)
    finally:
        broker.stop()
    assert sink.received == [email.message_id, email.message_id]


def test_the_broker_killed_during_a_hundred_moves_loses_no_move_and_no_email_and_doubles_none(tmp_path):
    players = [account_create(username=f"mover{n}", email=f"mover{n}@example.com", password="a-long-enough-pass-9",
                              email_verified=True) for n in range(8)]
    games = []
    for number, (first, second) in enumerate(zip(players[::2], players[1::2])):
        # Fixed deals: with the mover's fixed choices the hundred moves are the same every run (a random deal
        # once ended a game within its 25 moves).
        game = services.create_game(creator=first, engine_slug="love-letter", players=2, seed=f"broker-{number}")
        services.join_game(game_id=game.pk, user=second)
        games.append(game.pk)
    started = timezone.now()
    broker = Broker(tmp_path / "redis")
    mailer = celery("mailer", ["worker", "-Q", "mail", "--concurrency=2", "--loglevel=info"], tmp_path)
    beat = celery("beat", ["beat", "--loglevel=info", f"--schedule={tmp_path / 'beat-schedule'}"], tmp_path)
    broker.start()
    try:
        with Sink() as sink:
            database_url = database_url_for(connection.settings_dict["NAME"])
            environment = worker_environment(database_url, broker.url, EMAIL_HOST="127.0.0.1",
                                             EMAIL_PORT=str(sink.port), **FAST_SWEEPS)
            # No supervisor: a worker that exits through the broker's outage fails the test (issue 27).
            mailer.start(environment)
            beat.start(environment)
            code = f"from tests.faults import seed; print(seed.play_moves({games!r}, 100, 0.05))"
            # Its log goes to a file: each move logs the broker's absence, enough to fill a pipe and stall it.
            log = (tmp_path / "mover.log").open("w")
            mover = subprocess.Popen([sys.executable, str(BASE_DIR / "manage.py"), "shell", "-c", code],
                                     env=environment, cwd=BASE_DIR, stdout=subprocess.PIPE, stderr=log, text=True)
            try:
                moves = lambda: Move.objects.filter(game_id__in=games).count()  # noqa: E731
                wait_for(lambda: moves() >= 30, "thirty moves", processes=[mailer, beat])
                broker.kill()
                # With the broker away each move waits out the publisher's retries (under a second) and goes on.
                wait_for(lambda: moves() >= 50, "fifty moves, the broker away", timeout=120, processes=[mailer, beat])
                broker.start()
                out, _ = mover.communicate(timeout=120)
                assert mover.returncode == 0, (tmp_path / "mover.log").read_text()[-3000:]
                assert out.strip().splitlines()[-1] == "100"

                def caught_up() -> bool:
                    fresh = Notification.objects.filter(created_at__gte=started)
                    return (not fresh.filter(sent_at=None, skipped_at=None).exists()
                            and not OutgoingEmail.objects.filter(created_at__gte=started, sent_at=None).exists())

                wait_for(caught_up, "every notification settled and every email sent", processes=[mailer, beat])
                time.sleep(1.5)  # sweeps after catching up send nothing more
                for process in (mailer, beat):
                    process.check_running()  # the mailer rode out the broker's outage: nothing started it again
            finally:
                if mover.poll() is None:
                    mover.kill()
                stop_all(mailer, beat)
    finally:
        broker.stop()
    assert Move.objects.filter(game_id__in=games).count() == 100
    sent = list(OutgoingEmail.objects.filter(created_at__gte=started).values_list("message_id", flat=True))
    received = [message_id for message_id in sink.received if message_id in set(sent)]
    assert sent, "no email was sent at all"
    assert sorted(received) == sorted(sent), "an email was lost or sent twice"
    assert len(sink.received) == len(received)


class StalledRelay:
    """A mail relay that takes every connection and never says a word."""

    def __init__(self):
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.held: list[socket.socket] = []
        self.thread = threading.Thread(target=self._hold, daemon=True)

    def _hold(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            self.held.append(client)

    def __enter__(self) -> "StalledRelay":
        self.thread.start()
        return self

    def __exit__(self, *exc_info) -> None:
        self.listener.close()
        for client in self.held:
            client.close()


def test_a_stalled_relay_delays_only_mail(tmp_path):
    for number in range(4):
        _outbox_row(number)
    alice, bob = (account_create(username=name, email=f"{name}@example.com", password="a-long-enough-pass-9",
                                 email_verified=True) for name in ("alice", "bob"))
    late = services.create_game(creator=alice, engine_slug="love-letter", players=2,
                                options={"deck": SCRIPTED_CLASSIC_2P, "first_player": 0},
                                time_control={"kind": "per_move", "days_per_move": 1})
    services.join_game(game_id=late.pk, user=bob)
    broker = Broker(tmp_path / "redis")
    worker = celery("worker", ["worker", "-Q", "celery", "--concurrency=2", "--loglevel=info"], tmp_path)
    bots = celery("bots", ["worker", "-Q", "bots", "--concurrency=1", "--hostname=bots@%h", "--loglevel=info"],
                  tmp_path)
    mailer = celery("mailer", ["worker", "-Q", "mail", "--concurrency=1", "--loglevel=info"], tmp_path)
    beat = celery("beat", ["beat", "--loglevel=info", f"--schedule={tmp_path / 'beat-schedule'}"], tmp_path)
    processes = [worker, bots, mailer, beat]
    broker.start()
    try:
        with StalledRelay() as relay:
            database_url = database_url_for(connection.settings_dict["NAME"])
            environment = worker_environment(database_url, broker.url, EMAIL_HOST="127.0.0.1",
                                             EMAIL_PORT=str(relay.port), EMAIL_TIMEOUT="30", **FAST_SWEEPS)
            for process in processes:
                process.start(environment)
            try:
                wait_for(lambda: relay.held, "the mailer to reach the relay", processes=processes)
                tables = seed(database_url, "bot_tables", 2, environment=environment)  # bot turns on this broker
                bot_moves = lambda: Move.objects.filter(game_id__in=tables, source="bot").count()  # noqa: E731
                time.sleep(6)
                during_stall = bot_moves()
                SeatClock.objects.filter(game=late, turn_started_at__isnull=False).update(
                    deadline=timezone.now() - timedelta(minutes=1))
                wait_for(lambda: Move.objects.filter(game=late, source="timeout").exists(),
                         "the late turn to be played", timeout=10, processes=processes)
                still_unsent = OutgoingEmail.objects.filter(sent_at=None).count()
            finally:
                stop_all(beat, mailer, bots, worker)
    finally:
        broker.stop()
    assert still_unsent >= 4, "the relay did not stall the mail"
    assert during_stall >= 20, f"bots made only {during_stall} moves in six seconds of stalled mail"
