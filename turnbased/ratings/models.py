"""Ratings: one per player, game and player count, and the append-only record of each game's effect on them."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy

from turnbased.ratings.rules import BOT_POOL, PEOPLE_POOL, display_rating, provisional


class RatingPool(models.TextChoices):
    """Which games a rating counts (``rules.rating_pool``): between people only, or with a bot account at the table."""

    PEOPLE = PEOPLE_POOL, gettext_lazy("People")
    BOTS = BOT_POOL, gettext_lazy("Bot pool")


class Rating(models.Model):
    """A player's openskill rating at one game for one player count and pool (a 2-player and a 4-player rating
    differ, and so do a rating among people and one from games with bot accounts)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="ratings")
    game_slug = models.CharField(max_length=40)
    players = models.PositiveSmallIntegerField(help_text="The number of seats at the tables this rating counts.")
    pool = models.CharField(max_length=10, choices=RatingPool.choices, default=RatingPool.PEOPLE,
                            help_text="People: games between people only. Bot pool: games with a bot account.")
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField(default=0, help_text="Rated games counted.")
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "game_slug", "players", "pool"],
                                    name="rating_unique_user_game_players_pool"),
        ]
        indexes = [models.Index(fields=["game_slug", "players", "pool"], name="rating_leaderboard")]

    @property
    def display(self) -> int:
        return display_rating(self.mu, self.sigma)

    @property
    def display_text(self) -> str:
        """The rating as pages show it: with a "?" while it is provisional."""
        return f"{self.display}?" if self.provisional else str(self.display)

    @property
    def provisional(self) -> bool:
        """Fewer rated games than ``RATINGS_PROVISIONAL_GAMES`` (``rules.provisional``): shown with a "?" (the number
        says little yet) and kept off the leaderboards."""
        return provisional(self.games)

    def __str__(self) -> str:
        return f"{self.user_id} at {self.game_slug} ({self.players} players, {self.pool}): {self.display}"


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

