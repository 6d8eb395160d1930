"""A move refused for its rate shows its reason in the panel of a real browser (htmx swaps the 429)."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.browser.test_play_in_browser import log_in
from turnbased.play.models import Move

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_refused_move_says_why_in_the_panel(browser, live_server, alice, bob, start_scripted_game, settings):
    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {**rates, "moves": "1/min"}}
    game = start_scripted_game(alice, bob)
    page = log_in(browser, live_server, "alice")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    assert "Your turn." in page.inner_text("#panel")

    spender = Client()
    spender.force_login(alice)
    spender.post(f"/games/{game.pk}/move/", {"text": "fly away", "expected_seq": "0"})
    page.get_by_role("button", name=re.compile(r"^Handmaid 4\b")).click()
    page.get_by_role("button", name="Confirm", exact=True).click()
    alert = page.wait_for_selector("#panel [role=alert]")
    assert alert.inner_text().startswith("Too many moves (at most 1 per minute). Try again in ")
    assert "Your turn." in page.inner_text("#panel")
    assert not Move.objects.filter(game=game).exists()
