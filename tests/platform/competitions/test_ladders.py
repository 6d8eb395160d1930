"""Ladders (``services.ladders``): the order of the seeds, challenges up to the reach made into games at once, a
challenger who wins taking the defender's place, caps and cooldowns, newcomers at the bottom, a gap closed when a
player leaves, and the order at the end as the final standings."""

from __future__ import annotations

import html
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from tests.platform.competitions.conftest import finish, settings_for, started
from turnbased.competitions.models import (
    Competition, CompetitionStatus, EventTable, Round, RoundStatus, Standing, TableStatus,
)
from turnbased.competitions.services import entries, ladders, rounds
from turnbased.events.models import Event, EventKind
from turnbased.kit.errors import Conflict, InvalidRequest, Unprocessable
from turnbased.mail.models import OutgoingEmail
from turnbased.play.models import GameStatus

pytestmark = pytest.mark.django_db


def _ladder(alice, people, count: int = 6, **ladder):
    players = people(count)
    competition = started(alice, players, ladder=ladder, stages=None)
    by_place = {row.place: row.entrant.user for row in
                Standing.objects.filter(stage__competition=competition).select_related("entrant__user")}
    return competition, by_place


def _order(competition) -> list[str]:
    return list(Standing.objects.filter(stage__competition=competition, place__isnull=False).order_by("place")
                .values_list("entrant__user__username", flat=True))


def _won_by(table: EventTable, user) -> None:
    entrant = table.round.stage.competition.entrants.get(user=user)
    finish(table.game, keep_seat=table.players.index(entrant.pk))


def test_a_ladders_settings_are_checked(alice):
    made = entries.competition_create(user=alice, settings={k: v for k, v in settings_for(ladder={}).items()
                                                            if k != "stages"})
    assert made.ladder == {"reach": 3, "open_challenges": 2, "cooldown_days": 7, "days": 90}
    assert list(made.stages.values_list("format", flat=True)) == ["ladder"]
    for changed, error in [({"ladder": {"reach": 0}}, Unprocessable), ({"ladder": {"pace": 1}}, InvalidRequest),
                           ({"ladder": {}, "game": "savernake-forest", "table_size": 3}, Unprocessable),
                           ({"ladder": {}, "league": {}}, Unprocessable)]:
        with pytest.raises(error):
            entries.competition_create(user=alice, settings={k: v for k, v in settings_for(**changed).items()
                                                             if k != "stages"})
    with pytest.raises(Unprocessable, match="no stages"):
        entries.competition_create(user=alice, settings=settings_for(ladder={}))
    with pytest.raises(Unprocessable, match="own settings"):
        entries.competition_create(user=alice, settings=settings_for(stages=[{"format": "ladder"}]))


def test_a_challenger_who_wins_takes_the_defenders_place_and_a_loss_changes_nothing(alice, people):
    competition, at = _ladder(alice, people)
    before = _order(competition)
    assert before == [at[place].username for place in range(1, 7)]
    (played,) = Round.objects.filter(stage__competition=competition)
    assert played.status == RoundStatus.OPEN and played.deadline > timezone.now() + timedelta(days=89)

    table = ladders.ladder_challenge(user=at[5], competition_id=competition.pk, username=at[2].username)
    assert table.status == TableStatus.PLAYING and table.game.status == GameStatus.ACTIVE
    told = Event.objects.get(kind=EventKind.COMPETITION_CHALLENGE)
    assert told.user_id == at[2].pk and told.payload["username"] == at[5].username
    assert OutgoingEmail.objects.filter(user=at[2], subject__contains="you are challenged").count() == 1
    _won_by(table, at[5])
    assert _order(competition) == [at[1].username, at[5].username, at[2].username, at[3].username,
                                   at[4].username, at[6].username]
    # The round stays open: a ladder closes at its end, not when its games are over.
    assert rounds.round_close(round_id=played.pk) is None and rounds.due_work()["closing"] == []

    table = ladders.ladder_challenge(user=at[6], competition_id=competition.pk, username=at[3].username)
    _won_by(table, at[3])  # the defender holds: nothing moves
    assert _order(competition)[3] == at[3].username


@pytest.mark.parametrize("challenger, defender, words", [
    (6, 2, "the 3 places above yours"),   # out of reach
    (4, 6, "the 3 places above yours"),   # below
    (4, 4, "No player by that name"),     # oneself
])
def test_a_challenge_out_of_reach_is_refused(alice, people, challenger, defender, words):
    competition, at = _ladder(alice, people)
    with pytest.raises((Conflict, Unprocessable), match=words):
        ladders.ladder_challenge(user=at[challenger], competition_id=competition.pk,
                                 username=at[defender].username)
    assert not EventTable.objects.filter(round__stage__competition=competition).exists()


