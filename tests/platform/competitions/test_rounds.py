"""A competition played from its start to its final standings through the services: each format's rounds paired,
their games made through the core (seated, started, rated or not, no rematch), the standings moved on as each game
ends and equal to a recomputation, the next round paired when the last game of one ends, stages one after the
other."""

from __future__ import annotations

from collections import Counter
from datetime import timedelta
from itertools import combinations

import pytest
from django.utils import timezone

from tests.platform.competitions.conftest import (
    CLOCK, current_round, finish, open_waiting_rounds, play_round, settings_for, started,
)
from turnbased.aftergame.selectors import BOTS_AT_DEADLINE, ending
from turnbased.aftergame.selectors import rematch_offered
from turnbased.clocks.models import SeatClock
from turnbased.competitions import selectors, standings
from turnbased.competitions.models import (
    Bye, Competition, CompetitionStatus, Entrant, EntrantStatus, EntryBar, EventTable, Placement, Round, RoundStatus,
    Settled, Standing, TableStatus, WithdrawnBecause,
)
from turnbased.competitions.services import entries, rounds
from turnbased.competitions.services.entries import timeout_recorded
from turnbased.kit.errors import Conflict
from turnbased.play import services as play_services
from turnbased.play.models import GameStatus, Visibility
from turnbased.ratings.services import game_unrated_reason

pytestmark = pytest.mark.django_db


def _pairs(competition) -> Counter:
    return Counter(frozenset(pair) for table in EventTable.objects.filter(round__stage__competition=competition)
                   for pair in combinations(table.players, 2))


def _assert_standings_recompute(competition) -> None:
    for stage in competition.stages.all():
        assert standings.differences(stage) == []


def test_a_two_player_swiss_is_played_to_its_final_standings(alice, people):
    entrants = people(7)
    competition = started(alice, entrants)
    assert competition.status == CompetitionStatus.RUNNING
    first = current_round(competition)
    tables = list(EventTable.objects.filter(round=first).select_related("game"))
    assert len(tables) == 3 and Bye.objects.filter(round=first).count() == 1
    game = tables[0].game
    assert game.status == GameStatus.ACTIVE and game.visibility == Visibility.PUBLIC
    users = dict(Entrant.objects.filter(pk__in=tables[0].players).values_list("pk", "user_id"))
    assert [seat.user_id for seat in game.seats.order_by("index")] == [users[entrant] for entrant in tables[0].players]
    assert game.created_by_id == alice.pk and not game.seats.filter(user=alice).exists()
    for _ in range(3):
        play_round(competition)
    competition.refresh_from_db()
    assert competition.status == CompetitionStatus.FINISHED
    assert max(_pairs(competition).values()) == 1  # seven players, three rounds: never the same pair twice
    byes = list(Bye.objects.filter(round__stage__competition=competition).values_list("entrant_id", flat=True))
    assert len(byes) == 3 and len(set(byes)) == 3  # the bye went round
    _assert_standings_recompute(competition)
    stage = competition.stages.get()
    assert sorted(Standing.objects.filter(stage=stage).values_list("place", flat=True))[0] == 1
    finished_game = EventTable.objects.filter(round__stage=stage).exclude(game=None).first().game
    assert not rematch_offered(finished_game)


def test_games_are_rated_unless_the_organiser_says_otherwise(alice, people):
    def reason(competition):
        play_round(competition)
        game = EventTable.objects.get(round__stage__competition=competition).game
        return game_unrated_reason(game, None)

    # The table as made (the resignation that ended it left out: a game ended so soon is unrated for that alone).
    assert reason(started(alice, people(2), stages=[{"format": "swiss", "rounds": 1}])) is None
    assert reason(started(alice, people(2), rated=False, stages=[{"format": "swiss", "rounds": 1}])) \
        == "a table made unrated"


def test_a_round_robin_pool_plays_every_pair_at_once(alice, people):
    competition = started(alice, people(5), stages=[{"format": "round_robin"}])
    first = current_round(competition)
    assert EventTable.objects.filter(round=first).count() == 10  # every pair of five, all at once
    assert sorted(_pairs(competition).values()) == [1] * 10
    play_round(competition)
    competition.refresh_from_db()
    assert competition.status == CompetitionStatus.FINISHED
    _assert_standings_recompute(competition)


def test_a_sequential_round_robin_opens_a_round_when_the_last_ends(alice, people):
    competition = started(alice, people(4), stages=[{"format": "round_robin", "sequential": True}])
    for number in (1, 2, 3):
        played = current_round(competition)
        assert played.number == number
        assert EventTable.objects.filter(round=played).count() == 2
        tables = list(EventTable.objects.filter(round=played).select_related("game"))
        finish(tables[0].game, keep_seat=0)
        rounds.round_close(round_id=played.pk)
        assert Round.objects.filter(stage__competition=competition).count() == number  # one table still plays
        finish(tables[1].game, keep_seat=0)
        rounds.round_close(round_id=played.pk)
        open_waiting_rounds()
    competition.refresh_from_db()
    assert competition.status == CompetitionStatus.FINISHED
    assert sorted(_pairs(competition).values()) == [1] * 6


