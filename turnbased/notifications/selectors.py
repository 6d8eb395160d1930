"""Reads about a person's devices subscribed to push."""

from __future__ import annotations

from turnbased.notifications.models import PushSubscription


def push_subscriptions_of(user):
    """Return the user's subscribed devices, the newest first."""
    return PushSubscription.objects.filter(user=user).order_by("-created_at", "-pk")


def push_subscription_of(user, subscription_id: int) -> PushSubscription | None:
    """Return one of the user's subscribed devices; None for another's, as for one that does not exist."""
    return PushSubscription.objects.filter(user=user, pk=subscription_id).first()
