"""Races between real processes: many posts of one turn, and many clock sweeps at once, act exactly once."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from tests.platform.conftest import SCRIPTED_CLASSIC_2P, api_token
from tests.faults.stack import PatientClient
from tests.serving.served import database_url_for, served_web
from turnbased.accounts.services.accounts import account_create
from turnbased.clocks.models import SeatClock
from turnbased.local.services import BASE_DIR
from turnbased.play import services
from turnbased.play.models import Move

pytestmark = [pytest.mark.faults, pytest.mark.django_db(transaction=True)]

RAISED_RATES = {"RATE_LIMIT_API": "100000/min", "RATE_LIMIT_MOVES": "100000/min"}


def _players(prefix: str, count: int = 2) -> list:
    return [account_create(username=f"{prefix}{n}", email=f"{prefix}{n}@example.com", password="a-long-enough-pass-9",
                           email_verified=True) for n in range(count)]


def _scripted_game(first, second, **create):
    game = services.create_game(creator=first, engine_slug="love-letter", players=2,
                                options={"deck": SCRIPTED_CLASSIC_2P, "first_player": 0}, **create)
    services.join_game(game_id=game.pk, user=second)
    game.refresh_from_db()
    return game


def test_a_hundred_threads_posting_one_turn_append_exactly_one_move(tmp_path):
    """Half send one idempotency key (a client retrying), half a key each (different clients): one move is logged."""
    alice, bob = _players("racer")
    game = _scripted_game(alice, bob)
    token = api_token(alice)
    answers: list[tuple[str, int]] = []
    with served_web(tmp_path, database_url_for(connection.settings_dict["NAME"]), **RAISED_RATES) as web:
        barrier = threading.Barrier(100)

        def post(number: int) -> None:
            client = PatientClient(web.port, token)
            key = "the-same-retry" if number % 2 else f"client-{number}"
            try:
                barrier.wait(30)
                status, _ = client.request("POST", f"/api/games/{game.pk}/moves/",
                                           {"move": {"card": "handmaid"}, "expected_seq": 0, "idempotency_key": key})
                answers.append((key, status))
            finally:
                client.close()

        threads = [threading.Thread(target=post, args=(number,)) for number in range(100)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(120)
    assert len(answers) == 100
    assert Move.objects.filter(game=game).count() == 1
    assert [status for _, status in answers].count(201) == 1
    logged_key = Move.objects.get(game=game).idempotency_key
    for key, status in answers:
        if key == logged_key:
            assert status in (200, 201), (key, status)  # the first answer, or the same answer replayed
        else:
            assert status == 409, (key, status)  # too late: the turn was played


SWEEP = """
import json, os, time
from turnbased.clocks import sweep
while not os.path.exists({go!r}):
    time.sleep(0.02)
print(json.dumps(sweep.run()["timeouts"]))
"""


def test_sixteen_sweeps_in_processes_of_their_own_act_once_per_deadline(tmp_path):
    games = []
    for number in range(6):
        first, second = _players(f"late{number}x")
        games.append(_scripted_game(first, second, time_control={"kind": "per_move", "days_per_move": 1}))
    late = SeatClock.objects.filter(game__in=games, turn_started_at__isnull=False)
    assert late.count() == len(games)
    late.update(deadline=timezone.now() - timedelta(minutes=5))

    go = tmp_path / "go"
    environment = {**os.environ, "DATABASE_URL": database_url_for(connection.settings_dict["NAME"])}
    sweeps = [subprocess.Popen([sys.executable, str(BASE_DIR / "manage.py"), "shell", "-c", SWEEP.format(go=str(go))],
                               env=environment, cwd=BASE_DIR, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
              for _ in range(16)]
    time.sleep(1)
    go.touch()  # every process has had its second to load Django; most are waiting on the file
    outcomes = []
    for process in sweeps:
        out, err = process.communicate(timeout=180)
        assert process.returncode == 0, err[-2000:]
        outcomes.extend(json.loads(out.strip().splitlines()[-1]))
    for game in games:
        assert Move.objects.filter(game=game, source="timeout").count() == 1, game.pk
    assert outcomes.count("bot played the late turn") == len(games)
    assert set(outcomes) <= {"bot played the late turn", "not late"}, outcomes
