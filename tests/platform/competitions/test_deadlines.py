"""A round's deadline settles each game still going by the competition's policy (``rounds.round_deadline``):
played out by the seats' bots (``test_rounds``), adjudicated on the public count, or every player losing. A decided
game is recorded like any finished one (places, points, standings moved on, the round closed), marked as settled,
and not rated. A game whose every person left at it has withdrawn closes at once (``withdrawals.table_abandoned``)."""

from __future__ import annotations

import html

import pytest
from django.test import Client
from django.utils import timezone

from games import get_engine
from games.base import ALL_LOSE
from tests.platform.conftest import record_queued
from tests.platform.competitions.conftest import current_round, finish, open_waiting_rounds, settings_for, started
from turnbased.competitions import standings
from turnbased.competitions.models import (
    DeadlinePolicy, EntrantStatus, EventTable, Placement, Round, RoundStatus, Settled, Standing,
)
from turnbased.competitions.services import entries, rounds, withdrawals
from turnbased.competitions.services.withdrawals import ABANDONED_TASK
from turnbased.play.models import GameStatus, Seat
from turnbased.ratings.services import game_unrated_reason

pytestmark = pytest.mark.django_db


def _one_table_left_at_the_deadline(alice, people, policy: str):
    """A four-player Savernake Forest Swiss of two rounds: one table of round 1 finished by a resignation, the other
    still going when the deadline comes; return the competition, the round and the table left."""
    competition = started(alice, people(4), game="savernake-forest", deadline_policy=policy,
                          stages=[{"format": "swiss", "rounds": 2}])
    played = current_round(competition)
    first, left = EventTable.objects.filter(round=played).select_related("game").order_by("number")
    finish(first.game, keep_seat=0)
    Round.objects.filter(pk=played.pk).update(deadline=timezone.now())
    assert rounds.due_work()["late"] == [played.pk]
    return competition, played, left


def test_an_adjudicated_table_is_placed_by_the_count_everyone_could_see(alice, people):
    competition, played, table = _one_table_left_at_the_deadline(alice, people, DeadlinePolicy.ADJUDICATE)
    engine = get_engine("savernake-forest")
    counts = engine.public_scores(table.game.state)
    assert rounds.round_deadline(round_id=played.pk) == 1
    table.refresh_from_db()
    table.game.refresh_from_db()
    assert table.settled == Settled.ADJUDICATED and table.game.status == GameStatus.FINISHED
    placed = dict(Placement.objects.filter(table=table).values_list("seat", "place"))
    expected = {seat: 1 + sum(other > count for other in counts) for seat, count in enumerate(counts)}
    assert placed == expected
    assert game_unrated_reason(table.game, None) == "a game decided before its end"
    assert rounds.round_deadline(round_id=played.pk) == 0  # nothing left to settle
    rounds.round_close(round_id=played.pk)
    open_waiting_rounds()
    assert Round.objects.get(pk=played.pk).status == RoundStatus.CLOSED
    assert current_round(competition).number == 2
    for stage in competition.stages.all():
        assert standings.differences(stage) == []
    client = Client()
    client.force_login(alice)
    assert "adjudicated at the deadline" in client.get(f"/competitions/{competition.pk}/").content.decode()
    shown = client.get(f"/api/competitions/{competition.pk}/rounds/").json()
    assert [table["settled"] for table in shown["rounds"][0]["tables"]] == ["", Settled.ADJUDICATED]


