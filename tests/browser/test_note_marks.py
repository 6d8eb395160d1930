"""A player's marks on the board's cards and tiles (issue 46) are drawn on the board for that player alone: a badge
with the mark's symbol on the marked card or tile (inside the SVG of Halali!, Carcassonne and Savernake Forest, on the
hand of Love Letter), still there after the board is drawn again as the game moves on; the other player's board has
none. No Content-Security-Policy violation (the conftest checks every page)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games import get_engine
from tests.browser.test_game_page import two_player_game
from tests.browser.test_play_in_browser import log_in
from turnbased.notes import services as notes
from turnbased.notes.selectors import spots_of
from turnbased.play import services
from turnbased.play.selectors import viewer_of

pytestmark = pytest.mark.django_db(transaction=True)


def _move(game, alice, bob) -> None:
    game.refresh_from_db()
    seat = game.to_move[0]
    user = alice if game.seats.get(index=seat).user_id == alice.pk else bob
    services.submit_move(game_id=game.pk, user=user, expected_seq=game.seq,
                         move=get_engine(game.engine).legal_moves(game.state, seat)[0])


@pytest.mark.parametrize("slug", ["love-letter", "halali", "carcassonne-hg", "savernake-forest"])
def test_a_mark_is_drawn_on_its_card_or_tile_for_its_player_alone(browser, live_server, alice, bob, slug):
    game = two_player_game(slug, alice, bob)
    spot = spots_of(viewer_of(game.pk, alice))[0][0]
    notes.mark_set(game_id=game.pk, user=alice, spot=spot, symbol="star", label="watch this")
    page = log_in(browser, live_server, "alice")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    badge = page.locator(f'[data-spot="{spot}"] .note-mark').first
    expect(badge).to_be_attached(timeout=10_000)
    drawn = badge.text_content().strip()  # an SVG badge holds its title (the words) before its glyph
    assert drawn.endswith("★") and drawn in ("★", "a star · watch this★")
    assert page.locator(".note-mark").count() == 1
    # The board drawn again (a move, the live page's update): the mark follows it.
    _move(game, alice, bob)
    expect(page.locator("#panel")).to_have_attribute("hx-get", re.compile(rf"seq={game.seq + 1}&"), timeout=15_000)
    expect(page.locator(f'[data-spot="{spot}"] .note-mark').first).to_be_attached(timeout=5_000)
    assert page.locator(".note-mark").count() == 1
    other = log_in(browser, live_server, "bob")
    other.goto(f"{live_server.url}/games/{game.pk}/")
    expect(other.locator(f'[data-spot="{spot}"]').first).to_be_attached(timeout=10_000)
    assert other.locator(".note-mark").count() == 0
