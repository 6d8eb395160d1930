"""Replies by email against real processes: the mail server, a Celery worker, PostgreSQL stopped and started.

- A worker dies in the middle of a reply, after it wrote the reply's duplicate-check row and while the
  move waits for the game's lock: the row dies with its transaction, and the accepted message, kept in
  PostgreSQL since before the server said 250, is handled by the sweep without being sent again: played
  and answered once; the same message delivered again changes nothing.
- The broker dies (and comes back empty) after the server said 250 and before any worker took the reply:
  the sweep plays and answers it once (issue 27: the reply lived only in the broker).
- PostgreSQL restarts under the mail server: the server's database threads get fresh connections,
  so messages are taken again at once instead of "451 connection already closed".
"""

from __future__ import annotations

import signal
import smtplib
import threading
import time
from email.message import EmailMessage
from email.utils import make_msgid

import pytest
from django.conf import settings
from django.db import connection, transaction

from tests.faults.stack import Broker, celery, private_postgres, seed, stop_all, wait_for, worker_environment
from tests.platform.conftest import SCRIPTED_CLASSIC_2P
from tests.serving.served import database_url_for
from tests.topology.stack import Process
from turnbased.accounts.services.accounts import account_create
from turnbased.local.services import BASE_DIR, free_port, port_answers
from turnbased.mail.models import AcceptedReply, EmailKind, InboundEmail, OutgoingEmail
from turnbased.mail.tokens import reply_address
from turnbased.play import services
from turnbased.play.models import Game, Move

pytestmark = [pytest.mark.faults, pytest.mark.django_db(transaction=True)]

# The sweeps twice a second, and an accepted reply swept a second after it came.
FAST_SWEEP = {"SWEEP_SECONDS": "0.5", "INBOUND_SWEEP_AFTER_SECONDS": "1"}


def _mail_server(environment: dict[str, str], folder) -> Process:
    import sys
    from pathlib import Path

    return Process("mail", [str(Path(sys.executable)), str(BASE_DIR / "manage.py"), "run_mail_server"],
                   folder / "mail.log").start(environment)


def _reply(game: Game, user, text: str, message_id: str) -> EmailMessage:
    message = EmailMessage()
    message["From"] = user.email
    message["To"] = reply_address(user_id=user.pk, game_id=game.pk, seq=game.seq)
    message["Subject"] = f"Re: Your turn in {game.title}"
    message["Message-ID"] = message_id
    message.set_content(f"{text}\n\n> Your turn.\n")
    return message


def _deliver(port: int, message: EmailMessage) -> None:
    with smtplib.SMTP("127.0.0.1", port, timeout=30) as client:
        client.send_message(message)


def _scripted_game() -> tuple[Game, object]:
    """Return a started Love Letter game of alice (to move, holding a Guard and a Handmaid) and bob, and alice."""
    alice, bob = (account_create(username=name, email=f"{name}@example.com", password="a-long-enough-pass-9",
                                 email_verified=True) for name in ("alice", "bob"))
    game = services.create_game(creator=alice, engine_slug="love-letter", players=2,
                                options={"deck": SCRIPTED_CLASSIC_2P, "first_player": 0})
    services.join_game(game_id=game.pk, user=bob)
    game.refresh_from_db()
    return game, alice


def _stack(tmp_path):
    """Start a broker of the test's own; return it, the inbound port, the environment, a worker and beat (not
    started: the test starts them when it needs them)."""
    broker = Broker(tmp_path / "redis")
    broker.start()
    inbound_port = free_port()
    environment = worker_environment(database_url_for(connection.settings_dict["NAME"]), broker.url,
                                     MAIL_INBOUND_PORT=str(inbound_port), MAIL_SINK="off", **FAST_SWEEP)
    worker = celery("worker", ["worker", "-Q", "celery", "--concurrency=1", "--loglevel=info"], tmp_path)
    beat = celery("beat", ["beat", "--loglevel=info", f"--schedule={tmp_path / 'beat-schedule'}"], tmp_path)
    return broker, inbound_port, environment, worker, beat


def _waiting_on_a_lock() -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                       "AND datname = current_database()")
        return cursor.fetchone()[0] > 0


