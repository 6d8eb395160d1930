"""The lobby's friends' open tables and games, the friends' pages and the invitation form's names: who is listed,
what a visitor of each game may see and no more, and statements that do not grow with the numbers."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from turnbased.contacts import selectors, services
from turnbased.play import services as play_services
from turnbased.play.models import Visibility

pytestmark = pytest.mark.django_db


def _friends_tables(make_user, alice, count: int, *, start: int = 0):
    friends = []
    for number in range(start, start + count):
        friend = make_user(f"friend{number}")
        services.follow_add(user=alice, username=friend.username)
        play_services.create_game(creator=friend, engine_slug="love-letter", players=3)
        game = play_services.create_game(creator=friend, engine_slug="love-letter", players=2)
        other = make_user(f"other{number}")
        play_services.join_game(game_id=game.pk, user=other)
        friends.append(friend)
    return friends


def test_the_lobby_lists_friends_open_tables_and_games_but_no_private_one(client, alice, bob, carol, make_user):
    services.follow_add(user=alice, username="bob")
    public = play_services.create_game(creator=bob, engine_slug="love-letter", players=3)
    private = play_services.create_game(creator=bob, engine_slug="halali", visibility=Visibility.PRIVATE)
    playing = play_services.create_game(creator=bob, engine_slug="love-letter", players=2)
    play_services.join_game(game_id=playing.pk, user=carol)
    secret = play_services.create_game(creator=bob, engine_slug="love-letter", players=2, visibility=Visibility.PRIVATE)
    play_services.join_game(game_id=secret.pk, user=carol, invite_code=secret.invite_code)
    client.force_login(alice)
    page = client.get("/").content.decode()
    assert f"/games/{public.pk}/" in page and f"/games/{playing.pk}/" in page
    assert f"/games/{private.pk}/" not in page and f"/games/{secret.pk}/" not in page
    assert [game.pk for game in selectors.friends_open_tables(alice)] == [public.pk]
    assert [game.pk for game in selectors.friends_games(alice)] == [playing.pk]
    # Carol follows nobody: no section at all.
    client.force_login(carol)
    assert 'id="friends"' not in client.get("/").content.decode()


def test_a_blockers_tables_leave_the_blocked_persons_lists(alice, bob, carol):
    services.follow_add(user=bob, username="carol")
    table = play_services.create_game(creator=carol, engine_slug="love-letter", players=3)
    assert [game.pk for game in selectors.friends_open_tables(bob)] == [table.pk]
    play_services.join_game(game_id=table.pk, user=alice)
    services.block_add(user=alice, username="bob")
    assert list(selectors.friends_open_tables(bob)) == []


def test_the_invitation_form_offers_friends_first_and_nobody_blocked(alice, bob, carol, make_user):
    dave = make_user("dave")
    services.follow_add(user=alice, username="dave")
    services.follow_add(user=alice, username="carol")
    services.block_add(user=bob, username="alice")
    services.follow_add(user=alice, username="bob")  # she may follow him; he blocked her: he is not offered
    offered = [person["username"] for person in selectors.people_to_invite(alice, 20)]
    assert offered == ["carol", "dave"]
    assert dave


def _statements(client, paths) -> dict[str, int]:
    counts = {}
    for path in paths:
        with CaptureQueriesContext(connection) as queries:
            answer = client.get(path)
        assert answer.status_code == 200, (path, answer.status_code)
        counts[path] = len(queries)
    return counts


def test_the_lobby_and_the_friends_pages_cost_the_same_statements_for_few_friends_and_many(client, alice, make_user):
    paths = ("/", "/friends/", "/friends/tables/", "/api/friends/tables/", "/api/friends/games/", "/api/me/following/",
             "/api/me/blocked/")
    _friends_tables(make_user, alice, 2)
    client.force_login(alice)
    few = _statements(client, paths)
    _friends_tables(make_user, alice, 30, start=2)
    many = _statements(client, paths)
    assert many == few
