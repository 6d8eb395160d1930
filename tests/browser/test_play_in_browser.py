"""Two players in two real browsers: log in, play a move, and see the other page refresh itself."""

from __future__ import annotations

import re

import pytest

from tests.platform.conftest import PASSWORD

pytestmark = pytest.mark.django_db(transaction=True)


def log_in(browser, live_server, username, **context_options):
    """Sign ``username`` in, in a new browser context (``context_options``: a phone's screen and touch, say)."""
    page = browser.new_context(**context_options).new_page()
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=login]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(f"{live_server.url}/")
    return page


def test_a_move_in_one_browser_refreshes_the_other(browser, live_server, alice, bob, start_scripted_game, tmp_path):
    game = start_scripted_game(alice, bob)
    alice_page = log_in(browser, live_server, "alice")
    bob_page = log_in(browser, live_server, "bob")
    bob_page.goto(f"{live_server.url}/games/{game.pk}/")
    assert "Waiting for alice" in bob_page.inner_text("#panel")

    alice_page.goto(f"{live_server.url}/games/{game.pk}/")
    assert "Your turn." in alice_page.inner_text("#panel")
    assert "Card tracker" in alice_page.inner_text("#panel")
    alice_page.screenshot(path=str(tmp_path / "alice-turn.png"), full_page=True)
    alice_page.get_by_role("button", name=re.compile(r"^Handmaid 4\b")).click()
    alice_page.get_by_role("button", name="Confirm", exact=True).click()
    alice_page.wait_for_selector("text=Waiting for bob")

    # No reload: htmx polls the panel and swaps it when the position changes.
    bob_page.wait_for_selector("text=Your turn.", timeout=15000)
    history = bob_page.inner_text(".history")
    assert "alice played the Handmaid" in history
    assert "guard alice" not in bob_page.inner_text(".moves"), "alice is protected: no Guard target"
    bob_page.screenshot(path=str(tmp_path / "bob-after.png"), full_page=True)
