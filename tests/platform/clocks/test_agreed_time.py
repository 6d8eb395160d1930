"""Time the players of a table agreed to (issue 46, ``clocks.agreed``), on real tables with a controllable clock: a
pause stops every clock and is not charged, nor does a sweep find anyone late during it; extra time goes to one seat
for one turn, spent before its bank; what the clock's rules refuse is said."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests.platform.clocks.test_clocks import DAY, FRIDAY_NOON, any_move, clock, seat_clock, table  # noqa: F401
from turnbased.agreements import services as agreements
from turnbased.clocks import sweep
from turnbased.clocks.agreed import clock_extra_time, clocks_pause, pause_refusal, paused_until
from turnbased.clocks.models import TableClock
from turnbased.play.models import Move

pytestmark = pytest.mark.django_db


def _agree(game, alice, bob, kind, **terms):
    proposal = agreements.proposal_make(game_id=game.pk, user=alice, kind=kind, terms=terms)
    agreements.proposal_answer(game_id=game.pk, proposal_id=proposal.pk, user=bob, accept=True)


def test_a_pause_is_not_charged_to_a_bank_and_nobody_is_late_during_it(clock, alice, bob):
    game = table(alice, bob, kind="bank", bank_days=2, increment_days=0)
    clock.shift(timedelta(hours=12))
    _agree(game, alice, bob, "pause", days=5)
    table_clock = TableClock.objects.get(game=game)
    assert paused_until(table_clock) == FRIDAY_NOON + timedelta(hours=12) + 5 * DAY
    assert seat_clock(game, 0).deadline == FRIDAY_NOON + 2 * DAY + 5 * DAY
    clock.shift(4 * DAY)  # two banked days would have run out long ago without the pause
    assert not sweep.run()["timeouts"]
    assert not Move.objects.filter(game=game, source="timeout").exists()
    any_move(game, alice)  # moved during the pause: charged only the twelve hours before it
    assert seat_clock(game, 0).bank_seconds == pytest.approx(1.5 * 86400)
    clock.shift(2 * DAY)
    assert paused_until(TableClock.objects.get(game=game)) is None, "over after its days"


def test_extra_time_is_spent_before_the_bank_and_not_kept(clock, alice, bob):
    game = table(alice, bob, kind="bank", bank_days=3, increment_days=0)
    _agree(game, bob, alice, "extra_time", seat=0, days=2)
    assert seat_clock(game, 0).deadline == FRIDAY_NOON + 5 * DAY
    clock.shift(DAY)
    any_move(game, alice)  # a day used, all of it from the extra time: the bank keeps its three days
    assert seat_clock(game, 0).bank_seconds == 3 * 86400 and seat_clock(game, 0).extra_seconds == 0
    clock.shift(timedelta(hours=1))
    any_move(game, bob)
    clock.shift(DAY)
    game.refresh_from_db()
    clock_extra_time(game=game, seat=0, days=1)
    clock.shift(2 * DAY)  # three days used: one extra, then two of the bank
    any_move(game, alice)
    assert seat_clock(game, 0).bank_seconds == pytest.approx(1 * 86400)


def test_extra_time_for_a_seat_not_to_move_waits_for_its_turn(clock, alice, bob):
    game = table(alice, bob, kind="per_move", days_per_move=2)
    _agree(game, alice, bob, "extra_time", seat=1, days=3)
    assert seat_clock(game, 1).deadline is None and seat_clock(game, 1).extra_seconds == 3 * 86400
    clock.shift(DAY)
    any_move(game, alice)
    assert seat_clock(game, 1).deadline == FRIDAY_NOON + DAY + 5 * DAY


def test_what_the_clock_refuses_is_said(clock, alice, bob):
    friendly = table(alice, bob, kind="none")
    strict = table(alice, bob, kind="per_move", days_per_move=2, allow_absence=False)
    easy = table(alice, bob, kind="per_move", days_per_move=2)
    assert "no clock" in pause_refusal(friendly)
    assert "never stops" in pause_refusal(strict)
    assert pause_refusal(easy) is None
    until = clocks_pause(game=easy, days=2)
    assert until == FRIDAY_NOON + 2 * DAY and "paused already" in pause_refusal(easy)
    clock.shift(2 * DAY)
    assert pause_refusal(easy) is None
