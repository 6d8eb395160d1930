"""Time controls, each seat's clock, and absences."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext, gettext_lazy, ngettext


class ClockKind(models.TextChoices):
    NONE = "none", gettext_lazy("No clock (friendly)")
    PER_MOVE = "per_move", gettext_lazy("Days per move")
    BANK = "bank", gettext_lazy("Time bank")


class ExpiryPolicy(models.TextChoices):
    BOT_TURN = "bot_turn", gettext_lazy("A bot plays the late turn; after 3 timeouts in a row the bot takes the seat")
    REMOVE = "remove", gettext_lazy("The late player is removed at once and a bot plays their seat out")


class StandIn(models.TextChoices):
    """The bot that plays a seat its person left or ran out of time on (``play.services.moves``): a level every game
    offers. A game without the level falls back on its ``basic`` bot."""

    BASIC = "basic", gettext_lazy("The basic bot")
    STRONG = "strong", gettext_lazy("The strong bot")


class TableClock(models.Model):
    """The time control a table chose at creation, shown to everyone before they join."""

    game = models.OneToOneField("play.Game", on_delete=models.CASCADE, related_name="clock")
    kind = models.CharField(max_length=10, choices=ClockKind.choices, default=ClockKind.NONE)
    days_per_move = models.PositiveSmallIntegerField(default=3)
    bank_days = models.PositiveSmallIntegerField(default=7)
    increment_days = models.PositiveSmallIntegerField(default=1)
    weekends_off = models.BooleanField(default=False)
    allow_absence = models.BooleanField(default=True)
    expiry = models.CharField(max_length=10, choices=ExpiryPolicy.choices, default=ExpiryPolicy.BOT_TURN)
    # Which bot plays a late turn and takes over a seat (a competition's tables: the strong one unless it says).
    stand_in = models.CharField(max_length=10, choices=StandIn.choices, default=StandIn.BASIC)
    # Stretches the players agreed every clock stops for, as [start, end] ISO times (``clocks.agreed``).
    pauses = models.JSONField(default=list, blank=True)

    def describe(self) -> str:
        """Return the time control in words, in the active language ("3 days per move")."""
        if self.kind == ClockKind.NONE:
            return gettext("No clock")
        if self.kind == ClockKind.PER_MOVE:
            if self.weekends_off:
                text = ngettext("%(days)s day per move, weekends don't count",
                                "%(days)s days per move, weekends don't count", self.days_per_move)
            else:
                text = ngettext("%(days)s day per move", "%(days)s days per move", self.days_per_move)
            return text % {"days": self.days_per_move}
        if self.weekends_off:
            text = ngettext(
                "time bank of %(bank)s day, +%(increment)s per move (capped at %(bank)s), weekends don't count",
                "time bank of %(bank)s days, +%(increment)s per move (capped at %(bank)s), weekends don't count",
                self.bank_days,
            )
        else:
            text = ngettext("time bank of %(bank)s day, +%(increment)s per move (capped at %(bank)s)",
                            "time bank of %(bank)s days, +%(increment)s per move (capped at %(bank)s)", self.bank_days)
        return text % {"bank": self.bank_days, "increment": self.increment_days}


class SeatClock(models.Model):
    """One seat's clock in one game: its bank, its running turn, its deadline."""

    game = models.ForeignKey("play.Game", on_delete=models.CASCADE, related_name="seat_clocks")
    seat = models.PositiveSmallIntegerField()
    bank_seconds = models.FloatField(default=0)
    # Time the players agreed to give this seat for its current or next turn, on top of the clock's; what the turn
    # does not use of it is not kept (``clocks.agreed``).
    extra_seconds = models.FloatField(default=0)
    turn_started_at = models.DateTimeField(null=True, blank=True)
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    timeouts_in_row = models.PositiveSmallIntegerField(default=0)
    reminded_for = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["seat"]
        constraints = [models.UniqueConstraint(fields=["game", "seat"], name="seat_clock_unique")]


class Absence(models.Model):
    """Dates (in the user's time zone, inclusive) when their clocks stop in games that allow it."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="absences")
    starts_on = models.DateField()
    ends_on = models.DateField()
    ended_at = models.DateTimeField(null=True, blank=True, help_text="Set when the player came back early.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["starts_on"]
