"""Competitions driven to their end through the real services by whatever hypothesis draws at each table of each
round: a game resigned down to one seat, a player withdrawing mid-round, a player running out of time (the table's
expiry policy: a bot plays the turn, or takes the seat), or the game left for the round's deadline to settle by the
competition's policy (played out by bots, adjudicated, every player losing). After every round the standings equal
a recomputation; nobody withdrawn (or out of time) is paired again; at an elimination table a seat handed to a bot
places last; every round closes and the competition ends.

Each example runs in a transaction rolled back at its end, so the examples share nothing; what a commit would
queue (a round's opening and close, an abandoned table) is run by hand, as the minute sweep would."""

from __future__ import annotations

import hashlib
import itertools
from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.platform.competitions.conftest import current_round, finish, open_waiting_rounds, settings_for
from tests.platform.conftest import user_maker
from turnbased.clocks.models import SeatClock
from turnbased.competitions import standings
from turnbased.competitions.models import (
    Competition, CompetitionStatus, Entrant, EntrantStatus, EventTable, Placement, Round, RoundStatus, TableStatus,
)
from turnbased.competitions.services import entries, rounds, withdrawals
from turnbased.play import services as play_services
from turnbased.play.services import tables as tables_module
from turnbased.play.models import Game, GameStatus

pytestmark = pytest.mark.django_db

SHAPES = {
    "swiss": {"game": "love-letter", "table_size": 2, "stages": [{"format": "swiss", "rounds": 3}]},
    "elimination": {"game": "love-letter", "table_size": 3, "stages": [{"format": "elimination", "advance": 1}]},
    "duplicate swiss": {"game": "halali", "table_size": 2, "stages": [{"format": "swiss", "rounds": 2,
                                                                       "duplicate": True}]},
}
EVENTS = ("resign", "withdraw", "timeout", "deadline")
ROUNDS_AT_MOST = 8
BOT_TURNS_AT_MOST = 600
runs = itertools.count()


class _Undo(Exception):
    pass


def _play_out(game: Game) -> None:
    """Have the seats' bots play the game to its end (every seat a bot's once the deadline handed them over)."""
    for _ in range(BOT_TURNS_AT_MOST):
        game.refresh_from_db()
        if game.status != GameStatus.ACTIVE:
            return
        play_services.play_bot_turn(game_id=game.pk, seq=game.seq)
    raise AssertionError(f"game {game.pk} still going after {BOT_TURNS_AT_MOST} bot turns")


def _timeout(game: Game) -> int:
    """Let the first seat to move run out of time; return the seat."""
    seat = game.to_move[0]
    SeatClock.objects.filter(game=game, seat=seat).update(deadline=timezone.now() - timedelta(seconds=1))
    play_services.play_timeout(game_id=game.pk, seat=seat)
    return seat


def _seeds(monkeypatch_context) -> None:
    """Deal every game (and every duplicate round) from seeds numbered in the order they are drawn: a replay of the
    example's draws plays the same games, as hypothesis needs to shrink it."""
    drawn = itertools.count()
    monkeypatch_context.setattr(tables_module.secrets, "token_hex",
                                lambda size=32: hashlib.sha256(str(next(drawn)).encode()).hexdigest()[: 2 * size])


