"""Per-user settings beyond Django's user: time zone and reminder lead time."""

from __future__ import annotations

import zoneinfo

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models


def validate_time_zone(value: str) -> None:
    if value not in zoneinfo.available_timezones():
        raise ValidationError(f"{value!r} is not a time zone name such as Europe/London.")


class Profile(models.Model):
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile")
    time_zone = models.CharField(max_length=64, default="UTC", validators=[validate_time_zone],
                                 help_text="Weekends and dates are counted in this zone.")
    reminder_lead_hours = models.PositiveSmallIntegerField(
        default=12, help_text="Email a reminder this many hours before a deadline (0: no reminders)."
    )
    absence_allowance_days = models.PositiveSmallIntegerField(default=30, help_text="Days of absence per year.")

    def __str__(self) -> str:
        return f"profile of {self.user_id}"


def profile_of(user) -> Profile:
    profile, _ = Profile.objects.get_or_create(user=user)
    return profile
