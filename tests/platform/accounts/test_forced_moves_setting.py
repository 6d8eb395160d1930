"""The "Play my forced moves" setting: off for people and on for bot accounts until chosen, on the settings page and
in ``GET/PATCH /api/me/`` (what it does at a table: tests/platform/play/test_forced_moves.py)."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from turnbased.accounts.models import Profile, plays_forced_moves, profile_of
from turnbased.play.services.bot_accounts import bot_account_enable

pytestmark = pytest.mark.django_db

FORM = {"time_zone": "Europe/London", "reminder_lead_hours": 12, "confirm_moves": "on"}


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def ticked(page: str) -> bool:
    box = re.search(r'<input type="checkbox" name="play_forced_moves"[^>]*>', page)
    assert box, "no play_forced_moves box on the page"
    return " checked" in box.group(0)


def test_a_person_finds_it_off_on_the_settings_page_and_turns_it_on_and_off(alice):
    client = logged_in(alice)
    page = client.get("/accounts/settings/").content.decode()
    assert "Play my forced moves" in page and not ticked(page)

    assert client.post("/accounts/settings/", {**FORM, "play_forced_moves": "on"}).status_code == 302
    assert profile_of(alice).plays_forced_moves is True
    assert ticked(client.get("/accounts/settings/").content.decode())

    assert client.post("/accounts/settings/", FORM).status_code == 302
    profile = profile_of(alice)
    assert profile.plays_forced_moves is False and profile.play_forced_moves is None  # a person's default: no choice


def test_it_reads_in_the_persons_language(alice):
    client = logged_in(alice)
    assert "Kényszerlépéseim automatikus megtétele" in client.get(
        "/accounts/settings/", HTTP_ACCEPT_LANGUAGE="hu").content.decode()
    assert "Meine Zwangszüge automatisch spielen" in client.get(
        "/accounts/settings/", HTTP_ACCEPT_LANGUAGE="de").content.decode()


def test_a_bot_account_has_it_on_until_its_owner_turns_it_off(robo, api_client_for):
    assert ticked(logged_in(robo).get("/accounts/settings/").content.decode())
    api = api_client_for(robo)
    assert api.get("/api/me/").json()["play_forced_moves"] is True

    answer = api.patch("/api/me/", {"play_forced_moves": False}, format="json")
    assert answer.status_code == 200 and answer.json()["play_forced_moves"] is False
    assert Profile.objects.get(user=robo).play_forced_moves is False
    assert api.patch("/api/me/", {"play_forced_moves": True}, format="json").json()["play_forced_moves"] is True
    assert Profile.objects.get(user=robo).play_forced_moves is None  # the bots' default again


def test_the_api_turns_it_on_for_a_person_and_refuses_what_is_no_yes_or_no(alice, api_client_for):
    api = api_client_for(alice)
    assert api.get("/api/me/").json() == {"language": "", "time_zone": "UTC", "reminder_lead_hours": 12,
                                          "play_forced_moves": False}
    assert api.patch("/api/me/", {"play_forced_moves": True}, format="json").json()["play_forced_moves"] is True
    for bad in ("maybe", None, [], {"on": True}, 2, 0, 1, "true"):  # a JSON boolean only, as the schema says
        answer = api.patch("/api/me/", {"play_forced_moves": bad}, format="json")
        assert answer.status_code == 400 and "play_forced_moves" in answer.json()["errors"], bad
    assert Profile.objects.get(user=alice).play_forced_moves is True


def test_an_account_that_becomes_a_bot_account_gets_the_bots_default_unless_it_chose(make_user):
    never_chose, chose_off = make_user("quiet"), make_user("careful")
    profile = profile_of(chose_off)
    profile.choose_play_forced_moves(True)
    profile.save()
    profile.choose_play_forced_moves(False)  # back to a person's default: no choice kept
    profile.save()
    for user in (never_chose, chose_off):
        bot_account_enable(user=user)
        user.refresh_from_db()
        assert plays_forced_moves(user) is True


def test_an_account_without_a_profile_or_no_account_has_it_off(alice):
    Profile.objects.filter(user=alice).delete()
    alice.refresh_from_db()
    assert plays_forced_moves(alice) is False and plays_forced_moves(None) is False
    assert not Profile.objects.filter(user=alice).exists()
