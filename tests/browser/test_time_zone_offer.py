"""The browser's time zone is offered (Intl's), taken with one click, and preselected at sign-up."""

from __future__ import annotations

import pytest

from tests.platform.conftest import PASSWORD
from turnbased.accounts.models import profile_of

pytestmark = pytest.mark.django_db(transaction=True)


def _page_in(browser, zone: str):
    return browser.new_context(timezone_id=zone).new_page()


def test_a_page_offers_the_browsers_zone_and_one_click_takes_it(browser, live_server, alice):
    page = _page_in(browser, "Europe/Paris")
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=login]", "alice")
    page.fill("input[name=password]", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(f"{live_server.url}/")
    offer = page.locator("form[data-time-zone-offer]")
    assert offer.is_visible() and "Your browser's time zone is Europe/Paris" in offer.inner_text()
    offer.get_by_role("button", name="Use it").click()
    page.wait_for_selector("text=Times are shown in Europe/Paris")
    profile = profile_of(alice)
    assert (profile.time_zone, profile.time_zone_chosen) == ("Europe/Paris", True)
    assert page.locator("form[data-time-zone-offer]").count() == 0


def test_no_offer_when_the_browser_agrees(browser, live_server, alice):
    page = _page_in(browser, "UTC")
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=login]", "alice")
    page.fill("input[name=password]", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(f"{live_server.url}/")
    assert not page.locator("form[data-time-zone-offer]").is_visible()


def test_the_settings_page_picks_the_browsers_zone_on_a_click(browser, live_server, alice):
    page = _page_in(browser, "Australia/Perth")
    page.goto(f"{live_server.url}/accounts/login/?next=/accounts/settings/")
    page.fill("input[name=login]", "alice")
    page.fill("input[name=password]", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(f"{live_server.url}/accounts/settings/")
    page.click("text=Use my browser's zone (Australia/Perth)")
    assert page.input_value("select[name=time_zone]") == "Australia/Perth"


def test_sign_up_starts_at_the_browsers_zone(browser, live_server):
    page = _page_in(browser, "Asia/Tokyo")
    page.goto(f"{live_server.url}/accounts/signup/")
    assert page.input_value("select[name=time_zone]") == "Asia/Tokyo"
