"""The groups' pages: the directory, making a group, its page for each kind of visitor, the forms that let people
in and out (each said, and refused in words that change nothing), the confirm steps, a table made from the group's
page, and the lobby's invitations and requests."""

from __future__ import annotations

import pytest

from turnbased.groups import services
from turnbased.groups.models import Group, GroupTable, Membership
from turnbased.play.models import Game

pytestmark = pytest.mark.django_db


def _text(answer) -> str:
    return answer.content.decode()


def test_making_a_group_and_finding_it(client, alice, bob):
    client.force_login(alice)
    answer = client.post("/groups/new/", {"name": "Thursday Club", "description": "Slow games, <b>kindly</b>.",
                                          "entry": "request", "tables_by": "members"}, follow=True)
    group = Group.objects.get()
    assert answer.redirect_chain[-1][0] == f"/groups/{group.pk}/"
    page = _text(answer)
    assert "You own this group." in page and "&lt;b&gt;kindly&lt;/b&gt;" in page
    refused = _text(client.post("/groups/new/", {"name": "thursday-club"}))
    assert "already exists" in refused and Group.objects.count() == 1
    client.force_login(bob)
    assert f"/groups/{group.pk}/" in _text(client.get("/groups/", {"q": "thursday"}))
    assert f"/groups/{group.pk}/" not in _text(client.get("/groups/", {"q": "friday"}))
    assert "Ask to join" in _text(client.get(f"/groups/{group.pk}/"))


def test_a_stranger_sees_the_group_but_none_of_its_tables(client, alice, bob):
    group = services.group_create(user=alice, name="Thursday Club")
    from turnbased.play import services as play_services

    game = play_services.create_game(creator=alice, engine_slug="love-letter", visibility="private",
                                     terms={"group": group.pk})
    client.force_login(bob)
    page = _text(client.get(f"/groups/{group.pk}/"))
    assert "Thursday Club" in page and f"/games/{game.pk}/" not in page and game.title not in page
    assert client.get(f"/groups/{group.pk}/tables/").status_code == 404
    assert client.get(f"/games/{game.pk}/").status_code == 404
    client.post(f"/groups/{group.pk}/join/")
    assert f"/games/{game.pk}/" in _text(client.get(f"/groups/{group.pk}/"))
    assert f"/games/{game.pk}/" in _text(client.get("/"))  # the lobby lists the group's open table


def test_a_table_from_the_groups_page(client, alice):
    group = services.group_create(user=alice, name="Thursday Club")
    client.force_login(alice)
    form = _text(client.get("/games/new/", {"group": group.pk}))
    assert f'value="group:{group.pk}" selected' in form
    answer = client.post("/games/new/", {"game": "love-letter", "players": "2", "seat_0": "me", "seat_1": "person",
                                         "visibility": f"group:{group.pk}", "clock": "none"})
    assert answer.status_code == 302
    game = Game.objects.get()
    assert game.visibility == "private" and GroupTable.objects.get(game=game).group_id == group.pk
    answer = client.post("/games/new/", {"game": "love-letter", "players": "2", "seat_0": "me", "seat_1": "person",
                                         "visibility": "group:999999", "clock": "none"})
    assert "No such group." in _text(answer) and Game.objects.count() == 1


def test_invitations_and_requests_in_the_lobby(client, alice, bob, carol):
    invited = services.group_create(user=alice, name="Invited Club", entry="invitation")
    asked = services.group_create(user=alice, name="Asked Club", entry="request")
    services.invite(user=alice, group_id=invited.pk, username="bob")
    services.join(user=carol, group_id=asked.pk)
    client.force_login(bob)
    lobby = _text(client.get("/"))
    assert "alice invites you to Invited Club." in lobby
    client.post(f"/groups/{invited.pk}/invitation/answer/", {"answer": "accept"})
    assert Membership.objects.filter(group=invited, user=bob).exists()
    client.force_login(alice)
    lobby = _text(client.get("/"))
    assert "Asked Club:" in lobby and "/players/carol/" in lobby
    client.post(f"/groups/{asked.pk}/requests/answer/", {"username": "carol", "answer": "accept"})
    assert Membership.objects.filter(group=asked, user=carol).exists()


def test_leaving_removing_handing_over_and_deleting_ask_first(client, alice, bob, carol):
    group = services.group_create(user=alice, name="Thursday Club")
    services.join(user=bob, group_id=group.pk)
    services.join(user=carol, group_id=group.pk)
    client.force_login(alice)
    for path in ("members/carol/remove/", "hand-over/?username=bob", "delete/"):
        page = _text(client.get(f"/groups/{group.pk}/{path}"))
        assert 'method="post"' in page and "Cancel" in page
    assert Membership.objects.filter(group=group).count() == 3  # asking changed nothing
    client.post(f"/groups/{group.pk}/members/carol/remove/")
    client.post(f"/groups/{group.pk}/hand-over/", {"username": "bob"})
    assert dict(Membership.objects.filter(group=group).values_list("user__username", "role")) == \
        {"alice": "admin", "bob": "owner"}
    assert client.get(f"/groups/{group.pk}/delete/").status_code == 404  # no longer the owner's page
    assert "You left" in _text(client.post(f"/groups/{group.pk}/leave/", follow=True))
    client.force_login(bob)
    client.post(f"/groups/{group.pk}/delete/")
    assert not Group.objects.exists()
    assert client.get(f"/groups/{group.pk}/").status_code == 404


def test_settings_are_for_admins(client, alice, bob):
    group = services.group_create(user=alice, name="Thursday Club")
    services.join(user=bob, group_id=group.pk)
    client.force_login(bob)
    assert client.get(f"/groups/{group.pk}/settings/").status_code == 404
    client.force_login(alice)
    client.post(f"/groups/{group.pk}/settings/", {"name": "Friday Club", "description": "", "entry": "invitation",
                                                  "tables_by": "admins"})
    group.refresh_from_db()
    assert (group.name, group.entry, group.tables_by) == ("Friday Club", "invitation", "admins")
