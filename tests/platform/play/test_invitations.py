"""Invitations by username: the service, the table's page and the lobby, the API, the email, the limits."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest
import time_machine
from rest_framework.test import APIClient

from tests.platform.play.test_pages import logged_in
from turnbased.kit.errors import Conflict, GameNotFound, InvalidRequest, NotAllowed, Unprocessable
from turnbased.mail import delivery
from turnbased.notifications.models import Notification, NotificationKind
from turnbased.play import services
from turnbased.play.models import GameStatus, Invitation, Seat

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(alice):
    """A public three-seat Love Letter table alice made and sits at."""
    return services.create_game(creator=alice, engine_slug="love-letter", players=3)


@pytest.fixture
def private_table(alice):
    return services.create_game(creator=alice, engine_slug="love-letter", players=2, visibility="private")


def _deliver_all() -> list[str]:
    return [delivery.deliver(pk) for pk in Notification.objects.filter(sent_at=None, skipped_at=None)
            .order_by("pk").values_list("pk", flat=True)]


def test_an_invitation_reaches_the_lobby_and_the_inbox(table, alice, bob, mailoutbox):
    invitation, created = services.invitation_create(game_id=table.pk, user=alice, username="Bob")
    assert created and invitation.user == bob and invitation.invited_by == alice
    assert _deliver_all() == ["sent"]
    email = mailoutbox[-1]
    assert email.to == ["bob@example.com"] and email.subject == f"alice invites you to Love Letter #{table.pk}"
    assert f"/games/{table.pk}/" in email.body
    lobby = logged_in(bob).get("/").content.decode()
    assert "Invitations" in lobby and f"Love Letter #{table.pk}" in lobby and "Take the seat" in lobby


def test_inviting_again_changes_nothing_and_sends_nothing(table, alice, bob, mailoutbox):
    services.invitation_create(game_id=table.pk, user=alice, username="bob")
    _deliver_all()
    invitation, created = services.invitation_create(game_id=table.pk, user=alice, username="bob")
    assert not created and Invitation.objects.count() == 1
    assert _deliver_all() == [] and len(mailoutbox) == 1


def test_taking_the_seat_from_the_lobby_seats_the_invited(table, alice, bob):
    services.invitation_create(game_id=table.pk, user=alice, username="bob")
    response = logged_in(bob).post(f"/games/{table.pk}/join/")
    assert response.status_code == 302
    assert Seat.objects.filter(game=table, user=bob).exists()
    assert "Invitations" not in logged_in(bob).get("/").content.decode()


def test_an_invitation_opens_a_private_table_to_its_guest_only(private_table, alice, bob, carol):
    assert logged_in(bob).get(f"/games/{private_table.pk}/").status_code == 404
    services.invitation_create(game_id=private_table.pk, user=alice, username="bob")
    assert logged_in(carol).get(f"/games/{private_table.pk}/").status_code == 404
    page = logged_in(bob).get(f"/games/{private_table.pk}/").content.decode()
    assert "alice invited you to this table" in page and "Take a seat" in page
    logged_in(bob).post(f"/games/{private_table.pk}/join/")
    private_table.refresh_from_db()
    assert private_table.status == GameStatus.ACTIVE
    with pytest.raises(GameNotFound):
        services.join_game(game_id=private_table.pk, user=carol)


def test_declining_hides_the_invitation_and_stops_its_email(table, alice, bob, mailoutbox):
    services.invitation_create(game_id=table.pk, user=alice, username="bob")
    response = logged_in(bob).post(f"/games/{table.pk}/invitations/decline/")
    assert response.status_code == 302 and response.url == "/"
    assert "Invitations" not in logged_in(bob).get("/").content.decode()
    assert _deliver_all() == ["skipped: declined"] and mailoutbox == []
    with pytest.raises(Conflict, match="declined"):
        services.invitation_create(game_id=table.pk, user=alice, username="bob")
    assert "bob (declined)" in logged_in(alice).get(f"/games/{table.pk}/").content.decode()


def test_a_declined_invitation_to_a_private_table_closes_it_again(private_table, alice, bob):
    services.invitation_create(game_id=private_table.pk, user=alice, username="bob")
    services.invitation_decline(game_id=private_table.pk, user=bob)
    assert logged_in(bob).get(f"/games/{private_table.pk}/").status_code == 404
    with pytest.raises(GameNotFound):
        services.join_game(game_id=private_table.pk, user=bob)


# No name at all is a request without its required field (400); a name of no account, or one's own, cannot be
# invited (422).
@pytest.mark.parametrize("username, error", [
    ("", InvalidRequest), ("  ", InvalidRequest),
    ("nobody", Unprocessable), ("a\x00b", Unprocessable), ("x" * 500, Unprocessable), ("alice", Unprocessable),
])
def test_a_bad_username_is_refused_and_changes_nothing(table, alice, username, error):
    with pytest.raises(error):
        services.invitation_create(game_id=table.pk, user=alice, username=username)
    assert not Invitation.objects.exists() and not Notification.objects.filter(kind=NotificationKind.INVITED).exists()


def test_a_closed_account_reads_as_nobody(table, alice, bob):
    bob.is_active = False
    bob.save()
    with pytest.raises(Unprocessable) as closed:
        services.invitation_create(game_id=table.pk, user=alice, username="bob")
    with pytest.raises(Unprocessable) as nobody:
        services.invitation_create(game_id=table.pk, user=alice, username="zed")
    assert closed.value.detail.replace("bob", "?") == nobody.value.detail.replace("zed", "?")


def test_only_players_invite_and_only_to_open_tables_with_room(table, alice, bob, carol, make_user):
    with pytest.raises(NotAllowed):
        services.invitation_create(game_id=table.pk, user=bob, username="carol")
    services.join_game(game_id=table.pk, user=bob)
    with pytest.raises(Conflict, match="already has a seat"):
        services.invitation_create(game_id=table.pk, user=bob, username="alice")
    services.invitation_create(game_id=table.pk, user=bob, username="carol")  # any player may invite
    services.join_game(game_id=table.pk, user=make_user("dave"))  # the last seat: the game starts
    with pytest.raises(Conflict, match="no longer taking players"):
        services.invitation_create(game_id=table.pk, user=alice, username=make_user("erin").username)
    assert _deliver_all().count("skipped: table no longer open") == 1  # carol's invitation came too late


def test_the_table_page_offers_people_i_played_with(table, alice, bob, carol, start_scripted_game):
    start_scripted_game(alice, carol)  # alice played carol, never bob
    page = logged_in(alice).get(f"/games/{table.pk}/").content.decode()
    assert 'list="recent-opponents-' in page and '<option value="carol">' in page
    assert '<option value="bob">' not in page


def test_the_api_lists_the_people_i_played_with_most_recent_first(alice, bob, carol, make_user, api_client_for,
                                                                   start_scripted_game):
    with time_machine.travel(datetime(2026, 11, 2, tzinfo=timezone.utc), tick=False):
        start_scripted_game(alice, carol)
    with time_machine.travel(datetime(2026, 11, 9, tzinfo=timezone.utc), tick=False):
        start_scripted_game(bob, alice)
    services.create_game(creator=alice, engine_slug="love-letter", players=2, bots={1: "basic"})
    services.create_game(creator=make_user("dave"), engine_slug="love-letter", players=2)  # never played alice
    closed = make_user("erin")
    start_scripted_game(alice, closed)
    closed.is_active = False
    closed.save()
    people = api_client_for(alice).get("/api/invitations/people/").json()["results"]
    assert people == [{"username": "bob", "bot_account": False, "last_played_at": "2026-11-09T00:00:00Z"},
                      {"username": "carol", "bot_account": False, "last_played_at": "2026-11-02T00:00:00Z"}]
    assert api_client_for(make_user("fay")).get("/api/invitations/people/").json()["results"] == []
    assert APIClient().get("/api/invitations/people/").status_code in (401, 403)


def test_the_table_page_form_invites_and_reports_a_stranger_name(table, alice, bob):
    client = logged_in(alice)
    response = client.post(f"/games/{table.pk}/invitations/", {"username": "bob"}, follow=True)
    assert "bob is invited" in response.content.decode()
    response = client.post(f"/games/{table.pk}/invitations/", {"username": "nobody"}, follow=True)
    assert "No player is called" in response.content.decode()
    assert list(Invitation.objects.values_list("user__username", flat=True)) == ["bob"]


def test_the_api_invites_lists_and_declines(table, alice, bob, api_client_for):
    host = api_client_for(alice)
    response = host.post(f"/api/games/{table.pk}/invitations/", {"username": "bob"}, format="json")
    assert response.status_code == 201
    invitation = Invitation.objects.get()
    assert response.json() | {"created_at": None} == {
        "id": invitation.pk, "username": "bob", "bot_account": False, "invited_by": "alice",
        "invited_by_bot_account": False, "status": "pending", "created_at": None}
    assert response["Location"] == f"/api/games/{table.pk}/invitations/{invitation.pk}/"
    assert host.get(response["Location"]).json() == response.json()
    again = host.post(f"/api/games/{table.pk}/invitations/", {"username": "BOB"}, format="json")
    assert again.status_code == 200 and Invitation.objects.count() == 1 and "Location" not in again
    assert [row["username"] for row in host.get(f"/api/games/{table.pk}/invitations/").json()["results"]] == ["bob"]
    guest = api_client_for(bob)
    mine = guest.get("/api/invitations/").json()["results"]
    assert mine == [{**mine[0], "game": table.pk, "name": f"Love Letter #{table.pk}", "invited_by": "alice",
                     "seated": 1, "seat_count": 3}]
    assert guest.get(f"/api/games/{table.pk}/invitations/").status_code == 403
    assert guest.get(f"/api/games/{table.pk}/invitations/{invitation.pk}/").status_code == 403
    assert host.get(f"/api/games/{table.pk}/invitations/{invitation.pk + 1}/").status_code == 404
    assert guest.post(f"/api/games/{table.pk}/invitations/decline/").status_code == 204
    assert guest.get("/api/invitations/").json()["results"] == []
    assert host.get(f"/api/games/{table.pk}/invitations/").json()["results"][0]["status"] == "declined"
    assert host.get(f"/api/games/{table.pk}/invitations/{invitation.pk}/").json()["status"] == "declined"


def test_the_api_refuses_an_unknown_name_with_a_clear_422(table, alice, api_client_for):
    response = api_client_for(alice).post(f"/api/games/{table.pk}/invitations/", {"username": "nobody"},
                                          format="json")
    assert response.status_code == 422 and "No player is called" in response.json()["detail"]
    assert not Invitation.objects.exists()


def test_the_api_hides_a_private_table_from_strangers(private_table, bob, api_client_for):
    stranger = api_client_for(bob)
    assert stranger.post(f"/api/games/{private_table.pk}/invitations/", {"username": "carol"},
                         format="json").status_code == 404
    assert stranger.get(f"/api/games/{private_table.pk}/invitations/").status_code == 404
    assert stranger.get(f"/api/games/{private_table.pk}/invitations/1/").status_code == 404
    assert stranger.post(f"/api/games/{private_table.pk}/invitations/decline/").status_code == 404


def test_invitations_are_rate_limited_on_the_page_and_the_api(settings, table, alice, api_client_for, make_user):
    settings.RATE_LIMITS_ON = True
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {
        **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "invitations": "2/hour"}}
    guests = [make_user() for _ in range(3)]
    client = logged_in(alice)
    client.post(f"/games/{table.pk}/invitations/", {"username": guests[0].username})
    assert api_client_for(alice).post(f"/api/games/{table.pk}/invitations/", {"username": guests[1].username},
                                      format="json").status_code == 201
    refused = api_client_for(alice).post(f"/api/games/{table.pk}/invitations/", {"username": guests[2].username},
                                         format="json")
    assert refused.status_code == 429 and "Too many invitations" in refused.json()["detail"]
    page = client.post(f"/games/{table.pk}/invitations/", {"username": guests[2].username}, follow=True)
    assert "Too many invitations" in page.content.decode()
    assert Invitation.objects.count() == 2
