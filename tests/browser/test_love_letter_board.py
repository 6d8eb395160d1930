"""Love Letter played with the cards in a real browser: card, then player, then (Guard) the named card, then confirm."""

from __future__ import annotations

import re

import pytest

from tests.browser.test_content_security_policy import PRINCESS_IN_HAND
from tests.browser.test_play_in_browser import log_in
from turnbased.play import services
from turnbased.accounts.models import profile_of
from turnbased.play.models import Move

pytestmark = pytest.mark.django_db(transaction=True)


def moves_of(game) -> list[dict]:
    return list(Move.objects.filter(game=game).order_by("seq").values_list("move", flat=True))


def open_board(browser, live_server, game, username="alice"):
    page = log_in(browser, live_server, username)
    page.set_viewport_size({"width": 1100, "height": 1300})
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_selector(".ll-board.ll-js")
    return page


def test_card_then_player_then_guess_then_confirm_plays_the_guard(browser, live_server, alice, bob, start_scripted_game,
                                                                   tmp_path):
    game = start_scripted_game(alice, bob)  # alice holds Guard + Handmaid; King, Countess, Baron removed face up
    page = open_board(browser, live_server, game)
    # Every card is drawn: the hand as buttons, the removed row as small cards, each with its value and name.
    assert page.get_by_role("button", name=re.compile(r"^Guard 1\b")).is_visible()
    assert page.get_by_role("button", name=re.compile(r"^Handmaid 4\b")).is_visible()
    removed = page.locator(".ll-row .ll-card")
    assert [removed.nth(i).get_attribute("aria-label").split(" (")[0] for i in range(3)] == [
        "King, 6", "Countess, 7", "Baron, 3"]
    # The effect shows on keyboard focus (and on hover), and is the card's description for screen readers.
    king = removed.nth(0)
    assert not king.locator(".ll-tip").is_visible()
    king.focus()
    assert "Choose another player and trade hands with them." in king.locator(".ll-tip").inner_text()
    # A card in the hand is named by what it shows: its name, its value and its effect.
    assert page.get_by_role("button", name=re.compile(r"^Guard 1 .*If they hold it, they are out")).is_visible()
    assert "If they hold it, they are out" in page.inner_text("#ll-effect-guard")  # the guesses' description
    # The written-out moves are folded away, still there.
    assert page.locator("details.ll-fallback section.moves button.move").count() == 8
    assert not page.get_by_role("button", name="handmaid", exact=True).is_visible()

    assert not page.locator(".ll-step").is_visible()
    assert not page.get_by_role("button", name="Choose bob").is_visible()
    page.get_by_role("button", name=re.compile(r"^Guard 1\b")).click()
    assert "Choose the player for your Guard" in page.inner_text(".ll-prompt")
    assert not page.get_by_role("button", name="Confirm", exact=True).is_visible()
    page.get_by_role("button", name="Choose bob").click()
    guesses = page.locator(".ll-guess:visible")
    assert [guesses.nth(i).get_attribute("data-card") for i in range(guesses.count())] == [
        "priest", "baron", "handmaid", "prince", "king", "countess", "princess"
    ]
    page.get_by_role("button", name=re.compile(r"^Baron 3\b")).click()
    summary = page.inner_text(".ll-summary")
    assert "You play the Guard on bob and name the Baron: if bob holds the Baron, bob is out of the round." in summary
    assert "(guard bob baron)" in summary
    page.screenshot(path=str(tmp_path / "love-letter-confirm.png"), full_page=True)
    assert moves_of(game) == []  # nothing is sent before Confirm

    page.get_by_role("button", name="Confirm", exact=True).click()
    page.wait_for_selector("text=Waiting for bob")
    assert moves_of(game) == [{"card": "guard", "target": 1, "guess": "baron"}]
    # The card just played is marked, and named.
    page.wait_for_selector(".ll-board.ll-js")
    last = page.locator(".ll-discards .ll-last")
    assert last.count() == 1 and "ll-card-guard" in last.get_attribute("class")
    assert "Last play: you played the Guard." in page.inner_text(".ll-last-line")
    page.screenshot(path=str(tmp_path / "love-letter-after.png"), full_page=True)
    print(f"screenshots in {tmp_path}")


def test_cancel_and_escape_send_nothing_and_the_keyboard_plays(browser, live_server, alice, bob, start_scripted_game):
    game = start_scripted_game(alice, bob)
    page = open_board(browser, live_server, game)
    page.get_by_role("button", name=re.compile(r"^Guard 1\b")).click()
    page.get_by_role("button", name="Choose bob").click()
    page.get_by_role("button", name=re.compile(r"^Priest 2\b")).click()
    assert page.get_by_role("button", name="Confirm", exact=True).is_visible()
    page.get_by_role("button", name="Cancel", exact=True).click()
    assert not page.locator(".ll-step").is_visible()
    assert not page.get_by_role("button", name="Choose bob").is_visible()

    handmaid = page.get_by_role("button", name=re.compile(r"^Handmaid 4\b"))
    handmaid.click()
    assert "until your next turn, other players' cards cannot choose you" in page.inner_text(".ll-summary")
    page.keyboard.press("Escape")
    assert not page.locator(".ll-step").is_visible()
    page.wait_for_timeout(600)
    assert moves_of(game) == []

    # Keyboard only: focus the card, Enter picks it, Enter on the focused Confirm plays it.
    handmaid.focus()
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.textContent") == "Confirm"
    page.keyboard.press("Enter")
    page.wait_for_selector("text=Waiting for bob")
    assert moves_of(game) == [{"card": "handmaid"}]


