"""A player's private notes on a game they sit at: theirs alone, while the game goes on and after it."""

from __future__ import annotations

from django.conf import settings
from django.db import models

# A long letter's worth: notes are for plans and reminders, not a second record of the game.
MAX_NOTE_CHARS = 20_000
# Marks on the board's cards and tiles (issue 46): a symbol each, and a few words beside it.
MAX_MARKS = 100
MAX_MARK_LABEL_CHARS = 24
# The symbols a mark may be, by name (machine words; the pages draw each as its glyph, and name it in the reader's
# language).
MARK_SYMBOLS = ("question", "attention", "yes", "no", "star")


class GameNote(models.Model):
    """What one player wrote down about one game (``services.note_save``): read by nobody else, never in the game's
    record or any other viewer's answer."""

    game = models.ForeignKey("play.Game", on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="game_notes")
    text = models.TextField(blank=True)
    # [{"spot", "symbol", "label"}]: the player's marks on the board's cards and tiles, in the order they were made;
    # a spot is the engine's (``Engine.mark_spots``), a symbol one of MARK_SYMBOLS.
    marks = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "user"], name="game_note_one_per_player")]
        indexes = [models.Index(fields=["user", "-updated_at"], name="game_notes_of_a_player")]

    def __str__(self) -> str:
        return f"notes of {self.user_id} on game {self.game_id}"
