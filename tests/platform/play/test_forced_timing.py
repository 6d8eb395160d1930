"""When a forced move comes (``services.forced_timing``): after a time drawn from its player's own, in the hours they
play, never while they are away, before their deadline; and to everyone else it is the player's own move in every
side effect (their timeouts in a row, their reliability).

The draws are random (``forced_timing.RANDOM``); the tests give one whose spread is nil (``Unspread``), so a drawn
time is exactly one of the player's, or a seeded one where a range is what is checked.
"""

from __future__ import annotations

import random
from datetime import date, datetime, timedelta, timezone as tz
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.utils import timezone

from games import get_engine
from tests.platform.play.test_forced_moves import COUNTESS_WITH_KING, forced_moves_on, love_letter
from turnbased.clocks import sweep
from turnbased.clocks.models import SeatClock
from turnbased.clocks.services import absence_declare, absence_end
from turnbased.play import services
from turnbased.play.models import ForcedMoveDue, Game, Move, MoveSource
from turnbased.play.move_times import MoveTime, own_move_times
from turnbased.play.services import forced_timing
from turnbased.ratings.selectors import reliability

UTC = tz.utc
BUDAPEST = ZoneInfo("Europe/Budapest")
START = datetime(2027, 3, 3, 9, tzinfo=UTC)  # a Wednesday


class Unspread(random.Random):
    """A draw without spread: the time chosen is the time used; ``uniform`` gives the middle of its range."""

    def gauss(self, mu: float = 0.0, sigma: float = 1.0) -> float:
        return mu

    def uniform(self, a: float, b: float) -> float:
        return (a + b) / 2


def times(seconds: list[float], *, after_own_move: bool = False, at: datetime = START) -> list[MoveTime]:
    return [MoveTime(seconds=value, at=at, after_own_move=after_own_move) for value in seconds]


# -- the draw, without a database -------------------------------------------------------------------------


def test_a_time_is_drawn_from_the_players_own_of_the_same_kind_when_there_are_enough():
    answers = times([3600.0] * forced_timing.ENOUGH)
    steps = times([20.0] * forced_timing.ENOUGH, after_own_move=True)
    assert forced_timing.draw_seconds(answers + steps, after_own_move=False, rng=Unspread(1)) == 3600.0
    assert forced_timing.draw_seconds(answers + steps, after_own_move=True, rng=Unspread(1)) == 20.0
    # Too few of the kind: all of the player's times stand in; too few in all: nothing to draw from.
    assert forced_timing.draw_seconds(answers + steps[:1], after_own_move=True, rng=Unspread(1)) in (3600.0, 20.0)
    assert forced_timing.draw_seconds(answers[:forced_timing.ENOUGH - 1], after_own_move=False, rng=Unspread(1)) is None


def test_a_drawn_time_spreads_around_the_one_chosen_and_never_repeats_it():
    rng = random.Random(42)
    drawn = [forced_timing.draw_seconds(times([3600.0] * forced_timing.ENOUGH), after_own_move=False, rng=rng)
             for _ in range(400)]
    assert 3600.0 not in drawn and len(set(drawn)) == len(drawn)
    assert 2700 < sorted(drawn)[200] < 4800  # the median stays near the time chosen
    assert min(drawn) > 3600 / 4 and max(drawn) < 3600 * 4


def test_with_nothing_to_draw_from_a_person_waits_like_a_person_and_a_program_like_a_program():
    rng = random.Random(7)
    person = sorted(forced_timing.default_seconds(program=False, rng=rng) for _ in range(201))
    program = sorted(forced_timing.default_seconds(program=True, rng=rng) for _ in range(201))
    assert 20 * 60 < person[100] < 3 * 3600 and 0.5 < program[100] < 8 and program[-1] < person[0]


