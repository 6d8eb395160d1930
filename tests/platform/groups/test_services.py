"""Groups' rules, through the services: making one (names of any script, look-alikes refused), the three ways in,
invitations and requests, leaving, removing, roles, handing over, deleting; every refusal changes nothing."""

from __future__ import annotations

import pytest

from turnbased.contacts.services import block_add
from turnbased.groups import selectors, services
from turnbased.groups.models import Group, Invitation, Membership, Request, Role
from turnbased.kit.errors import Conflict, InvalidRequest, NotAllowed, NotFound, Unprocessable

pytestmark = pytest.mark.django_db


def _club(owner, **fields) -> Group:
    return services.group_create(user=owner, name=fields.pop("name", "Thursday Club"), **fields)


def _members(group) -> dict[str, str]:
    return {row.user.get_username(): row.role for row in selectors.members(group)}


def test_the_maker_owns_the_group_and_the_count_follows_the_members(alice, bob, carol):
    group = _club(alice, description="We met on Thursdays.")
    assert _members(group) == {"alice": "owner"} and group.member_count == 1
    services.join(user=bob, group_id=group.pk)
    services.join(user=carol, group_id=group.pk)
    services.join(user=carol, group_id=group.pk)  # again: nothing changes
    services.leave(user=bob, group_id=group.pk)
    group.refresh_from_db()
    assert group.member_count == 2 == len(_members(group))


@pytest.mark.parametrize("name", ["Csütörtöki Klub", "Donnerstagsrunde Straße", "木曜会", "Клуб по четвергам", "a b"])
def test_names_in_any_one_script_are_taken_as_written(alice, name):
    if len(name) < 3:
        with pytest.raises(Unprocessable):
            _club(alice, name=name)
        return
    assert _club(alice, name=f"  {name}  ").name == name


@pytest.mark.parametrize("name, error", [
    ("ab", Unprocessable), ("x" * 61, Unprocessable), ("Th\u200bursday", Unprocessable),
    ("Thursday\x07", Unprocessable), ("Thursdаy", Unprocessable),  # a Cyrillic a among Latin letters
    (5, InvalidRequest), (None, InvalidRequest), ("Thurs\x00day", InvalidRequest),
])
def test_bad_names_are_refused(alice, name, error):
    with pytest.raises(error):
        _club(alice, name=name)
    assert not Group.objects.exists() and not Membership.objects.exists()


@pytest.mark.parametrize("look_alike", ["thursday club", "THURSDAY-CLUB", "Thursday  Club", "Thursday_club",
                                        "Ｔhursday Club"])
def test_a_name_that_reads_as_another_groups_is_refused(alice, bob, look_alike):
    _club(alice)
    with pytest.raises(Conflict, match="already exists"):
        _club(bob, name=look_alike)
    assert Group.objects.count() == 1 and not Membership.objects.filter(user=bob).exists()


def test_renaming_frees_the_old_name(alice, bob):
    group = _club(alice)
    services.group_update(user=alice, group_id=group.pk, name="Friday Club")
    assert _club(bob, name="Thursday club").name == "Thursday club"
    with pytest.raises(Conflict):
        services.group_update(user=alice, group_id=group.pk, name="thursday CLUB")
    assert Group.objects.get(pk=group.pk).name == "Friday Club"


def test_a_group_by_request_lets_in_whom_an_admin_accepts(alice, bob, carol):
    group = _club(alice, entry="request")
    assert services.join(user=bob, group_id=group.pk)[1] is not None
    services.join(user=carol, group_id=group.pk)
    assert list(selectors.requests_to_decide(alice).values_list("user__username", flat=True)) == ["bob", "carol"]
    with pytest.raises(NotAllowed):
        services.request_answer(user=carol, group_id=group.pk, username="bob", accept=True)
    services.request_answer(user=alice, group_id=group.pk, username="bob", accept=True)
    services.request_answer(user=alice, group_id=group.pk, username="carol", accept=False)
    assert _members(group) == {"alice": "owner", "bob": "member"} and not Request.objects.exists()
    with pytest.raises(Conflict, match="has not asked"):
        services.request_answer(user=alice, group_id=group.pk, username="carol", accept=True)


def test_opening_a_group_lets_in_everyone_who_asked(alice, bob):
    group = _club(alice, entry="request")
    services.join(user=bob, group_id=group.pk)
    services.group_update(user=alice, group_id=group.pk, entry="open")
    assert "bob" in _members(group) and not Request.objects.exists()


def test_a_group_by_invitation_takes_only_the_invited(alice, bob, carol):
    group = _club(alice, entry="invitation")
    with pytest.raises(NotAllowed, match="invitation only"):
        services.join(user=bob, group_id=group.pk)
    invitation, created = services.invite(user=alice, group_id=group.pk, username="BOB")
    assert created and services.invite(user=alice, group_id=group.pk, username="bob")[1] is False
    assert [row.group_id for row in selectors.invitations_to(bob)] == [group.pk]
    with pytest.raises(NotAllowed):  # a member, not an admin, invites nobody
        services.invitation_answer(user=bob, group_id=group.pk, accept=True)
        services.invite(user=bob, group_id=group.pk, username="carol")
    services.invite(user=alice, group_id=group.pk, username="carol")
    services.invitation_answer(user=carol, group_id=group.pk, accept=False)
    assert _members(group) == {"alice": "owner", "bob": "member"} and not Invitation.objects.exists()
    with pytest.raises(Conflict, match="no invitation"):
        services.invitation_answer(user=carol, group_id=group.pk, accept=True)


