"""Counting thinking time: weekends in the player's own zone, and pauses."""

from datetime import datetime, timedelta, timezone

from turnbased.clocks.arithmetic import DAY, counted_seconds, deadline_after

FRIDAY_NOON = datetime(2026, 11, 27, 12, 0, tzinfo=timezone.utc)


def test_a_day_per_move_ends_a_day_later():
    assert deadline_after(FRIDAY_NOON, DAY) == FRIDAY_NOON + timedelta(days=1)


def test_weekends_do_not_count():
    assert deadline_after(FRIDAY_NOON, DAY, weekends_off=True) == datetime(2026, 11, 30, 12, 0, tzinfo=timezone.utc)
    assert counted_seconds(FRIDAY_NOON, FRIDAY_NOON + timedelta(days=3), weekends_off=True) == DAY


def test_the_weekend_is_the_players_own():
    # Friday noon UTC is already Saturday in Auckland: the clock starts on Monday there.
    deadline = deadline_after(FRIDAY_NOON, DAY, zone="Pacific/Auckland", weekends_off=True)
    assert deadline.astimezone(timezone.utc) == datetime(2026, 11, 30, 11, 0, tzinfo=timezone.utc)


def test_pauses_push_the_deadline_out_and_overlaps_count_once():
    pauses = [(FRIDAY_NOON + timedelta(hours=1), FRIDAY_NOON + timedelta(hours=5)),
              (FRIDAY_NOON + timedelta(hours=3), FRIDAY_NOON + timedelta(hours=7))]
    assert deadline_after(FRIDAY_NOON, DAY, pauses=pauses) == FRIDAY_NOON + timedelta(days=1, hours=6)
    assert counted_seconds(FRIDAY_NOON, FRIDAY_NOON + timedelta(days=1), pauses=pauses) == DAY - 6 * 3600


def test_a_spent_budget_is_due_at_once():
    assert deadline_after(FRIDAY_NOON, 0) == FRIDAY_NOON
    assert counted_seconds(FRIDAY_NOON, FRIDAY_NOON - timedelta(hours=1)) == 0
