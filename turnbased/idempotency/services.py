"""The one business action of idempotency keys besides using them (once.py): forgetting old ones."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from turnbased.idempotency.models import IdempotentRequest


def idempotency_keys_prune() -> int:
    """Delete the keys past their keeping time (``IDEMPOTENCY_KEEP_HOURS``); return how many."""
    older = timezone.now() - timedelta(hours=settings.IDEMPOTENCY_KEEP_HOURS)
    deleted, _ = IdempotentRequest.objects.filter(created_at__lt=older).delete()
    return deleted