def test_an_invitation_to_a_person_who_asked_lets_them_in(alice, bob):
    group = _club(alice, entry="request")
    services.join(user=bob, group_id=group.pk)
    services.invite(user=alice, group_id=group.pk, username="bob")
    assert "bob" in _members(group) and not Request.objects.exists() and not Invitation.objects.exists()


def test_blocks_keep_invitations_and_requests_apart_silently(alice, bob, carol):
    group = _club(alice, entry="request")
    block_add(user=alice, username="bob")
    with pytest.raises(NotAllowed, match="cannot ask to join"):
        services.join(user=bob, group_id=group.pk)
    with pytest.raises(Conflict, match="unblock them first"):
        services.invite(user=alice, group_id=group.pk, username="bob")
    block_add(user=carol, username="alice")
    with pytest.raises(Conflict, match="does not take invitations from you"):
        services.invite(user=alice, group_id=group.pk, username="carol")
    assert not Request.objects.exists() and not Invitation.objects.exists()


def test_roles_removal_and_handing_over(alice, bob, carol, make_user):
    dave = make_user("dave")
    group = _club(alice)
    for person in (bob, carol, dave):
        services.join(user=person, group_id=group.pk)
    with pytest.raises(NotAllowed):
        services.role_set(user=bob, group_id=group.pk, username="carol", role="admin")
    services.role_set(user=alice, group_id=group.pk, username="bob", role="admin")
    services.member_remove(user=bob, group_id=group.pk, username="dave")  # an admin removes a member
    services.role_set(user=alice, group_id=group.pk, username="carol", role="admin")
    with pytest.raises(NotAllowed):  # but not another admin, nor the owner
        services.member_remove(user=bob, group_id=group.pk, username="carol")
    with pytest.raises(NotAllowed):
        services.member_remove(user=bob, group_id=group.pk, username="alice")
    with pytest.raises(Conflict, match="hand it over"):
        services.leave(user=alice, group_id=group.pk)
    with pytest.raises(Conflict, match="not a member"):
        services.owner_hand_over(user=alice, group_id=group.pk, username="dave")
    services.owner_hand_over(user=alice, group_id=group.pk, username="carol")
    assert _members(group) == {"carol": "owner", "alice": "admin", "bob": "admin"}
    with pytest.raises(Unprocessable, match="your own name"):
        services.role_set(user=carol, group_id=group.pk, username="carol", role="member")
    services.leave(user=alice, group_id=group.pk)
    group.refresh_from_db()
    assert group.member_count == 2 and Membership.objects.filter(group=group, role=Role.OWNER).count() == 1


def test_only_the_owner_deletes_and_the_group_goes_whole(alice, bob):
    group = _club(alice, entry="request")
    services.join(user=bob, group_id=group.pk)
    services.request_answer(user=alice, group_id=group.pk, username="bob", accept=True)
    services.role_set(user=alice, group_id=group.pk, username="bob", role="admin")
    with pytest.raises(NotAllowed):
        services.group_delete(user=bob, group_id=group.pk)
    services.group_delete(user=alice, group_id=group.pk)
    assert not Group.objects.exists() and not Membership.objects.exists() and not Request.objects.exists()
    for action in (lambda: services.join(user=bob, group_id=group.pk),
                   lambda: services.invitation_answer(user=bob, group_id=group.pk, accept=True)):
        with pytest.raises(NotFound):  # a deleted group's invitation or page: no such group
            action()


@pytest.mark.parametrize("group_id", [0, -1, 2**63, "1", None, 1.5])
def test_ids_that_name_no_group(alice, group_id):
    with pytest.raises(NotFound):
        services.join(user=alice, group_id=group_id)


def test_the_caps(alice, bob, monkeypatch):
    monkeypatch.setattr(services, "MAX_OWNED", 2)
    _club(alice, name="One club")
    _club(alice, name="Two club")
    with pytest.raises(Conflict, match="own as many groups"):
        _club(alice, name="Three club")
    monkeypatch.setattr(services, "MAX_MEMBERSHIPS", 1)
    group = _club(bob, name="Bob's club")
    with pytest.raises(Conflict, match="belong to as many groups"):
        services.join(user=alice, group_id=group.pk)
    assert Group.objects.count() == 3


def test_an_invitation_and_a_request_are_told_to_whom_they_concern(alice, bob, carol, make_user):
    from turnbased.events.models import Event
    from turnbased.events.wording import worded_payload

    dave = make_user("dave")
    group = _club(alice, entry="request")
    services.join(user=dave, group_id=group.pk)
    services.request_answer(user=alice, group_id=group.pk, username="dave", accept=True)
    services.role_set(user=alice, group_id=group.pk, username="dave", role="admin")
    Event.objects.all().delete()
    services.join(user=bob, group_id=group.pk)
    services.join(user=bob, group_id=group.pk)  # asked again: nobody is told twice
    services.invite(user=dave, group_id=group.pk, username="carol")
    told = {(event.user.username, event.kind, event.payload["username"]) for event in Event.objects.all()}
    assert told == {("alice", "group_request", "bob"), ("dave", "group_request", "bob"),
                    ("carol", "group_invitation", "dave")}
    assert Event.objects.count() == 3
    invitation = Event.objects.get(kind="group_invitation")
    assert invitation.game_id is None and worded_payload(invitation)["text"] == "dave invites you to Thursday Club."
