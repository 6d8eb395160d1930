"""The email telling a webhook's owner it was disabled: written once into the outbox, sent, swept if its task
was lost."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import override_settings
from django.utils import timezone

from turnbased.mail import tasks, webhook_notices
from turnbased.mail.models import EmailKind, OutgoingEmail
from turnbased.webhooks import services
from turnbased.webhooks.models import Webhook

pytestmark = pytest.mark.django_db


@pytest.fixture
def disabled_hook(alice):
    """Alice's hook, disabled for failing a moment ago, its email owed (as ``delivery.turn_off`` leaves it)."""
    with override_settings(WEBHOOKS_ALLOW_PRIVATE_ADDRESSES=True, WEBHOOKS_ALLOW_HTTP=True):
        hook, _ = services.webhook_create(owner=alice, url="http://127.0.0.1:9999/hook")
    Webhook.objects.filter(pk=hook.pk).update(
        active=False, disabled_at=timezone.now(), notice_due=True,
        disabled_reason="10 failed attempts in a row over 4.2 hours (the last: connection refused)")
    return hook


def test_the_owner_is_emailed_once_why_and_how_to_turn_it_on(disabled_hook, mailoutbox):
    assert tasks.tell_webhook_disabled.delay(disabled_hook.pk).get() == "sent"
    assert tasks.tell_webhook_disabled.delay(disabled_hook.pk).get() == "settled"
    [email] = mailoutbox
    assert email.to == ["alice@example.com"] and email.subject == "A webhook of yours was disabled"
    assert "http://127.0.0.1:9999/hook" in email.body and "connection refused" in email.body
    assert f"/api/webhooks/{disabled_hook.pk}/" in email.body and '{"active": true}' in email.body
    assert f"/api/webhooks/{disabled_hook.pk}/deliveries/" in email.alternatives[0][0]
    row = OutgoingEmail.objects.get()
    assert (row.kind, row.user_id, row.sent_at is not None) == (EmailKind.WEBHOOK, disabled_hook.owner_id, True)
    assert Webhook.objects.get(pk=disabled_hook.pk).notice_due is False


def test_an_unverified_address_gets_no_email_and_the_mark_is_settled(make_user, mailoutbox):
    owner = make_user("dora", email_verified=False)
    with override_settings(WEBHOOKS_ALLOW_PRIVATE_ADDRESSES=True, WEBHOOKS_ALLOW_HTTP=True):
        hook, _ = services.webhook_create(owner=owner, url="http://127.0.0.1:9999/hook")
    Webhook.objects.filter(pk=hook.pk).update(active=False, disabled_at=timezone.now(), notice_due=True)
    assert webhook_notices.tell(hook.pk) == "skipped: address not verified"
    assert mailoutbox == [] and not Webhook.objects.get(pk=hook.pk).notice_due


def test_the_mail_sweep_writes_a_notice_whose_task_was_lost(disabled_hook, mailoutbox, settings):
    assert webhook_notices.due_ids() == []  # too recent: its task is surely on its way
    Webhook.objects.filter(pk=disabled_hook.pk).update(disabled_at=timezone.now() - timedelta(minutes=2))
    assert webhook_notices.due_ids() == [disabled_hook.pk]
    assert tasks.sweep_outbox.delay().get()["webhook_notices"] == 1
    assert len(mailoutbox) == 1
    assert tasks.sweep_outbox.delay().get()["webhook_notices"] == 0
    assert len(mailoutbox) == 1
