"""Fair entry: what a table asks of the people who take its seats (docs/players.md, "Fair entry")."""

from __future__ import annotations

from django.db import models


class TableRequirements(models.Model):
    """What a table asks of whoever takes one of its free seats; a blank field asks nothing.

    ``min_reliability`` is the move figure (moves on time, in %), ``max_abandoned`` the per-game figure (of the
    latest ten finished games with a clock, how many were left to a bot), ``min_finished`` the games finished, and
    the rating range the player's rating in this game for this many players (provisional ones refused unless
    ``provisional_ok``). A player new to clocked games meets the two reliability requirements only where the table
    takes ``new_players``: they are read as neither reliable nor unreliable.
    """

    game = models.OneToOneField("play.Game", on_delete=models.CASCADE, primary_key=True, related_name="+")
    min_reliability = models.PositiveSmallIntegerField(null=True, blank=True)
    max_abandoned = models.PositiveSmallIntegerField(null=True, blank=True)
    min_finished = models.PositiveIntegerField(null=True, blank=True)
    rating_min = models.PositiveIntegerField(null=True, blank=True)
    rating_max = models.PositiveIntegerField(null=True, blank=True)
    provisional_ok = models.BooleanField(default=True)
    new_players = models.BooleanField(default=True)

    def __str__(self) -> str:
        return f"requirements of game {self.game_id}"
