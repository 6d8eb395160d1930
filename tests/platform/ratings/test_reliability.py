"""Reliability: the moves a player made on time against the turns a bot played when their time ran out."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
import time_machine
from django.test import Client

from tests.platform.ratings.conftest import play_moves, start
from turnbased.clocks import sweep
from turnbased.play import services
from turnbased.play.models import Move
from turnbased.ratings.selectors import reliability

pytestmark = pytest.mark.django_db

FRIDAY_NOON = datetime(2026, 11, 27, 12, 0, tzinfo=timezone.utc)
ONE_DAY_PER_MOVE = {"kind": "per_move", "days_per_move": 1}


@pytest.fixture
def clock():
    with time_machine.travel(FRIDAY_NOON, tick=False) as traveller:
        yield traveller


def test_moves_on_time_and_timeouts_make_the_percentage(clock, alice, bob, carol):
    game = start([alice, bob], time_control=ONE_DAY_PER_MOVE)
    play_moves(game, [alice, bob], 4)  # two moves each, on time
    mover = game.to_move[0]
    clock.shift(timedelta(days=1, minutes=1))
    assert sweep.run()["timeouts"] == ["bot played the late turn"]
    late = [alice, bob][mover]
    assert Move.objects.filter(game=game, source="timeout", seat=mover).count() == 1
    assert reliability(late, carol) == (late_record := reliability(late, late))
    assert (late_record.moves_on_time, late_record.timeouts, late_record.percent) == (2, 1, 66)
    other = [alice, bob][1 - mover]
    assert reliability(other, carol).percent == 100
    html = Client().get(f"/players/{late.get_username()}/").content.decode()
    assert "Reliability <strong>66%</strong>" in html and "2 moves on time, 1 timeout" in html


def test_games_without_a_clock_and_resignations_do_not_count(alice, bob):
    game = start([alice, bob])
    play_moves(game, [alice, bob], 4)
    clocked = start([alice, bob], time_control=ONE_DAY_PER_MOVE)
    play_moves(clocked, [alice, bob], 2)
    services.resign_game(game_id=clocked.pk, user=alice)
    assert (reliability(alice, bob).moves_on_time, reliability(alice, bob).timeouts) == (1, 0)