def test_a_reply_whose_worker_died_mid_move_is_played_and_answered_once_without_being_sent_again(tmp_path):
    game, alice = _scripted_game()
    reply = _reply(game, alice, "handmaid", make_msgid(domain="example.com"))
    answers_before = OutgoingEmail.objects.filter(kind=EmailKind.ANSWER).count()

    broker, inbound_port, environment, worker, beat = _stack(tmp_path)
    locked, release = threading.Event(), threading.Event()

    def hold_the_game() -> None:
        try:
            with transaction.atomic():
                Game.objects.select_for_update().get(pk=game.pk)
                locked.set()
                release.wait(120)
        finally:
            connection.close()

    holder = threading.Thread(target=hold_the_game)
    mail = _mail_server(environment, tmp_path)
    try:
        wait_for(lambda: port_answers(inbound_port), "the mail server", processes=[mail])
        worker.start(environment)
        holder.start()
        assert locked.wait(30)
        _deliver(inbound_port, reply)
        # The worker has written the duplicate-check row and now waits for the game's lock: kill it there.
        wait_for(_waiting_on_a_lock, "the reply to wait for the game", processes=[worker, mail])
        worker.signal(signal.SIGKILL)
        worker.popen.wait(10)
        release.set()
        holder.join(30)
        assert not InboundEmail.objects.exists() and not Move.objects.filter(game=game).exists()
        assert AcceptedReply.objects.count() == 1  # the reply itself is kept

        worker.start(environment)
        beat.start(environment)  # the sweep finds the accepted reply no worker finished: no delivery again
        wait_for(lambda: OutgoingEmail.objects.filter(kind=EmailKind.ANSWER).count() > answers_before,
                 "the answer", processes=[worker, mail, beat])
        _deliver(inbound_port, reply)  # a sender's server that delivers it again anyway
        wait_for(lambda: _duplicate_seen(worker), "the second delivery to be ignored", processes=[worker, mail, beat])
    finally:
        release.set()
        stop_all(worker, mail, beat)
        broker.stop()
    assert Move.objects.filter(game=game).count() == 1
    assert Move.objects.get(game=game).source == "email"
    assert InboundEmail.objects.count() == 1 and not AcceptedReply.objects.exists()
    assert OutgoingEmail.objects.filter(kind=EmailKind.ANSWER).count() == answers_before + 1


def test_a_reply_accepted_before_the_broker_died_is_played_and_answered_once(tmp_path):
    game, alice = _scripted_game()
    answers_before = OutgoingEmail.objects.filter(kind=EmailKind.ANSWER).count()
    broker, inbound_port, environment, worker, beat = _stack(tmp_path)
    mail = _mail_server(environment, tmp_path)
    try:
        wait_for(lambda: port_answers(inbound_port), "the mail server", processes=[mail])
        _deliver(inbound_port, _reply(game, alice, "handmaid", make_msgid(domain="example.com")))  # 250: accepted
        assert AcceptedReply.objects.count() == 1
        broker.kill()  # with the reply's task in it, before any worker took it
        broker.start()  # empty: the task is gone
        worker.start(environment)
        beat.start(environment)
        wait_for(lambda: OutgoingEmail.objects.filter(kind=EmailKind.ANSWER).count() > answers_before,
                 "the answer", processes=[worker, mail, beat])
        time.sleep(2)  # more sweeps: nothing more
    finally:
        stop_all(worker, mail, beat)
        broker.stop()
    assert Move.objects.filter(game=game).count() == 1
    assert InboundEmail.objects.count() == 1 and not AcceptedReply.objects.exists()
    assert OutgoingEmail.objects.filter(kind=EmailKind.ANSWER).count() == answers_before + 1


def _duplicate_seen(worker: Process) -> bool:
    """Tell whether the worker has logged a reply task that found its message handled already."""
    return "'duplicate'" in worker.output()


def test_the_mail_server_takes_messages_again_after_postgresql_restarts(tmp_path):
    test_database = database_url_for(connection.settings_dict["NAME"])
    with private_postgres(test_database, tmp_path) as database:
        broker = Broker(tmp_path / "redis")
        broker.start()
        sink_port, inbound_port = free_port(), free_port()
        environment = worker_environment(database.url, broker.url, MAIL_INBOUND_PORT=str(inbound_port),
                                         MAIL_SINK="on", EMAIL_HOST="127.0.0.1", EMAIL_PORT=str(sink_port))
        mail = _mail_server(environment, tmp_path)
        try:
            wait_for(lambda: port_answers(sink_port), "the mail sink", processes=[mail])

            def kept(number: int) -> None:
                message = EmailMessage()
                message["From"] = settings.DEFAULT_FROM_EMAIL
                message["To"] = f"player{number}@example.com"
                message["Subject"] = f"Message {number}"
                message.set_content("Kept by the sink.")
                _deliver(sink_port, message)

            for number in range(3):
                kept(number)  # each DATA stores a row through one of the server's database threads
            database.stop()
            time.sleep(1)
            database.start()
            for number in range(3, 9):
                kept(number)  # raises SMTPDataError if a thread kept its dead connection
            stored = seed(database.url, "local_message_subjects")
        finally:
            stop_all(mail)
            broker.stop()
    assert stored == [f"Message {number}" for number in range(9)]
