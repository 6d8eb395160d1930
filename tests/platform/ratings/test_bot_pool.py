"""A game with a bot account at the table is rated in the bot pool, for every player at it, never among people;
the leaderboards show each pool apart."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from tests.platform.ratings.conftest import start
from turnbased.play import selectors, services
from turnbased.play.models import Game, GameStatus
from turnbased.ratings.models import Rating, RatingChange, RatingPool
from turnbased.ratings.rules import BOT_POOL, PEOPLE_POOL, rating_pool

pytestmark = pytest.mark.django_db


def finish_by_api(winner, loser, *, moves: int = 6) -> Game:
    """Play ``moves`` first-listed moves through the API's door (a bot account's only one), then ``loser`` resigns."""
    game = start([winner, loser])
    users = [winner, loser]
    for _ in range(moves):
        game.refresh_from_db()
        seat = game.to_move[0]
        move = selectors.legal_moves_for(selectors.Viewer(game=game, seat=seat))[0]["move"]
        services.submit_move(game_id=game.pk, user=users[seat], expected_seq=game.seq, move=move, source="api")
    services.resign_game(game_id=game.pk, user=loser, source="api")
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    return game


def test_the_pool_is_the_bot_pool_exactly_when_a_bot_account_is_seated():
    assert rating_pool(bot_account_seated=True) == BOT_POOL == RatingPool.BOTS
    assert rating_pool(bot_account_seated=False) == PEOPLE_POOL == RatingPool.PEOPLE


def test_a_game_against_a_bot_account_moves_ratings_in_the_bot_pool_only(alice, robo):
    game = finish_by_api(alice, robo)
    assert set(Rating.objects.values_list("user__username", "pool")) == {("alice", "bots"), ("robo", "bots")}
    assert Rating.objects.get(user=alice).display > 1000 > Rating.objects.get(user=robo).display
    assert {change.rating.pool for change in RatingChange.objects.filter(game=game)} == {"bots"}


def test_a_person_keeps_one_rating_per_pool(alice, bob, robo):
    def among_people():
        return Rating.objects.filter(user=alice, pool="people").values_list("mu", "sigma", "games").get()

    finish_by_api(alice, bob)
    before = among_people()
    finish_by_api(robo, alice)
    assert among_people() == before and before[2] == 1  # untouched by the game with robo
    assert Rating.objects.get(user=alice, pool="bots").games == 1


def test_the_leaderboards_show_each_pool_apart(alice, bob, robo, settings):
    settings.RATINGS_PROVISIONAL_GAMES = 1  # one game each puts everyone on their leaderboards
    finish_by_api(alice, bob)
    finish_by_api(robo, alice)
    people = APIClient().get("/api/ratings/?game=halali&players=2").json()
    assert people["pool"] == "people"
    assert [(row["username"], row["bot_account"]) for row in people["results"]] == [("alice", False), ("bob", False)]
    bots = APIClient().get("/api/ratings/?game=halali&players=2&pool=bots").json()
    assert bots["pool"] == "bots"
    assert [(row["username"], row["bot_account"]) for row in bots["results"]] == [("robo", True), ("alice", False)]
    assert APIClient().get("/api/ratings/?game=halali&pool=robots").status_code == 400

    page = Client().get("/ratings/halali/?players=2").content.decode()
    assert ">robo</a>" not in page and 'pool=bots">Bot pool</a>' in page
    page = Client().get("/ratings/halali/?players=2&pool=bots").content.decode()
    assert "Halali!: 2 players, bot pool" in page
    assert '>robo</a> <span class="badge bot-account"' in page
    assert Client().get("/ratings/halali/?pool=robots").status_code == 404


def test_a_player_s_ratings_say_their_pool(alice, bob, robo):
    finish_by_api(alice, bob)
    finish_by_api(robo, alice)
    ratings = APIClient().get("/api/players/alice/").json()["ratings"]
    assert [(rating["pool"], rating["games"]) for rating in ratings] == [("people", 1), ("bots", 1)]
    page = Client().get("/players/alice/").content.decode()
    assert "<td>People</td>" in page and "<td>Bot pool</td>" in page
    assert "?players=2&amp;pool=bots" in page