def test_open_challenges_are_capped_and_the_same_two_wait_before_meeting_again(alice, people):
    competition, at = _ladder(alice, people, open_challenges=1, cooldown_days=7)
    table = ladders.ladder_challenge(user=at[4], competition_id=competition.pk, username=at[3].username)
    with pytest.raises(Conflict, match="in play already"):
        ladders.ladder_challenge(user=at[4], competition_id=competition.pk, username=at[3].username)
    with pytest.raises(Conflict, match="You have 1 challenges in play"):
        ladders.ladder_challenge(user=at[4], competition_id=competition.pk, username=at[2].username)
    with pytest.raises(Conflict, match="This player has 1 challenges in play"):
        ladders.ladder_challenge(user=at[5], competition_id=competition.pk, username=at[3].username)
    _won_by(table, at[3])
    with pytest.raises(Conflict, match="less than 7 days ago"):
        ladders.ladder_challenge(user=at[4], competition_id=competition.pk, username=at[3].username)
    ladders.ladder_challenge(user=at[4], competition_id=competition.pk, username=at[2].username)  # another may


def test_results_are_applied_in_the_order_the_games_finish(alice, people):
    competition, at = _ladder(alice, people)
    first = ladders.ladder_challenge(user=at[3], competition_id=competition.pk, username=at[1].username)
    second = ladders.ladder_challenge(user=at[4], competition_id=competition.pk, username=at[2].username)
    _won_by(second, at[4])  # 4 takes 2's place: 1, 4, 2, 3, 5, 6
    _won_by(first, at[3])   # 3 (now fourth) takes 1's place: 3, 1, 4, 2, 5, 6
    assert _order(competition) == [at[n].username for n in (3, 1, 4, 2, 5, 6)]


def test_a_newcomer_starts_at_the_bottom_and_a_player_who_leaves_leaves_no_gap(alice, people, make_user):
    competition, at = _ladder(alice, people)
    late = make_user("latecomer")
    entries.competition_enter(user=late, competition_id=competition.pk)
    assert _order(competition)[-1] == "latecomer"
    entries.competition_withdraw(user=at[2], competition_id=competition.pk)
    assert _order(competition) == [at[n].username for n in (1, 3, 4, 5, 6)] + ["latecomer"]
    assert sorted(Standing.objects.filter(stage__competition=competition, place__isnull=False)
                  .values_list("place", flat=True)) == [1, 2, 3, 4, 5, 6]


def test_at_its_end_the_games_are_settled_and_the_order_is_the_final_standing(alice, people):
    competition, at = _ladder(alice, people, count=4)
    table = ladders.ladder_challenge(user=at[2], competition_id=competition.pk, username=at[1].username)
    (played,) = Round.objects.filter(stage__competition=competition)
    Round.objects.filter(pk=played.pk).update(deadline=timezone.now())
    with pytest.raises(Conflict, match="not running"):
        ladders.ladder_challenge(user=at[4], competition_id=competition.pk, username=at[3].username)
    Competition.objects.filter(pk=competition.pk).update(deadline_policy="all_lose")
    assert rounds.due_work()["late"] == [played.pk]
    assert rounds.round_deadline(round_id=played.pk) == 1
    table.refresh_from_db()
    assert table.status == TableStatus.FINISHED
    rounds.round_close(round_id=played.pk)
    competition.refresh_from_db()
    assert competition.status == CompetitionStatus.FINISHED
    assert dict(Standing.objects.filter(stage__competition=competition)
                .values_list("entrant__user__username", "place")) == {at[n].username: n for n in range(1, 5)}


def test_the_page_offers_the_challenges_in_reach_and_the_api_makes_one(alice, people):
    competition, at = _ladder(alice, people)
    client = Client()
    client.force_login(at[5])
    page = html.unescape(client.get(f"/competitions/{competition.pk}/").content.decode())
    offered = {place for place in range(1, 7)
               if f'/competitions/{competition.pk}/challenge/{at[place].username}/' in page}
    assert offered == {2, 3, 4}
    assert "A ladder: the entrants start in the order of their seeds" in page
    answer = client.post(f"/api/competitions/{competition.pk}/challenges/", {"username": at[2].username},
                         content_type="application/json")
    assert answer.status_code == 201, answer.content
    assert answer["Location"] == f"/api/games/{answer.json()['game']}/"
    assert answer.json()["challenger"] == at[5].username
    again = client.post(f"/api/competitions/{competition.pk}/challenges/", {"username": at[2].username},
                        content_type="application/json")
    assert again.status_code == 409 and "in play already" in again.json()["detail"]
    nobody = client.post(f"/api/competitions/{competition.pk}/challenges/", {"username": "nobody-here"},
                         content_type="application/json")
    assert nobody.status_code == 422
    client.post(f"/competitions/{competition.pk}/challenge/{at[3].username}/")
    assert EventTable.objects.filter(round__stage__competition=competition).count() == 2
