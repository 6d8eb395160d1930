"""Bot turns a fault may have lost, queued again (``services.bot_turns``, issue 42), and the bot turn's task tried
again when its process dies or the database is away. The faults themselves, with real processes:
``tests/faults/test_bot_turns.py``."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.db import OperationalError
from django.utils import timezone

from tests.platform.conftest import record_queued
from turnbased.clocks import sweep
from turnbased.kit.db import dispatch
from turnbased.play import selectors, services, tasks
from turnbased.play.models import Game, GameStatus

pytestmark = pytest.mark.django_db

BOT = "turnbased.play.tasks.play_bot_turn"


@pytest.fixture
def queued(monkeypatch) -> list:
    """What would be queued in Celery, recorded instead; the broker takes every task."""
    return record_queued(monkeypatch)


def _table(creator, *, bot_first: bool, bots: dict | None = None, creator_plays: bool = True) -> Game:
    """A Love Letter table in play (its bot turn never queued: the test's transaction never commits)."""
    return services.create_game(creator=creator, engine_slug="love-letter", players=2, creator_plays=creator_plays,
                                bots=bots or {1: "random"}, options={"first_player": 1 if bot_first else 0})


def test_every_game_waiting_on_a_bot_is_queued_again_with_the_rest_of_its_pause(alice, bob, make_user, queued,
                                                                               settings):
    settings.BOT_MOVE_DELAY_SECONDS = 2.0
    start = timezone.now()
    with time_machine.travel(start, tick=False) as clock:
        bots_turn = _table(alice, bot_first=True)
        _table(bob, bot_first=False)  # a person's turn
        bots_only = _table(make_user(), bot_first=True, bots={0: "random", 1: "random"}, creator_plays=False)
        ended = _table(make_user(), bot_first=True)
        Game.objects.filter(pk=ended.pk).update(status=GameStatus.FINISHED)
        services.create_game(creator=make_user(), engine_slug="love-letter", players=3, bots={1: "random"})  # open
        clock.shift(timedelta(seconds=0.5))
        assert services.queue_bot_turns_waiting() == 2
        assert queued == [(BOT, [bots_turn.pk, 0], 1.5), (BOT, [bots_only.pk, 0], 1.5)]  # once each, on time
        clock.shift(timedelta(seconds=5))
        assert services.queue_bot_turns_waiting() == 2
        assert queued[2:] == [(BOT, [bots_turn.pk, 0], 0.0), (BOT, [bots_only.pk, 0], 0.0)]  # late: at once


def test_the_sweep_queues_again_only_the_turns_waiting_longer_than_a_stall(alice, queued, settings):
    settings.BOT_STALL_SECONDS = 60
    start = timezone.now()
    with time_machine.travel(start, tick=False) as clock:
        game = _table(alice, bot_first=True)
        clock.shift(timedelta(seconds=59))
        sweep.run()
        assert queued == []
        clock.shift(timedelta(seconds=2))
        sweep.run()
        assert queued == [(BOT, [game.pk, 0], 0.0)]


def test_the_queueing_stops_at_the_first_task_the_broker_refuses(alice, bob, monkeypatch):
    _table(alice, bot_first=True)
    _table(bob, bot_first=True)
    tried = []
    monkeypatch.setattr(dispatch, "queue", lambda task, args, countdown=0: tried.append(args) and False)
    assert services.queue_bot_turns_waiting() == 0
    assert len(tried) == 1  # the broker is away: whoever finds it back queues them all


@pytest.mark.parametrize("games", [2, 6])
def test_the_games_waiting_on_a_bot_are_read_in_one_query_however_many(make_user, django_assert_num_queries, games):
    for _ in range(games):
        _table(make_user(), bot_first=True)
    with django_assert_num_queries(1):
        assert len(selectors.bot_turns_waiting()) == games


def test_a_bot_turn_that_meets_a_database_error_is_tried_again(monkeypatch):
    """PostgreSQL away or restarting under a bot turn: tried again (eagerly here, after 1, 2, 4 ... s in a worker)."""
    tries = []

    def play(*, game_id, seq):
        tries.append(seq)
        if len(tries) == 1:
            raise OperationalError("server closed the connection unexpectedly")
        return []

    monkeypatch.setattr(services, "play_bot_turn", play)
    result = tasks.play_bot_turn.apply(args=(1, 0), throw=False)  # a worker's way: the error is not raised
    assert tries == [0, 0] and result.get() == 0


def test_a_bot_turn_whose_process_dies_under_it_is_tried_again_within_a_second():
    task = tasks.play_bot_turn
    assert task.acks_late and task.retry_on_worker_lost and task.default_retry_delay == 1 and task.max_retries
