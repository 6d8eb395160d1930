"""The dispatcher (``turnbased/kit/db/dispatch.py``) killed, and the broker killed, while people play against bots.

Real processes, as production runs them (``WORK_DISPATCH=notify``): the Celery worker of the default queue (the
sweeps), the bots worker (bot turns, on their own queue), the mailer, beat (the sweeps, fast), the dispatcher, a real Redis broker of the test's own, and a player process that
makes the people's moves through the services. The dispatcher is killed outright (SIGKILL) while moves come,
and started again later. The broker is killed twice, and comes back empty each time: once while the
dispatcher is handing it work, and once while the bots worker holds bot turns it has not yet played (a bot waits
``BOT_MOVE_DELAY_SECONDS`` before its move, its task unacknowledged meanwhile). Every bot turn and turn email
the dispatcher did not queue, or the broker lost, must be queued again: by the sweeps, or a bot turn by the
dispatcher as it starts again or finds the broker back (how soon: ``test_bot_turns.py``).

Nothing may be lost or done twice: every game replays from its log to its snapshot, no game waits on a bot at
the end, every notification is settled and every email goes out exactly once. No process may exit that the
test did not stop, and nothing here starts a crashed one again: the workers and the mailer ride out both of
the broker's outages on their own (issue 27: kombu's Redis transport once stopped a worker that lost the
broker with tasks in hand).
"""

from __future__ import annotations

import signal
import subprocess
import sys
import time

import pytest
from django.db import connection
from django.utils import timezone

from tests.faults.stack import (
    Broker, Sink, celery, hold_a_bot_turn_in_the_workers_hand, stop_all, wait_for, worker_environment,
)
from tests.serving.served import database_url_for
from tests.topology.stack import Process
from turnbased.accounts.services.accounts import account_create
from turnbased.local.services import BASE_DIR
from turnbased.mail.models import OutgoingEmail
from turnbased.notifications.models import Notification
from turnbased.play import services, store
from turnbased.play.models import Game, GameStatus, Move

pytestmark = [pytest.mark.faults, pytest.mark.django_db(transaction=True)]

GAMES, PEOPLES_MOVES = 4, 48
FAST = {"SWEEP_SECONDS": "0.5", "MAIL_SWEEP_AFTER_SECONDS": "0", "BOT_MOVE_DELAY_SECONDS": "1",
        "BOT_STALL_SECONDS": "2", "WORK_DISPATCH": "notify"}