def test_at_a_table_every_player_lost_each_places_last_with_the_last_places_points(alice, people):
    competition, played, table = _one_table_left_at_the_deadline(alice, people, DeadlinePolicy.ALL_LOSE)
    assert rounds.round_deadline(round_id=played.pk) == 1
    table.refresh_from_db()
    assert table.settled == Settled.ALL_LOST
    assert sorted(Placement.objects.filter(table=table).values_list("place", "points")) == [(2, 0.0), (2, 0.0)]
    lost = Standing.objects.filter(entrant_id__in=table.players)
    assert [(row.points, row.wins, row.games) for row in lost] == [(0.0, 0, 1)] * 2
    rounds.round_close(round_id=played.pk)
    open_waiting_rounds()
    assert current_round(competition).number == 2
    # Nobody is withdrawn for a game the deadline stopped.
    assert not competition.entrants.filter(status=EntrantStatus.WITHDRAWN).exists()
    for stage in competition.stages.all():
        assert standings.differences(stage) == []


@pytest.mark.parametrize("policy, words", [
    (DeadlinePolicy.PLAY_OUT, "played out at once by its seats' bots"),
    (DeadlinePolicy.ADJUDICATE, "adjudicated on the count so far"),
    (DeadlinePolicy.ALL_LOSE, "every player at it loses"),
])
def test_the_competitions_page_says_what_its_deadline_does(alice, policy, words):
    competition = entries.competition_create(user=alice, settings=settings_for(deadline_policy=policy))
    client = Client()
    client.force_login(alice)
    assert words in html.unescape(client.get(f"/competitions/{competition.pk}/").content.decode())


# -- a table everyone left at had withdrawn from -----------------------------------------------------------------


def test_a_game_whose_every_player_withdrew_closes_at_once_and_its_round_goes_on(
        alice, people, monkeypatch, django_capture_on_commit_callbacks):
    queued = record_queued(monkeypatch)
    competition = started(alice, people(4), stages=[{"format": "swiss", "rounds": 2}])
    played = current_round(competition)
    left, other = EventTable.objects.filter(round=played).select_related("game").order_by("number")
    user_of = {entrant.pk: entrant.user for entrant in competition.entrants.select_related("user")}
    with django_capture_on_commit_callbacks(execute=True):
        entries.competition_withdraw(user=user_of[left.players[0]], competition_id=competition.pk)
    assert not [task for task in queued if task[0] == ABANDONED_TASK]  # one of its players is still in
    assert rounds.due_work()["abandoned"] == []
    with django_capture_on_commit_callbacks(execute=True):
        entries.competition_withdraw(user=user_of[left.players[1]], competition_id=competition.pk)
    assert (ABANDONED_TASK, [left.pk], 0) in queued
    assert rounds.due_work()["abandoned"] == [left.pk]  # the sweep finds it too, should the task be lost
    assert withdrawals.table_abandoned(table_id=left.pk)
    assert not withdrawals.table_abandoned(table_id=left.pk)  # once
    left.refresh_from_db()
    left.game.refresh_from_db()
    assert left.settled == Settled.ABANDONED and left.game.result["decided"] == ALL_LOSE
    assert sorted(Placement.objects.filter(table=left).values_list("place", "points")) == [(2, 0.0), (2, 0.0)]
    assert rounds.due_work()["abandoned"] == []
    finish(other.game, keep_seat=0)
    rounds.round_close(round_id=played.pk)
    open_waiting_rounds()
    second = current_round(competition)
    assert second.number == 2
    seated = {player for table in EventTable.objects.filter(round=second) for player in table.players}
    assert seated.isdisjoint(left.players)
    for stage in competition.stages.all():
        assert standings.differences(stage) == []


def test_a_table_whose_last_person_timed_out_is_left_to_its_bots(alice, people):
    competition = started(alice, people(2), stages=[{"format": "swiss", "rounds": 1}])
    (table,) = EventTable.objects.filter(round=current_round(competition)).select_related("game")
    Seat.objects.filter(game=table.game).update(bot="random")  # both seats handed to bots
    entrants = list(competition.entrants.all())
    competition.entrants.update(status=EntrantStatus.WITHDRAWN)
    assert rounds.due_work()["abandoned"] == []
    assert not withdrawals.table_abandoned(table_id=table.pk)
    assert len(entrants) == 2
