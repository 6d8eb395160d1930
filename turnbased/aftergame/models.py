"""Rematches: a finished game's one follow-up table, and the seat kept there for each of its players."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Rematch(models.Model):
    """The new table that replays a finished game with the same players, game, options and clock.

    One per finished game (``original`` is unique), so a second Rematch press, however it races the
    first, finds this one. The new table starts when every invited player has taken their seat.
    """

    original = models.OneToOneField("play.Game", on_delete=models.CASCADE, related_name="rematch")
    game = models.OneToOneField("play.Game", on_delete=models.CASCADE, related_name="rematch_of")
    proposed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    declined_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+",
                                    null=True, blank=True)
    declined_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"rematch of game {self.original_id}: game {self.game_id}"


class RematchInvite(models.Model):
    """A person of the finished game, and the seat kept for them at the rematch (seats rotate by one).

    They have accepted when they sit in that seat; the proposer sits there from the start.
    """

    rematch = models.ForeignKey(Rematch, on_delete=models.CASCADE, related_name="invites")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rematch_invites")
    seat = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["seat"]
        constraints = [
            models.UniqueConstraint(fields=["rematch", "user"], name="rematch_invite_unique_user"),
            models.UniqueConstraint(fields=["rematch", "seat"], name="rematch_invite_unique_seat"),
        ]

    def __str__(self) -> str:
        return f"seat {self.seat} of {self.rematch}"

