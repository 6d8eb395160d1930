"""Following and blocking: by name, once, within caps; a block ends a follow, refuses nothing already running."""

from __future__ import annotations

import pytest

from turnbased.contacts import selectors, services
from turnbased.contacts.models import Block, Follow
from turnbased.kit.errors import Conflict, InvalidRequest, Unprocessable

pytestmark = pytest.mark.django_db


def test_following_is_by_name_in_any_case_once_and_one_way(alice, bob):
    other, created = services.follow_add(user=alice, username="  BOB ")
    assert (other, created) == (bob, True)
    assert services.follow_add(user=alice, username="bob") == (bob, False)
    assert list(selectors.followed(alice).values_list("followed__username", flat=True)) == ["bob"]
    assert not selectors.followed(bob).exists()
    services.follow_remove(user=alice, username="bob")
    services.follow_remove(user=alice, username="bob")  # again: nothing happens
    assert not Follow.objects.exists()


@pytest.mark.parametrize("name, refusal", [
    ("", InvalidRequest), ("   ", InvalidRequest), (None, InvalidRequest), (["bob"], InvalidRequest),
    ("nobody", Unprocessable), ("x" * 151, Unprocessable), ("bo\x00b", Unprocessable), ("alice", Unprocessable),
    ("ALİCE", Unprocessable),
])
def test_a_bad_name_is_refused_and_changes_nothing(alice, bob, name, refusal):
    for action in (services.follow_add, services.block_add, services.follow_remove, services.block_remove):
        with pytest.raises(refusal):
            action(user=alice, username=name)
    assert not Follow.objects.exists() and not Block.objects.exists()


def test_a_closed_account_is_no_one_to_follow(alice, bob):
    bob.is_active = False
    bob.save()
    with pytest.raises(Unprocessable):
        services.follow_add(user=alice, username="bob")


def test_blocking_ends_following_and_a_blocked_player_cannot_be_followed_until_unblocked(alice, bob):
    services.follow_add(user=alice, username="bob")
    services.follow_add(user=bob, username="alice")
    assert services.block_add(user=alice, username="bob") == (bob, True)
    assert services.block_add(user=alice, username="bob") == (bob, False)
    assert not Follow.objects.filter(follower=alice).exists()
    # One way: bob's follow of alice stays (he is not told, and his lists leave her tables out: test_lobby).
    assert Follow.objects.filter(follower=bob, followed=alice).exists()
    with pytest.raises(Conflict):
        services.follow_add(user=alice, username="bob")
    services.block_remove(user=alice, username="bob")
    assert services.follow_add(user=alice, username="bob") == (bob, True)


def test_the_caps_hold(alice, make_user, monkeypatch):
    monkeypatch.setattr(services, "MAX_FOLLOWED", 2)
    monkeypatch.setattr(services, "MAX_BLOCKED", 1)
    people = [make_user(f"p{number}") for number in range(3)]
    services.follow_add(user=alice, username="p0")
    services.follow_add(user=alice, username="p1")
    with pytest.raises(Conflict):
        services.follow_add(user=alice, username="p2")
    services.block_add(user=alice, username="p2")
    with pytest.raises(Conflict):
        services.block_add(user=alice, username="p1")
    assert Follow.objects.filter(follower=alice).count() == 2 and Block.objects.count() == 1
    assert people
