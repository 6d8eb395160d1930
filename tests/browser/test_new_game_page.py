"""The new-table page: one seat picker per player, a table of bots from the web, and no sideways scroll on a phone."""

from __future__ import annotations

import pytest

from tests.browser.test_play_in_browser import log_in
from turnbased.play import services
from turnbased.play.models import Game, GameStatus

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 390, "height": 844}


def _visible_seat_pickers(page) -> list[str]:
    return page.eval_on_selector_all("label.seat-choice:not([hidden]) select", "els => els.map(e => e.name)")


def test_the_seat_pickers_follow_the_player_count(browser, live_server, alice):
    page = log_in(browser, live_server, "alice")
    page.goto(f"{live_server.url}/games/new/?game=love-letter")
    assert _visible_seat_pickers(page) == ["seat_0", "seat_1"]
    page.select_option("select[name=players]", "4")
    assert _visible_seat_pickers(page) == ["seat_0", "seat_1", "seat_2", "seat_3"]
    page.select_option("select[name=players]", "3")
    page.select_option("select[name=seat_1]", "basic")
    page.click("text=Create table")
    page.wait_for_url(f"{live_server.url}/games/*/")
    game = Game.objects.get()
    assert game.seat_count == 3 and [seat.bot for seat in game.seats.all()] == ["", "basic"]


def test_a_table_of_bots_is_made_on_the_web_and_starts(browser, live_server, alice):
    page = log_in(browser, live_server, "alice")
    page.goto(f"{live_server.url}/games/new/?game=love-letter")
    page.select_option("select[name=seat_0]", "basic")
    page.select_option("select[name=seat_1]", "basic")
    page.click("text=Create table")
    page.wait_for_url(f"{live_server.url}/games/*/")
    game = Game.objects.get()
    assert game.status in (GameStatus.ACTIVE, GameStatus.FINISHED)
    assert not game.seats.filter(user=alice).exists() and game.created_by == alice


def test_the_clock_box_stays_inside_its_card(browser, live_server, alice):
    page = log_in(browser, live_server, "alice")
    page.goto(f"{live_server.url}/games/new/?game=savernake-forest")
    card = page.locator("section.new-game").bounding_box()
    clock = page.locator("fieldset.clock-choice").bounding_box()
    assert clock["x"] + clock["width"] <= card["x"] + card["width"]


@pytest.mark.parametrize("path", ["/", "/games/new/?game=carcassonne-hg", "/games/new/?game=love-letter"])
def test_a_phone_does_not_scroll_sideways(browser, live_server, alice, bob, make_user, path):
    for engine in ("carcassonne-hg", "love-letter", "halali"):  # a lobby with rows of every kind
        table = services.create_game(creator=alice, engine_slug=engine, players=2)
        services.join_game(game_id=table.pk, user=bob)
    services.create_game(creator=make_user("a-rather-long-username-x"), engine_slug="savernake-forest", players=3)
    services.create_game(creator=alice, engine_slug="savernake-forest", players=4)
    page = log_in(browser, live_server, "alice")
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}{path}")
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{path} is {width} px wide on a {PHONE['width']} px phone"
