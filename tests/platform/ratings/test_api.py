"""The ratings and players API: leaderboards, a player's profile and archive, paginated, as the viewer may see them."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from turnbased.play import services
from turnbased.ratings.selectors import ARCHIVE_PAGE_SIZE

pytestmark = pytest.mark.django_db


def test_a_leaderboard_lists_ratings_best_first(alice, bob, finish_game, settings):
    settings.RATINGS_PROVISIONAL_GAMES = 1  # one game each is enough here
    finish_game(alice, bob)
    body = APIClient().get("/api/ratings/?game=halali").json()
    assert (body["game"], body["players"], body["count"], body["next"], body["previous"]) == ("halali", 2, 2, None, None)
    assert [(row["place"], row["username"], row["rating"], row["games"], row["provisional"])
            for row in body["results"]] == [(1, "alice", 1069, 1, False), (2, "bob", 963, 1, False)]
    assert APIClient().get("/api/ratings/?game=halali&players=2").json() == body


def test_a_provisional_rating_is_not_listed_and_the_player_says_it_is_provisional(alice, bob, carol, finish_game,
                                                                                 settings):
    settings.RATINGS_PROVISIONAL_GAMES = 2
    finish_game(alice, bob)
    finish_game(alice, carol)
    body = APIClient().get("/api/ratings/?game=halali").json()
    assert [(row["username"], row["games"], row["provisional"]) for row in body["results"]] == [
        ("alice", 2, False)]
    assert body["count"] == 1
    assert [(row["rating"], row["games"], row["provisional"]) for row in
            APIClient().get("/api/players/bob/").json()["ratings"]] == [(963, 1, True)]
    assert [row["provisional"] for row in APIClient().get("/api/players/alice/").json()["ratings"]] == [False]


@pytest.mark.parametrize(("query", "status"), [
    ("", 400), ("?game=chess", 400), ("?game=halali&players=x", 400), ("?game=halali&players=0", 400),
    ("?game=halali&page=0", 400), ("?game=halali&page=2", 404),
    # A player count the schema allows that the game does not take: 422.
    ("?game=halali&players=3", 422),
])
def test_a_bad_leaderboard_query_is_refused_with_a_reason(query, status):
    response = APIClient().get(f"/api/ratings/{query}")
    assert response.status_code == status and response.json()["detail"]


def test_a_player_profile_has_ratings_games_per_kind_reliability_and_member_since(alice, bob, finish_game,
                                                                                  api_client_for):
    finish_game(alice, bob)
    finish_game(bob, alice, slug="love-letter")
    body = api_client_for(bob).get("/api/players/alice/").json()
    assert body["username"] == "alice" and body["member_since"].startswith(str(alice.date_joined.year))
    assert [(row["game"], row["players"], row["rating"], row["games"], row["provisional"])
            for row in body["ratings"]] == [("halali", 2, 1069, 1, True), ("love-letter", 2, 963, 1, True)]
    assert [(row["game"], row["played"], row["won"]) for row in body["games"]] == [
        ("halali", 1, 1), ("love-letter", 1, 0)]
    assert body["reliability"] == {"moves_on_time": 0, "timeouts": 0, "percent": None, "recent_clocked_games": 0,
                                   "recent_abandoned": 0, "new": True}


def test_a_player_archive_is_paginated_and_filtered(alice, bob, carol, finish_game):
    for _ in range(ARCHIVE_PAGE_SIZE):
        finish_game(alice, bob, moves=0)
    last = finish_game(carol, alice, slug="love-letter")
    body = APIClient().get("/api/players/alice/games/").json()
    assert body["count"] == ARCHIVE_PAGE_SIZE + 1 and body["previous"] is None
    assert "/api/players/alice/games/?cursor=" in body["next"]
    newest = body["results"][0]
    assert (newest["id"], newest["game"], newest["place"], newest["won"], newest["draw"]) == (
        last.pk, "love-letter", 2, False, False)
    assert [seat["username"] for seat in newest["seats"]] == ["carol", "alice"]
    assert newest["rating"] == {"before": 1000, "after": 963, "delta": -37}
    assert body["results"][1]["rating"] is None  # resigned at once: unrated
    following = APIClient().get(body["next"]).json()
    assert len(following["results"]) == 1 and following["count"] == ARCHIVE_PAGE_SIZE + 1
    assert following["next"] is None and APIClient().get(following["previous"]).json()["results"] == body["results"]
    by_carol = APIClient().get("/api/players/alice/games/?opponent=carol&game=love-letter").json()
    assert [row["id"] for row in by_carol["results"]] == [last.pk]
    assert APIClient().get("/api/players/alice/games/?game=halali&opponent=carol").json()["count"] == 0


def test_numbered_pages_still_work_and_say_they_are_deprecated(alice, bob, finish_game, settings):
    settings.RATINGS_PROVISIONAL_GAMES = 1  # the rated game puts both on the leaderboard
    for _ in range(ARCHIVE_PAGE_SIZE - 1):
        finish_game(alice, bob, moves=0)
    finish_game(alice, bob)  # rated
    by_cursor = APIClient().get("/api/players/alice/games/")
    assert not by_cursor.has_header("Deprecation")
    numbered = APIClient().get("/api/players/alice/games/?page=1")
    assert numbered.json()["results"] == by_cursor.json()["results"] and numbered.json()["next"] is None
    assert numbered["Deprecation"] == "@1796083200" and numbered["Sunset"] == "Tue, 01 Jun 2027 00:00:00 GMT"
    assert numbered["Link"] == ('<http://testserver/api/docs/#/players/players_games_list>; rel="deprecation"; '
                                'type="text/html"')
    board = APIClient().get("/api/ratings/?game=halali&page=1")
    assert board.json()["results"][0]["place"] == 1 and board["Deprecation"] == "@1796083200"
    # Both page and cursor: each of its shape, but they cannot be followed together (422).
    both = APIClient().get("/api/ratings/?game=halali&page=1&cursor=x")
    assert both.status_code == 422 and "page" in both.json()["errors"]
    assert APIClient().get("/api/players/alice/games/?page=1&cursor=x").status_code == 422


def test_a_leaderboard_walked_by_cursor_numbers_every_place(make_user, finish_game, settings):
    settings.RATINGS_PROVISIONAL_GAMES = 1  # all six on the leaderboard
    players = [make_user(f"p{n}") for n in range(6)]
    for winner, loser in zip(players, players[1:]):
        finish_game(winner, loser)
    whole = APIClient().get("/api/ratings/?game=halali&page_size=100").json()["results"]
    walked, url = [], "/api/ratings/?game=halali&page_size=2"
    while url:
        assert len(walked) <= len(whole), "the pages go on past the list"
        body = APIClient().get(url).json()
        assert body["count"] == len(whole)
        walked += body["results"]
        url = body["next"]
    assert walked == whole and [row["place"] for row in walked] == list(range(1, len(whole) + 1))
    assert [row["place"] for row in APIClient().get(body["previous"]).json()["results"]] == [3, 4]


@pytest.mark.parametrize(("path", "status"), [
    ("/api/players/nobody/", 404), ("/api/players/nobody/games/", 404), ("/api/players/bot2/", 404),
    ("/api/players/al%00ice/", 404), ("/api/players/alice/games/?opponent=b%00b", 400),
    ("/api/players/alice/games/?game=chess", 400), ("/api/players/alice/games/?page=2", 404),
    ("/api/players/alice/games/?page=-1", 400), ("/api/players/alice/games/?cursor=x!", 400),
    ("/api/players/alice/games/?page_size=0", 400),
    # A cursor of the schema's shape that the list did not give out: no such page.
    ("/api/players/alice/games/?cursor=x", 404), ("/api/players/alice/games/?cursor=cD1ub3QtYS1kYXRl", 404),
])
def test_bad_player_requests_are_refused_never_a_server_error(alice, path, status):
    response = APIClient().get(path)
    assert response.status_code == status and response.json()["detail"]


def test_bots_appear_in_the_archive_by_their_kind(alice, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        game = services.create_game(creator=alice, engine_slug="love-letter", players=2, bots={1: "basic"})
    services.resign_game(game_id=game.pk, user=alice)
    seats = APIClient().get("/api/players/alice/games/").json()["results"][0]["seats"]
    assert seats[1] == {"index": 1, "name": "Basic bot", "username": None, "bot_account": False, "bot": "basic"}
