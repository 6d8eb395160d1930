"""Table talk: each game's append-only chat, who muted whom, what was read, and reports for the admins."""

from __future__ import annotations

from django.conf import settings
from django.db import models

# The longest message, in characters (the form, the API and email replies refuse longer ones).
MAX_MESSAGE_CHARS = 500


class MessageSource(models.TextChoices):
    WEB = "web", "web page"
    API = "api", "REST API"
    EMAIL = "email", "email reply"


class Message(models.Model):
    """One thing said at a table, after move ``seq`` (a database trigger refuses updates and deletes)."""

    game = models.ForeignKey("play.Game", on_delete=models.PROTECT, related_name="messages")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    seq = models.PositiveIntegerField(help_text="The game's seq when it was written: it follows that move.")
    text = models.CharField(max_length=MAX_MESSAGE_CHARS)
    source = models.CharField(max_length=10, choices=MessageSource.choices)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["game", "id"]), models.Index(fields=["game", "seq"])]

    def __str__(self) -> str:
        return f"game {self.game_id} after move {self.seq}, {self.author_id}: {self.text[:40]}"


class Mute(models.Model):
    """``user`` no longer sees what ``muted`` writes, in any game (page, API and emails)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="mutes")
    muted = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "muted"], name="chat_mute_unique")]

    def __str__(self) -> str:
        return f"{self.user_id} mutes {self.muted_id}"


class ReadMark(models.Model):
    """The latest message of a game its player has seen: later ones by others are unread."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey("play.Game", on_delete=models.CASCADE, related_name="+")
    last_read_id = models.BigIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "game"], name="chat_read_mark_unique")]

    def __str__(self) -> str:
        return f"{self.user_id} read game {self.game_id} up to message {self.last_read_id}"


class Report(models.Model):
    """A player's report of a message, for the site admins (Django admin); one per message and reporter."""

    message = models.ForeignKey(Message, on_delete=models.PROTECT, related_name="reports")
    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    reason = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    handled_at = models.DateTimeField(null=True, blank=True, help_text="Set by an admin once dealt with.")

    class Meta:
        ordering = ["-created_at"]
        constraints = [models.UniqueConstraint(fields=["message", "reporter"], name="chat_report_unique")]

    def __str__(self) -> str:
        return f"report of message {self.message_id} by {self.reporter_id}"
