"""The "Confirm moves on the board" setting: on by default, changed on the settings page, read by the boards."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import AnonymousUser
from django.template import Context, Template
from django.test import Client

from turnbased.accounts.models import Profile, profile_of
from turnbased.play import services
from turnbased.play.models import Visibility

pytestmark = pytest.mark.django_db


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def board_confirm(page: str, board: str) -> str:
    match = re.search(rf'<div class="{board}[^"]*"[^>]*data-confirm="(\w+)"', page)
    assert match, f"no {board} with data-confirm"
    return match.group(1)


def two_boards(alice, bob, start_scripted_game) -> tuple:
    love_letter = start_scripted_game(alice, bob)
    halali = services.create_game(creator=alice, engine_slug="halali", players=2, visibility=Visibility.PUBLIC)
    services.join_game(game_id=halali.pk, user=bob)
    return love_letter, halali


def test_the_settings_page_offers_it_ticked_by_default(alice):
    page = logged_in(alice).get("/accounts/settings/").content.decode()
    assert "Confirm moves on the board" in page
    assert re.search(r'<input type="checkbox" name="confirm_moves"[^>]* checked', page)


def test_unticking_it_makes_every_board_send_moves_at_once(alice, bob, start_scripted_game):
    love_letter, halali = two_boards(alice, bob, start_scripted_game)
    client = logged_in(alice)
    for game, board in ((love_letter, "ll-board"), (halali, "hb-board")):
        assert board_confirm(client.get(f"/games/{game.pk}/").content.decode(), board) == "on"

    response = client.post("/accounts/settings/", {"time_zone": "Europe/London", "reminder_lead_hours": 12})
    assert response.status_code == 302
    assert profile_of(alice).confirm_moves is False
    assert not re.search(r'name="confirm_moves"[^>]* checked', client.get("/accounts/settings/").content.decode())
    for game, board in ((love_letter, "ll-board"), (halali, "hb-board")):
        assert board_confirm(client.get(f"/games/{game.pk}/").content.decode(), board) == "off"
        # The panel htmx swaps in after a move reads it too.
        assert board_confirm(client.get(f"/games/{game.pk}/panel/").content.decode(), board) == "off"
    # Bob's boards still ask.
    assert board_confirm(logged_in(bob).get(f"/games/{love_letter.pk}/").content.decode(), "ll-board") == "on"

    client.post("/accounts/settings/", {"time_zone": "Europe/London", "reminder_lead_hours": 12, "confirm_moves": "on"})
    assert profile_of(alice).confirm_moves is True


def test_visitors_and_accounts_without_a_profile_get_the_default_and_reading_it_writes_nothing(alice):
    Profile.objects.filter(user=alice).delete()
    template = Template("{% load account_settings %}{{ user|confirms_moves|yesno:'on,off' }}")
    assert template.render(Context({"user": AnonymousUser()})) == "on"
    assert template.render(Context({"user": alice})) == "on"
    assert not Profile.objects.filter(user=alice).exists()
