"""Competitions' pages: the list and its filters, the form that makes one (refusing in the service's words), a
competition's page with its rules, standings, bracket and rounds, the forms that enter and withdraw, and the
standings as CSV."""

from __future__ import annotations

import csv
import io
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from tests.platform.competitions.conftest import play_round, started
from turnbased.competitions.models import Competition, Entrant, EntrantStatus

pytestmark = pytest.mark.django_db


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _form(**changed) -> dict:
    start = (timezone.localtime() + timedelta(days=3)).strftime("%Y-%m-%dT%H:%M")
    form = {"name": "Winter Swiss", "game": "love-letter", "table_size": "2", "clock_kind": "per_move",
            "days_per_move": "3", "expiry": "bot_turn", "allow_absence": "on", "entry": "open", "min_entrants": "2",
            "starts_at": start, "late_entry_rounds": "0", "rated": "on", "bye_policy": "fixed", "bye_points": "1",
            "deadline_policy": "play_out", "stage1_format": "swiss", "stage1_rounds": "4"}
    form.update(changed)
    return form


def test_an_organiser_makes_a_competition_from_the_form(alice):
    client = _client(alice)
    form = client.get("/competitions/new/")
    assert form.status_code == 200 and 'name="takebacks"' in form.content.decode()
    answer = client.post("/competitions/new/", _form(stage2_format="elimination", takebacks="everyone"))
    competition = Competition.objects.get()
    assert competition.takebacks == "everyone"  # issue 46: the organiser's choice of takebacks
    assert answer.status_code == 302 and answer["Location"] == f"/competitions/{competition.pk}/"
    assert list(competition.stages.values_list("format", "rounds")) == [("swiss", 4), ("elimination", 1)]
    assert competition.time_control["days_per_move"] == 3 and competition.time_control["allow_absence"] is True


def test_the_form_refuses_in_the_services_words_and_keeps_what_was_typed(alice):
    answer = _client(alice).post("/competitions/new/", _form(clock_kind="none"), follow=True)
    assert "Without a clock" in answer.content.decode()
    assert 'value="Winter Swiss"' in answer.content.decode()
    assert not Competition.objects.exists()


def test_a_competitions_page_prints_its_rules_and_takes_entries(alice, bob):
    client = _client(alice)
    client.post("/competitions/new/", _form())
    competition = Competition.objects.get()
    page = _client(bob).get(f"/competitions/{competition.pk}/").content.decode()
    assert "Swiss, 4 rounds" in page and "Points per place at a table of 2: 1 / 0." in page
    assert "A round lasts at most" in page and "played out at once by its seats&#x27; bots" in page
    answer = _client(bob).post(f"/competitions/{competition.pk}/enter/", follow=True)
    assert "You are entered." in answer.content.decode()
    assert Entrant.objects.get(user=bob).status == EntrantStatus.ACTIVE
    _client(bob).post(f"/competitions/{competition.pk}/withdraw/")
    assert Entrant.objects.get(user=bob).status == EntrantStatus.WITHDRAWN


def test_the_list_shows_what_its_filters_keep(alice, bob, people):
    swiss = started(alice, people(2))
    pools = started(alice, people(2), name="Pool Cup", stages=[{"format": "round_robin"}])
    client = _client(bob)
    page = client.get("/competitions/").content.decode()
    assert swiss.name in page and pools.name in page
    page = client.get("/competitions/?stage_format=round_robin").content.decode()
    assert pools.name in page and swiss.name not in page
    answer = client.get("/competitions/?status=nonsense")
    assert answer.status_code == 200 and "status must be one of" in answer.content.decode()


def test_a_running_competitions_page_draws_standings_rounds_and_the_bracket(alice, bob, people):
    competition = started(alice, people(4), stages=[{"format": "elimination"}])
    play_round(competition)
    page = _client(bob).get(f"/competitions/{competition.pk}/").content.decode()
    assert 'id="bracket-1"' in page and 'class="winner"' in page
    assert 'id="rounds"' in page and "Round 2" in page
    assert 'id="standings-1"' in page


def test_the_standings_download_as_csv(alice, bob, people):
    competition = started(alice, people(3), stages=[{"format": "swiss", "rounds": 1}])
    play_round(competition)
    answer = _client(bob).get(f"/competitions/{competition.pk}/standings.csv")
    assert answer["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(answer.content.decode())))
    assert rows[0][:6] == ["stage", "format", "final", "place", "username", "status"]
    assert len(rows) == 4 and {row[4] for row in rows[1:]} == {"entrant1", "entrant2", "entrant3"}
    assert rows[1][2] == "True"  # one round: the stage is over, its places final


def test_a_competition_one_may_not_see_is_a_404_page(alice, carol):
    client = _client(alice)
    client.post("/competitions/new/", _form(entry="invitation"))
    competition = Competition.objects.get()
    for path in ("", "standings.csv"):
        assert _client(carol).get(f"/competitions/{competition.pk}/{path}").status_code == 404
    assert _client(carol).post(f"/competitions/{competition.pk}/enter/").status_code == 404


def test_the_lobby_lists_the_competitions_one_plays_in(alice, people):
    entrant, other = people(2)
    competition = started(alice, [entrant, other], name="Lobby Cup")
    page = _client(entrant).get("/").content.decode()
    assert 'id="lobby-competitions"' in page and "Lobby Cup" in page
    assert f"/competitions/{competition.pk}/" in page
    assert 'id="lobby-competitions"' not in _client(alice).get("/").content.decode()  # the organiser plays in none


def test_a_competitions_games_stand_in_the_strong_bot_unless_the_organiser_chose(alice, bob, carol):
    from tests.platform.competitions.conftest import CLOCK, started
    from turnbased.clocks.models import TableClock

    client = _client(alice)
    assert 'name="stand_in"' in client.get("/competitions/new/").content.decode()
    client.post("/competitions/new/", _form(name="Chosen", stand_in="basic"))
    assert Competition.objects.get(name="Chosen").time_control["stand_in"] == "basic"
    default = started(alice, [bob, carol], name="Default")
    chosen = started(alice, [bob, carol], name="Basic", time_control={**CLOCK, "stand_in": "basic"})
    from turnbased.competitions.models import EventTable

    stand_ins = {competition.name: set(TableClock.objects.filter(game_id__in=EventTable.objects.filter(
        round__stage__competition=competition).values("game_id")).values_list("stand_in", flat=True))
        for competition in (default, chosen)}
    assert stand_ins == {"Default": {"strong"}, "Basic": {"basic"}}
