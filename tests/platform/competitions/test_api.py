"""Competitions through the API: made, listed and filtered, entered and withdrawn, invited to, called off; their
standings and rounds as a client reads them; refusals as problem documents with the reason in words."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.platform.competitions.conftest import CLOCK, play_round, settings_for, started
from turnbased.competitions.models import Competition, CompetitionStatus, Entrant

pytestmark = pytest.mark.django_db


def _body(**changed) -> dict:
    body = settings_for(**changed)
    return body


def test_an_organiser_makes_a_competition_and_players_enter_and_withdraw(alice, bob, api_client_for):
    organiser, player = api_client_for(alice), api_client_for(bob)
    answer = organiser.post("/api/competitions/", _body(stages=[{"format": "swiss", "rounds": 4}], max_entrants=8),
                            format="json")
    assert answer.status_code == 201, answer.content
    made = answer.json()
    assert answer["Location"] == reverse("api-competition", args=[made["id"]])
    assert made["organiser"] == "alice" and made["status"] == "entry" and made["my_entry"] is None
    assert made["points"] == {"2": [1.0, 0.0]} and made["tiebreaks"][0] == "sonneborn_berger"
    assert made["round_days"] >= 7 and made["round_days_estimated"] is True
    seen = player.get(f"/api/competitions/{made['id']}/").json()
    assert seen["may_enter"] is True and seen["entry_refusal"] is None
    entered = player.post(f"/api/competitions/{made['id']}/entry/")
    assert entered.status_code == 201 and entered.json() == {"status": "active"}
    again = player.post(f"/api/competitions/{made['id']}/entry/")
    assert again.status_code == 409 and "already" in again.json()["detail"]
    assert player.get(f"/api/competitions/{made['id']}/").json()["my_entry"] == "active"
    listed = player.get("/api/competitions/", {"game": "love-letter"}).json()
    assert [row["id"] for row in listed["results"]] == [made["id"]]
    assert player.get("/api/me/competitions/").json()["results"][0]["id"] == made["id"]
    entrants = player.get(f"/api/competitions/{made['id']}/entrants/").json()["results"]
    assert [row["username"] for row in entrants] == ["bob"]
    assert player.delete(f"/api/competitions/{made['id']}/entry/").status_code == 204
    assert Entrant.objects.get(user=bob).status == "withdrawn"


def test_settings_that_cannot_run_are_a_problem_document_and_nothing_is_made(alice, api_client_for):
    client = api_client_for(alice)
    answer = client.post("/api/competitions/", _body(time_control={"kind": "none"}), format="json")
    assert answer.status_code == 422 and answer["Content-Type"].startswith("application/problem+json")
    assert "Without a clock" in answer.json()["detail"]
    answer = client.post("/api/competitions/", _body(table_size="two"), format="json")
    assert answer.status_code == 400
    answer = client.post("/api/competitions/", _body(stages=[{"format": "swiss", "rounds": 0}]), format="json")
    assert answer.status_code == 400
    assert not Competition.objects.exists()


@pytest.mark.parametrize("query", ["game=chess", "stage_format=knockout", "status=over", "group=x", "days_per_move=1.5",
                                   "no_absence=yes", "league=1"])
def test_a_filter_that_names_nothing_is_a_400(alice, api_client_for, query):
    answer = api_client_for(alice).get(f"/api/competitions/?{query}")
    assert answer.status_code == 400, answer.content


def test_filters_keep_what_they_name(alice, bob, api_client_for, people):
    swiss = started(alice, people(2))
    no_absence = started(alice, people(2), time_control={**CLOCK, "allow_absence": False},
                         stages=[{"format": "round_robin"}])
    client = api_client_for(bob)

    def ids(query: str) -> list[int]:
        return [row["id"] for row in client.get(f"/api/competitions/?{query}").json()["results"]]

    assert ids("stage_format=swiss") == [swiss.pk]
    assert ids("stage_format=round_robin") == [no_absence.pk]
    assert ids("no_absence=true") == [no_absence.pk]
    assert ids("no_absence=false") == [swiss.pk]
    assert ids("status=running") == [no_absence.pk, swiss.pk]
    assert ids("days_per_move=3") == [no_absence.pk, swiss.pk]
    assert ids("days_per_move=7") == []
    assert ids("league=false") == [no_absence.pk, swiss.pk]
    assert ids("league=true") == []
    league = started(alice, people(4), league={"division_size": 4}, stages=[{"format": "round_robin"}],
                     min_entrants=4)
    assert ids("league=true") == [league.pk]
    assert league.pk not in ids("league=false")


def test_standings_and_rounds_as_a_client_reads_them(alice, bob, api_client_for, people):
    competition = started(alice, people(3), stages=[{"format": "swiss", "rounds": 2}])
    play_round(competition)
    client = api_client_for(bob)
    rounds = client.get(f"/api/competitions/{competition.pk}/rounds/").json()["rounds"]
    assert [(row["stage"], row["number"], row["status"]) for row in rounds] == [(1, 1, "closed"), (1, 2, "open")]
    first = rounds[0]
    assert len(first["tables"]) == 1 and len(first["byes"]) == 1
    table = first["tables"][0]
    assert table["status"] == "finished" and table["game"] is not None
    assert sorted(placement["place"] for placement in table["placements"]) == [1, 2]
    standings = client.get(f"/api/competitions/{competition.pk}/standings/").json()["stages"]
    rows = standings[0]["rows"]
    assert standings[0]["final"] is False and len(rows) == 3
    assert rows[0]["points"] == 1.0 and set(rows[0]["tiebreaks"]) == {"sonneborn_berger", "buchholz"}


def test_a_competition_one_may_not_see_is_not_found(alice, bob, carol, api_client_for):
    made = api_client_for(alice).post("/api/competitions/", _body(entry="invitation"), format="json").json()
    outsider = api_client_for(carol)
    for path in ("", "entrants/", "standings/", "rounds/"):
        assert outsider.get(f"/api/competitions/{made['id']}/{path}").status_code == 404
    assert outsider.post(f"/api/competitions/{made['id']}/entry/").status_code == 404
    assert [row["id"] for row in outsider.get("/api/competitions/").json()["results"]] == []
    organiser = api_client_for(alice)
    invited = organiser.post(f"/api/competitions/{made['id']}/invitations/", {"username": "bob"}, format="json")
    assert invited.status_code == 201 and invited.json() == {"username": "bob"}
    assert organiser.post(f"/api/competitions/{made['id']}/invitations/", {"username": "bob"},
                          format="json").status_code == 200
    assert api_client_for(bob).get(f"/api/competitions/{made['id']}/").status_code == 200


def test_only_the_organiser_calls_it_off_or_removes_an_entrant(alice, bob, carol, api_client_for):
    made = api_client_for(alice).post("/api/competitions/", _body(), format="json").json()
    api_client_for(carol).post(f"/api/competitions/{made['id']}/entry/")
    player = api_client_for(bob)
    assert player.post(f"/api/competitions/{made['id']}/cancel/").status_code == 403
    assert player.delete(f"/api/competitions/{made['id']}/entrants/carol/").status_code == 403
    organiser = api_client_for(alice)
    assert organiser.delete(f"/api/competitions/{made['id']}/entrants/nobody/").status_code == 404
    assert organiser.delete(f"/api/competitions/{made['id']}/entrants/carol/").status_code == 204
    called_off = organiser.post(f"/api/competitions/{made['id']}/cancel/")
    assert called_off.status_code == 200 and called_off.json()["status"] == CompetitionStatus.CANCELLED
