"""axe-core on every state a move passes through on each game's board, before it is sent: nothing critical or serious.

A move on a board is made in steps (Love Letter: a card, a player, a guess; Halali!: a tile, where it goes, the
confirmation; Carcassonne: where the tile goes, then a hunter or a hut; Savernake Forest: a helper's card, an open
cell, what stays of a shared path, where the token goes). Each step redraws the board; each is read by axe inside
the panel, for the player to move mid-game (``positions.position``), at the desktop's and the phone's sizes.
``make test`` reads them in English; ``make test-long`` in each language the site speaks (a label's words, and so
whether a name matches what is shown, depend on it).
"""

from __future__ import annotations

import pytest

from tests.browser.axe import axe_violations, described, serious
from tests.browser.positions import BOARD_READY, SIZES, position
from tests.browser.test_play_in_browser import log_in
from turnbased.accounts.services.languages import language_choose

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def _first(page, selector: str) -> bool:
    """Click the first visible element matching ``selector``; tell whether there was one."""
    for element in page.locator(selector).all():
        if element.is_visible():
            element.click()
            page.wait_for_timeout(150)  # the board redraws
            return True
    return False


def love_letter(page):
    yield "nothing chosen"
    if _first(page, ".ll-hand .ll-big:not([aria-disabled=true])"):
        yield "a card chosen"
    if _first(page, ".ll-target:not([disabled])"):
        yield "a player chosen"
    if _first(page, ".ll-guess"):
        yield "a card named"


def halali(page):
    yield "nothing chosen"
    for tile in page.locator(".hb-tile").all():
        tile.click()
        page.wait_for_timeout(150)
        if page.locator(".hb-dest.hb-on").count():
            yield "a tile chosen, where it may go shown"
            if _first(page, ".hb-dest.hb-on"):
                yield "a step chosen, asked to confirm"
            return
        if page.locator(".hb-confirm-go").is_visible():
            yield "a tile to turn over, asked to confirm"
            page.keyboard.press("Escape")


def carcassonne(page):
    yield "nothing chosen"
    if _first(page, ".cb-spot.cb-on"):
        yield "a place chosen, the pieces offered"
    if _first(page, ".cb-region-marker"):
        yield "a piece put on a region"


def savernake(page):
    yield "nothing chosen"
    if _first(page, ".sf-slot:not([disabled])"):
        yield "a helper's card chosen, the open cells scored"
    if _first(page, ".sf-open.sf-can"):
        yield "a cell chosen"
    for _ in range(4):
        if _first(page, ".sf-keep:not([hidden]) input[type=radio]"):
            yield "what stays of a shared path chosen"
        elif _first(page, ".sf-token:not([hidden]) .sf-token-options button"):
            yield "where the token goes chosen"
        else:
            return


STEPS = {"love-letter": love_letter, "halali": halali, "carcassonne-hg": carcassonne, "savernake-forest": savernake}
CASES = [pytest.param(slug, language, id=f"{slug}-{language}", marks=pytest.mark.long if language != "en" else ())
         for slug in sorted(STEPS) for language in ("en", "hu", "de")]


@pytest.mark.parametrize("slug, language", CASES)
def test_every_step_of_a_move_has_nothing_critical_or_serious(browser, live_server, alice, bob, slug, language):
    game = position(slug, [alice, bob], finished=False)
    player = [alice, bob][game.to_move[0]]
    language_choose(user=player, language=language)
    page = log_in(browser, live_server, player.username)
    found, steps = {}, []
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        page.goto(f"{live_server.url}/games/{game.pk}/")
        page.wait_for_selector(BOARD_READY[slug])
        page.wait_for_timeout(300)
        for step in STEPS[slug](page):
            steps.append(f"{size}: {step}")
            violations = serious(axe_violations(page, within="#panel"))
            if violations:
                found[f"{size}, {step}"] = violations
    assert len(steps) >= 4, steps  # at least one step beyond the board as it comes, at each size
    assert not found, "\n".join(f"{where}:\n{described(violations)}" for where, violations in found.items())
