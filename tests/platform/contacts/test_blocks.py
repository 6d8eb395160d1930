"""What a block refuses, silently: a seat with the blocker, an invitation either way, words at a shared table; and
what it leaves alone: the games already under way."""

from __future__ import annotations

import pytest

from turnbased.chat import selectors as chat_selectors, services as chat_services
from turnbased.contacts import services
from turnbased.events.models import Event, EventKind
from turnbased.kit.errors import Conflict
from turnbased.play import services as play_services
from turnbased.play.models import Game, GameStatus, Invitation

pytestmark = pytest.mark.django_db


def test_a_blocked_player_cannot_join_the_blockers_table_nor_one_the_blocker_sits_at(alice, bob, carol):
    services.block_add(user=alice, username="bob")
    mine = play_services.create_game(creator=alice, engine_slug="love-letter", players=3)
    theirs = play_services.create_game(creator=carol, engine_slug="love-letter", players=4)
    play_services.join_game(game_id=theirs.pk, user=alice)
    for game in (mine, theirs):
        with pytest.raises(Conflict) as refused:
            play_services.join_game(game_id=game.pk, user=bob)
        assert "block" not in refused.value.detail.lower()  # silent: the refusal does not name it
        assert not game.seats.filter(user=bob).exists()
    # The blocker may still join the blocked person's table (a block is one-way: it keeps them off the blocker's).
    his = play_services.create_game(creator=bob, engine_slug="love-letter", players=3)
    play_services.join_game(game_id=his.pk, user=alice)
    # Unblocked, he sits down.
    services.block_remove(user=alice, username="bob")
    play_services.join_game(game_id=mine.pk, user=bob)


def test_nobody_invites_across_a_block_either_way(alice, bob, carol):
    services.block_add(user=alice, username="bob")
    his = play_services.create_game(creator=bob, engine_slug="love-letter", players=3)
    with pytest.raises(Conflict) as refused:
        play_services.invitation_create(game_id=his.pk, user=bob, username="alice")
    assert "block" not in refused.value.detail.lower()
    mine = play_services.create_game(creator=alice, engine_slug="love-letter", players=3)
    with pytest.raises(Conflict) as own:
        play_services.invitation_create(game_id=mine.pk, user=alice, username="bob")
    assert "unblock" in own.value.detail.lower()  # her own block is no secret to her
    assert not Invitation.objects.exists()
    play_services.invitation_create(game_id=mine.pk, user=alice, username="carol")


def test_a_running_game_plays_on_and_the_blocked_players_words_no_longer_reach_the_blocker(start_scripted_game, alice,
                                                                                          bob):
    game = start_scripted_game(alice, bob)
    chat_services.message_post(game_id=game.pk, user=bob, text="before")
    services.block_add(user=alice, username="bob")
    game.refresh_from_db()
    assert game.status == GameStatus.ACTIVE and game.seats.filter(user=bob).exists()
    chat_services.message_post(game_id=game.pk, user=bob, text="after")
    assert [message.text for message in chat_selectors.visible_messages(game, alice)] == []
    assert [message.text for message in chat_selectors.visible_messages(game, bob)] == ["before", "after"]
    assert not Event.objects.filter(user=alice, kind=EventKind.MESSAGE_POSTED).exclude(
        payload__text="before").exists()
    # She still writes to him (a block is one-way), and the game goes on.
    chat_services.message_post(game_id=game.pk, user=alice, text="hello")
    assert Event.objects.filter(user=bob, kind=EventKind.MESSAGE_POSTED, payload__text="hello").exists()
    assert Game.objects.get(pk=game.pk).status == GameStatus.ACTIVE


def test_the_blockers_open_tables_leave_the_blocked_persons_lists_and_no_one_elses(client, alice, bob, carol,
                                                                                  api_client_for):
    mine = play_services.create_game(creator=alice, engine_slug="love-letter", players=3)
    hers = play_services.create_game(creator=carol, engine_slug="love-letter", players=4)
    play_services.join_game(game_id=hers.pk, user=alice)
    services.block_add(user=alice, username="bob")
    client.force_login(bob)
    lobby = client.get("/").content.decode()
    assert f"/games/{mine.pk}/" not in lobby and f"/games/{hers.pk}/" not in lobby
    assert {row["id"] for row in api_client_for(bob).get("/api/games/open/").json()["results"]} == set()
    client.force_login(carol)  # anyone else still sees alice's table
    assert f"/games/{mine.pk}/" in client.get("/").content.decode()
    assert mine.pk in {row["id"] for row in api_client_for(carol).get("/api/games/open/").json()["results"]}
    services.block_remove(user=alice, username="bob")
    client.force_login(bob)
    assert f"/games/{mine.pk}/" in client.get("/").content.decode()
