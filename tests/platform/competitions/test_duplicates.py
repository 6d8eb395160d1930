"""Duplicate rounds (``services.duplicates``): every table of a round deals from the round's one seed, committed to
when the round is paired; each game is held by the core (its seats alone see it, and its secrets stay hidden past its
end) and counts nothing until the round closes; then the results count in table order, the games are let go (seen,
revealed, rated) and the seed is shown to match its commitment, the seats compared across tables."""

from __future__ import annotations

import hashlib

import pytest
from django.test import Client

from tests.platform.competitions.conftest import current_round, finish, open_waiting_rounds, started
from turnbased.competitions import presenters, selectors, standings
from turnbased.competitions.models import EventTable, Placement, Round, RoundStatus, Standing, TableStatus
from turnbased.competitions.services import entries, rounds
from turnbased.kit.errors import Unprocessable
from turnbased.play import records
from turnbased.play.models import Game, GameStatus

pytestmark = pytest.mark.django_db

DUPLICATE_SWISS = [{"format": "swiss", "rounds": 2, "duplicate": True}]


@pytest.fixture
def rated(monkeypatch) -> list[int]:
    """The games the ratings were asked to rate, in order (whether each counts is the ratings' own rule)."""
    from turnbased.ratings import reactions

    asked: list[int] = []
    real = reactions.ratings_record_game
    monkeypatch.setattr(reactions, "ratings_record_game", lambda *, game: asked.append(game.pk) or real(game=game))
    return asked


def _round_shown(competition, played: Round) -> dict:
    return next(row for row in presenters.rounds(competition)
                if (row["stage"], row["number"]) == (played.stage.number, played.number))


def test_every_table_of_a_duplicate_round_deals_from_the_round_seed_committed_to_at_pairing(alice, people):
    competition = started(alice, people(8), stages=DUPLICATE_SWISS)
    played = current_round(competition)
    games = [table.game for table in EventTable.objects.filter(round=played).select_related("game")]
    assert len(games) == 4 and played.seed
    assert {game.seed for game in games} == {played.seed}
    assert all(game.held for game in games)
    # The same seat is dealt the same cards at every table (names aside, the starts are one position).
    views = [{key: value for key, value in game.state.items() if key != "players"} for game in games]
    assert all(view == views[0] for view in views)
    shown = _round_shown(competition, played)
    expected = hashlib.sha256("\n".join(["turnbased-round-commitment/1", str(competition.pk), "1", "1",
                                         "love-letter", played.seed]).encode()).hexdigest()
    assert shown["duplicate"] and shown["commitment"]["value"] == expected
    assert shown["seed"] is None and shown["comparison"] is None


def test_a_finished_table_tells_nobody_else_anything_until_the_round_closes(alice, people, api_client_for, rated):
    players = people(8)
    competition = started(alice, players, stages=DUPLICATE_SWISS)
    played = current_round(competition)
    first, *others = EventTable.objects.filter(round=played).select_related("game").order_by("number")
    finish(first.game, keep_seat=0)
    first.refresh_from_db()
    game = Game.objects.get(pk=first.game_id)
    assert game.status == GameStatus.FINISHED and game.held and first.status == TableStatus.FINISHED
    # Nothing counted, nothing rated, the table read as in play by everyone.
    assert not Placement.objects.filter(table=first).exists()
    assert set(Standing.objects.filter(stage=played.stage).values_list("points", flat=True)) == {0.0}
    assert rated == []
    shown = _round_shown(competition, played)["tables"][0]
    assert shown["status"] == TableStatus.PLAYING and shown["placements"] == [] and shown["settled"] == ""
    # Its seats still see it as they played it: its seed kept, no full reveal.
    assert records.revealed_seed(game) is None
    seated = {player.pk: player for player in players}
    mine = api_client_for(seated[game.seats.get(index=0).user_id]).get(f"/api/games/{game.pk}/")
    assert mine.status_code == 200 and mine.json()["seed"] is None
    # Anyone else (another table's player, the organiser, a visitor) finds no such game.
    other = seated[others[0].game.seats.get(index=0).user_id]
    for client in (api_client_for(other), api_client_for(alice)):
        assert client.get(f"/api/games/{game.pk}/").status_code == 404
    assert Client().get(f"/games/{game.pk}/").status_code == 404
    page = Client().get(f"/competitions/{competition.pk}/").content.decode()
    assert f"/games/{game.pk}/" not in page


def test_the_round_closing_counts_every_result_lets_the_games_go_and_shows_the_seed(alice, people, rated):
    competition = started(alice, people(8), stages=DUPLICATE_SWISS)
    played = current_round(competition)
    tables = list(EventTable.objects.filter(round=played).select_related("game").order_by("number"))
    for table in tables:
        finish(table.game, keep_seat=table.number % 2)
    rounds.round_close(round_id=played.pk)
    played.refresh_from_db()
    assert played.status == RoundStatus.CLOSED
    assert Placement.objects.filter(table__round=played).count() == 8
    assert standings.differences(played.stage) == []
    assert sorted(Standing.objects.filter(stage=played.stage).values_list("points", flat=True)) == [0.0] * 4 + [1.0] * 4
    games = Game.objects.filter(pk__in=[table.game_id for table in tables])
    assert not any(game.held for game in games)
    assert rated == sorted(game.pk for game in games)
    answer = Client().get(f"/api/games/{tables[0].game_id}/")
    assert answer.status_code == 200 and answer.json()["seed"] == played.seed
    shown = _round_shown(competition, played)
    assert shown["seed"] == played.seed and shown["commitment"] == selectors.round_commitment(played)
    compared = [(seat["players"], seat["seat"], len(seat["rows"])) for seat in shown["comparison"]]
    assert compared == [(2, 1, 4), (2, 2, 4)]
    assert [row["place"] for row in shown["comparison"][0]["rows"]] == [1, 1, 2, 2]
    page = Client().get(f"/competitions/{competition.pk}/").content.decode()
    assert played.seed in page and f"/games/{tables[0].game_id}/" in page
    assert "The same seat at every table" in page and "place 1 at table 1" in page
    # The next round deals from a seed of its own.
    open_waiting_rounds()
    following = current_round(competition)
    assert following.number == 2 and following.seed and following.seed != played.seed


def test_a_duplicate_round_robin_is_played_round_by_round(alice):
    settings = {"name": "Dup", "game": "halali", "table_size": 2,
                "time_control": {"kind": "per_move", "days_per_move": 3}, "start_when_full": True,
                "max_entrants": 4}
    with pytest.raises(Unprocessable, match="round by round"):
        entries.competition_create(user=alice, settings={**settings, "stages": [
            {"format": "round_robin", "duplicate": True}]})
    made = entries.competition_create(user=alice, settings={**settings, "stages": [
        {"format": "round_robin", "duplicate": True, "sequential": True}]})
    assert made.stages.get().duplicate


def test_a_sequential_duplicate_round_robin_seats_each_player_once_a_round(alice, people):
    competition = started(alice, people(6), stages=[{"format": "round_robin", "duplicate": True,
                                                     "sequential": True}])
    played = current_round(competition)
    seated = [entrant for table in EventTable.objects.filter(round=played) for entrant in table.players]
    assert len(seated) == len(set(seated)) == 6
