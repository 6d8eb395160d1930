"""Leagues (``services.seasons``, ``pairing.divisions``): a season's field cut into divisions, each a round robin; at
its end the next season made with promotion and relegation, its players entered and told; newcomers at the bottom,
a vacancy filled from below."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import timezone
from hypothesis import given, settings as hypothesis_settings, strategies as st

from tests.platform.competitions.conftest import current_round, open_waiting_rounds, play_round, settings_for, started
from turnbased.competitions import pairing, standings
from turnbased.competitions.models import Competition, CompetitionStatus, Entrant, Standing
from turnbased.competitions.pairing.divisions import DOWN, STAY, UP
from turnbased.competitions.services import entries, rounds
from turnbased.events.models import Event, EventKind
from turnbased.kit.errors import InvalidRequest, Unprocessable
from turnbased.mail.models import OutgoingEmail

# -- the pure part ---------------------------------------------------------------------------------------------


def test_the_order_is_cut_from_the_top_and_a_last_division_too_small_joins_the_one_above():
    assert pairing.divisions(list(range(1, 13)), 4, 3) == [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]
    assert pairing.divisions(list(range(1, 11)), 4, 3) == [[1, 2, 3, 4], [5, 6, 7, 8, 9, 10]]
    assert pairing.divisions(list(range(1, 12)), 4, 3) == [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11]]
    assert pairing.divisions([7, 3], 4, 3) == [[7, 3]]  # one division, however small
    with pytest.raises(ValueError):
        pairing.divisions([1, 1, 2], 4, 3)


def test_the_best_of_each_division_go_up_and_the_worst_go_down():
    carried = pairing.next_order([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11]], movers=1)
    assert [row.player for row in carried] == [1, 2, 3, 5, 4, 6, 7, 9, 8, 10, 11]
    moves = {row.player: row.move for row in carried}
    assert (moves[5], moves[9], moves[4], moves[8], moves[1], moves[11]) == (UP, UP, DOWN, DOWN, STAY, STAY)
    # A division of three gives one each way whatever the organiser asked.
    assert [row.player for row in pairing.next_order([[1, 2, 3], [4, 5, 6]], movers=2)] == [1, 2, 4, 3, 5, 6]


@hypothesis_settings(max_examples=200, deadline=None)
@given(sizes=st.lists(st.integers(2, 9), min_size=1, max_size=6), movers=st.integers(1, 4))
def test_promotion_and_relegation_keep_everyone_and_move_nobody_two_divisions(sizes, movers):
    finished, start = [], 0
    for size in sizes:
        finished.append(list(range(start, start + size)))
        start += size
    carried = pairing.next_order(finished, movers)
    assert sorted(row.player for row in carried) == list(range(start))
    division_of = {player: number for number, division in enumerate(finished) for player in division}
    position = 0
    for number, division in enumerate(finished):  # each division keeps its size
        for row in carried[position:position + len(division)]:
            step = {UP: -1, DOWN: 1, STAY: 0}[row.move]
            assert division_of[row.player] + step == number
        position += len(division)
        ups = sum(row.move == UP for row in carried if division_of[row.player] == number)
        assert ups == (0 if number == 0 else min(movers, len(finished[number - 1]) // 2, len(division) // 2))


# -- settings --------------------------------------------------------------------------------------------------


def test_a_leagues_settings_are_checked_and_its_one_stage_is_a_round_robin_in_divisions(alice):
    league = entries.competition_create(user=alice, settings=settings_for(league={}, stages=None) | {
        "stages": [{"format": "round_robin"}]})
    assert league.league == {"division_size": 8, "movers": 2, "break_days": 7} and league.season == 1
    (stage,) = league.stages.all()
    assert (stage.format, stage.rounds, stage.pool_size) == ("round_robin", 2, 8)  # two cycles: each seat once
    for wrong, error in [({"division_size": 2}, Unprocessable), ({"division_size": 6, "movers": 4}, Unprocessable),
                         ({"colour": "red"}, InvalidRequest), ("big", InvalidRequest),
                         ({"break_days": 0}, Unprocessable)]:
        with pytest.raises(error):
            entries.competition_create(user=alice, settings=settings_for(league=wrong,
                                                                         stages=[{"format": "round_robin"}]))
    with pytest.raises(Unprocessable, match="A league plays one stage"):
        entries.competition_create(user=alice, settings=settings_for(league={}))  # the Swiss of settings_for


# -- seasons ---------------------------------------------------------------------------------------------------


def _higher_seed_wins(table) -> int:
    seeds = dict(Entrant.objects.filter(pk__in=table.players).values_list("pk", "seed"))
    return min(table.players, key=lambda entrant: seeds[entrant])


def _play_season(season: Competition) -> None:
    while current_round(season) is not None:
        play_round(season, winner=_higher_seed_wins)
    season.refresh_from_db()
    assert season.status == CompetitionStatus.FINISHED


def test_a_season_ends_with_the_next_one_made_and_promotion_and_relegation_applied(alice, people):
    players = people(13)
    first = started(alice, players[:12], league={"division_size": 4, "movers": 1},
                    stages=[{"format": "round_robin", "rounds": 1}])
    assert sorted(Standing.objects.filter(stage__competition=first).values_list("pool", flat=True)) \
        == [0] * 4 + [1] * 4 + [2] * 4
    _play_season(first)
    for stage in first.stages.all():
        assert standings.differences(stage) == []
    second = Competition.objects.get(previous_season=first)
    assert (second.season, second.status, second.entrant_count) == (2, CompetitionStatus.ENTRY, 12)
    assert second.starts_at > timezone.now() + timezone.timedelta(days=6)
    by_seed = {entrant.seed: entrant.user_id for entrant in first.entrants.all()}
    carried = {entrant.user_id: entrant for entrant in second.entrants.all()}
    # The higher seed won every game: each division finished in seed order.
    assert carried[by_seed[5]].league_move == UP and carried[by_seed[4]].league_move == DOWN
    assert carried[by_seed[9]].league_move == UP and carried[by_seed[8]].league_move == DOWN
    assert carried[by_seed[1]].league_move == STAY
    assert [carried[by_seed[seed]].league_order for seed in (1, 2, 3, 5, 4)] == [1, 2, 3, 4, 5]
    told = Event.objects.filter(kind=EventKind.COMPETITION_SEASON)
    assert sorted(told.values_list("user_id", flat=True)) == sorted(by_seed.values())
    assert OutgoingEmail.objects.filter(subject__contains="the next season is open").count() == 12

    # Before the start, the top player leaves and a newcomer enters: the vacancy is filled from below, the
    # newcomer starts at the bottom.
    top = next(person for person in players if person.pk == by_seed[1])
    entries.competition_withdraw(user=top, competition_id=second.pk)
    entries.competition_enter(user=players[12], competition_id=second.pk)
    Competition.objects.filter(pk=second.pk).update(starts_at=timezone.now())
    rounds.competition_start(competition_id=second.pk)
    open_waiting_rounds()
    division = dict(Standing.objects.filter(stage__competition=second).values_list("entrant__user_id", "pool"))
    assert top.pk not in division
    assert division[by_seed[5]] == 0  # promoted
    # The place that fell free goes to the first in line below: the player relegated from division 1 is reprieved,
    # and so, one division down, is the one relegated from division 2.
    assert division[by_seed[4]] == 0 and division[by_seed[8]] == 1
    assert division[players[12].pk] == 2  # the newcomer at the bottom
    assert sorted(division.values()) == [0] * 4 + [1] * 4 + [2] * 4

    client = Client()
    client.force_login(alice)
    page = client.get(f"/competitions/{second.pk}/").content.decode()
    assert "Division 3" in page and f'href="/competitions/{first.pk}/" rel="prev"' in page
    assert client.get(f"/api/competitions/{first.pk}/").json()["next_season"] == second.pk
    shown = client.get(f"/api/competitions/{second.pk}/standings/").json()["stages"][0]["rows"]
    assert {row["move"] for row in shown} == {"up", "down", "stay", "new"}


def test_a_season_called_off_ends_the_league(alice, people):
    league = entries.competition_create(user=alice, settings=settings_for(
        league={"division_size": 4}, stages=[{"format": "round_robin"}], min_entrants=4))
    entries.competition_enter(user=people(1)[0], competition_id=league.pk)
    Competition.objects.filter(pk=league.pk).update(starts_at=timezone.now())
    rounds.competition_start(competition_id=league.pk)
    league.refresh_from_db()
    assert league.status == CompetitionStatus.CANCELLED
    assert not Competition.objects.filter(previous_season=league).exists()