def test_heats_in_pools_then_a_final_of_the_best_of_each(alice, people):
    competition = started(alice, people(8), stages=[{"format": "round_robin", "pool_size": 4, "advance": 2},
                                                    {"format": "round_robin"}])
    heats = current_round(competition)
    assert EventTable.objects.filter(round=heats).count() == 12  # two pools of four: six games each
    pools = dict(Standing.objects.filter(stage=heats.stage).values_list("entrant_id", "pool"))
    assert sorted(Counter(pools.values()).values()) == [4, 4]
    strongest = min  # the entrant made first wins every game they play: places without ties
    play_round(competition, winner=lambda table: strongest(table.players))
    final = current_round(competition)
    assert final.stage.number == 2
    finalists = {entrant for table in EventTable.objects.filter(round=final) for entrant in table.players}
    expected = {entrant for pool in (0, 1) for entrant in sorted(e for e, p in pools.items() if p == pool)[:2]}
    assert finalists == expected
    play_round(competition, winner=lambda table: strongest(table.players))
    competition.refresh_from_db()
    assert competition.status == CompetitionStatus.FINISHED
    assert Entrant.objects.filter(competition=competition, status=EntrantStatus.ELIMINATED).count() == 4
    assert Standing.objects.get(stage=final.stage, place=1).entrant_id == min(finalists)
    _assert_standings_recompute(competition)


def test_four_player_pools_seat_everyone_at_tables_of_four_and_three(alice, people):
    competition = started(alice, people(7), table_size=4, stages=[{"format": "round_robin", "pool_size": 4}])
    tables = EventTable.objects.filter(round=current_round(competition))
    assert sorted(len(table.players) for table in tables) == [3, 4]
    play_round(competition)
    competition.refresh_from_db()
    assert competition.status == CompetitionStatus.FINISHED
    _assert_standings_recompute(competition)


def test_single_elimination_seeds_byes_and_a_champion(alice, people):
    entrants = people(5)
    competition = started(alice, entrants, stages=[{"format": "elimination"}])
    stage = competition.stages.get()
    rounds_played = 0
    while current_round(competition) is not None:
        play_round(competition, winner=lambda table: table.players[0])
        rounds_played += 1
    competition.refresh_from_db()
    assert competition.status == CompetitionStatus.FINISHED
    assert rounds_played == 3  # five entrants: three byes, then two rounds more
    champion = Standing.objects.get(stage=stage, place=1)
    assert champion.entrant_id == stage.seeds[0]  # the first seat always won: the top seed
    assert EventTable.objects.filter(round__stage=stage, game__isnull=False).count() == 4


def test_double_elimination_plays_to_a_grand_final(alice, people):
    competition = started(alice, people(4), stages=[{"format": "double_elimination"}])
    while current_round(competition) is not None:
        play_round(competition, winner=lambda table: table.players[-1])
    competition.refresh_from_db()
    assert competition.status == CompetitionStatus.FINISHED
    losses = Counter(placement.entrant_id for placement in Placement.objects.filter(
        table__round__stage__competition=competition, place=2))
    stage = competition.stages.get()
    champion = Standing.objects.get(stage=stage, place=1).entrant_id
    assert all(count == 2 for entrant, count in losses.items() if entrant != champion)


def test_multi_player_elimination_keeps_the_top_of_each_table(alice, people):
    # Resigning players share the place below the one who stayed: keep the top one of each table.
    competition = started(alice, people(12), table_size=4, stages=[{"format": "elimination", "advance": 1}])
    first = current_round(competition)
    assert EventTable.objects.filter(round=first).count() == 3
    play_round(competition)
    second = current_round(competition)
    (final,) = EventTable.objects.filter(round=second)
    assert sorted(final.players) == sorted(table.players[0] for table in EventTable.objects.filter(round=first))
    while current_round(competition) is not None:
        play_round(competition)
    competition.refresh_from_db()
    assert competition.status == CompetitionStatus.FINISHED
    stage = competition.stages.get()
    places = list(Standing.objects.filter(stage=stage).values_list("place", flat=True))
    assert sorted(places)[0] == 1 and None not in places


def test_a_withdrawn_player_is_paired_no_more(alice, people):
    entrants = people(4)
    competition = started(alice, entrants, stages=[{"format": "swiss", "rounds": 2}])
    entries.competition_withdraw(user=entrants[0], competition_id=competition.pk)
    play_round(competition)
    second = current_round(competition)
    entrant = Entrant.objects.get(competition=competition, user=entrants[0])
    assert all(entrant.pk not in table.players for table in EventTable.objects.filter(round=second))
    assert Bye.objects.filter(round=second).count() == 1


def test_too_few_entrants_call_it_off(alice, people):
    competition = started(alice, people(1))
    assert competition.status == CompetitionStatus.CANCELLED
    assert not Round.objects.filter(stage__competition=competition).exists()


