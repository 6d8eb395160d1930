"""Following games (issue 46): a person's watch list. A watch names one game, one group (its games) or one
competition (its games); the games it covers appear in the person's feed (``selectors.feed``), as any spectator sees
them, and, as its ``notify`` says, each move or each end is told to the person like a turn (``reactions``)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class Notify(models.TextChoices):
    """What a watch tells its follower, beyond the feed."""

    OFF = "off", _("nothing: the feed only")
    ENDS = "ends", _("when a game ends")
    MOVES = "moves", _("every move, and the end")


class Watch(models.Model):
    """``user`` follows one game, one group's games or one competition's games (exactly one of the three)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey("play.Game", on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    group = models.ForeignKey("groups.Group", on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    competition = models.ForeignKey("competitions.Competition", on_delete=models.CASCADE, null=True, blank=True,
                                    related_name="+")
    notify = models.CharField(max_length=5, choices=Notify.choices, default=Notify.ENDS)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=(Q(game__isnull=False, group__isnull=True, competition__isnull=True)
                           | Q(game__isnull=True, group__isnull=False, competition__isnull=True)
                           | Q(game__isnull=True, group__isnull=True, competition__isnull=False)),
                name="following_watch_one_target"),
            # Each also serves the move's question "who follows this game (group, competition)?" by its own column
            # first: the reverse order would not, so the partial indexes below do.
            models.UniqueConstraint(fields=["user", "game"], condition=Q(game__isnull=False),
                                    name="following_watch_game_once"),
            models.UniqueConstraint(fields=["user", "group"], condition=Q(group__isnull=False),
                                    name="following_watch_group_once"),
            models.UniqueConstraint(fields=["user", "competition"], condition=Q(competition__isnull=False),
                                    name="following_watch_competition_once"),
        ]
        indexes = [
            # Every move asks who follows its game, its group and its competition (``reactions``): three lookups
            # that find nothing for most games, each in an index holding only the watches of its kind.
            models.Index(fields=["game"], condition=Q(game__isnull=False), name="following_watch_by_game"),
            models.Index(fields=["group"], condition=Q(group__isnull=False), name="following_watch_by_group"),
            models.Index(fields=["competition"], condition=Q(competition__isnull=False),
                         name="following_watch_by_competition"),
        ]

    @property
    def kind(self) -> str:
        return "game" if self.game_id else "group" if self.group_id else "competition"

    @property
    def target_id(self) -> int:
        return self.game_id or self.group_id or self.competition_id

    def __str__(self) -> str:
        return f"{self.user_id} follows {self.kind} {self.target_id}"
