"""The game page in Chromium: the skip links and the focus ring, the header that follows the table, the
Carcassonne view that grows with the board, and no sideways scrolling on a phone."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games import engines, get_engine
from tests.browser.test_play_in_browser import log_in
from turnbased.play import services
from turnbased.play.models import Game

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 390, "height": 844}


def two_player_game(slug, alice, bob, **options) -> Game:
    game = services.create_game(creator=alice, engine_slug=slug, players=2, seed=f"page-{slug}", options=options)
    services.join_game(game_id=game.pk, user=bob)
    game.refresh_from_db()
    return game


def focused(page) -> dict:
    return page.evaluate("""() => {
        const el = document.activeElement, style = getComputedStyle(el), box = el.getBoundingClientRect();
        return {id: el.id, text: (el.innerText || "").trim(), cls: el.getAttribute("class") || "",
                outline: style.outlineStyle + " " + style.outlineWidth,
                visible: box.width > 0 && box.left >= 0 && box.top >= 0 && box.right <= innerWidth};
    }""")


def test_the_skip_links_lead_to_the_board_and_past_it_with_a_strong_focus_ring(browser, live_server, alice, bob):
    game = two_player_game("halali", alice, bob)
    page = log_in(browser, live_server, "alice")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_selector(".hb-tile")
    page.keyboard.press("Tab")
    first = focused(page)
    assert first["text"] == "Skip to the board" and first["visible"]
    assert first["outline"] == "solid 3px", "a keyboard focus ring is drawn, 3 px wide"
    page.keyboard.press("Enter")
    assert focused(page)["id"] == "board"
    page.keyboard.press("Tab")
    past = focused(page)
    assert past["text"] == "Skip past the board" and past["visible"]
    page.keyboard.press("Enter")
    assert focused(page)["id"] == "after-board"
    page.keyboard.press("Tab")
    after = focused(page)
    assert "hb-tile" not in after["cls"] and after["text"], after
    assert page.evaluate("document.activeElement.compareDocumentPosition(document.getElementById('board'))"
                         " & Node.DOCUMENT_POSITION_PRECEDING")


def test_the_header_follows_the_table_without_a_reload(browser, live_server, alice, bob):
    game = services.create_game(creator=alice, engine_slug="love-letter", players=2, seed="header")
    page = log_in(browser, live_server, "alice")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    header = page.locator("#game-header")
    assert "Abort table" in header.inner_text() and "Resign" not in header.inner_text()
    waiting = header.locator(".status").inner_text()
    page.click("#game-header details.table-options summary")

    services.join_game(game_id=game.pk, user=bob)
    page.wait_for_selector("#game-header button:has-text('Resign')", timeout=15000)
    assert page.evaluate("document.querySelector('#game-header details.table-options').open"), \
        "the fold-out the player opened stays open when the header is swapped"
    assert "Abort table" not in header.inner_text() and header.locator(".status").inner_text() != waiting
    assert "bob" in header.inner_text()
    # The board came in with the panel, first; the table follows it.
    assert page.evaluate("!!(document.getElementById('board').compareDocumentPosition("
                         "document.getElementById('game-header')) & Node.DOCUMENT_POSITION_FOLLOWING)")

    services.resign_game(game_id=game.pk, user=bob)
    page.wait_for_selector("#game-header .status-finished", timeout=15000)
    assert "Resign" not in header.inner_text()


def spots_outside_the_view(page) -> list:
    """Return the legal squares (spots, every rotation) not wholly inside the board's visible viewBox."""
    return page.evaluate("""() => {
        const svg = document.querySelector(".cb-svg"), v = svg.viewBox.baseVal;
        return [...svg.querySelectorAll(".cb-spot")].map(s => [+s.dataset.x, +s.dataset.y]).filter(([x, y]) =>
            x * 100 < v.x || x * 100 + 100 > v.x + v.width || -y * 100 < v.y || -y * 100 + 100 > v.y + v.height);
    }""")


