"""The notification outbox: rows written in the same transaction as the change they announce."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class NotificationKind(models.TextChoices):
    YOUR_TURN = "your_turn", "your turn"
    GAME_STARTED = "game_started", "game started"
    GAME_FINISHED = "game_finished", "game finished"
    PLAYER_JOINED = "player_joined", "player joined"
    REMINDER = "reminder", "deadline reminder"
    INVITED = "invited", "invited to a table"
    REMATCH_OFFERED = "rematch_offered", "rematch offered"
    # Issue 46, following games: a move or the end of a game the person follows from outside its seats.
    FOLLOWED_MOVE = "followed_move", "a followed game moved"
    FOLLOWED_END = "followed_end", "a followed game ended"


class Notification(models.Model):
    """Something a user must be told; the (user, game, seq, kind) key makes sending idempotent."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications")
    game = models.ForeignKey("play.Game", on_delete=models.CASCADE, related_name="notifications")
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=20, choices=NotificationKind.choices)
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    # Settled without an email: preferences say no, a newer position superseded it, a digest covers it.
    skipped_at = models.DateTimeField(null=True, blank=True)
    skip_reason = models.CharField(max_length=40, blank=True)
    # Issue 25: when its push to the player's devices was taken up (sent, or found needless). Set before the
    # sends, in the transaction that decides them, so a turn is pushed at most once.
    push_settled_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at"]
        constraints = [
            models.UniqueConstraint(fields=["user", "game", "seq", "kind"], name="notification_unique_key"),
        ]
        indexes = [models.Index(fields=["sent_at", "skipped_at", "created_at"])]

    def __str__(self) -> str:
        return f"{self.kind} for {self.user_id} in game {self.game_id} at {self.seq}"


class PushSubscription(models.Model):
    """One device's browser, subscribed to push (the Push API): where to send, and the keys to encrypt for it.

    The endpoint is the push service's URL for this browser and this site. A row belongs to its account and
    endpoint together: the same browser subscribing again for the same account replaces its keys, while
    another account naming that endpoint gets a row of its own and never takes this one over (an endpoint is
    no secret: a push service's URL, seen by whoever held the browser).
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions")
    endpoint = models.TextField()
    p256dh = models.CharField(max_length=100)  # the browser's P-256 public key, base64url
    auth = models.CharField(max_length=40)  # its 16-byte authentication secret, base64url
    # What the browser said it is (its User-Agent read once: "Firefox", "Android"), for the settings page's list.
    browser = models.CharField(max_length=40, blank=True)
    system = models.CharField(max_length=40, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_pushed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [models.UniqueConstraint(fields=["user", "endpoint"], name="push_subscription_per_account")]

    def __str__(self) -> str:
        return f"push subscription {self.pk} of {self.user_id} ({self.browser} on {self.system})"
