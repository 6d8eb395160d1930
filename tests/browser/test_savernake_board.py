"""Savernake Forest in a real browser: pick a market card, place and turn it, see the score it would
leave, keep one animal of a shared path, put the goat's drop on a food corner, confirm, and the move is made."""

from __future__ import annotations

import pytest

from tests.browser.test_play_in_browser import log_in
from tests.platform.play.test_savernake_board import JOIN, SCRIPT, run_script, start
from turnbased.play.models import Move

pytestmark = pytest.mark.django_db(transaction=True)


def open_board(browser, live_server, game, username="alice"):
    page = log_in(browser, live_server, username)
    page.set_viewport_size({"width": 1100, "height": 1500})
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_selector(".sf-board.sf-js")
    return page


def test_take_place_turn_keep_drop_and_confirm(browser, live_server, alice, bob, tmp_path):
    game = start(alice, bob)
    run_script(game, alice, bob, SCRIPT)
    page = open_board(browser, live_server, game)
    assert "Your turn." in page.inner_text("#panel")
    assert "Reconstructed cards" in page.inner_text(".sf-note")
    page.screenshot(path=str(tmp_path / "sf-start.png"), full_page=True)
    assert page.is_disabled(".sf-confirm")

    # Pick the goat's card: the free cells of alice's forest light up with the best each can give.
    page.click('.sf-slot[data-slot="goat"]')
    assert page.get_attribute('.sf-slot[data-slot="goat"]', "aria-pressed") == "true"
    lit = page.locator(".sf-mine .sf-open.sf-can")
    assert lit.count() == page.locator(".sf-mine .sf-open").count() > 0
    # Turned 270° there, the egg curve brings both eggs to the Hedgehog alone: +6 with the drop.
    assert page.text_content('.sf-mine .sf-open[data-x="1"][data-y="-1"] .sf-open-gain') == "best +6"

    # Place it on 1,-1: the card is shown there, with the score it leaves before the drop.
    page.click('.sf-mine .sf-open[data-x="1"][data-y="-1"]')
    ghost = page.locator(".sf-ghost > use")
    assert ghost.get_attribute("href") == "#sf-c-CU12-r0"
    assert "water drop" in page.inner_text(".sf-hint")
    assert page.is_visible(".sf-token") and page.is_hidden(".sf-keep")

    # Turn it twice: now it joins the Hedgehog's path to the Blackbird's, and one must be kept.
    page.click('.sf-rot[data-turn="1"]')
    page.click('.sf-rot[data-turn="1"]')
    assert ghost.get_attribute("href") == "#sf-c-CU12-r2" and page.inner_text(".sf-rot-now") == "180°"
    assert page.get_attribute('.sf-slot[data-slot="goat"] .sf-market-use', "href") == "#sf-c-CU12-r2"
    assert page.is_visible(".sf-keep") and page.is_hidden(".sf-token") and page.is_disabled(".sf-confirm")
    assert "choose the one to keep" in page.inner_text(".sf-hint")
    labels = page.inner_text(".sf-keep-groups")
    assert "Keep the Hedgehog (total 10, ±0)" in labels and "Keep the Blackbird (total 7, −3)" in labels
    page.locator(".sf-mine").screenshot(path=str(tmp_path / "sf-keep.png"))

    # Keep the Hedgehog: the Blackbird is marked to turn face down; the goat's drop is next.
    page.check('input[name="sf-keep-0"][value="AN05"]')
    assert "sf-will-flip" in page.get_attribute('.sf-mine .sf-cell[data-card="AN13"]', "class")
    assert "sf-shared" in page.get_attribute('.sf-mine .sf-cell[data-card="AN05"]', "class")
    assert page.is_visible(".sf-token") and page.is_disabled(".sf-confirm")
    assert page.inner_text(".sf-move-score strong") == "10 → 10"

    # The drop on the Hedgehog's eggs corner: each egg now counts 3.
    page.click('.sf-mine .sf-target.sf-can[data-card="AN05"][data-food="E"]')
    assert page.is_enabled(".sf-confirm")
    assert page.inner_text(".sf-move-text code") == "take goat 1,-1 r180 keep AN05 drop AN05 E"
    assert page.inner_text(".sf-move-score strong") == "10 → 12"
    assert page.text_content('.sf-mine .sf-score[data-card="AN05"] .sf-score-num') == "12"
    assert page.text_content('.sf-mine .sf-score[data-card="AN05"] .sf-delta-text') == "+6"
    assert page.get_attribute('.sf-token-options button[aria-pressed="true"]', "data-move-index")
    page.screenshot(path=str(tmp_path / "sf-ready.png"), full_page=True)
    page.locator(".sf-mine").screenshot(path=str(tmp_path / "sf-ready-forest.png"))

    before = Move.objects.filter(game=game).count()
    page.click(".sf-confirm")
    page.wait_for_selector("text=Waiting for bob")
    assert Move.objects.filter(game=game).count() == before + 1
    assert Move.objects.filter(game=game).order_by("-seq").first().move == JOIN
    page.wait_for_selector(".sf-board.sf-js")
    assert "sf-down" in page.get_attribute('.sf-forest[data-seat="0"] .sf-cell[data-card="AN13"]', "class")
    assert page.inner_text('.sf-forest[data-seat="0"] .sf-total') == "12 pts"
    page.screenshot(path=str(tmp_path / "sf-after.png"), full_page=True)
    print(f"screenshots in {tmp_path}")
    page.context.close()  # stop the panel's polling before the database goes