def play_outwards(game, users, count, then_seat) -> Game:
    """Play at least ``count`` placements, each as far from the start tile as the legal moves allow, and on
    until ``then_seat`` is to move."""
    engine = get_engine(game.engine)
    played = 0
    while played < count or game.to_move != [then_seat]:
        seat = game.to_move[0]
        move = max(engine.legal_moves(game.state, seat), key=lambda m: (abs(m["x"]) + abs(m["y"]), -len(m)))
        services.submit_move(game_id=game.pk, user=users[seat], expected_seq=game.seq, move=move)
        game.refresh_from_db()
        played += 1
    return game


def test_the_carcassonne_view_grows_with_the_board_until_the_player_pans(browser, live_server, alice, bob):
    game = two_player_game("carcassonne-hg", alice, bob, first_player=1)
    page = log_in(browser, live_server, "alice")
    page.set_viewport_size({"width": 1280, "height": 1000})
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_selector(".cb-board.cb-js")
    first_view = page.get_attribute(".cb-svg", "viewBox")

    alice_seat = game.seats.get(user=alice).index
    users = {seat.index: seat.user for seat in game.seats.all()}
    game = play_outwards(game, users, 6, alice_seat)
    tiles = len(game.state["board"])
    expect(page.locator(".cb-svg .cb-tile")).to_have_count(tiles, timeout=20000)
    page.wait_for_selector(".cb-board.cb-js")
    assert page.get_attribute(".cb-svg", "viewBox") != first_view
    assert page.locator(".cb-spot").count() > 0 and spots_outside_the_view(page) == []
    assert page.get_attribute(".cb-board", "data-view") == "fitted"

    # A pan by hand: the player's view is kept through the next refresh.
    box = page.locator(".cb-svg").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] / 2 + 120, box["y"] + box["height"] / 2 + 60, steps=6)
    page.mouse.up()
    panned = page.get_attribute(".cb-svg", "viewBox")
    assert page.get_attribute(".cb-board", "data-view") == "kept"

    game = play_outwards(game, users, 1, alice_seat)
    expect(page.locator(".cb-svg .cb-tile")).to_have_count(len(game.state["board"]), timeout=20000)
    page.wait_for_selector(".cb-board.cb-js")
    assert page.get_attribute(".cb-svg", "viewBox") == panned
    assert spots_outside_the_view(page) != [], "the pan moved legal squares out of the view"
    # Fit fits again, and the view follows the board from then on.
    page.click(".cb-zoom-fit")
    assert spots_outside_the_view(page) == [] and page.get_attribute(".cb-board", "data-view") == "fitted"


@pytest.mark.parametrize("slug", list(engines()))
def test_the_game_page_fits_a_phone_without_sideways_scrolling(slug, browser, live_server, alice, bob, tmp_path):
    game = two_player_game(slug, alice, bob)
    page = log_in(browser, live_server, "alice")
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_load_state("networkidle")
    for fold in ("details.table-options summary", "details.how-to-play summary"):
        page.click(fold)
    page.screenshot(path=str(tmp_path / f"{slug}-phone.png"), full_page=True)
    widest = page.evaluate("""() => [...document.querySelectorAll("body *")]
        .filter(el => el.getBoundingClientRect().right > innerWidth + 0.5)
        .map(el => el.tagName + "." + (el.getAttribute("class") || "") + " " + Math.round(el.getBoundingClientRect().right))
        .slice(0, 8)""")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], widest


def test_a_four_player_love_letter_fits_a_phone_with_its_card_tracker(browser, live_server, alice, bob, make_user):
    """Three opponents give the card tracker three more columns: the table scrolls in its box, not the page."""
    game = services.create_game(creator=alice, engine_slug="love-letter", players=4)
    for user in (bob, make_user("carol"), make_user("dave")):
        services.join_game(game_id=game.pk, user=user)
    page = log_in(browser, live_server, "alice")
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_load_state("networkidle")
    assert page.locator("table.tracker th").count() == 7
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
