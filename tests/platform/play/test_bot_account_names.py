"""A bot account says so wherever its name is shown: a badge on the pages, ``bot_account`` beside its name in the
API, "(bot account)" in emails. Built-in bots keep their own names ("Basic bot") and no badge."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from turnbased.aftergame import services as aftergame_services
from turnbased.chat import services as chat_services
from turnbased.mail import delivery
from turnbased.notifications.models import Notification
from turnbased.play import services

pytestmark = pytest.mark.django_db

BADGE = '<span class="badge bot-account"'


def web(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def badged(page: str, name: str) -> bool:
    """Tell whether ``name`` is shown on the page with the bot account badge right after it (linked or not)."""
    return f">{name}</a> {BADGE}" in page or f"{name} {BADGE}" in page


@pytest.fixture
def game(robo, alice, start_scripted_game):
    """A game in play: robo (a bot account, seat 0, to move) against alice."""
    return start_scripted_game(robo, alice)


def test_the_game_s_seats_flag_the_bot_account(game, alice, api_client_for):
    seats = api_client_for(alice).get(f"/api/games/{game.pk}/").json()["seats"]
    assert [(seat["username"], seat["bot_account"], seat["bot"]) for seat in seats] == [("robo", True, None),
                                                                                         ("alice", False, None)]
    listed = api_client_for(alice).get("/api/games/").json()["results"][0]["seats"]
    assert [seat["bot_account"] for seat in listed] == [True, False]
    page = web(alice).get(f"/games/{game.pk}/").content.decode()
    assert badged(page, "robo") and not badged(page, "alice")
    lobby = web(alice).get("/").content.decode()
    assert badged(lobby, "robo")


def test_built_in_bots_keep_their_names_and_no_badge(alice, api_client_for):
    game = services.create_game(creator=alice, engine_slug="love-letter", players=2, bots={1: "basic"})
    seats = api_client_for(alice).get(f"/api/games/{game.pk}/").json()["seats"]
    assert (seats[1]["username"], seats[1]["bot_account"], seats[1]["bot"]) == (None, False, "basic")
    assert BADGE not in web(alice).get(f"/games/{game.pk}/").content.decode()
    assert BADGE not in web(alice).get("/").content.decode()


def test_an_open_table_shows_its_creator_s_badge_in_the_lobby(robo):
    services.create_game(creator=robo, engine_slug="love-letter", players=2)
    assert badged(web().get("/").content.decode(), "robo")


def test_invitations_flag_bot_accounts_both_ways(robo, alice, bob, api_client_for, start_scripted_game):
    table = services.create_game(creator=alice, engine_slug="love-letter", players=3)
    answer = api_client_for(alice).post(f"/api/games/{table.pk}/invitations/", {"username": "robo"}, format="json")
    assert answer.status_code == 201
    assert (answer.json()["bot_account"], answer.json()["invited_by_bot_account"]) == (True, False)
    listed = api_client_for(alice).get(f"/api/games/{table.pk}/invitations/").json()["results"]
    assert [(row["username"], row["bot_account"]) for row in listed] == [("robo", True)]
    assert badged(web(alice).get(f"/games/{table.pk}/").content.decode(), "robo")
    # A bot account invites through the API too; the invited person sees who invited them.
    bots_table = services.create_game(creator=robo, engine_slug="love-letter", players=2)
    assert api_client_for(robo).post(f"/api/games/{bots_table.pk}/invitations/", {"username": "bob"},
                                     format="json").status_code == 201
    mine = api_client_for(bob).get("/api/invitations/").json()["results"]
    assert [(row["invited_by"], row["invited_by_bot_account"]) for row in mine] == [("robo", True)]
    assert badged(web(bob).get("/").content.decode(), "robo")


def test_the_people_i_played_with_include_bot_accounts(game, alice, api_client_for):
    people = api_client_for(alice).get("/api/invitations/people/").json()["results"]
    assert [(person["username"], person["bot_account"]) for person in people] == [("robo", True)]
    table = services.create_game(creator=alice, engine_slug="love-letter", players=2)
    page = web(alice).get(f"/games/{table.pk}/").content.decode()
    assert '<option value="robo" label="robo (bot account)">' in page


def test_the_table_talk_flags_a_bot_account_s_messages(game, robo, alice, api_client_for):
    said = api_client_for(robo).post(f"/api/games/{game.pk}/messages/", {"text": "good luck"}, format="json")
    assert said.status_code == 201 and said.json()["author_bot_account"] is True
    chat_services.message_post(game_id=game.pk, user=alice, text="thanks")
    listed = api_client_for(alice).get(f"/api/games/{game.pk}/messages/").json()["results"]
    assert [(message["author"], message["author_bot_account"]) for message in listed] == [("robo", True),
                                                                                        ("alice", False)]
    page = web(alice).get(f"/games/{game.pk}/").content.decode()
    assert f'<span class="chat-author">robo {BADGE}' in page
    assert f"<strong>robo</strong> {BADGE}" in page  # the history, where the message follows its move


def test_finished_games_and_player_pages_flag_the_bot_account(game, robo, alice, api_client_for):
    services.resign_game(game_id=game.pk, user=alice)
    seats = APIClient().get("/api/players/alice/games/").json()["results"][0]["seats"]
    assert [(seat["username"], seat["bot_account"]) for seat in seats] == [("robo", True), ("alice", False)]
    assert badged(web().get("/players/alice/games/").content.decode(), "robo")
    assert APIClient().get("/api/players/robo/").json()["bot_account"] is True
    assert APIClient().get("/api/players/alice/").json()["bot_account"] is False
    page = web().get("/players/robo/").content.decode()
    assert badged(page, "robo") and "A bot account since" in page
    end_screen = web(alice).get(f"/games/{game.pk}/").content.decode()
    assert badged(end_screen, "robo")


def test_a_rematch_names_its_bot_accounts(game, robo, alice, api_client_for):
    services.resign_game(game_id=game.pk, user=alice)
    answer = api_client_for(robo).post(f"/api/games/{game.pk}/rematch/")
    assert answer.status_code == 201 and answer.json()["bot_accounts"] == ["robo"]
    assert badged(web(alice).get("/").content.decode(), "robo")  # "Rematches for you"
    aftergame_services.rematch_decline(game_id=game.pk, user=alice)
    assert api_client_for(alice).get(f"/api/games/{game.pk}/rematch/").json()["bot_accounts"] == ["robo"]


def test_emails_name_a_bot_account_as_one(robo, bob, mailoutbox):
    table = services.create_game(creator=robo, engine_slug="love-letter", players=3)
    services.invitation_create(game_id=table.pk, user=robo, username="bob")
    [delivery.deliver(pk) for pk in Notification.objects.values_list("pk", flat=True)]
    invitation = mailoutbox[-1]
    assert invitation.subject == f"robo (bot account) invites you to Love Letter #{table.pk}"
    assert "seats taken: robo (bot account))" in invitation.body
