"""Halali! in a real browser: flip a tile by clicking it, pick a tile, see its destinations light up, move; each move
waits for Confirm unless the player turned confirmation off."""

from __future__ import annotations

import pytest

from tests.browser.test_play_in_browser import log_in
from tests.platform.play.test_halali_board import layout
from turnbased.accounts.models import profile_of
from turnbased.play import services
from turnbased.play.models import Move

pytestmark = pytest.mark.django_db(transaction=True)


def play(game, user, move):
    game.refresh_from_db()
    services.submit_move(game_id=game.pk, user=user, expected_seq=game.seq, move=move)
    game.refresh_from_db()


def test_flip_select_and_move_on_the_board(browser, live_server, alice, bob, tmp_path):
    game = services.create_game(
        creator=alice, engine_slug="halali", players=2, options={"layout": layout(), "first_blue": 0}
    )
    services.join_game(game_id=game.pk, user=bob)
    # A few tiles face up first: a fox, a hunter aiming west, a pheasant, a lumberjack, a hunter aiming east.
    for user, square in [(alice, "e5"), (bob, "e4"), (alice, "d5"), (bob, "f5"), (alice, "b5"), (bob, "d3")]:
        play(game, user, {"flip": square})

    page = log_in(browser, live_server, "alice")
    page.set_viewport_size({"width": 1100, "height": 1400})
    page.goto(f"{live_server.url}/games/{game.pk}/")
    assert "Your turn." in page.inner_text("#panel")
    page.wait_for_selector(".hb-board.hb-js")
    assert page.locator(".hb-tile.hb-down").count() == 48 - 6
    assert page.get_attribute('[aria-label="hunter aiming west at e4, moved by bob"]', "data-dir") == "W"

    moves_before = Move.objects.filter(game=game).count()
    # Flip c4 by clicking the face-down tile, then confirming.
    page.click('.hb-tile[aria-label="face-down tile at c4"]')
    assert "Turn over the face-down tile on c4" in page.inner_text(".hb-confirm-text")
    page.click(".hb-confirm-go")
    page.wait_for_selector("text=Waiting for bob")
    assert page.get_attribute('.hb-tile[data-square="c4"]', "data-kind") == "fox"
    assert Move.objects.filter(game=game).count() == moves_before + 1

    # Bob turns over the duck on c3; alice's page refreshes itself (htmx polls the panel).
    play(game, bob, {"flip": "c3"})
    page.wait_for_selector("text=Your turn.", timeout=15000)
    page.wait_for_selector(".hb-board.hb-js .hb-tile.hb-can")

    # Pick the fox: d4 (east) and the duck on c3 (a capture) light up, nothing else.
    fox = page.locator('.hb-tile[data-square="c4"]')
    assert fox.get_attribute("aria-label") == "fox at c4, moved by alice" and fox.get_attribute("aria-disabled") == "false"
    fox.click()
    lit = page.locator(".hb-dest.hb-on")
    assert sorted(lit.nth(i).get_attribute("data-to") for i in range(lit.count())) == ["c3", "d4"]
    assert page.locator('.hb-dest.hb-on[data-to="c3"]').get_attribute("class") == "hb-dest hb-capture hb-on"
    assert "The Fox on c4 can go to 2 places" in page.inner_text(".hb-hint")
    page.screenshot(path=str(tmp_path / "halali-selected.png"), full_page=True)
    page.locator(".hb-svg").screenshot(path=str(tmp_path / "halali-board.png"))

    # Escape cancels; clicking the fox again shows the same destinations; take the duck.
    page.keyboard.press("Escape")
    assert page.locator(".hb-dest.hb-on").count() == 0
    fox.click()
    page.click('.hb-dest.hb-on[data-to="c3"]')
    assert page.inner_text(".hb-confirm-text") == "The Fox on c4 takes the Duck on c3. Confirm?"
    page.click(".hb-confirm-go")
    page.wait_for_selector("text=Waiting for bob")
    assert Move.objects.filter(game=game).count() == moves_before + 3
    last = Move.objects.filter(game=game).order_by("-seq").first()
    assert last.move == {"from": "c4", "to": "c3"}
    assert page.get_attribute('.hb-tile[data-square="c3"]', "aria-label") == "fox at c3, moved by alice"
    assert "2" == page.inner_text(".hb-seat.hb-you .hb-points")
    page.screenshot(path=str(tmp_path / "halali-after.png"), full_page=True)
    print(f"screenshots in {tmp_path}")
    page.context.close()  # stop the panel's polling before the database goes


def test_keyboard_selects_a_tile_and_moves_it(browser, live_server, alice, bob):
    game = services.create_game(
        creator=alice, engine_slug="halali", players=2, options={"layout": layout(), "first_blue": 0}
    )
    services.join_game(game_id=game.pk, user=bob)
    play(game, alice, {"flip": "c4"})
    play(game, bob, {"flip": "b5"})
    page = log_in(browser, live_server, "alice")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_selector(".hb-board.hb-js")
    page.focus('.hb-tile[data-square="c4"]')
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.getAttribute('data-to')") == "d4"
    page.keyboard.press("Enter")
    assert page.inner_text(".hb-confirm-text") == "Move the Fox from c4 to d4. Confirm?"
    assert page.evaluate("document.activeElement.textContent") == "Confirm"
    page.keyboard.press("Enter")
    page.wait_for_selector("text=Waiting for bob")
    assert Move.objects.filter(game=game).order_by("-seq").first().move == {"from": "c4", "to": "d4"}
    page.context.close()


def halali_game(alice, bob):
    game = services.create_game(
        creator=alice, engine_slug="halali", players=2, options={"layout": layout(), "first_blue": 0}
    )
    services.join_game(game_id=game.pk, user=bob)
    game.refresh_from_db()
    return game


def test_a_flip_waits_for_confirm_and_cancel_or_escape_turn_nothing_over(browser, live_server, alice, bob):
    game = halali_game(alice, bob)
    page = log_in(browser, live_server, "alice")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_selector(".hb-board.hb-js")
    assert not page.locator(".hb-confirm").is_visible()
    page.click('.hb-tile[data-square="c4"]')
    assert page.locator(".hb-confirm").is_visible()
    assert "hb-picked" in page.get_attribute('.hb-tile[data-square="c4"]', "class")
    page.click(".hb-confirm-cancel")
    assert not page.locator(".hb-confirm").is_visible()
    assert "hb-picked" not in page.get_attribute('.hb-tile[data-square="c4"]', "class")
    page.click('.hb-tile[data-square="b2"]')
    page.keyboard.press("Escape")
    assert not page.locator(".hb-confirm").is_visible()
    page.wait_for_timeout(600)
    assert Move.objects.filter(game=game).count() == 0
    assert page.locator(".hb-tile.hb-down").count() == 48


def test_with_confirmation_off_a_click_flips_at_once(browser, live_server, alice, bob):
    profile = profile_of(alice)
    profile.confirm_moves = False
    profile.save()
    game = halali_game(alice, bob)
    page = log_in(browser, live_server, "alice")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_selector(".hb-board.hb-js")
    assert page.get_attribute(".hb-board", "data-confirm") == "off"
    page.click('.hb-tile[data-square="c4"]')
    page.wait_for_selector("text=Waiting for bob")
    assert Move.objects.filter(game=game).order_by("-seq").first().move == {"flip": "c4"}
