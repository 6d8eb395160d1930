"""Dates worded for people in the zone and language they read them in: ``{{ deadline|when }}`` is
"Tue 1 Dec, 14:00 CET" in English, "december 1. (k) 14:00 CET" in Hungarian."""

from __future__ import annotations

from datetime import datetime

from django import template
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import pgettext

register = template.Library()


@register.filter
def when(value, style: str = "") -> str:
    """Word a moment in the active zone and language with the zone's name; ``"year"`` adds the year.

    With the year it is the language's ``DATETIME_FORMAT``; without, a day of the month
    (``MONTH_DAY_FORMAT``) with its weekday and the time, in the order the language puts them.
    A zone without a common abbreviation is named by its offset ("UTC-03").
    """
    if not isinstance(value, datetime):
        return ""
    local = timezone.localtime(value) if timezone.is_aware(value) else value
    abbreviation = local.tzname() or ""
    if abbreviation[:1] in "+-" and abbreviation:
        abbreviation = f"UTC{abbreviation}"
    if style == "year":
        worded = date_format(local, "DATETIME_FORMAT")
    else:
        worded = pgettext("a moment this year: weekday (abbreviated), day of the month and month, time of day",
                          "%(weekday)s %(day)s, %(time)s") % {
            "weekday": date_format(local, "D"), "day": date_format(local, "MONTH_DAY_FORMAT"),
            "time": date_format(local, "TIME_FORMAT")}
    return f"{worded} {abbreviation}".strip()


@register.filter
def zone_name(value) -> str:
    """Word an IANA zone name as people read it: "America/New York" for ``America/New_York``."""
    return str(value).replace("_", " ")
