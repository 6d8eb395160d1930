"""Who won, where a player looks for it: the lobby's finished rows and the end screen's rating changes, on a desktop
and on a phone."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.test_play_in_browser import log_in
from tests.platform.aftergame.conftest import finished
from turnbased.ratings.models import RatingChange

pytestmark = pytest.mark.django_db(transaction=True)

SIZES = {"desktop": {"width": 1280, "height": 1000}, "phone": {"width": 390, "height": 844}}


@pytest.mark.parametrize("size", SIZES)
def test_the_lobby_says_who_won_and_the_end_screen_each_rating_change(browser, live_server, alice, bob, size):
    game = finished([alice, bob], resign=False)
    winner = game.player_names[game.result["winners"][0]]
    page = log_in(browser, live_server, "alice")
    page.set_viewport_size(SIZES[size])
    page.goto(f"{live_server.url}/")
    row = page.locator("#my-games tr", has=page.locator(f'a[href="/games/{game.pk}/"]'))
    expect(row.locator(".result-line")).to_be_visible()
    expect(row.locator(".result-line")).to_have_text(game.result_line)
    assert winner in row.locator(".result-line").inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["width"]

    row.locator(f'a[href="/games/{game.pk}/"]').click()
    changes = page.locator("#end-screen .rating-changes li")
    expect(changes).to_have_count(2)
    for change in RatingChange.objects.filter(game=game).order_by("seat"):
        name = game.player_names[change.seat]
        sign = "+" if change.delta > 0 else ""
        expect(changes.nth(change.seat)).to_have_text(f"{name}: {change.before} → {change.after} ({sign}{change.delta})")
        expect(changes.nth(change.seat)).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["width"]
