"""The new-table page: one seat picker per player, a table of bots from the web, and no sideways scroll on a phone."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.test_play_in_browser import log_in
from turnbased.play import services
from turnbased.play.models import Game, GameStatus

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 390, "height": 844}


def _visible_seat_pickers(page) -> list[str]:
    return page.eval_on_selector_all("label.seat-choice:not([hidden]) select", "els => els.map(e => e.name)")


def test_the_seat_pickers_follow_the_player_count(browser, live_server, alice):
    page = log_in(browser, live_server, "alice")
    page.goto(f"{live_server.url}/games/new/?game=love-letter")
    assert _visible_seat_pickers(page) == ["seat_0", "seat_1"]
    page.select_option("select[name=players]", "4")
    assert _visible_seat_pickers(page) == ["seat_0", "seat_1", "seat_2", "seat_3"]
    page.select_option("select[name=players]", "3")
    page.select_option("select[name=seat_1]", "basic")
    page.click("text=Create table")
    page.wait_for_url(f"{live_server.url}/games/*/")
    game = Game.objects.get()
    assert game.seat_count == 3 and [seat.bot for seat in game.seats.all()] == ["", "basic"]


def test_a_table_of_bots_is_made_on_the_web_and_starts(browser, live_server, alice):
    page = log_in(browser, live_server, "alice")
    page.goto(f"{live_server.url}/games/new/?game=love-letter")
    page.select_option("select[name=seat_0]", "basic")
    page.select_option("select[name=seat_1]", "basic")
    page.click("text=Create table")
    page.wait_for_url(f"{live_server.url}/games/*/")
    game = Game.objects.get()
    assert game.status in (GameStatus.ACTIVE, GameStatus.FINISHED)
    assert not game.seats.filter(user=alice).exists() and game.created_by == alice


def test_the_clock_box_stays_inside_its_card(browser, live_server, alice):
    page = log_in(browser, live_server, "alice")
    page.goto(f"{live_server.url}/games/new/?game=savernake-forest")
    card = page.locator("section.new-game").bounding_box()
    clock = page.locator("fieldset.clock-choice").bounding_box()
    assert clock["x"] + clock["width"] <= card["x"] + card["width"]


@pytest.mark.parametrize("path", ["/", "/games/new/?game=carcassonne-hg", "/games/new/?game=love-letter"])
def test_a_phone_does_not_scroll_sideways(browser, live_server, alice, bob, make_user, path):
    for engine in ("carcassonne-hg", "love-letter", "halali"):  # a lobby with rows of every kind
        table = services.create_game(creator=alice, engine_slug=engine, players=2)
        services.join_game(game_id=table.pk, user=bob)
    services.create_game(creator=make_user("a-rather-long-username-x"), engine_slug="savernake-forest", players=3)
    services.create_game(creator=alice, engine_slug="savernake-forest", players=4)
    page = log_in(browser, live_server, "alice")
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}{path}")
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{path} is {width} px wide on a {PHONE['width']} px phone"


DESKTOP = {"width": 1280, "height": 1000}
SIZES = {"desktop": DESKTOP, "phone": PHONE}


def _visible(page, selector: str) -> list[str]:
    return page.eval_on_selector_all(selector, "els => els.filter(e => e.checkVisibility()).map(e => e.name)")


@pytest.mark.parametrize("size", SIZES)
def test_rule_variants_fold_under_advanced_at_their_defaults(browser, live_server, alice, size):
    page = log_in(browser, live_server, "alice")
    page.set_viewport_size(SIZES[size])
    page.goto(f"{live_server.url}/games/new/?game=carcassonne-hg")
    form = "form[data-new-game]"
    assert _visible(page, f"{form} .option-choice select") == ["edition"], "only the edition shows up front"
    advanced = page.locator("details.advanced-options")
    expect(advanced.locator("summary")).to_have_text("Advanced: 8 rule variants")
    assert not advanced.evaluate("el => el.open")
    advanced.locator("summary").click()
    assert len(_visible(page, f"{form} .advanced-options select")) == 8
    page.click("text=Create table")
    page.wait_for_url(f"{live_server.url}/games/*/")
    game = Game.objects.get()
    assert game.options["menhir_needs_occupied_forest"] is True and game.options["unplaceable_tile"] == "end_turn"


@pytest.mark.parametrize("size", SIZES)
def test_the_clock_fields_show_only_for_the_chosen_clock(browser, live_server, alice, size):
    page = log_in(browser, live_server, "alice")
    page.set_viewport_size(SIZES[size])
    page.goto(f"{live_server.url}/games/new/?game=love-letter")
    fields = "fieldset.clock-choice input, fieldset.clock-choice select"
    # A new table has a slow-play clock unless the player chooses none: three days a move.
    assert page.input_value("select[name=clock]") == "per_move"
    assert page.input_value("select[name=days_per_move]") == "3"
    assert _visible(page, fields) == ["clock", "days_per_move", "weekends_off", "allow_absence", "expiry", "stand_in"]
    page.select_option("select[name=clock]", "none")
    # No clock: nothing else to set but who plays for a player who leaves (a clock or not, a seat may be left).
    assert _visible(page, fields) == ["clock", "stand_in"]
    page.select_option("select[name=clock]", "per_move")
    assert _visible(page, fields) == ["clock", "days_per_move", "weekends_off", "allow_absence", "expiry", "stand_in"]
    page.select_option("select[name=clock]", "bank")
    assert _visible(page, fields) == ["clock", "bank_days", "increment_days", "weekends_off", "allow_absence",
                                      "expiry", "stand_in"]
    page.select_option("select[name=clock]", "per_move")
    page.select_option("select[name=days_per_move]", "5")
    page.uncheck("input[type=checkbox][name=allow_absence]")
    page.select_option("select[name=stand_in]", "strong")
    page.click("text=Create table")
    page.wait_for_url(f"{live_server.url}/games/*/")
    clock = Game.objects.get().clock
    assert (clock.kind, clock.days_per_move, clock.allow_absence, clock.stand_in) == ("per_move", 5, False, "strong")


def test_without_script_every_clock_field_shows_and_works(browser, live_server, alice):
    page = log_in(browser, live_server, "alice")
    context = browser.new_context(java_script_enabled=False, storage_state=page.context.storage_state())
    bare = context.new_page()
    bare.goto(f"{live_server.url}/games/new/?game=love-letter")
    assert _visible(bare, "fieldset.clock-choice input, fieldset.clock-choice select") == [
        "clock", "days_per_move", "bank_days", "increment_days", "weekends_off", "allow_absence", "expiry", "stand_in"]
    bare.select_option("select[name=clock]", "bank")
    bare.fill("input[name=bank_days]", "10")
    bare.click("text=Create table")
    bare.wait_for_url(f"{live_server.url}/games/*/")
    clock = Game.objects.get().clock
    assert (clock.kind, clock.bank_days, clock.allow_absence) == ("bank", 10, True)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("slug", ["carcassonne-hg", "love-letter", "savernake-forest", "halali"])
def test_every_select_is_full_size_with_its_whole_text(browser, live_server, alice, size, slug):
    page = log_in(browser, live_server, "alice")
    page.set_viewport_size(SIZES[size])
    page.goto(f"{live_server.url}/games/new/?game={slug}")
    page.select_option("select[name=clock]", "per_move")
    page.locator("details.advanced-options summary").click()
    page.select_option("select[name=seat_1]", "basic")
    boxes = page.eval_on_selector_all("main select", """els => els.filter(e => e.checkVisibility()).map(e => {
        const box = e.getBoundingClientRect();
        return {name: e.name, height: box.height, right: box.right, cut: e.scrollHeight > e.clientHeight
                || e.scrollWidth > e.clientWidth, font: parseFloat(getComputedStyle(e).fontSize)};
    })""")
    assert len(boxes) >= 6
    width = SIZES[size]["width"]
    for box in boxes:
        assert box["height"] >= 44 and box["font"] >= 16, f"{box['name']} is not full size: {box}"
        assert not box["cut"] and box["right"] <= width, f"{box['name']} cuts its text off: {box}"
