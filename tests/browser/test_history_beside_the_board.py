"""The latest history on the game page: beside the board on a wide screen, right under the board and its moves
on a phone, and its scrolling box reached and scrolled by the keyboard (focusable, named "History")."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import expect

from tests.browser.test_game_page import two_player_game
from tests.browser.test_play_in_browser import log_in
from tests.platform.play.test_positions import play
from tests.waiting import wait_for

pytestmark = pytest.mark.django_db(transaction=True)

SIZES = {"desktop": {"width": 1280, "height": 1000}, "phone": {"width": 390, "height": 844}}


def box(page, selector: str) -> dict:
    return page.locator(selector).first.evaluate("""el => {
        const r = el.getBoundingClientRect();
        return {left: r.left + scrollX, top: r.top + scrollY, right: r.right + scrollX, bottom: r.bottom + scrollY};
    }""")


def settled_boxes(page, *selectors: str) -> list[dict]:
    """The boxes, read together once two readings a quarter second apart agree. What scripts do after the page
    loads (a board built from its embedded picture, the panel's poll, offers shown by the browser's answers) may
    still move the panel while its boxes are read one by one: CI once read a panel 30 px shorter than the
    history below it found it."""
    last: list = [None]

    def still():
        now = [box(page, selector) for selector in selectors]
        same, last[0] = now == last[0], now
        return now if same else None

    page.evaluate("document.fonts.ready")
    return wait_for(still, "the page's layout to hold still", timeout=10, every=0.25)


def game_with_history(slug, alice, bob):
    return play(two_player_game(slug, alice, bob), [alice, bob], 14, random.Random(5))


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("slug", ["love-letter", "carcassonne-hg", "halali", "savernake-forest"])
def test_the_history_sits_beside_the_board_or_right_under_it(browser, live_server, alice, bob, slug, size):
    game = game_with_history(slug, alice, bob)
    page = log_in(browser, live_server, "alice")
    page.set_viewport_size(SIZES[size])
    page.goto(f"{live_server.url}/games/{game.pk}/")
    expect(page.locator("#history-entries li").first).to_be_visible()
    board, panel, history, header = settled_boxes(page, "#board", "#panel", "#history", "#game-header")
    if size == "desktop":
        assert history["left"] >= board["right"], "beside the board"
        assert history["top"] <= board["top"] + 200 and history["top"] < SIZES[size]["height"], "in the first screen"
    else:
        assert history["top"] >= panel["bottom"] and history["top"] - panel["bottom"] <= 24, \
            "right under the board and its moves"
        assert history["right"] <= SIZES[size]["width"]
    assert header["top"] > history["top"], "the history comes before the table's details"


@pytest.mark.parametrize("size", SIZES)
def test_the_keyboard_reaches_the_history_and_scrolls_it(browser, live_server, alice, bob, size):
    game = game_with_history("love-letter", alice, bob)
    page = log_in(browser, live_server, "alice")
    page.set_viewport_size(SIZES[size])
    page.goto(f"{live_server.url}/games/{game.pk}/")
    entries = page.get_by_role("list", name="History")
    expect(entries).to_have_attribute("id", "history-entries")
    assert entries.evaluate("el => el.scrollHeight > el.clientHeight"), "enough moves to scroll"
    page.locator("#after-board").focus()
    for _ in range(80):  # Tab through the moves until the history's box
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.id") == "history-entries":
            break
    else:
        pytest.fail("Tab never reached the history's box")
    ring = entries.evaluate("el => getComputedStyle(el).outlineStyle + ' ' + getComputedStyle(el).outlineWidth")
    assert ring == "solid 3px"
    page.keyboard.press("PageDown")
    wait_for(lambda: entries.evaluate("el => el.scrollTop > 0"), "PageDown to scroll the history", timeout=5)
    page.keyboard.press("End")
    wait_for(lambda: entries.evaluate("el => el.scrollTop + el.clientHeight >= el.scrollHeight - 1"),
             "End to scroll the history to its oldest entry", timeout=5)
