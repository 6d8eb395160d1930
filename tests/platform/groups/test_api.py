"""/api/groups/ and /api/me/groups/, /api/me/group-invitations/: a club set up, invited, joined and used for a
table through the API alone; refusals as problem documents that change nothing; a group's tables for members."""

from __future__ import annotations

import pytest

from turnbased.groups.models import Group, Invitation, Membership, Request

pytestmark = pytest.mark.django_db


def test_a_club_through_the_api_alone(alice, bob, carol, api_client_for):
    owner, member, stranger = api_client_for(alice), api_client_for(bob), api_client_for(carol)
    made = owner.post("/api/groups/", {"name": "Thursday Club", "description": "Slow games.", "entry": "invitation"},
                      format="json")
    assert made.status_code == 201, made.json()
    group = made.json()
    assert group["my_role"] == "owner" and group["member_count"] == 1 and made["Location"] == f"/api/groups/{group['id']}/"
    base = f"/api/groups/{group['id']}/"
    assert member.post(f"{base}members/").status_code == 403  # by invitation only
    invited = owner.post(f"{base}invitations/", {"username": "Bob"}, format="json")
    assert invited.status_code == 201 and invited.json()["invitee"] == "bob"
    assert owner.post(f"{base}invitations/", {"username": "bob"}, format="json").status_code == 200
    assert [row["group"]["id"] for row in member.get("/api/me/group-invitations/").json()["results"]] == [group["id"]]
    accepted = member.post(f"/api/me/group-invitations/{group['id']}/")
    assert accepted.status_code == 200 and accepted.json()["role"] == "member"
    assert [row["my_role"] for row in member.get("/api/me/groups/").json()["results"]] == ["member"]
    assert member.get(base).json()["my_role"] == "member" and stranger.get(base).json()["my_role"] is None
    # A table for the group: the members see it, the stranger does not.
    table = member.post("/api/games/", {"game": "love-letter", "players": 3, "group": group["id"]}, format="json")
    assert table.status_code == 201, table.json()
    assert table.json()["visibility"] == "private"
    listed = owner.get(f"{base}tables/").json()["results"]
    assert [row["id"] for row in listed] == [table.json()["id"]]
    assert owner.post(f"/api/games/{table.json()['id']}/join/").status_code in (200, 201)
    assert stranger.get(f"{base}tables/").status_code == 404
    assert stranger.get(f"/api/games/{table.json()['id']}/").status_code == 404
    assert stranger.post(f"/api/games/{table.json()['id']}/join/").status_code == 404
    # Roles, leaving, handing over, deleting.
    assert owner.patch(f"{base}members/bob/", {"role": "admin"}, format="json").json()["role"] == "admin"
    assert [row["username"] for row in owner.get(f"{base}members/").json()["results"]] == ["alice", "bob"]
    assert owner.post(f"{base}owner/", {"username": "bob"}, format="json").json()["role"] == "owner"
    assert owner.delete(f"{base}members/alice/").status_code == 204  # alice leaves
    assert owner.delete(base).status_code == 403
    assert member.delete(base).status_code == 204
    assert not Group.objects.exists() and member.get(base).status_code == 404


def test_requests_through_the_api(alice, bob, carol, api_client_for):
    owner, asker = api_client_for(alice), api_client_for(bob)
    group = owner.post("/api/groups/", {"name": "Askers", "entry": "request"}, format="json").json()
    base = f"/api/groups/{group['id']}/"
    answer = asker.post(f"{base}members/")
    assert answer.status_code == 202 and answer.json() == {"status": "requested"}
    assert asker.get(f"{base}requests/").status_code == 403
    assert [row["username"] for row in owner.get(f"{base}requests/").json()["results"]] == ["bob"]
    assert owner.post(f"{base}requests/bob/").json()["role"] == "member"
    api_client_for(carol).post(f"{base}members/")
    assert owner.delete(f"{base}requests/carol/").status_code == 204
    assert not Request.objects.exists() and Membership.objects.filter(group_id=group["id"]).count() == 2
    assert asker.post(f"{base}members/").status_code == 200  # already in


@pytest.mark.parametrize("body, status", [
    ({}, 400), ({"name": 5}, 400), ({"name": "ab"}, 400), ({"name": "x" * 61}, 400), ({"name": "Thursdаy"}, 422),
    ({"name": "  ab  "}, 422), ({"name": "Thurs\u200bday"}, 422),
    ({"name": "Fine name", "entry": "sometimes"}, 400), ({"name": "Fine name", "tables_by": "anyone"}, 400),
    ({"name": "Fine name", "description": "x" * 2001}, 400), ({"name": "Fine name", "description": 7}, 400),
])
def test_bad_groups_are_problem_documents_and_make_nothing(alice, api_client_for, body, status):
    answer = api_client_for(alice).post("/api/groups/", body, format="json")
    assert answer.status_code == status, answer.json()
    assert answer["Content-Type"].startswith("application/problem+json")
    assert not Group.objects.exists()


@pytest.mark.parametrize("path", ["/api/groups/0/", "/api/groups/99999999999999999999/", "/api/groups/1/members/",
                                  "/api/groups/1/tables/", "/api/me/group-invitations/1/"])
def test_paths_naming_no_group_are_404(alice, api_client_for, path):
    client = api_client_for(alice)
    assert client.get(path).status_code in (404, 405)
    assert client.post(path).status_code in (404, 405)


def test_an_invitation_to_a_deleted_group_is_404_and_changes_nothing(alice, bob, api_client_for):
    owner = api_client_for(alice)
    group = owner.post("/api/groups/", {"name": "Short lived", "entry": "invitation"}, format="json").json()
    owner.post(f"/api/groups/{group['id']}/invitations/", {"username": "bob"}, format="json")
    owner.delete(f"/api/groups/{group['id']}/")
    assert api_client_for(bob).post(f"/api/me/group-invitations/{group['id']}/").status_code == 404
    assert not Invitation.objects.exists() and not Membership.objects.filter(user=bob).exists()