def test_keyboard_rabbit_preview_and_cancel(browser, live_server, alice, bob, tmp_path):
    game = start(alice, bob)
    run_script(game, alice, bob, SCRIPT)
    page = open_board(browser, live_server, game)
    page.focus('.sf-slot[data-slot="rabbit"]')
    page.keyboard.press("Enter")
    page.focus('.sf-mine .sf-open[data-x="-1"][data-y="0"]')
    page.keyboard.press("Enter")
    assert page.get_attribute(".sf-ghost > use", "href") == "#sf-c-AN08-r0"
    page.keyboard.press("r")
    assert page.get_attribute(".sf-ghost > use", "href") == "#sf-c-AN08-r1"
    page.keyboard.press("Shift+R")
    page.keyboard.press("Shift+R")
    assert page.get_attribute(".sf-ghost > use", "href") == "#sf-c-AN08-r3"
    # The new Wildcat appears in the score sheet with what it would score (6 base, no eggs on its path).
    assert "Wildcat (new)" in page.inner_text(".sf-mine .sf-sheet")
    assert page.inner_text(".sf-mine .sf-sheet-new .sf-sheet-score") == "→ 6"
    assert page.is_enabled(".sf-confirm")
    assert page.inner_text(".sf-move-text code") == "take rabbit -1,0 r270"
    page.locator(".sf-mine").screenshot(path=str(tmp_path / "sf-rabbit.png"))
    page.keyboard.press("Escape")
    assert page.locator(".sf-ghost").count() == 0 and page.is_disabled(".sf-confirm")
    assert page.get_attribute('.sf-slot[data-slot="rabbit"]', "aria-pressed") == "false"
    page.context.close()


def test_three_forests_while_waiting_and_at_the_end(browser, live_server, alice, bob, make_user, tmp_path):
    import random

    from games import get_engine
    from tests.platform.play.test_savernake_board import play
    from turnbased.play import services

    engine = get_engine("savernake-forest")
    carol = make_user("carol")
    game = services.create_game(creator=alice, engine_slug="savernake-forest", players=3, options={"first_player": 0})
    services.join_game(game_id=game.pk, user=bob)
    services.join_game(game_id=game.pk, user=carol)
    users, rng = [alice, bob, carol], random.Random(3)

    def advance(until):
        for _ in range(300):  # a whole three-player game is under 60 moves
            game.refresh_from_db()
            if engine.is_over(game.state) or until(game.state):
                return
            seat = engine.to_move(game.state)[0]
            play(game, users[seat], rng.choice(engine.legal_moves(game.state, seat)))
        raise AssertionError("the position sought did not come in 300 moves")

    advance(lambda state: state["round"] == 9 and engine.to_move(state) == [0])
    page = open_board(browser, live_server, game, "bob")
    assert "Waiting for alice" in page.inner_text("#panel")
    assert page.locator(".sf-controls").count() == 0 and page.locator(".sf-forest").count() == 3
    for seat in range(3):
        assert page.locator(f'.sf-forest[data-seat="{seat}"] .sf-cell').count() == len(game.state["forests"][seat])
    page.screenshot(path=str(tmp_path / "sf-waiting.png"), full_page=True)
    page.context.close()

    advance(lambda state: False)
    page = open_board(browser, live_server, game, "carol")
    assert "Game over" in page.inner_text(".sf-status")
    for seat in range(3):
        assert page.locator(f'.sf-forest[data-seat="{seat}"] .sf-cell').count() == 16
        assert page.locator(f'.sf-forest[data-seat="{seat}"] .sf-open').count() == 0
    page.screenshot(path=str(tmp_path / "sf-over.png"), full_page=True)
    page.context.close()
