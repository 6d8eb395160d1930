"""Email a webhook's owner that it was disabled for failing: once, from the outbox, like every email.

The webhooks app marks the hook (``notice_due``) in the transaction that disables
it and queues ``tasks.tell_webhook_disabled`` by name; the mail sweep takes up a
mark left behind (a lost task). Writing the email clears the mark in the same
transaction, so a repeated task writes none.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from turnbased.accounts.selectors import verified_email
from turnbased.mail import compose, outbox
from turnbased.mail.models import EmailKind
from turnbased.webhooks.models import Webhook

SWEEP_AFTER = timedelta(seconds=settings.MAIL_SWEEP_AFTER_SECONDS)


def tell(hook_id: int) -> str:
    """Write the owner's email about a disabled hook (unless already written), then send it; return what happened."""
    with transaction.atomic():
        hook = (Webhook.objects.select_for_update(of=("self",), no_key=True).select_related("owner")
                .filter(pk=hook_id, notice_due=True).first())
        if hook is None:
            return "settled"
        hook.notice_due = False
        hook.save(update_fields=["notice_due"])
        if verified_email(hook.owner) is None:
            return "skipped: address not verified"
        email = outbox.put(compose.webhook_disabled_email(hook), kind=EmailKind.WEBHOOK, user=hook.owner)
    return outbox.send(email.pk)


def due_ids(*, limit: int = 500) -> list[int]:
    """Disabled hooks whose owner's email is still unwritten a while after (their task was lost)."""
    rows = Webhook.objects.filter(notice_due=True, disabled_at__lte=timezone.now() - SWEEP_AFTER)
    return list(rows.order_by("id").values_list("pk", flat=True)[:limit])
