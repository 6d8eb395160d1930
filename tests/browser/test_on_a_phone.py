"""The boards on a phone, driven by touch (Chromium's touch events through the DevTools protocol, a phone's screen).

Carcassonne's board lets the page scroll under a one-finger swipe, zooms with two fingers (and with its buttons), and
a tap on a place still places the tile; Halali!'s board comes first, above the scores, in the first screen.
"""

from __future__ import annotations

import pytest

from tests.browser.positions import BOARD_READY, SIZES, position
from tests.browser.test_play_in_browser import log_in

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def phone(browser, live_server, username: str):
    return log_in(browser, live_server, username, viewport=SIZES["phone"], has_touch=True, is_mobile=True,
                  device_scale_factor=2)


def touch(session, kind: str, points: list[tuple[float, float]]) -> None:
    session.send("Input.dispatchTouchEvent", {
        "type": kind, "touchPoints": [{"x": x, "y": y, "id": index} for index, (x, y) in enumerate(points)]})


def gesture(page, start: list[tuple[float, float]], end: list[tuple[float, float]], steps: int = 12) -> None:
    """Put fingers down at ``start``, move them to ``end`` in steps, lift them."""
    session = page.context.new_cdp_session(page)
    touch(session, "touchStart", start)
    for step in range(1, steps + 1):
        touch(session, "touchMove", [(a[0] + (b[0] - a[0]) * step / steps, a[1] + (b[1] - a[1]) * step / steps)
                                     for a, b in zip(start, end)])
        page.wait_for_timeout(16)
    touch(session, "touchEnd", [])
    page.wait_for_timeout(300)


def width_shown(page) -> float:
    return float(page.get_attribute(".cb-svg", "viewBox").split()[2])


def test_carcassonnes_board_scrolls_the_page_under_a_swipe_zooms_with_two_fingers_and_places_on_a_tap(
        browser, live_server, alice, bob):
    game = position("carcassonne-hg", [alice, bob], finished=False)
    player = [alice, bob][game.to_move[0]]
    page = phone(browser, live_server, player.username)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_selector(BOARD_READY["carcassonne-hg"])
    assert page.eval_on_selector(".cb-svg", "svg => getComputedStyle(svg).touchAction") == "pan-x pan-y"
    page.evaluate("() => window.scrollTo(0, 0)")
    board = page.locator(".cb-svg").bounding_box()
    x, y = board["x"] + board["width"] / 2, board["y"] + board["height"] * 0.7
    before = width_shown(page)
    gesture(page, [(x, y)], [(x, y - 250)])  # one finger up the board: the page scrolls, the board stays
    assert page.evaluate("() => window.scrollY") > 100
    assert width_shown(page) == before
    page.eval_on_selector(".cb-svg", "svg => window.scrollTo(0, svg.getBoundingClientRect().top + window.scrollY - 20)")
    page.wait_for_timeout(200)
    scrolled = page.evaluate("() => window.scrollY")
    board = page.locator(".cb-svg").bounding_box()
    x, y = board["x"] + board["width"] / 2, board["y"] + min(board["height"], 600) / 2
    gesture(page, [(x - 30, y), (x + 30, y)], [(x - 120, y), (x + 120, y)])  # two fingers apart: zoom in
    assert width_shown(page) < before * 0.6
    assert abs(page.evaluate("() => window.scrollY") - scrolled) < 5, "the pinch scrolled the page"
    zoomed = width_shown(page)
    page.locator(".cb-zoom-out").tap()
    assert width_shown(page) > zoomed
    page.locator(".cb-zoom-fit").tap()
    spot = page.locator(".cb-spot.cb-on").first
    spot.scroll_into_view_if_needed()
    spot.tap()
    page.wait_for_selector(".cb-deploy", state="visible")


def test_halalis_board_comes_first_in_the_first_screen(browser, live_server, alice, bob):
    game = position("halali", [alice, bob], finished=False)
    player = [alice, bob][game.to_move[0]]
    page = phone(browser, live_server, player.username)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_selector(BOARD_READY["halali"])
    page.evaluate("() => window.scrollTo(0, 0)")
    board, seats = page.locator(".hb-svg").bounding_box(), page.locator(".hb-seats").bounding_box()
    assert board["y"] < seats["y"], "the scores come before the board"
    assert board["y"] + board["height"] / 2 < SIZES["phone"]["height"], "the board's middle is below the fold"
