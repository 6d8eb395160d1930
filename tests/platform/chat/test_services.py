"""Table talk services: who may write, what is kept, mutes, reports, read marks, and the append-only log."""

from __future__ import annotations

import pytest
from django.db import connection, transaction
from django.db.utils import InternalError

from turnbased.chat import selectors, services
from turnbased.chat.models import MAX_MESSAGE_CHARS, Message, Report
from turnbased.kit.errors import GameNotFound, InvalidRequest, NotAllowed, Unprocessable
from turnbased.play import services as play_services

pytestmark = pytest.mark.django_db


def test_a_player_posts_a_message_after_the_current_move(started_game, alice, bob):
    first = services.message_post(game_id=started_game.pk, user=alice, text="  good luck  ")
    play_services.submit_move(game_id=started_game.pk, user=alice, expected_seq=0, move={"card": "handmaid"})
    second = services.message_post(game_id=started_game.pk, user=bob, text="thanks")
    assert (first.seq, first.text, first.author, first.source) == (0, "good luck", alice, "web")
    assert second.seq == 1
    assert [m.text for m in selectors.visible_messages(started_game, bob)] == ["good luck", "thanks"]


def test_a_spectator_may_not_write_and_a_stranger_may_not_see_a_private_chat(start_scripted_game, alice, bob, carol):
    public = start_scripted_game(alice, bob)
    with pytest.raises(NotAllowed):
        services.message_post(game_id=public.pk, user=carol, text="hello")
    private = start_scripted_game(alice, bob, visibility="private")
    with pytest.raises(GameNotFound):
        services.message_post(game_id=private.pk, user=carol, text="hello")
    with pytest.raises(GameNotFound):
        selectors.chat_viewer(private.pk, carol)
    assert not Message.objects.exists()


@pytest.mark.parametrize("text", ["", "   \n\t ", "\x00\x1b"])
def test_an_empty_message_is_refused_and_changes_nothing(started_game, alice, text):
    # Nothing to say once cleaned: a string of the right shape that cannot be posted (422).
    with pytest.raises(Unprocessable, match="Write something to say"):
        services.message_post(game_id=started_game.pk, user=alice, text=text)
    assert not Message.objects.exists()


def test_a_too_long_message_is_refused_and_changes_nothing(started_game, alice):
    # Longer than the schema's maxLength: a 400.
    with pytest.raises(InvalidRequest, match="at most 500 characters"):
        services.message_post(game_id=started_game.pk, user=alice, text="x" * (MAX_MESSAGE_CHARS + 1))
    assert not Message.objects.exists()


def test_a_message_of_exactly_the_limit_is_kept_and_control_characters_are_dropped(started_game, alice):
    assert len(services.message_post(game_id=started_game.pk, user=alice, text="y" * MAX_MESSAGE_CHARS).text) == 500
    kept = services.message_post(game_id=started_game.pk, user=alice, text="a\u202eb\r\n\r\n\r\n\r\nc\x07")
    assert kept.text == "ab\n\nc"


def test_the_database_refuses_to_change_or_delete_a_message(started_game, alice):
    message = services.message_post(game_id=started_game.pk, user=alice, text="said")
    for statement in ("UPDATE chat_message SET text = 'unsaid' WHERE id = %s", "DELETE FROM chat_message WHERE id = %s"):
        with pytest.raises(InternalError, match="append-only"), transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(statement, [message.pk])
    assert Message.objects.get(pk=message.pk).text == "said"


def test_a_muted_player_is_hidden_from_the_muter_only_until_unmuted(started_game, alice, bob):
    services.message_post(game_id=started_game.pk, user=bob, text="annoying")
    services.player_mute(user=alice, username="BOB")
    assert list(selectors.visible_messages(started_game, alice)) == []
    assert [m.text for m in selectors.visible_messages(started_game, bob)] == ["annoying"]
    assert selectors.muted_players(alice) == ["bob"]
    services.player_unmute(user=alice, username="bob")
    assert [m.text for m in selectors.visible_messages(started_game, alice)] == ["annoying"]


def test_muting_oneself_or_nobody_is_refused(alice):
    with pytest.raises(Unprocessable, match="yourself"):
        services.player_mute(user=alice, username="alice")
    with pytest.raises(Unprocessable, match="No player by that name"):
        services.player_mute(user=alice, username="nobody")
    assert selectors.muted_players(alice) == []


def test_a_report_is_recorded_once_for_the_admins(started_game, alice, bob, carol):
    message = services.message_post(game_id=started_game.pk, user=bob, text="rude words")
    services.message_report(game_id=started_game.pk, user=alice, message_id=message.pk, reason="rude")
    services.message_report(game_id=started_game.pk, user=alice, message_id=message.pk, reason="again")
    services.message_report(game_id=started_game.pk, user=carol, message_id=message.pk)  # a spectator of a public game
    assert sorted(Report.objects.values_list("reporter__username", "reason")) == [("alice", "rude"), ("carol", "")]
    with pytest.raises(Unprocessable, match="your own"):
        services.message_report(game_id=started_game.pk, user=bob, message_id=message.pk)  # one's own
    with pytest.raises(Unprocessable, match="No such message"):
        services.message_report(game_id=started_game.pk, user=alice, message_id=message.pk + 1000)
    assert Report.objects.count() == 2


def test_a_report_of_a_message_of_another_game_is_refused(start_scripted_game, started_game, alice, bob, carol):
    other = start_scripted_game(carol, bob)
    message = services.message_post(game_id=other.pk, user=carol, text="elsewhere")
    with pytest.raises(Unprocessable, match="No such message"):
        services.message_report(game_id=started_game.pk, user=alice, message_id=message.pk)
    assert not Report.objects.exists()


def test_unread_counts_others_messages_after_the_read_mark(started_game, alice, bob):
    services.message_post(game_id=started_game.pk, user=alice, text="mine")
    first = services.message_post(game_id=started_game.pk, user=bob, text="one")
    second = services.message_post(game_id=started_game.pk, user=bob, text="two")
    assert selectors.unread_counts(alice, [started_game.pk]) == {started_game.pk: 2}
    assert services.chat_mark_read(game_id=started_game.pk, user=alice, last_id=first.pk) == first.pk
    assert selectors.unread_count(started_game, alice) == 1
    services.chat_mark_read(game_id=started_game.pk, user=alice, last_id=0)  # never goes back
    assert selectors.unread_count(started_game, alice) == 1
    assert services.chat_mark_read(game_id=started_game.pk, user=alice, last_id=second.pk + 99) == second.pk
    assert selectors.unread_count(started_game, alice) == 0
    services.player_mute(user=bob, username="alice")
    assert selectors.unread_count(started_game, bob) == 0


def test_the_history_shows_messages_in_order_with_the_moves(started_game, alice, bob):
    from turnbased.play import selectors as play_selectors

    services.message_post(game_id=started_game.pk, user=alice, text="before any move")
    play_services.submit_move(game_id=started_game.pk, user=alice, expected_seq=0, move={"card": "handmaid"})
    services.message_post(game_id=started_game.pk, user=bob, text="after the handmaid")
    started_game.refresh_from_db()
    viewer = play_selectors.viewer_of(started_game.pk, bob)
    page = selectors.history_with_messages(play_selectors.history_page(viewer), viewer, bob)
    kinds = [(entry["seq"], entry["kind"], entry.get("text")) for entry in page.entries]
    assert kinds[0] == (1, "chat", "after the handmaid")
    assert kinds[-1] == (0, "chat", "before any move")
    assert all(kind != "chat" for _, kind, _ in kinds[1:-1]) and len(kinds) > 2
