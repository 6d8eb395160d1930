"""Table talk in real browsers: a message posted at one seat appears at the other, the tab titles say
how many messages are unread and whose turn it is, a notification is asked for only on a click, and a
message's menu reports it and mutes its author."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.test_play_in_browser import log_in
from tests.waiting import wait_for
from turnbased.chat import selectors, services
from turnbased.chat.models import Message, Report
from turnbased.play import services as play_services

pytestmark = pytest.mark.django_db(transaction=True)

HIDE_THE_TAB = """
Object.defineProperty(document, "visibilityState", {configurable: true, get: () => "hidden"});
document.dispatchEvent(new Event("visibilitychange"));
"""
SHOW_THE_TAB = """
Object.defineProperty(document, "visibilityState", {configurable: true, get: () => "visible"});
document.dispatchEvent(new Event("visibilitychange"));
"""


def test_a_message_posted_at_one_seat_appears_at_the_other(browser, live_server, alice, bob, start_scripted_game,
                                                          tmp_path):
    game = start_scripted_game(alice, bob)
    alice_page = log_in(browser, live_server, "alice")
    bob_page = log_in(browser, live_server, "bob")
    alice_page.goto(f"{live_server.url}/games/{game.pk}/")
    bob_page.goto(f"{live_server.url}/games/{game.pk}/")

    alice_page.fill("#chat-text", 'Good luck! <script>alert("x")</script>')
    alice_page.click("#chat-form button[type=submit]")
    expect(alice_page.locator("#chat-text")).to_have_value("")  # the form comes back empty
    expect(alice_page.locator("#chat-messages")).to_contain_text("Good luck!", timeout=10000)

    # No reload: bob's chat polls and appends the message, in the chat and on top of the history, as text.
    expect(bob_page.locator("#chat-messages")).to_contain_text('Good luck! <script>alert("x")</script>', timeout=15000)
    expect(bob_page.locator("#history-entries li").first).to_contain_text("alice said: Good luck!")
    bob_page.fill("#chat-text", "Thanks, you too")
    bob_page.keyboard.press("Tab")
    bob_page.click("#chat-form button[type=submit]")
    expect(alice_page.locator("#chat-messages")).to_contain_text("Thanks, you too", timeout=15000)
    assert [m.text for m in Message.objects.order_by("id")] == ['Good luck! <script>alert("x")</script>',
                                                                "Thanks, you too"]

    # A message over the limit is refused in place, with the reason, and keeps the text.
    bob_page.evaluate("document.querySelector('#chat-text').removeAttribute('maxlength')")
    bob_page.fill("#chat-text", "y" * 501)
    bob_page.click("#chat-form button[type=submit]")
    expect(bob_page.locator("#chat-error")).to_contain_text("at most 500 characters")
    assert Message.objects.count() == 2
    # So is one with nothing to say once blanks are dropped (a 422, where over the limit is a 400).
    bob_page.fill("#chat-text", "   ")
    bob_page.click("#chat-form button[type=submit]")
    expect(bob_page.locator("#chat-error")).to_contain_text("Write something to say.")
    assert Message.objects.count() == 2
    bob_page.screenshot(path=str(tmp_path / "bob-chat.png"), full_page=True)


def test_the_tab_titles_say_unread_messages_and_whose_turn(browser, live_server, alice, bob, start_scripted_game):
    game = start_scripted_game(alice, bob)  # alice to move
    alice_page = log_in(browser, live_server, "alice")
    expect(alice_page).to_have_title("Your turn — Lobby · turnbased")
    bob_page = log_in(browser, live_server, "bob")
    expect(bob_page).to_have_title("Lobby · turnbased")

    # The lobby refreshes itself: a message from alice shows as unread in bob's lobby and its tab title.
    services.message_post(game_id=game.pk, user=alice, text="your move soon")
    expect(bob_page).to_have_title("(1) Lobby · turnbased", timeout=20000)
    expect(bob_page.locator("#my-games")).to_contain_text("1 new message")

    # On the game page a message seen while the tab shows is read at once; one that arrives while the
    # tab is hidden counts until the tab shows again.
    bob_page.goto(f"{live_server.url}/games/{game.pk}/")
    expect(bob_page).to_have_title(re.compile(r"^Love Letter #\d+ · turnbased$"))
    bob_page.evaluate(HIDE_THE_TAB)
    services.message_post(game_id=game.pk, user=alice, text="are you there?")
    expect(bob_page).to_have_title(re.compile(r"^\(1\) Love Letter"), timeout=15000)

    # alice moves: bob's tab says it is his turn, without a reload.
    play_services.submit_move(game_id=game.pk, user=alice, expected_seq=0, move={"card": "handmaid"})
    expect(bob_page).to_have_title(re.compile(r"^\(1\) Your turn — Love Letter #\d+ · turnbased$"), timeout=15000)
    bob_page.evaluate(SHOW_THE_TAB)
    expect(bob_page).to_have_title(re.compile(r"^Your turn — Love Letter"))
    wait_for(lambda: selectors.unread_count(game, bob) == 0, "the page to mark the messages read", timeout=10)
    bob_page.goto(f"{live_server.url}/")
    expect(bob_page).to_have_title("Your turn — Lobby · turnbased")  # both messages read on the game page


def _logged_in_page(context, live_server, username: str):
    page = context.new_page()
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=login]", username)
    page.fill("input[name=password]", "a-long-enough-pass-9")
    page.click("main button[type=submit]")
    return page


def test_the_browser_notification_is_asked_for_only_on_a_click(browser, live_server, alice, bob, start_scripted_game):
    game = start_scripted_game(alice, bob)
    context = browser.new_context()
    context.add_init_script("""
        window.__asked = 0; window.__shown = [];
        class FakeNotification { constructor(title, options) { window.__shown.push(options.body); } }
        FakeNotification.permission = "default";
        FakeNotification.requestPermission = () => { window.__asked += 1; FakeNotification.permission = "granted";
                                                     return Promise.resolve("granted"); };
        window.Notification = FakeNotification;
    """)
    page = _logged_in_page(context, live_server, "bob")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    assert page.evaluate("window.__asked") == 0
    page.get_by_role("button", name="Tell me when it is my turn").click()
    expect(page.get_by_role("button", name="Tell me when it is my turn")).to_be_hidden()
    assert page.evaluate("window.__asked") == 1
    play_services.submit_move(game_id=game.pk, user=alice, expected_seq=0, move={"card": "handmaid"})
    # Polled from here: a function the page waits on is evaluated from a string, which the policy forbids.
    wait_for(lambda: any(body.startswith("It is your turn") for body in page.evaluate("window.__shown")),
             "the notification that it is bob's turn", timeout=15)


def test_the_notification_offer_stays_hidden_where_the_browser_cannot_or_need_not_ask(browser, live_server, alice, bob,
                                                                                    start_scripted_game):
    game = start_scripted_game(alice, bob)
    context = browser.new_context()
    context.add_init_script("""
        class FakeNotification {}
        FakeNotification.permission = "denied";
        window.Notification = FakeNotification;
    """)
    page = _logged_in_page(context, live_server, "bob")
    for path in (f"/games/{game.pk}/", "/"):
        page.goto(f"{live_server.url}{path}")
        offer = page.locator("[data-notify-turn]")
        expect(offer).to_have_count(1)
        expect(offer).to_be_hidden()  # its hidden attribute, whatever display buttons have


def test_a_player_reports_a_message_and_mutes_its_author_from_its_menu(browser, live_server, alice, bob,
                                                                      start_scripted_game):
    game = start_scripted_game(alice, bob)
    services.message_post(game_id=game.pk, user=alice, text="something rude")
    bob_page = log_in(browser, live_server, "bob")
    bob_page.goto(f"{live_server.url}/games/{game.pk}/")
    message = bob_page.locator("#chat-messages li", has_text="something rude")

    # Report: the menu under the message, a reason, and the browser's confirmation.
    message.locator("summary").click()
    message.get_by_label("Why you report it (optional)").fill("insults")
    bob_page.once("dialog", lambda dialog: dialog.accept())
    message.get_by_role("button", name="Report").click()
    expect(bob_page.locator("body")).to_contain_text("reported to the site's admins")
    report = Report.objects.get()
    assert (report.message.text, report.reporter, report.reason) == ("something rude", bob, "insults")

    # Mute: alice's words leave bob's chat and history, now and later, until he unmutes her.
    message = bob_page.locator("#chat-messages li", has_text="something rude")
    message.locator("summary").click()
    message.get_by_role("button", name="Mute alice").click()
    expect(bob_page.locator("body")).to_contain_text("You no longer see what alice writes")
    expect(bob_page.locator("#chat-messages")).not_to_contain_text("something rude")
    expect(bob_page.locator("#history-entries")).not_to_contain_text("alice said")
    services.message_post(game_id=game.pk, user=alice, text="still there?")
    services.message_post(game_id=game.pk, user=bob, text="bob here")  # the poll does bring others' news
    expect(bob_page.locator("#chat-messages")).to_contain_text("bob here", timeout=15000)
    expect(bob_page.locator("#chat-messages")).not_to_contain_text("still there?")
    bob_page.locator(".chat-muted summary").click()
    bob_page.get_by_role("button", name="Unmute alice").click()
    expect(bob_page.locator("#chat-messages")).to_contain_text("still there?")


@pytest.mark.parametrize("slug", ["carcassonne-hg", "love-letter"])
def test_the_chat_sits_beside_the_board_on_a_wide_screen_and_after_it_on_a_phone(browser, live_server, alice, bob,
                                                                                slug, tmp_path):
    game = play_services.create_game(creator=alice, engine_slug=slug, players=2)
    play_services.join_game(game_id=game.pk, user=bob)
    services.message_post(game_id=game.pk, user=bob, text="hello " * 40)
    page = log_in(browser, live_server, "alice")
    page.set_viewport_size({"width": 1440, "height": 900})
    page.goto(f"{live_server.url}/games/{game.pk}/")
    board, chat = page.locator("#panel .board").bounding_box(), page.locator("#chat").bounding_box()
    assert chat["x"] >= board["x"] + board["width"] and chat["y"] < board["y"] + board["height"], (board, chat)
    page.screenshot(path=str(tmp_path / f"{slug}-wide.png"))

    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_server.url}/games/{game.pk}/")
    board, chat = page.locator("#panel .board").bounding_box(), page.locator("#chat").bounding_box()
    assert chat["y"] >= board["y"] + board["height"], (board, chat)
    assert page.evaluate("document.querySelector('#chat').scrollWidth <= document.querySelector('#chat').clientWidth")
    assert chat["x"] >= 0 and chat["x"] + chat["width"] <= 390, chat  # the chat itself never scrolls sideways
    page.screenshot(path=str(tmp_path / f"{slug}-phone.png"), full_page=True)