def test_a_moment_outside_the_players_hours_moves_to_the_next_hour_they_play():
    # Every sampled move was made between 10:00 and 11:00 in Budapest.
    played = [MoveTime(seconds=60.0, at=datetime(2027, 3, day, 10, 20, tzinfo=BUDAPEST), after_own_move=False)
              for day in range(1, 1 + forced_timing.ENOUGH)]
    night = datetime(2027, 3, 10, 3, 40, tzinfo=BUDAPEST)
    moved = forced_timing.in_playing_hours(night, played, BUDAPEST, Unspread(1))
    assert moved == datetime(2027, 3, 10, 10, 30, tzinfo=BUDAPEST)  # the middle of that hour (Unspread)
    morning = datetime(2027, 3, 10, 10, 5, tzinfo=BUDAPEST)
    assert forced_timing.in_playing_hours(morning, played, BUDAPEST, Unspread(1)) == morning
    # Too few moves to know their hours: any hour is theirs.
    assert forced_timing.in_playing_hours(night, played[:3], BUDAPEST, Unspread(1)) == night


def test_a_moment_inside_an_absence_moves_past_its_end():
    absences = [(START + timedelta(days=1), START + timedelta(days=3)),
                (START + timedelta(days=3, hours=1), START + timedelta(days=5))]
    waits = iter([7200.0, 600.0])
    moment, returns = forced_timing.outside_absences(START + timedelta(days=2), absences, lambda: next(waits))
    # Past the first one's end, which falls inside the second: past that one's end too.
    assert (moment, returns) == (START + timedelta(days=5, seconds=600), START + timedelta(days=5))
    assert forced_timing.outside_absences(START, absences, lambda: 1.0) == (START, None)


def test_a_moment_too_near_the_deadline_is_drawn_within_the_time_left():
    deadline = START + timedelta(days=3)
    assert forced_timing.before_deadline(START + timedelta(days=1), START, deadline, Unspread(1)) == \
        START + timedelta(days=1)
    rng = random.Random(5)
    for _ in range(50):
        kept = forced_timing.before_deadline(START + timedelta(days=4), START, deadline, rng)
        assert START + timedelta(days=3 * 0.45) <= kept <= START + timedelta(days=3 * 0.9)
    assert forced_timing.before_deadline(START + timedelta(days=9), START, None, rng) == START + timedelta(days=9)


# -- the draw through the services -------------------------------------------------------------------------

pytestmark = pytest.mark.django_db


@pytest.fixture
def clock():
    with time_machine.travel(START, tick=False) as traveller:
        yield traveller


@pytest.fixture
def unspread(monkeypatch):
    monkeypatch.setattr(forced_timing, "RANDOM", Unspread(1))


def build_habit(player, other, clock, capture, *, seconds: float, count: int = forced_timing.ENOUGH + 2) -> None:
    """Give ``player`` ``count`` moves of their own in a game of Halali! with ``other``, each ``seconds`` after the
    move before it (``other`` answers in a minute)."""
    engine = get_engine("halali")
    with capture(execute=True):
        game = services.create_game(creator=player, engine_slug="halali", players=2, seed="habit")
        services.join_game(game_id=game.pk, user=other)
    made = 0
    while made < count:
        game.refresh_from_db()
        (seat,) = game.to_move
        mover = game.seats.get(index=seat).user
        clock.shift(timedelta(seconds=seconds if mover == player else 60))
        move = engine.legal_moves(game.state, seat)[0]
        with capture(execute=False):
            services.submit_move(game_id=game.pk, user=mover, expected_seq=game.seq, move=move)
        made += mover == player


def forced_position(alice, bob, capture, *, time_control=None) -> Game:
    """Love Letter where alice's Handmaid leaves bob (who asked) a forced Countess; its first task has drawn."""
    forced_moves_on(bob)
    with capture(execute=True):
        game = services.create_game(creator=alice, engine_slug="love-letter", players=2, time_control=time_control,
                                    options={"edition": "classic", "deck": COUNTESS_WITH_KING, "first_player": 0})
        services.join_game(game_id=game.pk, user=bob)
    with capture(execute=True):
        services.submit_move(game_id=game.pk, user=alice, expected_seq=0, move={"card": "handmaid"})
    return game


def test_the_move_comes_after_a_time_drawn_from_the_players_own(
        alice, bob, carol, clock, unspread, django_capture_on_commit_callbacks):
    build_habit(bob, carol, clock, django_capture_on_commit_callbacks, seconds=3 * 3600)
    assert [time.seconds for time in own_move_times(bob.pk)][:3] == [3 * 3600.0] * 3
    game = forced_position(alice, bob, django_capture_on_commit_callbacks)
    due = ForcedMoveDue.objects.get(game=game)
    assert due.due_at == due.due_since + timedelta(hours=3) and due.returns_at is None


