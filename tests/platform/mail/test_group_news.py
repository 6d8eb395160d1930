"""An invitation to a group is emailed to the invited, a request to join to the group's admins (issue 44): written
with the invitation (or request) or not at all, sent once, in the reader's language, and only to those whose
settings take a game's news and whose address is verified."""

from __future__ import annotations

import pytest
from django.db import transaction

from turnbased.accounts.services.languages import language_choose
from turnbased.groups import services
from turnbased.mail.models import EmailKind, MailPreference, OutgoingEmail
from turnbased.mail.services import preferences_update

pytestmark = pytest.mark.django_db


def _emails() -> list[tuple[str, str]]:
    return [(email.to, email.subject) for email in OutgoingEmail.objects.filter(kind=EmailKind.GROUP).order_by("pk")]


def test_an_invitation_is_emailed_once_with_the_groups_page(alice, bob, django_capture_on_commit_callbacks):
    group = services.group_create(user=alice, name="Thursday Club", entry="invitation", description="Slow games.")
    with django_capture_on_commit_callbacks(execute=True):
        services.invite(user=alice, group_id=group.pk, username="bob")
    services.invite(user=alice, group_id=group.pk, username="bob")  # again: nothing new is written
    assert _emails() == [("bob@example.com", "alice invites you to the group Thursday Club")]
    email = OutgoingEmail.objects.get(kind=EmailKind.GROUP)
    assert f"/groups/{group.pk}/" in email.text and "Slow games." in email.text and email.sent_at is not None


def test_a_request_is_emailed_to_each_admin(alice, bob, carol, make_user):
    group = services.group_create(user=alice, name="Thursday Club", entry="request")
    services.join(user=carol, group_id=group.pk)
    services.request_answer(user=alice, group_id=group.pk, username="carol", accept=True)
    services.role_set(user=alice, group_id=group.pk, username="carol", role="admin")
    OutgoingEmail.objects.all().delete()
    services.join(user=bob, group_id=group.pk)
    assert sorted(_emails()) == [("alice@example.com", "bob asks to join Thursday Club"),
                                 ("carol@example.com", "bob asks to join Thursday Club")]


def test_the_settings_and_an_unverified_address_are_followed(alice, bob, make_user):
    preferences_update(user=bob, turn_emails="immediate", game_emails=False)
    unverified = make_user("newcomer", email_verified=False)
    group = services.group_create(user=alice, name="Thursday Club", entry="invitation")
    services.invite(user=alice, group_id=group.pk, username="bob")
    services.invite(user=alice, group_id=group.pk, username="newcomer")
    assert _emails() == [] and unverified.pk and MailPreference.objects.get(user=bob).game_emails is False


def test_in_the_readers_language(alice, bob):
    language_choose(user=bob, language="de")
    group = services.group_create(user=alice, name="Donnerstagsrunde", entry="invitation")
    services.invite(user=alice, group_id=group.pk, username="bob")
    email = OutgoingEmail.objects.get(kind=EmailKind.GROUP)
    assert email.subject == "alice lädt dich in die Gruppe Donnerstagsrunde ein" and "Hallo bob" in email.text


def test_nothing_is_written_when_the_invitation_is_not(alice, bob):
    group = services.group_create(user=alice, name="Thursday Club", entry="invitation")
    with pytest.raises(RuntimeError), transaction.atomic():
        services.invite(user=alice, group_id=group.pk, username="bob")
        raise RuntimeError("the request failed after the invitation")
    assert _emails() == []
