"""The friends' pages and the player page's buttons: follow, unfollow, block, unblock, each said, back where the
form was; refusals said on the page and changing nothing."""

from __future__ import annotations

import pytest

from turnbased.contacts.models import Block, Follow

pytestmark = pytest.mark.django_db


def test_follow_and_block_from_the_player_page(client, alice, bob):
    client.force_login(alice)
    page = client.get("/players/bob/").content.decode()
    assert 'action="/friends/follow/"' in page and 'action="/friends/block/"' in page
    answer = client.post("/friends/follow/", {"username": "bob", "next": "/players/bob/"}, follow=True)
    assert answer.redirect_chain[-1][0] == "/players/bob/"
    assert "You follow bob" in answer.content.decode()
    assert 'action="/friends/unfollow/"' in answer.content.decode()
    answer = client.post("/friends/block/", {"username": "bob", "next": "/players/bob/"}, follow=True)
    assert 'action="/friends/unblock/"' in answer.content.decode()
    assert not Follow.objects.exists() and Block.objects.filter(blocker=alice, blocked=bob).exists()
    # Bob's page of alice shows him nothing of her block.
    client.force_login(bob)
    assert 'action="/friends/block/"' in client.get("/players/alice/").content.decode()
    assert "/friends/unblock/" not in client.get("/players/alice/").content.decode()


def test_the_lists_page(client, alice, bob, carol):
    client.force_login(alice)
    client.post("/friends/follow/", {"username": "carol"})
    client.post("/friends/block/", {"username": "bob"})
    page = client.get("/friends/").content.decode()
    assert "/players/carol/" in page and "/players/bob/" in page
    client.post("/friends/unblock/", {"username": "bob"})
    client.post("/friends/unfollow/", {"username": "carol"})
    assert "/players/carol/" not in client.get("/friends/").content.decode()
    assert not Follow.objects.exists() and not Block.objects.exists()


@pytest.mark.parametrize("next_url", ["https://evil.example/", "//evil.example/", ""])
def test_a_refusal_is_said_and_a_foreign_next_is_not_followed(client, alice, next_url):
    client.force_login(alice)
    answer = client.post("/friends/follow/", {"username": "nobody", "next": next_url})
    assert answer.status_code == 302 and answer["Location"] == "/friends/"
    assert "No player is called" in client.get("/friends/").content.decode()
    assert not Follow.objects.exists()


def test_a_visitor_is_sent_to_log_in_and_a_get_changes_nothing(client, alice, bob):
    assert client.get("/friends/")["Location"].startswith("/accounts/login/")
    assert client.post("/friends/follow/", {"username": "bob"})["Location"].startswith("/accounts/login/")
    client.force_login(alice)
    assert client.get("/friends/follow/", {"username": "bob"}).status_code == 405
    assert not Follow.objects.exists()
