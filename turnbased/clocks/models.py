"""Time controls, each seat's clock, and absences."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class ClockKind(models.TextChoices):
    NONE = "none", "No clock (friendly)"
    PER_MOVE = "per_move", "Days per move"
    BANK = "bank", "Time bank"


class ExpiryPolicy(models.TextChoices):
    BOT_TURN = "bot_turn", "A bot plays the late turn; after 3 timeouts in a row the bot takes the seat"
    REMOVE = "remove", "The late player is removed at once and a bot plays their seat out"


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

    def describe(self) -> str:
        if self.kind == ClockKind.NONE:
            return "No clock"
        if self.kind == ClockKind.PER_MOVE:
            text = f"{self.days_per_move} day{'s' if self.days_per_move != 1 else ''} per move"
        else:
            text = f"time bank of {self.bank_days} days, +{self.increment_days} per move (capped at {self.bank_days})"
        if self.weekends_off:
            text += ", weekends don't count"
        return text


class SeatClock(models.Model):
    """One seat's clock in one game: its bank, its running turn, its deadline."""

    game = models.ForeignKey("play.Game", on_delete=models.CASCADE, related_name="seat_clocks")
    seat = models.PositiveSmallIntegerField()
    bank_seconds = models.FloatField(default=0)
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