def _drive(data, shape: str, expiry: str, policy: str, entrant_count: int) -> None:
    make = user_maker()
    run = next(runs)
    organiser = make(f"org{run}")
    people = [make(f"p{run}x{number}") for number in range(entrant_count)]
    competition = entries.competition_create(user=organiser, settings=settings_for(
        **SHAPES[shape], deadline_policy=policy,
        time_control={"kind": "per_move", "days_per_move": 3, "expiry": expiry}))
    for person in people:
        entries.competition_enter(user=person, competition_id=competition.pk)
    Competition.objects.filter(pk=competition.pk).update(starts_at=timezone.now() - timedelta(minutes=1))
    rounds.competition_start(competition_id=competition.pk)
    open_waiting_rounds()
    user_of = {entrant.pk: entrant.user for entrant in Entrant.objects.filter(competition=competition)
               .select_related("user")}
    gone: set[int] = set()  # entrants withdrawn, by themselves or for time
    handed_on: list[tuple[int, int]] = []  # (table, entrant) whose seat a bot took
    for _ in range(ROUNDS_AT_MOST):
        played = current_round(competition)
        if played is None:
            break
        assert gone.isdisjoint(entrant for table in EventTable.objects.filter(round=played)
                               for entrant in table.players if table.game_id)
        for table in EventTable.objects.filter(round=played, status=TableStatus.PLAYING).select_related("game"):
            event = data.draw(st.sampled_from(EVENTS), label=f"round {played.number} table {table.number}")
            game = table.game
            if event == "resign":
                finish(game, keep_seat=data.draw(st.integers(0, len(table.players) - 1), label="kept seat"))
            elif event == "withdraw":
                entrant = data.draw(st.sampled_from(table.players), label="withdrawing")
                entries.competition_withdraw(user=user_of[entrant], competition_id=competition.pk)
                gone.add(entrant)
            elif event == "timeout":
                seat = _timeout(game)
                if Game.objects.get(pk=game.pk).seats.get(index=seat).bot and expiry == "remove":
                    gone.add(table.players[seat])
                    handed_on.append((table.pk, table.players[seat]))
        for table_id in rounds.due_work()["abandoned"]:  # what the withdrawal's task would close
            withdrawals.table_abandoned(table_id=table_id)
        if EventTable.objects.filter(round=played, status=TableStatus.PLAYING).exists():
            Round.objects.filter(pk=played.pk).update(deadline=timezone.now() - timedelta(seconds=1))
            rounds.round_deadline(round_id=played.pk)
            for table in EventTable.objects.filter(round=played, status=TableStatus.PLAYING).select_related("game"):
                _play_out(table.game)
        assert not EventTable.objects.filter(round=played).exclude(status=TableStatus.FINISHED).exists()
        rounds.round_close(round_id=played.pk)
        assert Round.objects.get(pk=played.pk).status == RoundStatus.CLOSED
        for stage in competition.stages.all():
            assert standings.differences(stage) == [], shape
        assert gone <= set(Entrant.objects.filter(competition=competition, status=EntrantStatus.WITHDRAWN)
                           .values_list("pk", flat=True))
        open_waiting_rounds()
    competition.refresh_from_db()
    assert competition.status in (CompetitionStatus.FINISHED, CompetitionStatus.CANCELLED)
    assert current_round(competition) is None
    if competition.table_size > 2 and shape == "elimination":
        for table_id, entrant in handed_on:  # a seat a bot took places last at its table
            places = dict(Placement.objects.filter(table_id=table_id).values_list("entrant_id", "place"))
            assert places[entrant] == max(places.values())


def _undone(data, shape: str, expiry: str, policy: str, entrant_count: int) -> None:
    """Drive one example in a transaction rolled back at its end, its seeds numbered from the first."""
    try:
        with transaction.atomic(), pytest.MonkeyPatch.context() as patched:
            _seeds(patched)
            _drive(data, shape, expiry, policy, entrant_count)
            raise _Undo
    except _Undo:
        pass


def _examples(count: int):
    return settings(max_examples=count, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


@pytest.mark.parametrize("shape", list(SHAPES))
@_examples(3)
@given(data=st.data(), expiry=st.sampled_from(["remove", "bot_turn"]),
       policy=st.sampled_from(["play_out", "adjudicate", "all_lose"]), entrant_count=st.integers(4, 7))
def test_a_competition_ends_with_standings_equal_to_a_recomputation_whatever_happens_at_its_tables(
        db, shape, data, expiry, policy, entrant_count):
    _undone(data, shape, expiry, policy, entrant_count)


@pytest.mark.long
@pytest.mark.parametrize("shape", list(SHAPES))
@_examples(25)
@given(data=st.data(), expiry=st.sampled_from(["remove", "bot_turn"]),
       policy=st.sampled_from(["play_out", "adjudicate", "all_lose"]), entrant_count=st.integers(3, 10))
def test_many_competitions_end_with_standings_equal_to_a_recomputation(db, shape, data, expiry, policy,
                                                                        entrant_count):
    _undone(data, shape, expiry, policy, entrant_count)