def test_the_written_out_moves_still_play_from_the_fold_out(browser, live_server, alice, bob, start_scripted_game):
    game = start_scripted_game(alice, bob)
    page = open_board(browser, live_server, game)
    page.click("details.ll-fallback > summary")
    page.get_by_role("button", name="handmaid", exact=True).click()
    page.wait_for_selector("text=Waiting for bob")
    assert moves_of(game) == [{"card": "handmaid"}]


def test_with_confirmation_off_a_complete_move_is_sent_at_once(browser, live_server, alice, bob, start_scripted_game):
    profile = profile_of(alice)
    profile.confirm_moves = False
    profile.save()
    game = start_scripted_game(alice, bob)
    page = open_board(browser, live_server, game)
    assert page.get_attribute(".ll-board", "data-confirm") == "off"
    page.get_by_role("button", name=re.compile(r"^Guard 1\b")).click()
    page.get_by_role("button", name="Choose bob").click()
    page.get_by_role("button", name=re.compile(r"^King 6\b")).click()
    page.wait_for_selector("text=Waiting for bob")
    assert moves_of(game) == [{"card": "guard", "target": 1, "guess": "king"}]


def test_the_princess_asks_even_with_confirmation_off(browser, live_server, alice, bob):
    profile = profile_of(alice)
    profile.confirm_moves = False
    profile.save()
    game = services.create_game(creator=alice, engine_slug="love-letter", players=2,
                                options={"deck": PRINCESS_IN_HAND, "first_player": 0})
    services.join_game(game_id=game.pk, user=bob)
    page = open_board(browser, live_server, game)
    page.get_by_role("button", name=re.compile(r"^Princess 8\b")).click()
    assert "You play the Princess: you are out of the round." in page.inner_text(".ll-summary")
    page.wait_for_timeout(600)
    assert moves_of(game) == []
    page.get_by_role("button", name="Confirm", exact=True).click()
    page.wait_for_selector("text=played the Princess")
    assert moves_of(game) == [{"card": "princess"}]


# 2019 edition: set aside, three face up, alice's Chancellor, bob's Priest, alice draws a Guard, then the
# Spy and the Handmaid her Chancellor draws.
CHANCELLOR_2019 = ["princess", "king", "countess", "baron", "chancellor", "priest", "guard", "spy", "handmaid",
                   "spy", "guard", "guard", "guard", "guard", "guard", "priest", "baron", "handmaid", "prince", "prince",
                   "chancellor"]


def test_the_2019_chancellor_keeps_one_card_and_orders_the_bottom(browser, live_server, alice, bob):
    game = services.create_game(creator=alice, engine_slug="love-letter", players=2,
                                options={"edition": "2019", "deck": CHANCELLOR_2019, "first_player": 0})
    services.join_game(game_id=game.pk, user=bob)
    page = open_board(browser, live_server, game)
    assert page.get_by_role("button", name=re.compile(r"^Chancellor 6\b")).is_visible()
    assert page.locator(".ll-row .ll-card").nth(0).get_attribute("aria-label").startswith("King, 7 ")  # 2019 values
    page.get_by_role("button", name=re.compile(r"^Chancellor 6\b")).click()
    assert "keep one card and put the others on the bottom of the deck" in page.inner_text(".ll-summary")
    page.get_by_role("button", name="Confirm", exact=True).click()
    page.wait_for_selector('.ll-board.ll-js[data-phase="await_chancellor"]')
    hand = page.locator(".ll-hand .ll-big")
    assert [hand.nth(i).get_attribute("data-card") for i in range(3)] == ["guard", "spy", "handmaid"]

    page.get_by_role("button", name=re.compile(r"^Handmaid 4\b")).click()
    assert "click the card to put at the very bottom" in page.inner_text(".ll-prompt")
    page.get_by_role("button", name=re.compile(r"^Spy 0\b")).click()
    assert ("You keep the Handmaid and put the Guard and then the Spy on the bottom of the deck (the Spy lowest)."
            in page.inner_text(".ll-summary"))
    page.get_by_role("button", name="Confirm", exact=True).click()
    page.wait_for_selector("text=Waiting for bob")
    assert moves_of(game) == [{"card": "chancellor"}, {"keep": "handmaid", "bottom": ["guard", "spy"]}]
