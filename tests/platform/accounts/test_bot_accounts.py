"""Bot accounts: who may become one (once, for good, through the API), and what its browser session may still do.

A bot account plays through the API with a token: its session reads the pages and manages the account, and every
other form or API write it sends answers 403 with why and changes nothing.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from rest_framework.test import APIClient

from turnbased.accounts.models import Profile, is_bot_account
from turnbased.kit.errors import Conflict, NotAllowed
from turnbased.play import services
from turnbased.play.models import Game, Move
from turnbased.play.services.bot_accounts import PLAYED_WITH_PEOPLE, bot_account_enable

pytestmark = pytest.mark.django_db


def web(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def session_api(user) -> APIClient:
    client = APIClient(enforce_csrf_checks=False)
    client.force_login(user)
    return client


def test_an_account_that_played_nobody_becomes_a_bot_account_through_the_api(make_user, api_client_for):
    bot = make_user("robo")
    api = api_client_for(bot)
    assert api.get("/api/me/bot/").json() == {"bot_account": False, "since": None, "eligible": True, "reason": None}
    answer = api.post("/api/me/bot/")
    assert answer.status_code == 200
    assert answer.json() | {"since": None} == {"bot_account": True, "since": None, "eligible": True, "reason": None}
    assert answer.json()["since"]
    assert Profile.objects.get(user=bot).is_bot_account
    # Asking again changes nothing.
    again = api.post("/api/me/bot/")
    assert again.status_code == 200 and again.json() == api.get("/api/me/bot/").json() == answer.json()


def test_tables_of_built_in_bots_its_own_empty_table_and_aborted_tables_do_not_count(make_user, alice):
    bot = make_user("robo")
    services.create_game(creator=bot, engine_slug="love-letter", players=2, bots={1: "basic"})  # in play
    services.create_game(creator=bot, engine_slug="halali", players=2)  # open, nobody else yet
    aborted = services.create_game(creator=alice, engine_slug="love-letter", players=3)
    services.join_game(game_id=aborted.pk, user=bot)
    services.abort_game(game_id=aborted.pk, user=alice)
    bot_account_enable(user=bot)
    assert Profile.objects.get(user=bot).is_bot_account


@pytest.mark.parametrize("shared", ["waiting", "in play", "finished"])
def test_an_account_that_shared_a_table_with_a_person_is_refused(shared, alice, bob, api_client_for):
    game = services.create_game(creator=alice, engine_slug="love-letter", players=3 if shared == "waiting" else 2)
    services.join_game(game_id=game.pk, user=bob)
    if shared == "finished":
        services.resign_game(game_id=game.pk, user=alice)
    api = api_client_for(bob)
    assert api.get("/api/me/bot/").json() == {"bot_account": False, "since": None, "eligible": False,
                                              "reason": PLAYED_WITH_PEOPLE}
    answer = api.post("/api/me/bot/")
    assert answer.status_code == 409 and answer.json()["detail"] == PLAYED_WITH_PEOPLE
    assert not Profile.objects.filter(user=bob, is_bot_account=True).exists()
    with pytest.raises(Conflict):
        bot_account_enable(user=alice)  # the creator shared the table too


def test_only_staff_turn_a_bot_account_back_in_the_admin(robo, make_user):
    staff = make_user("staff")
    staff.is_staff = staff.is_superuser = True
    staff.save()
    profile = Profile.objects.get(user=robo)
    form = {"time_zone": "UTC", "reminder_lead_hours": 12, "absence_allowance_days": 30}
    response = web(staff).post(f"/admin/accounts/profile/{profile.pk}/change/", {**form, "is_bot_account": ""})
    assert response.status_code == 302, response.content.decode()[:2000]
    profile.refresh_from_db()
    assert not profile.is_bot_account and profile.bot_account_since is None


def test_a_bot_accounts_session_reads_pages_and_manages_the_account_but_plays_nothing(robo, alice):
    table = services.create_game(creator=alice, engine_slug="love-letter", players=2)
    services.invitation_create(game_id=table.pk, user=alice, username="robo")
    page = web(robo)
    assert page.get("/").status_code == 200
    assert page.get(f"/games/{table.pk}/").status_code == 200
    joined = page.post(f"/games/{table.pk}/join/")
    assert joined.status_code == 403
    assert "robo is a bot account: it plays through the API with an API token" in joined.content.decode()
    assert page.post("/games/new/", {"game": "love-letter", "players": "2"}).status_code == 403
    # Its account pages still take its forms: settings, and logging out.
    settings = page.post("/accounts/settings/", {"time_zone": "Europe/Paris", "reminder_lead_hours": "12"})
    assert settings.status_code in (200, 302)
    assert Profile.objects.get(user=robo).time_zone == "Europe/Paris"
    assert list(table.seats.values_list("user__username", flat=True)) == ["alice"]


def test_the_api_takes_a_bot_accounts_token_but_not_its_session(robo, alice, api_client_for):
    table = services.create_game(creator=alice, engine_slug="love-letter", players=2)
    services.invitation_create(game_id=table.pk, user=alice, username="robo")
    by_session = session_api(robo)
    assert by_session.get(f"/api/games/{table.pk}/").status_code == 200  # reading is fine
    refused = by_session.post(f"/api/games/{table.pk}/join/", {}, format="json")
    assert refused.status_code == 403 and "plays through the API with an API token" in refused.json()["detail"]
    # Credentials that are not a token do not turn the session into one.
    refused = by_session.post(f"/api/games/{table.pk}/join/", {}, format="json", HTTP_AUTHORIZATION="Basic eDp5")
    assert refused.status_code == 403
    assert Game.objects.get(pk=table.pk).status == "open"
    joined = api_client_for(robo).post(f"/api/games/{table.pk}/join/", {}, format="json")
    assert joined.status_code == 200 and joined.json()["status"] == "active"


def test_a_person_s_session_still_plays_on_the_pages(alice, bob):
    table = services.create_game(creator=alice, engine_slug="love-letter", players=2)
    assert web(bob).post(f"/games/{table.pk}/join/").status_code == 302
    assert Game.objects.get(pk=table.pk).status == "active"


def test_the_move_service_refuses_a_bot_account_s_web_and_email_moves(robo, alice, start_scripted_game):
    game = start_scripted_game(robo, alice)  # robo in seat 0, to move
    for source in ("web", "email"):
        with pytest.raises(NotAllowed, match="robo is a bot account: it plays through the API"):
            services.submit_move(game_id=game.pk, user=robo, expected_seq=0, move={"card": "handmaid"}, source=source)
        with pytest.raises(NotAllowed, match="robo is a bot account"):
            services.resign_game(game_id=game.pk, user=robo, source=source)
    assert not Move.objects.filter(game=game).exists()
    played = services.submit_move(game_id=game.pk, user=robo, expected_seq=0, move={"card": "handmaid"}, source="api")
    assert played.move.source == "api"


def test_the_game_page_shows_a_bot_account_no_moves(robo, alice, start_scripted_game):
    game = start_scripted_game(robo, alice)
    page = web(robo).get(f"/games/{game.pk}/").content.decode()
    assert "You are signed in as a bot account" in page and 'name="move"' not in page
    assert 'action="/games/%d/resign/"' % game.pk not in page
    person = web(alice).get(f"/games/{game.pk}/").content.decode()
    assert "You are signed in as a bot account" not in person and 'action="/games/%d/resign/"' % game.pk in person


def test_is_bot_account_reads_the_profile_loaded_with_the_user(robo, alice, django_assert_num_queries):
    loaded = get_user_model().objects.select_related("profile").get(pk=robo.pk)
    without_profile = get_user_model().objects.create_user("nobody-with-a-profile")
    loaded_without = get_user_model().objects.select_related("profile").get(pk=without_profile.pk)
    with django_assert_num_queries(0):
        assert is_bot_account(loaded) and not is_bot_account(loaded_without) and not is_bot_account(None)
