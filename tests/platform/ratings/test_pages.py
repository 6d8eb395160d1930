"""The leaderboards, a player's page and their archive on the web; player names link to their pages."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.platform.ratings.conftest import start
from turnbased.play import services
from turnbased.ratings.selectors import ARCHIVE_PAGE_SIZE

pytestmark = pytest.mark.django_db


def page(path: str, user=None) -> str:
    client = Client()
    if user is not None:
        client.force_login(user)
    response = client.get(path)
    assert response.status_code == 200, (path, response.status_code)
    return response.content.decode()


def test_the_leaderboard_lists_the_rated_best_first_with_whole_number_ratings(alice, bob, finish_game, settings):
    settings.RATINGS_PROVISIONAL_GAMES = 1  # one game each is enough here
    finish_game(alice, bob)
    html = page("/ratings/halali/")
    assert html.index('href="/players/alice/"') < html.index('href="/players/bob/"')
    assert "<strong>1069</strong>" in html and "<strong>963</strong>" in html
    assert "Nobody is rated" in page("/ratings/love-letter/?players=3")


def test_a_provisional_rating_is_off_the_leaderboard_and_on_the_players_page_with_a_question_mark(
        alice, bob, carol, finish_game, settings):
    """Issue 42: three games against fresh accounts put an account first on the leaderboard with "1402?"."""
    settings.RATINGS_PROVISIONAL_GAMES = 2
    finish_game(alice, bob)
    finish_game(alice, carol)
    html = page("/ratings/halali/")
    assert 'href="/players/alice/"' in html and "<strong>1128</strong>" in html  # two games: established
    assert 'href="/players/bob/"' not in html and 'href="/players/carol/"' not in html  # one each: provisional
    assert "A rating from fewer than 2 rated games is provisional" in html
    mark = '<abbr class="provisional" title="Provisional: from fewer than 2 rated games">?</abbr>'
    assert f"<strong>963{mark}</strong>" in page("/players/bob/")
    assert "it comes from fewer than 2 rated games, and is not listed on its leaderboard until then" in page(
        "/players/bob/")
    assert "<strong>1128</strong>" in page("/players/alice/") and "provisional" not in page("/players/alice/")


@pytest.mark.parametrize("path", [
    "/ratings/chess/", "/ratings/halali/?players=3", "/ratings/halali/?players=x", "/ratings/halali/?page=9",
    "/ratings/halali/?page=0", "/ratings/halali/?page=%C2%B2", "/players/nobody/", "/players/nobody/games/",
    "/players/alice/games/?game=chess", "/players/alice/games/?page=2", "/players/al%00ice/",
    "/players/alice/games/?opponent=b%00b",
])
def test_bad_addresses_are_404_never_500(alice, path):
    assert Client().get(path).status_code == 404


def test_the_lobby_shows_my_ratings_and_links_every_leaderboard(alice, bob, finish_game):
    finish_game(alice, bob)
    html = page("/", alice)
    mark = '<abbr class="provisional" title="Provisional: from fewer than 10 rated games">?</abbr>'
    assert f"Halali!, 2 players: <strong>1069{mark}</strong>" in html
    for slug in ("love-letter", "halali", "carcassonne-hg", "savernake-forest"):
        assert f'href="/ratings/{slug}/"' in html
    assert 'href="/players/alice/"' in html


def test_a_players_page_shows_games_played_and_won_ratings_reliability_and_member_since(alice, bob, finish_game):
    finish_game(alice, bob)
    finish_game(bob, alice)
    finish_game(alice, bob, slug="love-letter")
    html = page("/players/alice/")
    assert "Member since" in html and alice.date_joined.strftime("%B %Y") in html
    assert "Halali!</a></td>\n        <td>2</td><td>1</td>" in html
    assert "Love Letter</a></td>\n        <td>1</td><td>1</td>" in html
    assert "No moves against a clock yet." in html


def test_the_archive_lists_finished_games_newest_first_with_outcome_and_rating_change(alice, bob, carol, finish_game):
    first = finish_game(alice, bob)
    second = finish_game(carol, alice, slug="love-letter")
    unrated = finish_game(alice, bob, moves=0)
    start([alice, carol])  # in play: not in the archive
    html = page("/players/alice/games/")
    rows = [html.index(f'href="/games/{game.pk}/"') for game in (unrated, second, first)]
    assert rows == sorted(rows)
    assert html.count("<strong>Won</strong>") == 2 and html.count("<strong>2nd of 2</strong>") == 1
    assert "1069 <small>(+69)</small>" in html and "unrated" in html
    assert second.result_line in html  # the result in the reader's words (the record keeps its English summary)


def test_the_archive_filters_by_game_and_by_opponent(alice, bob, carol, finish_game):
    with_bob = finish_game(alice, bob)
    with_carol = finish_game(alice, carol, slug="love-letter")
    by_game = page("/players/alice/games/?game=love-letter")
    assert f"/games/{with_carol.pk}/" in by_game and f"/games/{with_bob.pk}/" not in by_game
    by_opponent = page("/players/alice/games/?opponent=bob")
    assert f"/games/{with_bob.pk}/" in by_opponent and f"/games/{with_carol.pk}/" not in by_opponent
    assert f"/games/{with_bob.pk}/" not in page("/players/alice/games/?opponent=alice")
    assert "No finished games with these filters" in page("/players/alice/games/?game=halali&opponent=carol")
    assert '<option value="bob">bob</option>' in by_game and '<option value="carol">carol</option>' in by_game


def test_bots_appear_by_their_kind_and_have_no_page(alice, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        game = services.create_game(creator=alice, engine_slug="halali", players=2, bots={1: "basic"})
    services.resign_game(game_id=game.pk, user=alice)
    html = page("/players/alice/games/")
    assert '<span class="bot-name">Basic bot</span>' in html
    assert Client().get("/players/bot2/").status_code == 404


def test_the_archive_pages_through_older_games(alice, bob, finish_game):
    for _ in range(ARCHIVE_PAGE_SIZE + 1):
        finish_game(alice, bob, moves=0)
    first = page("/players/alice/games/?opponent=bob")
    assert "Page 1 of 2" in first and 'href="?opponent=bob&amp;page=2">Older' in first
    assert page("/players/alice/games/?opponent=bob&page=2").count("<strong>Won</strong>") == 1


def test_the_game_page_links_each_player_to_their_page(alice, bob, started_game):
    html = page(f"/games/{started_game.pk}/", alice)
    assert 'href="/players/alice/"' in html and 'href="/players/bob/"' in html


def _statements(path: str) -> int:
    client = Client()
    with CaptureQueriesContext(connection) as queries:
        assert client.get(path).status_code == 200
    return len(queries)


def test_the_archive_leaderboard_and_player_page_read_as_many_statements_for_50_games_as_for_5(make_user,
                                                                                            finish_game, settings):
    settings.RATINGS_PROVISIONAL_GAMES = 1  # every rating on the leaderboard, 6 of them and then 51
    people = [make_user() for _ in range(51)]
    counts = {}
    for target in (5, 50):
        for _ in range(target):  # one game a turn, until there are ``target``
            if len(people[0].seats.all()) >= target:
                break
            played = len(people[0].seats.all())
            finish_game(people[0], people[played + 1])  # each game against someone new: one more rating
        name = people[0].get_username()
        counts[target] = [_statements(f"/players/{name}/games/"), _statements("/ratings/halali/"),
                          _statements(f"/players/{name}/")]
    assert counts[5] == counts[50]
