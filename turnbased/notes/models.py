"""A player's private notes on a game they sit at: theirs alone, while the game goes on and after it."""

from __future__ import annotations

from django.conf import settings
from django.db import models

# A long letter's worth: notes are for plans and reminders, not a second record of the game.
MAX_NOTE_CHARS = 20_000


class GameNote(models.Model):
    """What one player wrote down about one game (``services.note_save``): read by nobody else, never in the game's
    record or any other viewer's answer."""

    game = models.ForeignKey("play.Game", on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="game_notes")
    text = models.TextField()
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "user"], name="game_note_one_per_player")]
        indexes = [models.Index(fields=["user", "-updated_at"], name="game_notes_of_a_player")]

    def __str__(self) -> str:
        return f"notes of {self.user_id} on game {self.game_id}"
