"""Email preferences, inbound replies, and the local mailbox."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class TurnEmails(models.TextChoices):
    IMMEDIATE = "immediate", _("Immediately, one email per turn")
    DIGEST = "digest", _("One daily digest of every game waiting for me")
    OFF = "off", _("Never")


class MailPreference(models.Model):
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="mail_preference")
    turn_emails = models.CharField(max_length=10, choices=TurnEmails.choices, default=TurnEmails.IMMEDIATE)
    game_emails = models.BooleanField(default=True,
                                      help_text=_("Email me when a game starts or ends, or someone joins."))
    last_digest_on = models.DateField(null=True, blank=True)

    def __str__(self) -> str:
        return f"mail preferences of {self.user_id}"


class InboundStatus(models.TextChoices):
    RECEIVED = "received", "received"
    MOVED = "moved", "move made"
    ANSWERED = "answered", "answered without a move"
    REJECTED = "rejected", "rejected"


class InboundEmail(models.Model):
    """One reply received; the Message-ID makes a redelivered message count once."""

    message_id = models.CharField(max_length=255, unique=True)
    sender = models.CharField(max_length=254, blank=True)
    recipient = models.CharField(max_length=254, blank=True)
    subject = models.CharField(max_length=255, blank=True)
    command = models.CharField(max_length=200, blank=True)
    status = models.CharField(max_length=10, choices=InboundStatus.choices, default=InboundStatus.RECEIVED)
    outcome = models.TextField(blank=True)
    received_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"reply {self.message_id} from {self.sender}: {self.status}"


class AcceptedReply(models.Model):
    """A message the inbound server (or a provider's webhook) accepted, kept until a worker has handled it.

    The server says 250 (the webhook 200) only once this row is committed, so an accepted reply outlives
    a worker's death and the broker's loss. Handling deletes it in the handling's own transaction: handled
    exactly once (``turnbased/mail/accepted.py``).
    """

    raw = models.BinaryField()
    envelope_recipients = models.JSONField(default=list)
    provider = models.JSONField(null=True, blank=True)
    accepted_at = models.DateTimeField(auto_now_add=True, db_index=True)
    attempts = models.PositiveSmallIntegerField(default=0)

    def __str__(self) -> str:
        return f"reply accepted at {self.accepted_at:%Y-%m-%d %H:%M:%S}, tried {self.attempts} times"


class InboundDropReason(models.TextChoices):
    """Why a message was dropped unanswered (answering a forged From would be backscatter)."""

    NO_REPLY_ADDRESS = "no_reply_address", "not sent to a reply address"
    FORGED_ADDRESS = "forged_address", "reply address not signed by us"
    EXPIRED_ADDRESS = "expired_address", "reply address expired"
    UNKNOWN_PLAYER = "unknown_player", "no such player in that game"
    WRONG_SENDER = "wrong_sender", "sender is not that player's address"
    SPF_FAILED = "spf_failed", "provider: SPF failed for the sender's domain"
    DKIM_FAILED = "dkim_failed", "provider: DKIM failed for the sender's domain"


class InboundDrop(models.Model):
    """How many messages were dropped for one reason on one day (UTC): a counter, never the content."""

    day = models.DateField()
    reason = models.CharField(max_length=20, choices=InboundDropReason.choices)
    count = models.PositiveBigIntegerField(default=0)

    class Meta:
        ordering = ["-day", "reason"]
        constraints = [models.UniqueConstraint(fields=["day", "reason"], name="inbound_drop_day_reason_unique")]

    def __str__(self) -> str:
        return f"{self.day}: {self.count} dropped ({self.reason})"


class LocalMessage(models.Model):
    """A message caught by the local SMTP sink (development only), shown on the mailbox page."""

    sender = models.CharField(max_length=254)
    recipients = models.JSONField(default=list)
    subject = models.CharField(max_length=255, blank=True)
    text = models.TextField(blank=True)
    html = models.TextField(blank=True)
    reply_to = models.CharField(max_length=254, blank=True)
    message_id = models.CharField(max_length=255, blank=True)
    headers = models.JSONField(default=dict)
    received_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-received_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.subject} to {', '.join(self.recipients)}"


class EmailKind(models.TextChoices):
    NOTIFICATION = "notification", "notification"
    ANSWER = "answer", "answer to a reply"
    DIGEST = "digest", "daily digest"
    WEBHOOK = "webhook", "a webhook was disabled"
    GROUP = "group", "an invitation to a group, or a request to join one"
    TABLES_LEFT = "tables_left", "a bot took a seat, so its player left the tables waiting to start"
    COMPETITION = "competition", "a competition's news: an invitation, its start, a round, its end"
    AGREEMENT = "agreement", "a takeback asked at a game, or how it was settled"
    SEAT_OFFER = "seat_offer", "a seat of a game in play offered to the person"


class OutgoingEmail(models.Model):
    """One email to send, written in the transaction that decided it; the send itself holds no lock.

    The Message-ID is fixed when the row is written, so a send repeated after a
    crash (the relay accepted, the worker died before marking the row sent)
    carries the same Message-ID and the receiver can drop the copy.
    ``claimed_until`` is the lease of a send in progress, or after a failure
    the time before which no one tries again.
    """

    message_id = models.CharField(max_length=255, unique=True)
    kind = models.CharField(max_length=20, choices=EmailKind.choices)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True,
                             related_name="outgoing_emails")
    notification = models.OneToOneField("notifications.Notification", on_delete=models.CASCADE, null=True,
                                        blank=True, related_name="email")
    inbound = models.OneToOneField(InboundEmail, on_delete=models.CASCADE, null=True, blank=True,
                                   related_name="answer")
    from_email = models.CharField(max_length=254)
    to = models.CharField(max_length=254)
    reply_to = models.CharField(max_length=254, blank=True)
    subject = models.CharField(max_length=255)
    text = models.TextField()
    html = models.TextField(blank=True)
    # Every header but Message-ID (kept above): In-Reply-To, References, List-Unsubscribe, Auto-Submitted.
    headers = models.JSONField(default=dict)
    # The position's picture, shown inline in the HTML as cid:position.
    picture = models.BinaryField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    claimed_until = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    sent_at = models.DateTimeField(null=True, blank=True)
    last_error = models.TextField(blank=True)
    given_up_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "pk"]
        indexes = [
            models.Index(fields=["created_at"], name="outgoing_email_pending",
                         condition=models.Q(sent_at=None, given_up_at=None)),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.message_id} to {self.to}"
