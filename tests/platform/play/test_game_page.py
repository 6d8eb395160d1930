"""The game page's layout and wording: the board first, options by their labels, clocks only when there
is a clock, "Move N", the icon and the skip link."""

from __future__ import annotations

import pytest
from django.contrib.staticfiles import finders
from django.test import Client

from tests.platform.play.test_carcassonne_board import start as carcassonne_start
from turnbased.play import services
from turnbased.play.models import Game, GameStatus

pytestmark = pytest.mark.django_db


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def halali_table(alice, bob, **create) -> Game:
    game = services.create_game(creator=alice, engine_slug="halali", players=2, seed="page",
                                options={"stall_limit": 20}, **create)
    services.join_game(game_id=game.pk, user=bob)
    game.refresh_from_db()
    return game


def test_the_board_comes_first_then_the_latest_history_and_the_table_after_them(alice, bob):
    game = halali_table(alice, bob)
    page = logged_in(alice).get(f"/games/{game.pk}/").content.decode()
    board, table, history = page.index('id="board"'), page.index('id="game-header"'), page.index('id="history"')
    chat = page.index('class="card chat')
    assert board < history < chat < table, "the history right after the board (beside it on a wide screen)"
    assert '<ol id="history-entries" class="history-entries" reversed tabindex="0" aria-labelledby="history-title">' \
        in page and '<h2 id="history-title">History</h2>' in page, "its scrolling box is focusable and named"
    assert page.index("Resign") > board
    # The skip link is the first thing the keyboard reaches, before the site's menu.
    assert page.index('class="skip-link" href="#board"') < page.index('class="topbar"')
    assert 'href="#after-board"' in page and 'id="after-board"' in page


def test_options_show_their_labels_and_chosen_values_in_a_fold_out(alice, bob):
    game = halali_table(alice, bob)
    page = logged_in(bob).get(f"/games/{game.pk}/").content.decode()
    table = page[page.index('id="game-header"'):]
    assert '<details class="table-options" data-fold="options">' in table
    assert "<dt>Flip-forcing safety valve (not part of the rules)</dt><dd>After 20 quiet turns</dd>" in table
    assert "<dt>House rule: exits open all game</dt><dd>No: exits only in the final phase (rules file)</dd>" in table
    assert "stall_limit" not in page and "exits_anytime" not in page and "False" not in table


def test_a_game_without_a_clock_shows_no_clock_boxes(alice, bob):
    game = halali_table(alice, bob)
    page = logged_in(alice).get(f"/games/{game.pk}/").content.decode()
    assert 'class="clocks"' not in page and 'class="clock' not in page
    clocked = services.create_game(creator=alice, engine_slug="halali", players=2, seed="clocked",
                                   time_control={"kind": "per_move", "days_per_move": 2})
    services.join_game(game_id=clocked.pk, user=bob)
    page = logged_in(alice).get(f"/games/{clocked.pk}/").content.decode()
    assert 'class="clocks"' in page and "left" in page[page.index('class="clocks"'):]


def test_the_turn_line_counts_moves(alice, bob):
    game = halali_table(alice, bob)
    page = logged_in(alice).get(f"/games/{game.pk}/").content.decode()
    assert f"<small>Move {game.seq}.</small>" in page and "Position" not in page


def test_a_table_of_bots_is_not_told_to_share_its_invite_link(alice):
    client = logged_in(alice)
    response = client.post("/games/new/", {"game": "halali", "players": "2", "seat_1": "random",
                                           "visibility": "public"}, follow=True)
    game = Game.objects.get()
    assert game.status == GameStatus.ACTIVE
    page = response.content.decode()
    assert "share the invite link" not in page.lower() and "invite link" not in page.lower()
    assert "the game has started." in page
    response = client.post("/games/new/", {"game": "halali", "players": "2", "visibility": "public"}, follow=True)
    assert "share the invite link" in response.content.decode().lower()


def test_every_page_names_its_icon_and_favicon_ico_answers(alice):
    page = logged_in(alice).get("/").content.decode()
    assert '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">' in page
    response = Client().get("/favicon.ico")
    assert response.status_code == 301 and response.url == "/static/favicon.ico"
    assert finders.find("favicon.ico") and finders.find("favicon.svg")
    assert Client().post("/favicon.ico").status_code == 405


def test_robots_txt_keeps_crawlers_out_of_the_api_and_the_account_pages_only():
    response = Client().get("/robots.txt")
    assert response.status_code == 200 and response["Content-Type"] == "text/plain; charset=utf-8"
    lines = response.content.decode().splitlines()
    assert lines[0] == "User-agent: *"
    assert {line for line in lines[1:] if line} == {f"Disallow: {prefix}" for prefix in (
        "/api/", "/accounts/", "/admin/", "/anymail/", "/mail/", "/mailbox/")}
    assert Client().post("/robots.txt").status_code == 405


def test_a_stale_move_is_told_the_move_numbers(alice, bob, api_client_for):
    game = halali_table(alice, bob)
    mover = alice if game.to_move == [game.seats.get(user=alice).index] else bob
    legal = api_client_for(mover).get(f"/api/games/{game.pk}/legal-moves/").json()
    answer = api_client_for(mover).post(f"/api/games/{game.pk}/moves/",
                                        {"text": legal["moves"][0]["text"], "expected_seq": game.seq + 5}, format="json")
    assert answer.status_code == 409
    assert f"your move answered move {game.seq + 5}, the game is now at move {game.seq}" in answer.json()["detail"]


def test_the_carcassonne_board_names_the_drawn_tile_in_words(alice, bob):
    game = carcassonne_start(alice, bob, ["R-L62", "R-L00"])
    page = logged_in(alice).get(f"/games/{game.pk}/").content.decode()
    assert 'aria-label="The tile to place: a meadow tile with a deer"' in page
    assert '<p class="cb-drawn-meta">A meadow tile with a deer' in page
    assert "R-L62</" not in page
