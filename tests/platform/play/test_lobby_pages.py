"""The lobby shows a player's games a page at a time, the most urgent first, and counts all of them."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from turnbased.play import services
from turnbased.play.models import Seat
from turnbased.play.selectors import LOBBY_PAGE_GAMES

pytestmark = pytest.mark.django_db


@pytest.fixture
def many_games(alice, bob, settings):
    """Give alice and bob LOBBY_PAGE_GAMES + 5 games in play together (the deal decides who starts)."""
    settings.MAX_OPEN_TABLES_PER_ACCOUNT = 100
    games = []
    for number in range(LOBBY_PAGE_GAMES + 5):
        game = services.create_game(creator=bob, engine_slug="love-letter", players=2, seed=f"lobby-{number}")
        services.join_game(game_id=game.pk, user=alice)
        games.append(game)
    return games


def _titles_linked(body: str) -> list[int]:
    section = body[body.index('id="my-games"'):body.index("</section>", body.index('id="my-games"'))]
    return [int(pk) for pk in re.findall(r'href="/games/(\d+)/"', section)]


def _waiting_for(user) -> set[int]:
    """Return the games in play where ``user`` is to move."""
    return {
        seat.game_id for seat in Seat.objects.filter(user=user).select_related("game")
        if seat.index in seat.game.to_move
    }


def test_the_first_page_holds_the_most_urgent_games_and_links_to_the_rest(many_games, alice):
    web = Client()
    web.force_login(alice)
    first = web.get("/").content.decode()
    shown = _titles_linked(first)
    assert len(shown) == LOBBY_PAGE_GAMES
    waiting = _waiting_for(alice)
    assert 0 < len(waiting) < LOBBY_PAGE_GAMES
    assert set(shown[:len(waiting)]) == waiting  # her turns come first
    assert 'href="/?page=2"' in first and 'rel="prev"' not in first
    second = web.get("/?page=2").content.decode()
    rest = _titles_linked(second)
    assert len(rest) == 5 and not set(rest) & set(shown)
    assert set(shown) | set(rest) == {game.pk for game in many_games}
    assert 'rel="prev"' in second and 'rel="next"' not in second
    # The lobby's own refresh asks for the page it shows.
    assert 'hx-get="/?page=2"' in second


@pytest.mark.parametrize("asked", ["abc", "0", "-1", "²", "9" * 12, ""])
def test_a_page_that_is_not_a_positive_number_shows_the_first(many_games, alice, asked):
    web = Client()
    web.force_login(alice)
    response = web.get("/", {"page": asked})
    assert response.status_code == 200
    assert _titles_linked(response.content.decode()) == _titles_linked(web.get("/").content.decode())


def test_a_page_past_the_last_shows_the_last(many_games, alice):
    web = Client()
    web.force_login(alice)
    assert _titles_linked(web.get("/?page=40").content.decode()) == _titles_linked(web.get("/?page=2").content.decode())


def test_the_tab_title_counts_the_turns_waiting_on_every_page(many_games, bob):
    web = Client()
    web.force_login(bob)
    body = web.get("/?page=2").content.decode()
    assert f'data-your-turn="{len(_waiting_for(bob))}"' in body
    assert len(_titles_linked(body)) == 5


def test_next_game_opens_the_most_urgent_game(many_games, alice):
    web = Client()
    web.force_login(alice)
    response = web.get("/games/next/")
    first = _titles_linked(web.get("/").content.decode())[0]
    assert first in _waiting_for(alice)
    assert response.status_code == 302 and response.url == f"/games/{first}/"


def _row(body: str, game_id: int) -> str:
    start = body.index(f'<a href="/games/{game_id}/">')
    return body[start:body.index("</tr>", start)]


def test_a_finished_row_says_who_won_and_how(alice, bob, carol):
    from tests.platform.aftergame.conftest import finished

    played_out = finished([alice, bob], resign=False)
    resigned = finished([alice, carol])
    in_play = services.create_game(creator=alice, engine_slug="halali", players=2)
    services.join_game(game_id=in_play.pk, user=bob)
    client = Client()
    client.force_login(alice)
    body = client.get("/").content.decode()
    for game in (played_out, resigned):
        game.refresh_from_db()
        winner = game.player_names[game.result["winners"][0]]
        line = game.result_line
        assert winner in line and f'<span class="result-line">{line}</span>' in _row(body, game.pk), line
    assert "result-line" not in _row(body, in_play.pk)
