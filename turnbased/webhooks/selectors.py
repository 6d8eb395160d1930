"""Reads of a user's webhooks and their delivery logs, newest first (the API pages them by id)."""

from __future__ import annotations

from django.db.models import QuerySet

from turnbased.webhooks.models import Webhook, WebhookDelivery


def webhooks_of(owner) -> QuerySet[Webhook]:
    return Webhook.objects.filter(owner=owner).order_by("-id")


def webhook_of(owner, hook_id: int) -> Webhook | None:
    """Return the owner's hook with this id; None for another user's hook or none."""
    return Webhook.objects.filter(owner=owner, pk=hook_id).first()


def deliveries_of(hook: Webhook) -> QuerySet[WebhookDelivery]:
    """Return the hook's delivery log, newest first: one range of the (hook, -id) index."""
    return WebhookDelivery.objects.filter(hook=hook).order_by("-id")
