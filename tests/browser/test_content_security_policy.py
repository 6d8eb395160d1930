"""The pages' scripts work under the Content-Security-Policy (scripts from this site's files only).

Every browser test fails on any violation (tests/browser/conftest.py); these tests drive what
used to be inline: the Love Letter Princess guard, the resign confirmation, the invite link, the
game chooser of the new-table form, and the API docs page (Swagger UI).
"""

from __future__ import annotations

import pytest

from tests.browser.test_play_in_browser import log_in
from tests.platform.conftest import SCRIPTED_CLASSIC_2P
from tests.waiting import wait_for
from turnbased.play import services
from turnbased.play.models import Game, GameStatus, Move

pytestmark = pytest.mark.django_db(transaction=True)

# alice (seat 0) holds the Princess and draws the Handmaid.
PRINCESS_IN_HAND = ["guard", "king", "countess", "baron", "princess", *SCRIPTED_CLASSIC_2P[5:]]


def test_the_watch_reports_a_blocked_inline_script(browser, live_server, alice):
    page = log_in(browser, live_server, "alice")
    page.evaluate("""() => {
        const script = document.createElement("script");
        script.textContent = "window.ranInline = true";
        document.body.appendChild(script);
    }""")
    page.wait_for_timeout(200)
    assert page.evaluate("() => window.ranInline === undefined")
    assert any("script-src" in violation for violation in browser.violations), browser.violations
    browser.violations.clear()  # seen: this test's one expected violation


def test_the_princess_asks_first(browser, live_server, alice, bob):
    game = services.create_game(creator=alice, engine_slug="love-letter", players=2,
                                options={"deck": PRINCESS_IN_HAND, "first_player": 0})
    services.join_game(game_id=game.pk, user=bob)
    page = log_in(browser, live_server, "alice")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.click("details.ll-fallback > summary")  # the written-out moves, under the cards
    questions = []

    page.once("dialog", lambda dialog: (questions.append(dialog.message), dialog.dismiss()))
    page.get_by_role("button", name="princess", exact=True).click()
    page.wait_for_timeout(300)
    assert questions and "knocks you out" in questions[0]
    assert not Move.objects.filter(game=game).exists()

    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="princess", exact=True).click()
    page.wait_for_selector("text=played the Princess")
    assert Move.objects.get(game=game, seq=1).move == {"card": "princess"}
    page.context.close()


def test_resign_asks_for_confirmation_and_the_invite_link_selects_itself(browser, live_server, alice, bob,
                                                                        start_scripted_game):
    table = services.create_game(creator=alice, engine_slug="love-letter", players=3)
    page = log_in(browser, live_server, "alice")
    page.goto(f"{live_server.url}/games/{table.pk}/")
    page.click("input.invite")
    selected = page.evaluate("() => window.getSelection().toString() || document.activeElement.value.substring("
                             "document.activeElement.selectionStart, document.activeElement.selectionEnd)")
    assert selected.endswith(f"/games/{table.pk}/invite/{table.invite_code}/")

    game = start_scripted_game(alice, bob)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.once("dialog", lambda dialog: dialog.dismiss())
    page.click("form.resign button")
    page.wait_for_timeout(300)
    assert Game.objects.get(pk=game.pk).status == GameStatus.ACTIVE

    page.once("dialog", lambda dialog: dialog.accept())
    page.click("form.resign button")
    page.wait_for_selector("text=You resigned.")
    assert Game.objects.get(pk=game.pk).status == GameStatus.FINISHED
    page.context.close()


def test_choosing_a_game_reloads_the_new_table_form(browser, live_server, alice):
    page = log_in(browser, live_server, "alice")
    page.goto(f"{live_server.url}/games/new/?game=love-letter")
    page.select_option("select[name=game]", "halali")
    page.wait_for_url(f"{live_server.url}/games/new/?game=halali")
    assert page.input_value("input[name=game]") == "halali"


def _operations_drawn_while_scrolling(page) -> set[str]:
    """Scroll the docs page from top to bottom, collecting every operation drawn on the way ("GET /api/..."). With 150
    rows of tags and operations or more, Swagger UI draws only those near the screen (its virtualized list): an
    operation is drawn when it is scrolled to, not all at once (CI once counted 6 at the top of the page)."""
    drawn: set[str] = set()
    page.evaluate("() => window.scrollTo(0, 0)")
    last = -1
    for _ in range(400):  # far more screens than the page holds
        for summary in page.locator(".opblock-summary").all():
            method = summary.locator(".opblock-summary-method").inner_text().strip()
            path = summary.locator(".opblock-summary-path").inner_text().strip().replace("\u200b", "")
            drawn.add(f"{method} {path}")
        at = page.evaluate("() => window.scrollY")
        if at == last:
            return drawn
        last = at
        page.mouse.wheel(0, 600)
        page.wait_for_timeout(60)
    raise AssertionError("the docs page did not come to its end")


def test_the_api_docs_page_draws_every_operation_and_the_browsable_api_works(browser, live_server, alice):
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    served = {f"{method.upper()} {path}" for path, item in schema["paths"].items() for method in item
              if method in ("get", "post", "put", "patch", "delete")}
    page = log_in(browser, live_server, "alice")
    page.goto(f"{live_server.url}/api/docs/")
    page.wait_for_selector(".opblock", timeout=20000)
    assert "turnbased API" in page.inner_text(".info")
    page.mouse.move(640, 400)  # the wheel scrolls what is under the pointer: the page
    drawn = wait_for(lambda: (lambda seen: seen if seen >= served else None)(_operations_drawn_while_scrolling(page)),
                     "every operation of the schema drawn", timeout=60, every=0)
    assert drawn == served
    page.evaluate("() => window.scrollTo(0, 0)")
    game_types = page.locator(".opblock-summary", has_text="/api/game-types/").first
    for _ in range(400):
        if game_types.count():
            break
        page.mouse.wheel(0, 600)
        page.wait_for_timeout(60)
    game_types.click()
    page.wait_for_selector(".opblock-body")

    page.goto(f"{live_server.url}/api/game-types/")  # DRF's browsable API, as a browser gets it
    page.wait_for_selector(".response-info")
    assert "love-letter" in page.inner_text(".response-info")