def test_opening_a_round_is_resumable_after_a_crash_halfway(alice, people, monkeypatch):
    competition = entries.competition_create(user=alice, settings=settings_for(stages=[{"format": "round_robin"}]))
    for person in people(6):
        entries.competition_enter(user=person, competition_id=competition.pk)
    Competition.objects.filter(pk=competition.pk).update(starts_at=timezone.now())
    rounds.competition_start(competition_id=competition.pk)
    played = Round.objects.get(stage__competition=competition)
    made = []
    real = rounds.table_game

    def dies_after_four(competition, table, **kwargs):
        if len(made) == 4:
            raise SystemExit("killed")
        made.append(table.pk)
        real(competition, table, **kwargs)

    monkeypatch.setattr(rounds, "table_game", dies_after_four)
    with pytest.raises(SystemExit):
        rounds.round_open(round_id=played.pk, batch=2)
    assert EventTable.objects.filter(round=played, game__isnull=False).count() == 4  # two batches committed
    monkeypatch.setattr(rounds, "table_game", real)
    assert rounds.due_work()["opening"] == [played.pk]
    assert rounds.round_open(round_id=played.pk, batch=2) == 11
    played.refresh_from_db()
    assert played.status == RoundStatus.OPEN
    assert EventTable.objects.filter(round=played, status=TableStatus.PLAYING).count() == 15
    assert rounds.round_open(round_id=played.pk) == 0  # a second run makes nothing
    assert selectors.summary(competition)["id"] == competition.pk


def test_at_the_deadline_the_seats_bots_play_the_games_out(alice, people):
    competition = started(alice, people(2), stages=[{"format": "swiss", "rounds": 1}])
    played = current_round(competition)
    assert rounds.round_deadline(round_id=played.pk) == 0  # not yet
    assert rounds.due_work()["late"] == []
    Round.objects.filter(pk=played.pk).update(deadline=timezone.now())
    assert rounds.due_work()["late"] == [played.pk]
    assert rounds.round_deadline(round_id=played.pk) == 1
    table = EventTable.objects.select_related("game").get(round=played)
    assert table.settled == Settled.PLAYED_OUT
    game = table.game
    assert all(seat.bot for seat in game.seats.all())
    for _ in range(200):
        game.refresh_from_db()
        if game.status != GameStatus.ACTIVE:
            break
        play_services.play_bot_turn(game_id=game.pk, seq=game.seq)
    assert game.status == GameStatus.FINISHED
    # The end screen says the bots played it out at the deadline, not that anyone ran out of time.
    assert ending(game).how == BOTS_AT_DEADLINE and "deadline" in ending(game).detail
    rounds.round_close(round_id=played.pk)
    competition.refresh_from_db()
    assert competition.status == CompetitionStatus.FINISHED
    # Not a timeout: nobody is withdrawn, nobody's entries are barred.
    assert not Entrant.objects.filter(competition=competition, status=EntrantStatus.WITHDRAWN).exists()
    assert not EntryBar.objects.exists()
    _assert_standings_recompute(competition)


def test_a_player_out_of_time_is_withdrawn_and_a_second_time_bars_new_entries(alice, people):
    entrants = people(4)
    competition = started(alice, entrants, time_control={**CLOCK, "expiry": "remove"},
                          stages=[{"format": "swiss", "rounds": 2}])
    late = []
    for table in EventTable.objects.filter(round=current_round(competition)).select_related("game"):
        seat = table.game.to_move[0]
        SeatClock.objects.filter(game=table.game, seat=seat).update(deadline=timezone.now() - timedelta(seconds=1))
        assert play_services.play_timeout(game_id=table.game_id, seat=seat) == "seat handed to the bot"
        late.append(table.players[seat])
    assert set(Entrant.objects.filter(competition=competition, status=EntrantStatus.WITHDRAWN,
                                      withdrawn_because=WithdrawnBecause.TIMEOUT).values_list("pk", flat=True)) \
        == set(late)
    bar = EntryBar.objects.get(user__competition_entries__pk=late[0])
    assert bar.timeouts == 1 and bar.barred_until is None  # a first timeout bars nothing
    timeout_recorded(bar.user_id)
    bar.refresh_from_db()
    assert bar.barred_until > timezone.now() + timedelta(days=6)
    other = entries.competition_create(user=alice, settings=settings_for())
    with pytest.raises(Conflict, match="ran out of time"):
        entries.competition_enter(user=bar.user, competition_id=other.pk)


def test_the_command_checks_every_standing_against_a_recomputation(alice, people):
    from io import StringIO

    from django.core.management import call_command
    from django.core.management.base import CommandError

    competition = started(alice, people(4), stages=[{"format": "swiss", "rounds": 2}])
    play_round(competition)
    said = StringIO()
    call_command("competition_standings", stdout=said)
    assert "1 stages checked: every standing equals a recomputation." in said.getvalue()
    Standing.objects.filter(stage__competition=competition).update(buchholz=99)  # a kept figure gone wrong
    said = StringIO()
    with pytest.raises(CommandError, match="differ from a recomputation"):
        call_command("competition_standings", f"--competition={competition.pk}", stdout=said)
    assert "buchholz kept 99" in said.getvalue()
