"""Stop following by email (issue 46): a reply to a followed game's news whose first line says ``stop`` (in the
reader's language or in English) stops the watch that brought it (the game's own, or its group's), answered once; any
other line, a watch gone, a forged sender or address changes nothing."""

from __future__ import annotations

import pytest

from tests.platform.following.conftest import play_one, two_player
from tests.platform.mail.conftest import reply_bytes
from turnbased.accounts.services.languages import language_choose
from turnbased.following import services
from turnbased.following.models import Watch
from turnbased.groups import services as group_services
from turnbased.mail.inbound import handle_inbound
from turnbased.mail.models import InboundEmail
from turnbased.play.models import Visibility

pytestmark = pytest.mark.django_db


def _followed_email(mailoutbox, carol):
    return [m for m in mailoutbox if m.to == [carol.email] and m.reply_to][-1]


@pytest.mark.parametrize("language, word", [("en", "stop"), ("en", "Unfollow."), ("hu", "stop"), ("de", "Stopp")])
def test_a_reply_saying_stop_stops_following_the_game(game, alice, bob, carol, mailoutbox, language, word,
                                                      django_capture_on_commit_callbacks):
    language_choose(user=carol, language=language)
    services.watch_make(user=carol, kind="game", target_id=game.pk)
    with django_capture_on_commit_callbacks(execute=True):
        play_one(game, alice, bob)
    email = _followed_email(mailoutbox, carol)
    with django_capture_on_commit_callbacks(execute=True):
        assert handle_inbound(reply_bytes(email, word)) == "stopped"
    assert not Watch.objects.exists()
    answer = [m for m in mailoutbox if m.to == [carol.email]][-1]
    assert answer.subject.startswith("Re:")
    again = reply_bytes(email, word, message_id=InboundEmail.objects.get().message_id)
    assert handle_inbound(again) == "duplicate"
    assert handle_inbound(reply_bytes(email, word)) == "no such watch"


def test_a_groups_watch_is_the_one_stopped_and_another_line_changes_nothing(alice, bob, carol, mailoutbox,
                                                                             django_capture_on_commit_callbacks):
    club = group_services.group_create(user=alice, name="Thursday Club")
    for person in (bob, carol):
        group_services.join(user=person, group_id=club.pk)
    game = two_player(alice, bob, visibility=Visibility.PRIVATE, terms={"group": club.pk})
    services.watch_make(user=carol, kind="group", target_id=club.pk, notify="moves")
    with django_capture_on_commit_callbacks(execute=True):
        play_one(game, alice, bob)
    email = _followed_email(mailoutbox, carol)
    assert 'To stop following Thursday Club, reply "stop".' in email.body
    with django_capture_on_commit_callbacks(execute=True):
        assert handle_inbound(reply_bytes(email, "e4 please")) == "no stop"
    assert Watch.objects.filter(user=carol, group=club).exists()
    answer = [m for m in mailoutbox if m.to == [carol.email]][-1]
    assert "Nothing was done" in answer.body and "/following/" in answer.body
    assert handle_inbound(reply_bytes(email, "stop", sender="mallory@example.com")) == "dropped: wrong_sender"
    forged = email.reply_to[0].replace("watch+", "group+")
    assert handle_inbound(reply_bytes(email, "stop", to=forged)).startswith("dropped: ")
    assert Watch.objects.filter(user=carol, group=club).exists()
    with django_capture_on_commit_callbacks(execute=True):
        assert handle_inbound(reply_bytes(email, "stop")) == "stopped"
    assert not Watch.objects.exists()
