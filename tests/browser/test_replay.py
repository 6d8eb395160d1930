"""The replay page in Chromium: the buttons, the arrow keys, Home and End, the slider and the links to a position
all step through the game, each keeping the position in the address (/games/<id>/replay/?seq=N); a board drawn
by its script (Carcassonne's) is drawn at each step."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import expect

from games import get_engine
from tests.browser.test_play_in_browser import log_in
from tests.platform.play.test_carcassonne_board import STACK
from tests.platform.play.test_carcassonne_board import start as carcassonne_start
from tests.platform.play.test_positions import play
from turnbased.play import services

pytestmark = pytest.mark.django_db(transaction=True)
ENGINE = get_engine("carcassonne-hg")


def at(page, live_server, game, seq: int) -> None:
    """Wait until the page shows position ``seq`` and its address says so."""
    expect(page).to_have_url(f"{live_server.url}/games/{game.pk}/replay/?seq={seq}")
    expect(page.locator("#replay")).to_have_attribute("data-seq", str(seq))
    expect(page.locator("#replay-seq")).to_have_value(str(seq))
    if seq:
        expect(page.locator(f"#step-{seq}")).to_have_class("current")


def test_the_controls_keys_slider_and_links_step_through_the_game(browser, live_server, alice, bob,
                                                                  start_scripted_game):
    game = play(start_scripted_game(alice, bob), [alice, bob], 6, random.Random(2))
    last = game.seq
    page = log_in(browser, live_server, "alice")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.click("a.replay-link")
    at(page, live_server, game, 0)
    expect(page.locator(".ll-hand")).to_be_visible()  # my hand then, drawn by the game's own board

    page.click('.replay-controls a[data-step="next"]')
    at(page, live_server, game, 1)
    page.click('.replay-controls a[data-step="next"]')
    at(page, live_server, game, 2)
    page.click('.replay-controls a[data-step="previous"]')
    at(page, live_server, game, 1)

    page.keyboard.press("ArrowRight")
    at(page, live_server, game, 2)
    page.keyboard.press("ArrowLeft")
    at(page, live_server, game, 1)
    page.keyboard.press("End")
    at(page, live_server, game, last)
    page.keyboard.press("ArrowRight")  # nothing after the last position
    page.keyboard.press("Home")
    at(page, live_server, game, 0)

    page.locator("#replay-seq").fill(str(last - 2))  # the slider, let go at a position
    at(page, live_server, game, last - 2)

    page.click(f"#step-{last - 1} a")
    at(page, live_server, game, last - 1)
    expect(page.locator(".replay-history li.current")).to_have_count(1)


def test_after_the_end_the_replay_reveals_every_hand(browser, live_server, alice, bob, start_scripted_game):
    game = start_scripted_game(alice, bob)
    services.submit_move(game_id=game.pk, user=alice, expected_seq=0, move={"card": "handmaid"})
    services.resign_game(game_id=game.pk, user=bob)
    page = log_in(browser, live_server, "alice")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.click("#end-screen .replay-link a")
    at(page, live_server, game, 0)
    revealed = page.locator(".ll-revealed")
    expect(revealed).to_contain_text("bob's hand")
    expect(revealed.locator('[aria-label^="Princess"]')).to_have_count(1)  # the set-aside card


def test_a_carcassonne_position_is_drawn_by_its_board_script_step_by_step(browser, live_server, alice, bob):
    game = carcassonne_start(alice, bob, STACK)
    for _ in range(4):
        seat = game.to_move[0]
        move = ENGINE.legal_moves(game.state, seat)[-1]
        services.submit_move(game_id=game.pk, user=[alice, bob][seat], expected_seq=game.seq, move=move)
        game.refresh_from_db()
    page = log_in(browser, live_server, "bob")
    page.goto(f"{live_server.url}/games/{game.pk}/replay/?seq=2")
    at(page, live_server, game, 2)
    page.wait_for_selector(".cb-board.cb-js")
    # One drawn tile per placement up to then (the start tile and two), the latest framed, no spots to play.
    expect(page.locator(".cb-svg .cb-tile")).to_have_count(3)
    assert page.locator(".cb-svg .cb-last").count() == 1 and page.locator(".cb-spot").count() == 0
    page.keyboard.press("ArrowRight")
    at(page, live_server, game, 3)
    page.wait_for_selector(".cb-board.cb-js")
    expect(page.locator(".cb-svg .cb-tile")).to_have_count(4)
    squares = page.eval_on_selector_all(".cb-svg .cb-tile", "tiles => tiles.map(t => [+t.dataset.x, +t.dataset.y])")
    assert squares == [entry[:2] for entry in game.state["board"][:4]]


SIZES = {"desktop": {"width": 1280, "height": 1000}, "phone": {"width": 390, "height": 844}}


def slow_network(page, latency_ms: int) -> None:
    """Make every request of the page take ``latency_ms`` longer (Chromium's network emulation)."""
    session = page.context.new_cdp_session(page)
    session.send("Network.enable")
    session.send("Network.emulateNetworkConditions",
                 {"offline": False, "latency": latency_ms, "downloadThroughput": -1, "uploadThroughput": -1})


@pytest.mark.parametrize("size", SIZES)
def test_the_replay_steps_without_reloading_and_back_and_forward_follow(browser, live_server, alice, bob,
                                                                         start_scripted_game, size):
    game = play(start_scripted_game(alice, bob), [alice, bob], 6, random.Random(2))
    page = log_in(browser, live_server, "alice")
    page.set_viewport_size(SIZES[size])
    page.goto(f"{live_server.url}/games/{game.pk}/replay/?seq=0")
    at(page, live_server, game, 0)
    page.evaluate("window.loadedOnce = true")  # gone if the page reloads
    steps = []
    page.on("request", lambda request: steps.append(request.headers.get("hx-request")) if "/replay/" in request.url
            else None)

    page.click('.replay-controls a[data-step="next"]')
    at(page, live_server, game, 1)
    expect(page).to_have_title(f"Replay of Love Letter #{game.pk}, move 1 · turnbased")
    page.keyboard.press("ArrowRight")
    at(page, live_server, game, 2)
    page.click(f"#step-1 a")
    at(page, live_server, game, 1)
    page.go_back()
    at(page, live_server, game, 2)
    page.go_back()
    at(page, live_server, game, 1)
    page.go_forward()
    at(page, live_server, game, 2)
    expect(page.locator(".ll-hand")).to_be_visible()  # the board drawn again at each step
    assert page.evaluate("window.loadedOnce === true"), "the page was reloaded"
    assert steps and set(steps) == {"true"}, "every step asked for the position alone"
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["width"]
    # A screen reader hears where the replay is after each step.
    expect(page.locator(".replay-announcer")).to_contain_text("After move 2")
    # Leaving and coming back to a step gets the whole page again, never the position alone.
    page.click("text=Back to the game")
    expect(page).to_have_url(f"{live_server.url}/games/{game.pk}/")
    page.go_back()
    at(page, live_server, game, 2)
    expect(page.locator("header.topbar")).to_be_visible()


@pytest.mark.parametrize("size", SIZES)
def test_six_quick_presses_reach_step_six(browser, live_server, alice, bob, start_scripted_game, size):
    game = play(start_scripted_game(alice, bob), [alice, bob], 10, random.Random(2))
    assert game.seq >= 7
    page = log_in(browser, live_server, "alice")
    page.set_viewport_size(SIZES[size])
    page.goto(f"{live_server.url}/games/{game.pk}/replay/?seq=0")
    at(page, live_server, game, 0)
    slow_network(page, 300)  # each step takes a while to come: the presses arrive while one loads
    for _ in range(6):
        page.keyboard.press("ArrowRight")
    at(page, live_server, game, 6)
    for _ in range(3):
        page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowRight")
    at(page, live_server, game, 4)


def test_the_keyboard_focus_stays_on_the_step_button(browser, live_server, alice, bob, start_scripted_game):
    game = play(start_scripted_game(alice, bob), [alice, bob], 4, random.Random(2))
    page = log_in(browser, live_server, "alice")
    page.goto(f"{live_server.url}/games/{game.pk}/replay/?seq={game.seq - 2}")
    page.locator('.replay-controls a[data-step="next"]').focus()
    page.keyboard.press("Enter")
    at(page, live_server, game, game.seq - 1)
    expect(page.locator('.replay-controls a[data-step="next"]')).to_be_focused()
    page.keyboard.press("Enter")
    at(page, live_server, game, game.seq)
    # "Next" is no link at the last position: the focus goes to "Previous".
    expect(page.locator('.replay-controls a[data-step="previous"]')).to_be_focused()
