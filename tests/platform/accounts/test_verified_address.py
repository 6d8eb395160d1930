"""Turn and game emails go only to a verified address; a changed address is verified before it is used."""

from __future__ import annotations

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.test import Client

from tests.platform.accounts.conftest import link_in, sent_to
from turnbased.accounts.selectors import verified_email
from turnbased.mail import delivery
from turnbased.notifications.models import Notification, NotificationKind

pytestmark = pytest.mark.django_db
User = get_user_model()


def test_the_selector_gives_the_verified_primary_address_only(make_user):
    verified, unverified = make_user("alice"), make_user("dora", email_verified=False)
    assert verified_email(verified) == "alice@example.com"
    assert verified_email(unverified) is None
    User.objects.filter(pk=verified.pk).update(email="elsewhere@example.com")  # edited behind allauth's back
    verified.refresh_from_db()
    assert verified_email(verified) is None


def test_no_turn_or_game_email_goes_to_an_unverified_address(make_user, start_scripted_game, mailoutbox):
    dora, bob = make_user("dora", email_verified=False), make_user("bob")
    game = start_scripted_game(dora, bob)
    rows = Notification.objects.filter(game=game, user=dora)
    assert {row.kind for row in rows} >= {NotificationKind.YOUR_TURN, NotificationKind.GAME_STARTED}
    for row in rows:
        assert delivery.deliver(row.pk) == "skipped: address not verified"
    assert not sent_to(mailoutbox, "dora@example.com")
    bobs = Notification.objects.get(game=game, user=bob, kind=NotificationKind.GAME_STARTED)
    assert delivery.deliver(bobs.pk) == "sent"


def test_a_new_address_is_used_only_once_verified(started_game, alice, mailoutbox):
    browser = Client()
    browser.force_login(alice)
    response = browser.post("/accounts/address/", {"email": "Alice.New@Example.com", "action_add": ""})
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.email == "alice@example.com" and verified_email(alice) == "alice@example.com"

    turn = Notification.objects.get(game=started_game, user=alice, kind=NotificationKind.YOUR_TURN)
    assert delivery.deliver(turn.pk) == "sent"
    assert mailoutbox[-1].to == ["alice@example.com"]  # the old, verified address until the new one is

    confirm = link_in(sent_to(mailoutbox, "alice.new@example.com")[-1], "/accounts/confirm-email/")
    assert Client().post(confirm).status_code == 302
    alice.refresh_from_db()
    assert alice.email == "alice.new@example.com" and verified_email(alice) == "alice.new@example.com"
    assert list(EmailAddress.objects.filter(user=alice).values_list("email", flat=True)) == ["alice.new@example.com"]
    assert any("changed" in message.subject.lower() for message in sent_to(mailoutbox, "alice@example.com"))


def test_an_address_verified_by_another_account_cannot_be_taken_over(alice, bob, mailoutbox):
    browser = Client()
    browser.force_login(bob)
    # Answered as for any address (no enumeration); the link goes to the address's owner...
    assert browser.post("/accounts/address/", {"email": "alice@example.com", "action_add": ""}).status_code == 302
    link = link_in(sent_to(mailoutbox, "alice@example.com")[-1], "/accounts/confirm-email/")
    # ... and following it cannot make it bob's: it is verified on alice's account.
    Client().post(link)
    bob.refresh_from_db()
    assert bob.email == "bob@example.com" and verified_email(bob) == "bob@example.com"
    assert not EmailAddress.objects.filter(user=bob, email="alice@example.com", verified=True).exists()
