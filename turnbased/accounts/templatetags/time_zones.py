"""Dates worded for people in the zone they read them in: ``{{ deadline|when }}`` is "Tue 1 Dec, 14:00 CET"."""

from __future__ import annotations

from datetime import datetime

from django import template
from django.utils import timezone
from django.utils.dateformat import format as date_format

register = template.Library()


@register.filter
def when(value, style: str = "") -> str:
    """Word a moment in the active zone with the zone's name; ``"year"`` adds the year.

    A zone without a common abbreviation is named by its offset ("UTC-03").
    """
    if not isinstance(value, datetime):
        return ""
    local = timezone.localtime(value) if timezone.is_aware(value) else value
    abbreviation = local.tzname() or ""
    if abbreviation[:1] in "+-" and abbreviation:
        abbreviation = f"UTC{abbreviation}"
    pattern = "D j M Y, H:i" if style == "year" else "D j M, H:i"
    return f"{date_format(local, pattern)} {abbreviation}".strip()
