"""Answering a group's invitation, or a request to join a group, by replying to its email (issue 44): "accept" or
"decline" on the first line (in the reader's language or English) does it through the groups' services, once,
and one answer says what was done; a forged sender is dropped, a deleted group and a line that is neither are
answered and change nothing."""

from __future__ import annotations

import pytest

from tests.platform.mail.conftest import latest_to, reply_bytes, worded
from turnbased.accounts.services.languages import language_choose
from turnbased.groups import services
from turnbased.groups.models import Invitation, Membership, Request
from turnbased.mail.inbound import handle_inbound
from turnbased.mail.models import InboundEmail, InboundStatus
from turnbased.mail.tokens import BadToken, read_group_reply_address, read_reply_address

pytestmark = pytest.mark.django_db


@pytest.fixture
def invitation_email(alice, bob, mailoutbox, django_capture_on_commit_callbacks):
    group = services.group_create(user=alice, name="Thursday Club", entry="invitation")
    with django_capture_on_commit_callbacks(execute=True):
        services.invite(user=alice, group_id=group.pk, username="bob")
    email = latest_to(mailoutbox, "bob@example.com")
    assert read_group_reply_address(email.reply_to[0]).group_id == group.pk
    return group, email


@pytest.mark.parametrize("language, word", [("en", "accept"), ("en", "Yes."), ("hu", "elfogadom"), ("de", "annehmen"),
                                            ("hu", "accept")])
def test_accepting_an_invitation_by_reply(bob, invitation_email, mailoutbox, language, word,
                                          django_capture_on_commit_callbacks):
    group, email = invitation_email
    language_choose(user=bob, language=language)
    with django_capture_on_commit_callbacks(execute=True):
        assert handle_inbound(reply_bytes(email, word)) == "accepted"
    assert Membership.objects.filter(group=group, user=bob).exists() and not Invitation.objects.exists()
    answer = latest_to(mailoutbox, "bob@example.com", "Re: ")
    assert worded(language, "You are a member of %(group)s.", group="Thursday Club") in answer.body
    assert handle_inbound(reply_bytes(email, word, message_id=InboundEmail.objects.get().message_id)) == "duplicate"


def test_declining_and_then_nothing_more(bob, invitation_email):
    group, email = invitation_email
    assert handle_inbound(reply_bytes(email, "decline")) == "declined"
    assert not Invitation.objects.exists() and not Membership.objects.filter(user=bob).exists()
    assert handle_inbound(reply_bytes(email, "accept")).startswith("accept refused: ")  # no invitation now
    assert not Membership.objects.filter(user=bob).exists()


def test_a_line_that_is_neither_and_a_deleted_group_change_nothing(alice, bob, invitation_email, mailoutbox):
    group, email = invitation_email
    assert handle_inbound(reply_bytes(email, "maybe later")) == "no answer"
    assert "Nothing was done" in latest_to(mailoutbox, "bob@example.com", "Re: ").body
    services.group_delete(user=alice, group_id=group.pk)
    assert handle_inbound(reply_bytes(email, "accept")) == "no such group"
    assert not Membership.objects.filter(user=bob).exists()
    assert [row.status for row in InboundEmail.objects.order_by("pk")] == [InboundStatus.REJECTED] * 2


def test_a_forged_sender_or_address_is_dropped_unanswered(bob, invitation_email, mailoutbox):
    group, email = invitation_email
    sent = len(mailoutbox)
    assert handle_inbound(reply_bytes(email, "accept", sender="mallory@example.com")) == "dropped: wrong_sender"
    forged = email.reply_to[0].replace("group+", "play+")
    with pytest.raises(BadToken):
        read_reply_address(forged)  # a group's token is no game's
    assert handle_inbound(reply_bytes(email, "accept", to=forged)).startswith("dropped: ")
    assert len(mailoutbox) == sent and not Membership.objects.filter(user=bob).exists()


def test_an_admin_accepts_a_request_by_reply(alice, bob, mailoutbox, django_capture_on_commit_callbacks):
    group = services.group_create(user=alice, name="Thursday Club", entry="request")
    with django_capture_on_commit_callbacks(execute=True):
        services.join(user=bob, group_id=group.pk)
    email = latest_to(mailoutbox, "alice@example.com", "bob asks")
    assert read_group_reply_address(email.reply_to[0]).asker_id == bob.pk
    assert handle_inbound(reply_bytes(email, "accept")) == "accepted"
    assert Membership.objects.filter(group=group, user=bob).exists() and not Request.objects.exists()
