"""Webhooks: URLs a user registers to be sent their events, and the log of every delivery.

A delivery row is written in the same statement as the event it carries: a
trigger on the events table (migration 0002) inserts one per active hook of
the event's user that chose the event's kind. So the events app knows nothing
of webhooks, and an event that commits always has its deliveries, durably; a
sweep (``delivery.queue_due``) hands them to the sending task.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.postgres.fields import ArrayField
from django.contrib.postgres.indexes import BrinIndex
from django.db import models

from turnbased.events.models import EventKind

# The kind of the test event sent by ``POST /api/webhooks/{id}/ping/``: no event of the table has it.
PING = "ping"


class Webhook(models.Model):
    """A URL that is sent its owner's events of the chosen kinds, signed with the hook's secret."""

    # The (owner, id) index below serves every read by owner: no index of its own on owner alone.
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="webhooks",
                              db_index=False)
    url = models.CharField(max_length=2000)
    kinds = ArrayField(models.CharField(max_length=20, choices=EventKind.choices))
    # The key of the signatures. Kept readable (the server signs with it); shown to the owner only when made.
    secret = models.CharField(max_length=100)
    active = models.BooleanField(default=True)
    # Failed attempts in a row (any delivery) since the last success, and when the first of them failed.
    consecutive_failures = models.PositiveIntegerField(default=0)
    failing_since = models.DateTimeField(null=True, blank=True)
    # While the receiver fails, no attempt goes to it before this (the hook's own back-off).
    paused_until = models.DateTimeField(null=True, blank=True)
    disabled_at = models.DateTimeField(null=True, blank=True)
    disabled_reason = models.CharField(max_length=200, blank=True)
    # Disabled for failing: the owner is owed an email (the mail app writes it and clears this).
    notice_due = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [
            models.Index(fields=["owner", "id"], name="webhook_owner_id"),
            models.Index(fields=["id"], name="webhook_notice_due", condition=models.Q(notice_due=True)),
        ]

    def __str__(self) -> str:
        return f"webhook {self.pk} of {self.owner_id}: {self.url}"


class DeliveryState(models.TextChoices):
    PENDING = "pending", "waiting for its next attempt"
    DELIVERED = "delivered", "the receiver answered 2xx"
    FAILED = "failed", "given up"


class WebhookDelivery(models.Model):
    """One event (or ping) to send to one hook, and how its attempts went: the hook's delivery log.

    ``next_attempt_at`` is when the next attempt is due; while an attempt runs it is pushed past the
    sending task's hard time limit (the attempt's lease), so a sender that died is retried, and no
    second sender starts meanwhile. ``queued_at`` is when it was last queued, until an attempt takes it;
    ``sending_since`` is when the attempt under way took it, until it is settled. An account's deliveries
    queued or being sent are its deliveries in flight (``WEBHOOKS_IN_FLIGHT_PER_OWNER``).
    """

    id = models.BigAutoField(primary_key=True)
    hook = models.ForeignKey(Webhook, on_delete=models.CASCADE, related_name="deliveries", db_index=False)
    # Not a foreign key: events are pruned after a week, the log after WEBHOOKS_KEEP_DAYS. None for a ping.
    event_id = models.BigIntegerField(null=True, blank=True)
    kind = models.CharField(max_length=20)
    state = models.CharField(max_length=10, choices=DeliveryState.choices, default=DeliveryState.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    next_attempt_at = models.DateTimeField()
    queued_at = models.DateTimeField(null=True, blank=True)
    sending_since = models.DateTimeField(null=True, blank=True)
    last_attempt_at = models.DateTimeField(null=True, blank=True)
    # The last attempt: the receiver's status (None if it never answered), the start of its answer, what failed.
    status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    response_excerpt = models.CharField(max_length=1000, blank=True)
    error = models.CharField(max_length=500, blank=True)
    duration_ms = models.PositiveIntegerField(null=True, blank=True)
    created_at = models.DateTimeField()
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            models.Index(fields=["hook", "-id"], name="webhook_delivery_log"),
            models.Index(fields=["next_attempt_at"], name="webhook_delivery_due",
                         condition=models.Q(state="pending")),
            # One account's waiting deliveries, oldest first, through its hooks: what follows an attempt it settled.
            models.Index(fields=["hook", "id"], name="webhook_delivery_pending", condition=models.Q(state="pending")),
            # Rows are appended in time order: a block range index finds the old ones for pruning at little cost.
            BrinIndex(fields=["created_at"], name="webhook_delivery_created_brin"),
        ]
        constraints = [
            models.UniqueConstraint(fields=["hook", "event_id"], name="webhook_delivery_once_per_event",
                                    condition=models.Q(event_id__isnull=False)),
        ]

    def __str__(self) -> str:
        return f"delivery {self.pk} of {self.kind} to hook {self.hook_id}: {self.state}"