def test_a_new_person_waits_a_persons_time_and_a_new_programs_seconds(
        alice, bob, robo, clock, django_capture_on_commit_callbacks):
    game = forced_position(alice, bob, django_capture_on_commit_callbacks)
    due = ForcedMoveDue.objects.get(game=game)
    assert timedelta(seconds=30) < due.due_at - due.due_since <= forced_timing.LONGEST_WAIT
    table = forced_position(alice, robo, django_capture_on_commit_callbacks)
    due = ForcedMoveDue.objects.get(game=table)
    assert due.due_at - due.due_since < timedelta(seconds=60)


def test_no_move_comes_while_the_player_is_away_and_a_return_draws_again(
        alice, bob, clock, unspread, django_capture_on_commit_callbacks):
    absence_declare(user=bob, starts_on=date(2027, 3, 3), ends_on=date(2027, 3, 5))  # UTC: back on the 6th
    game = forced_position(alice, bob, django_capture_on_commit_callbacks)
    due = ForcedMoveDue.objects.get(game=game)
    assert due.returns_at == datetime(2027, 3, 6, tzinfo=UTC) and due.due_at > due.returns_at
    clock.move_to(datetime(2027, 3, 4, 12, tzinfo=UTC))
    with django_capture_on_commit_callbacks(execute=True):
        sweep.run()
    assert ForcedMoveDue.objects.get(game=game).due_at == due.due_at, "still away: nothing changes"
    absence_end(user=bob)  # back early
    with django_capture_on_commit_callbacks(execute=True):
        sweep.run()
    again = ForcedMoveDue.objects.get(game=game)
    assert again.returns_at is None and again.due_since == timezone.now()
    assert timezone.now() < again.due_at < datetime(2027, 3, 6, tzinfo=UTC)


def test_an_absence_declared_after_the_draw_puts_the_move_off_until_the_return(
        alice, bob, clock, unspread, django_capture_on_commit_callbacks):
    game = forced_position(alice, bob, django_capture_on_commit_callbacks)
    due = ForcedMoveDue.objects.get(game=game)
    absence_declare(user=bob, starts_on=date(2027, 3, 3), ends_on=date(2027, 3, 8))
    clock.move_to(due.due_at)
    with django_capture_on_commit_callbacks(execute=True):
        assert services.play_forced_move(game_id=game.pk, seq=1) is None
    later = ForcedMoveDue.objects.get(game=game)
    assert later.returns_at == datetime(2027, 3, 9, tzinfo=UTC) and later.due_at > later.returns_at
    assert Move.objects.filter(game=game).count() == 1


def test_the_move_comes_before_the_deadline_however_slow_the_player(
        alice, bob, carol, clock, unspread, django_capture_on_commit_callbacks):
    build_habit(bob, carol, clock, django_capture_on_commit_callbacks, seconds=5 * 86400)
    game = forced_position(alice, bob, django_capture_on_commit_callbacks,
                           time_control={"kind": "per_move", "days_per_move": 3})
    due = ForcedMoveDue.objects.get(game=game)
    deadline = SeatClock.objects.get(game=game, seat=1).deadline
    assert due.due_since < due.due_at <= due.due_since + (deadline - due.due_since) * forced_timing.DEADLINE_SHARE


def test_a_forced_move_is_the_players_own_in_their_timeouts_and_their_reliability(
        alice, bob, clock, django_capture_on_commit_callbacks):
    game = forced_position(alice, bob, django_capture_on_commit_callbacks,
                           time_control={"kind": "per_move", "days_per_move": 3})
    SeatClock.objects.filter(game=game, seat=1).update(timeouts_in_row=2)  # two late turns before this one
    clock.move_to(ForcedMoveDue.objects.get(game=game).due_at)
    with django_capture_on_commit_callbacks(execute=True):
        assert services.play_forced_move(game_id=game.pk, seq=1).source == MoveSource.AUTO
    assert SeatClock.objects.get(game=game, seat=1).timeouts_in_row == 0
    assert reliability(bob, alice).moves_on_time == 1
