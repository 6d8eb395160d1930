"""Times in each person's own zone, named: on pages (the viewer's), in emails (the recipient's); the API stays UTC."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest
import time_machine
from django.test import Client
from django.utils import timezone as django_timezone
from zoneinfo import ZoneInfo

from tests.platform.conftest import PASSWORD, SCRIPTED_CLASSIC_2P
from tests.platform.play.test_pages import logged_in
from turnbased.accounts.models import Profile, profile_of
from turnbased.accounts.templatetags.time_zones import when
from turnbased.mail import compose
from turnbased.play import services

pytestmark = pytest.mark.django_db

FRIDAY_NOON = datetime(2026, 11, 27, 12, 0, tzinfo=timezone.utc)  # three days per move: due Monday noon UTC


def _set_zone(user, zone: str) -> None:
    profile = profile_of(user)
    profile.time_zone, profile.time_zone_chosen = zone, True
    profile.save()


@pytest.fixture
def clocked_game(alice, bob):
    with time_machine.travel(FRIDAY_NOON, tick=False):
        game = services.create_game(creator=alice, engine_slug="love-letter", players=2,
                                    options={"deck": SCRIPTED_CLASSIC_2P, "first_player": 0},
                                    time_control={"kind": "per_move", "days_per_move": 3})
        services.join_game(game_id=game.pk, user=bob)
        game.refresh_from_db()
        yield game


def test_the_game_page_shows_the_deadline_in_the_viewers_zone_with_its_name(clocked_game, alice, bob):
    _set_zone(alice, "Europe/Paris")
    _set_zone(bob, "America/New_York")
    assert "due Mon 30 Nov, 13:00 CET" in logged_in(alice).get(f"/games/{clocked_game.pk}/").content.decode()
    assert "due Mon 30 Nov, 07:00 EST" in logged_in(bob).get(f"/games/{clocked_game.pk}/").content.decode()


def test_the_lobby_shows_my_deadline_in_my_zone(clocked_game, alice):
    _set_zone(alice, "Asia/Tokyo")
    assert "Mon 30 Nov, 21:00 JST" in logged_in(alice).get("/").content.decode()


def test_a_changed_zone_shows_on_the_next_page(clocked_game, alice, api_client_for):
    client = logged_in(alice)
    assert "due Mon 30 Nov, 12:00 UTC" in client.get(f"/games/{clocked_game.pk}/").content.decode()
    api_client_for(alice).patch("/api/me/", {"time_zone": "Europe/Paris"}, format="json")
    assert "due Mon 30 Nov, 13:00 CET" in client.get(f"/games/{clocked_game.pk}/").content.decode()


def test_the_api_keeps_utc_whatever_the_zone(clocked_game, alice, api_client_for):
    _set_zone(alice, "Asia/Tokyo")
    client = logged_in(alice)  # a browser session too: the API ignores the page zone either way
    for answer in (api_client_for(alice).get(f"/api/games/{clocked_game.pk}/"),
                   client.get(f"/api/games/{clocked_game.pk}/")):
        clock = next(row for row in answer.json()["clocks"] if row["seat"] == 0)
        assert clock["deadline"] == "2026-11-30T12:00:00Z"


def test_a_turn_email_gives_the_deadline_in_the_recipients_zone(clocked_game, alice):
    _set_zone(alice, "America/Sao_Paulo")  # no abbreviation in tzdata: named by its offset
    email = compose.turn_email(clocked_game, alice)
    assert "deadline Mon 30 Nov 2026, 09:00 UTC-03" in email.body
    assert "Mon 30 Nov 2026, 09:00 UTC-03" in email.alternatives[0][0]
    assert django_timezone.get_current_timezone_name() == "UTC", "the zone does not outlive the email"


def test_when_names_the_zone_and_ignores_what_is_not_a_moment():
    moment = datetime(2026, 7, 1, 12, 0, tzinfo=timezone.utc)
    with django_timezone.override(ZoneInfo("Europe/London")):
        assert when(moment) == "Wed 1 Jul, 13:00 BST"
        assert when(moment, "year") == "Wed 1 Jul 2026, 13:00 BST"
    assert when(None) == "" and when("soon") == ""


def test_the_settings_page_picks_from_the_zone_list_and_offers_the_browsers(alice):
    client = logged_in(alice)
    page = client.get("/accounts/settings/").content.decode()
    assert '<select name="time_zone"' in page and 'data-browser-time-zone="offer"' in page
    assert '<option value="Europe/Paris">Europe/Paris</option>' in page
    assert '<option value="America/Argentina/Buenos_Aires">America/Argentina/Buenos Aires</option>' in page
    response = client.post("/accounts/settings/", {"time_zone": "Mars/Olympus", "reminder_lead_hours": 12})
    assert response.status_code == 200 and profile_of(alice).time_zone == "UTC"
    client.post("/accounts/settings/", {"time_zone": "Europe/Paris", "reminder_lead_hours": 12})
    profile = profile_of(alice)
    assert profile.time_zone == "Europe/Paris" and profile.time_zone_chosen


def test_a_legacy_zone_set_through_the_api_stays_selectable(alice, api_client_for):
    api_client_for(alice).patch("/api/me/", {"time_zone": "US/Eastern"}, format="json")
    page = logged_in(alice).get("/accounts/settings/").content.decode()
    assert '<option value="US/Eastern" selected>' in page


def test_pages_offer_the_browsers_zone_until_one_is_chosen(alice):
    client = logged_in(alice)
    client.cookies["browser_time_zone"] = "America/New_York"
    page = client.get("/").content.decode()
    assert "data-time-zone-offer" in page and 'data-current="UTC"' in page
    assert "Your browser's time zone is <strong>America/New York</strong>; times here are shown in UTC." in page
    assert '<button type="submit" name="time_zone" value="America/New_York">Use it</button>' in page
    assert '<button type="submit" name="time_zone" value="UTC" class="secondary">Keep UTC</button>' in page
    response = client.post("/accounts/settings/time-zone/", {"time_zone": "Asia/Tokyo", "next": "/games/new/"})
    assert response.status_code == 302 and response.url == "/games/new/"
    profile = profile_of(alice)
    assert (profile.time_zone, profile.time_zone_chosen) == ("Asia/Tokyo", True)
    assert "data-time-zone-offer" not in client.get("/").content.decode()


@pytest.mark.parametrize("cookie", [None, "UTC", "Etc/UTC", "GMT", "Mars/Olympus", "", "../../etc/passwd",
                                    "Europe/Paris\x00", "<script>", "x" * 5000])
def test_no_offer_without_a_browser_zone_worth_offering(alice, cookie):
    """No cookie yet (the page's script leaves it for the next page), another name for the zone the pages are in
    already, or anything that is not a zone's name: the page is drawn without an offer, and without an error."""
    client = logged_in(alice)
    if cookie is not None:
        client.cookies["browser_time_zone"] = cookie
    response = client.get("/")
    assert response.status_code == 200 and "data-time-zone-offer" not in response.content.decode()


def test_keeping_the_current_zone_also_ends_the_offer(alice):
    client = logged_in(alice)
    client.post("/accounts/settings/time-zone/", {"time_zone": "UTC"})
    assert profile_of(alice).time_zone_chosen and "data-time-zone-offer" not in client.get("/").content.decode()


@pytest.mark.parametrize("zone", ["Mars/Olympus", "", "../../etc/passwd", "Europe/Paris\x00"])
def test_a_bad_offered_zone_changes_nothing(alice, zone):
    client = logged_in(alice)
    response = client.post("/accounts/settings/time-zone/", {"time_zone": zone}, follow=True)
    assert response.status_code == 200 and "is not a time zone name" in response.content.decode()
    profile = profile_of(alice)
    assert (profile.time_zone, profile.time_zone_chosen) == ("UTC", False)


def test_the_offer_sends_nobody_to_another_site(alice):
    response = logged_in(alice).post("/accounts/settings/time-zone/",
                                     {"time_zone": "Asia/Tokyo", "next": "https://evil.example/"})
    assert response.url == "/"


def test_sign_up_keeps_the_zone_the_form_preselected(client):
    page = client.get("/accounts/signup/").content.decode()
    assert 'data-browser-time-zone="preselect"' in page
    client.post("/accounts/signup/", {"username": "erin", "email": "erin@example.com", "password1": PASSWORD,
                                      "password2": PASSWORD, "time_zone": "Australia/Perth"})
    profile = Profile.objects.get(user__username="erin")
    assert (profile.time_zone, profile.time_zone_chosen) == ("Australia/Perth", True)


def test_an_account_made_without_a_zone_is_offered_one(make_user):
    user = make_user("frank")
    client = Client()
    client.login(username="frank", password=PASSWORD)
    assert profile_of(user).time_zone_chosen is False
    client.cookies["browser_time_zone"] = "Europe/Budapest"
    assert "data-time-zone-offer" in client.get("/").content.decode()
