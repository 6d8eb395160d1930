"""Counting a player's thinking time: weekends and absences don't count.

Pure functions of aware datetimes; a player's weekend is Saturday and Sunday
in their own time zone.
"""

from __future__ import annotations

from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

Interval = tuple[datetime, datetime]

DAY = 86400


def _merge(intervals: list[Interval]) -> list[Interval]:
    merged: list[Interval] = []
    for start, end in sorted(i for i in intervals if i[1] > i[0]):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


def _weekends(start: datetime, end: datetime, zone: ZoneInfo) -> list[Interval]:
    """Return the Saturday-and-Sunday stretches (in ``zone``) overlapping [start, end)."""
    stretches = []
    day = start.astimezone(zone).date() - timedelta(days=1)
    last = end.astimezone(zone).date() + timedelta(days=1)
    while day <= last:
        if day.weekday() == 5:  # Saturday 00:00 to Monday 00:00, local time
            begin = datetime.combine(day, time(), tzinfo=zone)
            stretches.append((begin, datetime.combine(day + timedelta(days=2), time(), tzinfo=zone)))
        day += timedelta(days=1)
    return stretches


def paused(start: datetime, end: datetime, *, zone: str, weekends_off: bool, pauses: list[Interval]) -> list[Interval]:
    """Return the merged stretches within [start, end) when the clock does not run."""
    stopped = list(pauses)
    if weekends_off:
        stopped += _weekends(start, end, ZoneInfo(zone))
    return [(max(s, start), min(e, end)) for s, e in _merge(stopped) if e > start and s < end]


def counted_seconds(start: datetime, end: datetime, *, zone: str = "UTC", weekends_off: bool = False,
                    pauses: list[Interval] = ()) -> float:
    """Return the thinking time between ``start`` and ``end`` that counts against a player."""
    if end <= start:
        return 0.0
    stopped = paused(start, end, zone=zone, weekends_off=weekends_off, pauses=list(pauses))
    return (end - start).total_seconds() - sum((e - s).total_seconds() for s, e in stopped)


def deadline_after(start: datetime, budget_seconds: float, *, zone: str = "UTC", weekends_off: bool = False,
                   pauses: list[Interval] = ()) -> datetime:
    """Return when ``budget_seconds`` of counted time starting at ``start`` run out."""
    remaining = max(0.0, budget_seconds)
    horizon = start + timedelta(seconds=remaining)
    # Every pause pushes the deadline out; widen the window until it holds all of them.
    while True:
        stopped = paused(start, horizon, zone=zone, weekends_off=weekends_off, pauses=list(pauses))
        cursor, left = start, remaining
        for s, e in stopped:
            gap = (s - cursor).total_seconds()
            if gap >= left:
                return cursor + timedelta(seconds=left)
            left -= gap
            cursor = e
        candidate = cursor + timedelta(seconds=left)
        if candidate <= horizon:
            return candidate
        horizon = candidate + timedelta(days=3)