def test_the_dispatcher_and_the_broker_killed_lose_no_bot_turn_and_no_email_and_double_none(tmp_path):
    people = [account_create(username=f"person{n}", email=f"person{n}@example.com", password="a-long-enough-pass-9",
                             email_verified=True) for n in range(GAMES)]
    games = [services.create_game(creator=person, engine_slug="love-letter", players=2, bots={1: "random"},
                                  options={"first_player": 0}).pk for person in people]
    started = timezone.now()
    broker = Broker(tmp_path / "redis")
    worker = celery("worker", ["worker", "-Q", "celery", "--concurrency=2", "--loglevel=info"], tmp_path)
    bots = celery("bots", ["worker", "-Q", "bots", "--concurrency=1", "--hostname=bots@%h", "--loglevel=info"],
                  tmp_path)
    mailer = celery("mailer", ["worker", "-Q", "mail", "--concurrency=1", "--loglevel=info"], tmp_path)
    beat = celery("beat", ["beat", "--loglevel=info", f"--schedule={tmp_path / 'beat-schedule'}"], tmp_path)
    dispatcher = Process("dispatch", [sys.executable, str(BASE_DIR / "manage.py"), "dispatch_work"],
                         tmp_path / "dispatch.log")
    moves = lambda: Move.objects.filter(game_id__in=games, user__isnull=False, source="api").count()  # noqa: E731
    broker.start()
    deliberate = {"dispatcher killed": 0, "broker killed": 0, "broker killed with bot turns in hand": 0}

    def every_game_a_persons_to_move() -> bool:
        return all(0 in game.to_move for game in Game.objects.filter(pk__in=games, status=GameStatus.ACTIVE))

    try:
        with Sink() as sink:
            environment = worker_environment(database_url_for(connection.settings_dict["NAME"]), broker.url,
                                             EMAIL_HOST="127.0.0.1", EMAIL_PORT=str(sink.port), **FAST)
            running = [worker, bots, mailer, beat, dispatcher]
            for process in running:
                process.start(environment)
            wait_for(lambda: "listening on turnbased_work" in dispatcher.output(), "the dispatcher to LISTEN",
                     processes=running)
            code = f"from tests.faults import seed; print(seed.play_people({games!r}, {PEOPLES_MOVES}, 0.02))"
            log = (tmp_path / "player.log").open("w")
            player = subprocess.Popen([sys.executable, str(BASE_DIR / "manage.py"), "shell", "-c", code],
                                      env=environment, cwd=BASE_DIR, stdout=subprocess.PIPE, stderr=log, text=True)
            try:
                wait_for(lambda: moves() >= 8, "eight of the people's moves", processes=running, timeout=120)
                dispatcher.signal(signal.SIGKILL)  # between a commit and its NOTIFY read, or while reading it
                dispatcher.popen.wait(10)
                deliberate["dispatcher killed"] += 1
                others = [worker, bots, mailer, beat]
                wait_for(lambda: moves() >= 16, "sixteen moves, the dispatcher away (the sweeps queue the bots)",
                         processes=others, timeout=180)
                dispatcher.start(environment)
                wait_for(lambda: moves() >= 24, "twenty-four moves", processes=running, timeout=120)
                # The broker's outage, with people's moves coming: the player waits while the bots catch up, so
                # that every game is a person's to move when the broker dies and the player goes on.
                player.send_signal(signal.SIGSTOP)
                wait_for(every_game_a_persons_to_move, "every game a person's to move", processes=running)
                broker.kill()
                deliberate["broker killed"] += 1
                before = moves()
                player.send_signal(signal.SIGCONT)
                wait_for(lambda: moves() > before and "could not queue" in dispatcher.output(),
                         "a move whose bot turn the dispatcher cannot queue", processes=running)
                time.sleep(1)
                broker.start()
                wait_for(lambda: moves() >= 32, "thirty-two moves, the broker back", processes=running, timeout=120)
                # The broker's outage with bot turns in the bots worker's hand: a turn received (its countdown
                # running) is held there by the games' row locks, so that the kill surely finds it unacknowledged.
                player.send_signal(signal.SIGSTOP)
                wait_for(every_game_a_persons_to_move, "every game a person's to move", processes=running)
                player.send_signal(signal.SIGCONT)
                holding = hold_a_bot_turn_in_the_workers_hand(
                    bots, database_url_for(connection.settings_dict["NAME"]), games, running)
                try:
                    lost = bots.output().count("Connection to broker lost")  # before the kill: it may log at once
                    broker.kill()
                    deliberate["broker killed with bot turns in hand"] += 1
                    wait_for(lambda: bots.output().count("Connection to broker lost") > lost,
                             "the bots worker to notice the broker is gone", processes=running)
                    # It lost the broker with the turn unacknowledged (kombu says so as it gives it back), and
                    # lives on (wait_for fails at once if a process exits).
                    wait_for(lambda: "unacknowledged message(s)" in "".join(
                        bots.output().split("Connection to broker lost")[lost + 1:]),
                        "the bots worker to give back the unacknowledged turn", processes=running, timeout=20)
                finally:
                    holding.rollback()
                    holding.close()
                time.sleep(2)
                for process in running:
                    process.check_running()
                broker.start()
                out, _ = player.communicate(timeout=300)
                assert player.returncode == 0, (tmp_path / "player.log").read_text()[-3000:]
                assert out.strip().splitlines()[-1] == str(PEOPLES_MOVES)

                def caught_up() -> bool:
                    waiting_on_bots = [game for game in Game.objects.filter(pk__in=games, status=GameStatus.ACTIVE)
                                       if 1 in game.to_move]
                    fresh = Notification.objects.filter(created_at__gte=started)
                    return (not waiting_on_bots and not fresh.filter(sent_at=None, skipped_at=None).exists()
                            and not OutgoingEmail.objects.filter(created_at__gte=started, sent_at=None).exists())

                wait_for(caught_up, "every bot turn played, every notification settled, every email sent",
                         processes=running, timeout=120)
                time.sleep(1.5)  # sweeps after catching up queue nothing more
                for process in running:
                    process.check_running()  # none exited that the test did not stop
            finally:
                if player.poll() is None:
                    player.kill()
                stop_all(worker, bots, mailer, beat, dispatcher)
            print(f"deliberate: {deliberate}; dispatcher log:\n{dispatcher.tail()}")
    finally:
        broker.stop()
    assert "could not queue" in dispatcher.output()  # it met the broker's outage, and lived through it
    for game in Game.objects.filter(pk__in=games):
        assert store.replay(game) == game.state, f"game {game.pk}: its log does not replay to its snapshot"
        bots = list(Move.objects.filter(game=game, seat=1).values_list("seq", flat=True))
        assert len(bots) == len(set(bots))
    sent = list(OutgoingEmail.objects.filter(created_at__gte=started).values_list("message_id", flat=True))
    received = [message_id for message_id in sink.received if message_id in set(sent)]
    assert sent, "no email was sent at all"
    assert sorted(received) == sorted(sent), "an email was lost or sent twice"
