"""Two schedulers by mistake (two ``celery beat`` processes) and a real worker: each late turn is acted on once.

Deployments sometimes start beat twice (a second machine, a restart that left the old one running).
Both then queue every sweep, and the worker runs them side by side; the re-check under the game's
row lock must still make exactly one timeout move per deadline.
"""

from __future__ import annotations

import os
import sys
import time
from datetime import timedelta
from pathlib import Path

import pytest
from django.db import connection
from django.utils import timezone

from tests.faults.stack import WORKER_FLAGS, stop_all
from tests.platform.conftest import SCRIPTED_CLASSIC_2P
from tests.serving.served import database_url_for
from tests.topology.stack import Process
from turnbased.accounts.services.accounts import account_create
from turnbased.clocks.models import SeatClock
from turnbased.local.services import embedded_redis, free_port
from turnbased.play import services
from turnbased.play.models import Move

pytestmark = [pytest.mark.faults, pytest.mark.django_db(transaction=True)]

LATE_GAMES = 4


def _late_games() -> list:
    games = []
    for number in range(LATE_GAMES):
        first, second = (account_create(username=f"beat{number}x{seat}", email=f"beat{number}x{seat}@example.com",
                                        password="a-long-enough-pass-9", email_verified=True) for seat in range(2))
        game = services.create_game(creator=first, engine_slug="love-letter", players=2,
                                    options={"deck": SCRIPTED_CLASSIC_2P, "first_player": 0},
                                    time_control={"kind": "per_move", "days_per_move": 1})
        services.join_game(game_id=game.pk, user=second)
        games.append(game)
    SeatClock.objects.filter(game__in=games, turn_started_at__isnull=False).update(
        deadline=timezone.now() - timedelta(minutes=5))
    return games


def test_two_beats_sweeping_twice_a_second_act_once_per_deadline(tmp_path):
    games = _late_games()
    celery = str(Path(sys.executable).parent / "celery")
    with embedded_redis(free_port(), folder=tmp_path / "redis") as broker_url:
        environment = {**os.environ, "DATABASE_URL": database_url_for(connection.settings_dict["NAME"]),
                       "CELERY_BROKER_URL": broker_url, "SWEEP_SECONDS": "0.5", "BOT_MOVE_DELAY_SECONDS": "0"}
        environment.pop("CELERY_TASK_ALWAYS_EAGER", None)
        processes = [
            Process("worker", [celery, "-A", "turnbased", "worker", "--concurrency=2", "--loglevel=info",
                               "-Q", "celery,mail", *WORKER_FLAGS], tmp_path / "worker.log"),
            *(Process(f"beat{n}", [celery, "-A", "turnbased", "beat", "--loglevel=info",
                                   f"--schedule={tmp_path / f'beat{n}-schedule'}"], tmp_path / f"beat{n}.log")
              for n in range(2)),
        ]
        for process in processes:
            process.start(environment)
        try:
            deadline = time.monotonic() + 60
            while Move.objects.filter(game__in=games, source="timeout").count() < LATE_GAMES:
                for process in processes:
                    process.check_running()
                assert time.monotonic() < deadline, processes[0].tail()
                time.sleep(0.2)
            time.sleep(3)  # a dozen sweeps more from each beat, side by side in the worker's two processes
            sweeps = processes[0].output().count("turnbased.clocks.tasks.sweep_clocks") // 2
            beats_sending = [process.output().count("Sending due task sweep-clocks") for process in processes[1:]]
        finally:
            stop_all(*processes)
    for game in games:
        assert Move.objects.filter(game=game, source="timeout").count() == 1, game.pk
    assert min(beats_sending) >= 3 and sweeps >= 6, (beats_sending, sweeps)
