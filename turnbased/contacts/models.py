"""Friends and blocks: whom a person follows (a friend, one way) and whom they blocked (one way, silently)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q


class Follow(models.Model):
    """``follower`` follows ``followed``: the lobby shows the follower their friend's open tables and games."""

    follower = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    followed = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            # Its index serves every read by the follower (the lobby's, the list's).
            models.UniqueConstraint(fields=["follower", "followed"], name="contacts_follow_unique"),
            models.CheckConstraint(condition=~Q(follower=F("followed")), name="contacts_follow_not_self"),
        ]

    def __str__(self) -> str:
        return f"{self.follower_id} follows {self.followed_id}"


class Block(models.Model):
    """``blocker`` blocked ``blocked``: the blocked person cannot join the blocker's tables, sit with them, invite
    them or write to them at a table. Nobody is told, the blocked person least of all."""

    blocker = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    blocked = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="contacts_block_unique"),
            models.CheckConstraint(condition=~Q(blocker=F("blocked")), name="contacts_block_not_self"),
        ]
        # A join and an invitation ask whether anyone at the table blocked the person who asks.
        indexes = [models.Index(fields=["blocked", "blocker"], name="contacts_block_blocked")]

    def __str__(self) -> str:
        return f"{self.blocker_id} blocked {self.blocked_id}"
