"""Ratings: one per player, game and player count, and the append-only record of each game's effect on them."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from turnbased.ratings.rules import display_rating


class Rating(models.Model):
    """A player's openskill rating at one game for one player count (a 2-player and a 4-player rating differ)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="ratings")
    game_slug = models.CharField(max_length=40)
    players = models.PositiveSmallIntegerField(help_text="The number of seats at the tables this rating counts.")
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField(default=0, help_text="Rated games counted.")
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "game_slug", "players"], name="rating_unique_user_game_players"),
        ]
        indexes = [models.Index(fields=["game_slug", "players"])]

    @property
    def display(self) -> int:
        return display_rating(self.mu, self.sigma)

    def __str__(self) -> str:
        return f"{self.user_id} at {self.game_slug} ({self.players} players): {self.display}"


class RatingChange(models.Model):
    """What one finished game did to one player's rating (a database trigger refuses updates and deletes).

    Unique per game and player, so a game is never counted twice.
    """

    game = models.ForeignKey("play.Game", on_delete=models.PROTECT, related_name="rating_changes")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    rating = models.ForeignKey(Rating, on_delete=models.PROTECT, related_name="changes")
    seat = models.PositiveSmallIntegerField()
    place = models.PositiveSmallIntegerField(help_text="1 is first; seats that tied share a place.")
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "user"], name="rating_change_unique_game_user")]

    @property
    def before(self) -> int:
        return display_rating(self.mu_before, self.sigma_before)

    @property
    def after(self) -> int:
        return display_rating(self.mu_after, self.sigma_after)

    @property
    def delta(self) -> int:
        return self.after - self.before

    def __str__(self) -> str:
        return f"game {self.game_id}, user {self.user_id}: {self.before} → {self.after}"
