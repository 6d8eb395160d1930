"""A finished game in short on its end screen: each player's moves and time, and the turning points of the count every
player could see (turnbased/aftergame/summary.py)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import time_machine
from django.core.cache import cache
from django.test import Client

from games import get_engine
from games.takebacks import LogReplay
from tests.platform.aftergame.conftest import finished, play_out
from turnbased.aftergame.summary import summary
from turnbased.play import selectors, services, store
from turnbased.play.models import Game, GameStatus, Move

START = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)


def _table(users, slug="halali", **create) -> Game:
    game = services.create_game(creator=users[0], engine_slug=slug, players=len(users), seed="told", **create)
    for user in users[1:]:
        services.join_game(game_id=game.pk, user=user, invite_code=game.invite_code)
    game.refresh_from_db()
    return game


def _first_move(game: Game, users: list) -> None:
    seat = game.to_move[0]
    move = selectors.legal_moves_for(selectors.Viewer(game=game, seat=seat))[0]["move"]
    services.submit_move(game_id=game.pk, user=users[seat], expected_seq=game.seq, move=move)
    game.refresh_from_db()


def test_each_players_moves_and_time_are_the_times_since_the_move_before(alice, bob):
    cache.clear()
    with time_machine.travel(START, tick=False) as traveller:
        game = _table([alice, bob])
        waits = [timedelta(hours=5), timedelta(days=1, hours=2), timedelta(minutes=30), timedelta(hours=3)]
        for wait in waits:
            traveller.shift(wait)
            _first_move(game, [alice, bob])
        traveller.shift(timedelta(hours=1))
        services.resign_game(game_id=game.pk, user=[alice, bob][game.to_move[0]])
        game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    told = summary(game)
    movers = list(Move.objects.filter(game=game).order_by("seq").values_list("seat", flat=True))
    assert told.moves == 5
    spent: dict[int, list[float]] = {0: [], 1: []}
    for seat, wait in zip(movers, waits + [timedelta(hours=1)]):
        spent[seat].append(wait.total_seconds())
    for row in told.seats:  # a resignation is the player's own entry, and its time counts too
        assert (row.moves, row.bot_moves) == (len(spent[row.seat]), 0)
        assert row.seconds == sum(spent[row.seat]) and row.longest_seconds == max(spent[row.seat])
    assert told.seconds == sum(wait.total_seconds() for wait in waits) + 3600


def test_the_turning_points_are_where_another_seat_alone_led_the_public_count(alice, bob, carol):
    cache.clear()
    game = finished([alice, bob, carol], slug="love-letter", resign=False, seed="turns")
    told = summary(game)
    engine = get_engine("love-letter")
    replay = LogReplay(engine, store.initial_state(game))
    leaders = []
    for seq, seat, move in Move.objects.filter(game=game).order_by("seq").values_list("seq", "seat", "move"):
        replay.play(seat, move)
        scores = engine.public_scores(replay.state)
        ahead = [index for index, value in enumerate(scores) if value == max(scores)]
        if len(ahead) == 1 and max(scores) > 0 and (not leaders or leaders[-1][1] != ahead[0]):
            leaders.append((seq, ahead[0], list(scores)))
    assert told.lead_changes == len(leaders) >= 1
    assert [(point.seq, point.leader, point.scores) for point in told.turning_points] == leaders[-5:]
    assert max(leaders[0][2]) == 1, "the first lead is a single token"
    assert told.decisive is told.turning_points[-1] and game.result["winners"] == [told.decisive.leader]
    page = Client().get(f"/games/{game.pk}/").content.decode()
    assert "How the game went" in page and "took the lead for good" in page


def test_a_bots_moves_are_the_bots_and_a_game_not_over_has_no_summary(alice, bob):
    cache.clear()
    game = services.create_game(creator=alice, engine_slug="love-letter", players=2, seed="bots", bots={1: "basic"})
    game.refresh_from_db()
    assert game.status == GameStatus.ACTIVE and summary(game) is None
    game = play_out(game, {0: alice})
    told = summary(game)
    assert told.seats[1].moves == 0 and told.seats[1].bot_moves > 0
    assert told.seats[0].bot_moves == 0 and told.seats[0].moves > 0
    assert sum(row.moves + row.bot_moves for row in told.seats) == told.moves


def test_the_api_tells_the_same_summary_only_once_the_game_is_over(alice, bob, api_client_for):
    cache.clear()
    game = _table([alice, bob], slug="love-letter")
    client = api_client_for(bob)
    assert client.get(f"/api/games/{game.pk}/summary/").status_code == 404
    game = finished([alice, bob], slug="love-letter", resign=False, seed="api")
    body = client.get(f"/api/games/{game.pk}/summary/").json()
    told = summary(game)
    assert body["moves"] == told.moves and body["lead_changes"] == told.lead_changes
    assert [row["moves"] for row in body["seats"]] == [row.moves for row in told.seats]
    assert [point["leader"] for point in body["turning_points"]] == [p.leader for p in told.turning_points]
    assert body["turning_points"][-1]["decisive"] is True


def test_a_private_games_summary_is_no_strangers(alice, bob, carol, api_client_for):
    game = finished([alice, bob], slug="love-letter", visibility="private")
    assert api_client_for(carol).get(f"/api/games/{game.pk}/summary/").status_code == 404
    assert api_client_for(bob).get(f"/api/games/{game.pk}/summary/").status_code == 200
