"""Pages do not shift as they load: the layout shifts Chromium reports (the Layout Instability API, as Lighthouse
reads it) add up to almost nothing on the lobby and each game's page, at a phone's size and a desktop's, loaded as
a slow phone on a slow network would (Lighthouse's way), while the page's scripts draw what they add (the offer to
tell of turns, the board)."""

from __future__ import annotations

import pytest

from tests.browser.positions import BOARD_READY, SIZES, position
from tests.browser.test_play_in_browser import log_in

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

WATCH = """
window.__shifts = [];
new PerformanceObserver(list => {
  for (const entry of list.getEntries()) {
    if (!entry.hadRecentInput) window.__shifts.push({value: entry.value, sources: (entry.sources || []).map(
      source => source.node && source.node.nodeType === 1 ? source.node.outerHTML.slice(0, 120) : "")});
  }
}).observe({type: "layout-shift", buffered: true});
"""
# Lighthouse's "good" is under 0.1; a page whose parts keep their place scores far below.
MOST = 0.01


@pytest.mark.parametrize("size", sorted(SIZES))
def test_the_lobby_and_every_games_page_keep_their_layout_as_they_load(browser, live_server, alice, bob, size):
    games = {slug: position(slug, [alice, bob], finished=False) for slug in sorted(BOARD_READY)}
    # A browser in another zone than the account's: every page offers it (the offer must not push the page down).
    page = log_in(browser, live_server, "alice", timezone_id="America/New_York")
    page.set_viewport_size(SIZES[size])
    page.context.add_init_script(WATCH)
    # A slow phone on a slow network, as Lighthouse loads a page: what arrives late (a style sheet in the body, a
    # script's drawing) moves what was drawn before it; on a fast load it would all come before the first paint.
    devtools = page.context.new_cdp_session(page)
    devtools.send("Emulation.setCPUThrottlingRate", {"rate": 4})
    devtools.send("Network.enable")
    devtools.send("Network.emulateNetworkConditions", {"offline": False, "latency": 150, "downloadThroughput": 200_000,
                                                       "uploadThroughput": 100_000})
    for path, ready in (("/", "#my-games"),
                        *((f"/games/{game.pk}/", BOARD_READY[slug]) for slug, game in games.items())):
        page.goto(f"{live_server.url}{path}")
        page.wait_for_selector(ready)
        page.wait_for_timeout(3000)  # the offer decided, the live stream connected, the board drawn
        assert page.locator("form[data-time-zone-offer]").is_visible()
        shifts = page.evaluate("() => window.__shifts")
        assert sum(shift["value"] for shift in shifts) < MOST, (path, shifts)
