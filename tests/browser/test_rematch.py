"""Rematch in two real browsers: a game ends, one player asks for a rematch, the other accepts with one click."""

from __future__ import annotations

import pytest

from tests.browser.test_play_in_browser import log_in
from turnbased.aftergame.models import Rematch
from turnbased.play.models import GameStatus

pytestmark = pytest.mark.django_db(transaction=True)


def test_one_player_asks_for_a_rematch_and_the_other_accepts_it_with_one_click(
    browser, live_server, alice, bob, start_scripted_game, tmp_path
):
    game = start_scripted_game(alice, bob)
    alice_page = log_in(browser, live_server, "alice")
    bob_page = log_in(browser, live_server, "bob")
    alice_page.goto(f"{live_server.url}/games/{game.pk}/")
    bob_page.goto(f"{live_server.url}/games/{game.pk}/")

    bob_page.on("dialog", lambda dialog: dialog.accept())  # "Resign from this game for good?"
    bob_page.get_by_role("button", name="Resign", exact=True).click()
    bob_page.wait_for_selector("text=Game over by resignation")
    # alice's page follows by itself: the end screen, with the trophy drawn and the Rematch button.
    alice_page.wait_for_selector("#end-screen", timeout=15000)
    assert "bob resigned." in alice_page.inner_text("#end-screen")
    assert alice_page.locator("#end-screen svg.trophy").count() == 1

    alice_page.get_by_role("button", name="Rematch", exact=True).click()
    rematch = Rematch.objects.get(original=game)
    alice_page.wait_for_url(f"{live_server.url}/games/{rematch.game_id}/")
    assert "Waiting for bob to accept the rematch" in alice_page.inner_text("#panel")

    # bob's finished game asks for news every few seconds: the offer appears without a reload.
    accept = bob_page.get_by_role("button", name="Accept rematch", exact=True)
    accept.wait_for(timeout=15000)
    bob_page.screenshot(path=str(tmp_path / "bob-offer.png"), full_page=True)
    accept.click()
    bob_page.wait_for_url(f"{live_server.url}/games/{rematch.game_id}/")
    rematch.game.refresh_from_db()
    assert rematch.game.status == GameStatus.ACTIVE
    assert rematch.game.player_names == ["bob", "alice"]  # the seats moved on by one
    assert f"Rematch of game #{game.pk}" in bob_page.inner_text("#panel")
    bob_page.wait_for_selector("#panel .turn")
    # alice's waiting table follows by itself: it is in play now.
    alice_page.wait_for_selector(".status-active", timeout=15000)
    alice_page.wait_for_selector("#panel .turn")
