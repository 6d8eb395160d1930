"""A move played for its seat (its only legal one, as its player asked) reads to everyone else as a move its player
chose: through every door (pages, API, every seated player's page, clocks, record, stream, webhooks, emails), in
every language, times included, for a person and for a bot account, in Love Letter (a Countess forced by a King)
and in Halali! (a final-phase move with nowhere else to go).

Each scenario is played twice on one stopped clock (``time_machine``). In world A the platform plays the forced
move when the moment its task drew comes; in world B the seat's player sends it themselves (in Love Letter holding
a Baron, not a King) when they would have: their usual time after the position began, or after their absence
ended. The clock stands still between steps and moves by the same amounts in both worlds, so every time either
world shows is the same unless the forced move came at another moment: the walk keeps the times.

The player's usual time: every earlier move of theirs took the same time (a habit built before the worlds, in a
game of their own, or in the game itself), and the draw's spread is nil here (``Unspread``), so the moment drawn
is that time exactly. The clocked Love Letter scenarios also hold a late turn (a timeout: the seat's timeouts in a
row must read 0 after either move) and, for the person, an absence over the forced turn (no move of theirs comes
while they are away; either move ends nothing). ``test_the_walk_tells_*`` show the comparison fails without each
part of the fix.
"""

from __future__ import annotations

import difflib
import random
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone as tz
from typing import Any

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import connection, transaction
from django.test import override_settings

from games import get_engine
from tests.games.halali import LAYOUT as HALALI_LAYOUT
from tests.platform.conftest import bot_account_made, user_maker
from tests.platform.play.test_forced_timing import Unspread
from tests.platform.secrecy import doors
from tests.platform.secrecy.test_every_door import TWIN_GAME_ID
from tests.platform.secrecy.worlds import SEED, love_letter_deck
from turnbased.accounts.models import profile_of
from turnbased.accounts.services.languages import language_choose
from turnbased.clocks import services as clock_services, sweep
from turnbased.clocks.models import SeatClock
from turnbased.play import records, selectors, services
from turnbased.play.models import ForcedMoveDue, Game, Move, MoveSource
from turnbased.play.services import forced_moves, forced_timing
from turnbased.ratings import selectors as rating_selectors
from turnbased.webhooks import delivery, services as webhook_services
from turnbased.webhooks.models import Webhook, WebhookDelivery

pytestmark = pytest.mark.django_db

START = datetime(2027, 3, 3, 9, tzinfo=tz.utc)  # the worlds' first moment; the habits are built before it
LANGUAGES = ("en", "hu", "de")


# -- the steps of a scenario --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Send:
    """The seat's player sends ``move``, ``after`` the step before."""

    seat: int
    move: dict[str, Any]
    after: timedelta


@dataclass(frozen=True)
class LateTurn:
    """The seat's deadline passes; the minute sweep has a bot play the late turn."""

    seat: int


@dataclass(frozen=True)
class Away:
    """The seat's player declares an absence from today, ``days`` days long (in their time zone, UTC here)."""

    seat: int
    days: int


@dataclass(frozen=True)
class Forced:
    """The seat's only legal move (world A) or its player's choice (world B): played for it when its moment comes,
    or sent by its player ``usual`` after the position began (or after they came back from an absence)."""

    seat: int
    move: dict[str, Any]
    usual: timedelta


@dataclass(frozen=True)
class Look:
    """Every door is read here (and always at the end)."""


@dataclass(frozen=True)
class Twin:
    slug: str
    label: str
    options: tuple[dict[str, Any], dict[str, Any]]
    steps: tuple[Any, ...]
    forced_seat: int
    bot_account: bool = False  # the forced seat's player is a bot account (its program plays through the API)
    habit: timedelta | None = None  # the forced seat's usual time, from a game of their own before the worlds
    time_control: dict[str, Any] = field(default_factory=lambda: {"kind": "per_move", "days_per_move": 3})

    @property
    def blind(self) -> int:
        return 1 - self.forced_seat

    @property
    def id(self) -> str:
        return f"{self.slug}:{self.label}"


def _love_letter(label: str, *, bot_account: bool, absence: bool) -> Twin:
    """Bob holds a Guard; at his first turn (late: a bot plays his Guard, alice being protected) he drew a King in
    world A, a Baron in world B; at his second he draws the Countess, his only move beside the King."""
    decks = [love_letter_deck("classic", set_aside="princess", face_up=["guard", "guard", "priest"],
                              hands=["guard", "guard"], draws=["handmaid", held, "handmaid", "countess", "guard"])
             for held in ("king", "baron")]
    common = {"edition": "classic", "first_player": 0}
    usual = timedelta(seconds=4) if bot_account else timedelta(hours=1)
    steps = (
        Send(0, {"card": "handmaid"}, after=timedelta(hours=1)),
        LateTurn(1),
        *([Away(1, days=2)] if absence else []),
        Send(0, {"card": "handmaid"}, after=timedelta(hours=1)),
        Look(),
        Forced(1, {"card": "countess"}, usual=usual),
    )
    return Twin("love-letter", label, ({**common, "deck": decks[0]}, {**common, "deck": decks[1]}), steps,
                forced_seat=1, bot_account=bot_account, habit=usual)


def _halali() -> Twin:
    """A shuffled layout whose tiles are turned over one by one (a seeded choice, the same in both worlds); then
    the final phase leaves bob one move. Alice takes 12 hours a move and bob 13, so each has moved at every hour
    of the day by then (the hours they play are all hours)."""
    engine = get_engine("halali")
    rng = random.Random(55)
    layout = list(HALALI_LAYOUT)
    rng.shuffle(layout)
    options = {"layout": layout, "first_blue": 0}
    state = engine.setup(["p0", "p1"], engine.validate_options(2, dict(options)), SEED)
    usual = {0: timedelta(hours=12), 1: timedelta(hours=13)}
    steps: list[Any] = []
    for _ in range(80):
        (seat,) = engine.to_move(state)
        moves = engine.legal_moves(state, seat)
        if len(moves) == 1 and steps:
            steps.append(Forced(seat, moves[0], usual=usual[seat]))
            return Twin("halali", "a final-phase move with nowhere else to go", (options, options), tuple(steps),
                        forced_seat=seat, time_control={"kind": "per_move", "days_per_move": 2})
        move = rng.choice([move for move in moves if "flip" in move] or moves)
        steps.append(Send(seat, move, after=usual[seat]))
        state, _ = engine.play(state, seat, move)
    raise AssertionError("no forced position: choose another layout")


TWINS = [
    _love_letter("a Countess played for a person, or by him", bot_account=False, absence=True),
    _love_letter("a Countess played for a bot account, or by its program", bot_account=True, absence=False),
    _halali(),
]
CASES = [(twin, language) for twin in TWINS for language in LANGUAGES]
# Each twin is read in one language, each language in turn (the person's in English, the bot account's in
# Hungarian, Halali! in German); make test reads the person's Love Letter twin so (what a forced move may tell is
# the platform's, the same for every game and every kind of account: Halali!'s final phase and the bot account's
# twin are the long walk's, as Halali!'s every-door walk of hidden tiles is make test's in test_every_door.py, and a
# bot account's forced move is played by the same code as a person's, its source told apart by the tests of the
# walk below); make test-long reads every twin in every language. Why one
# language suffices: a translation carries nothing its English does not (test_catalogs.py holds every
# placeholder of a text to its translations), and what a language may still change (formats of times and
# dates, plural forms) is read in each language by one twin or another.
EACH_ONCE = {(twin.id, LANGUAGES[number % len(LANGUAGES)]) for number, twin in enumerate(TWINS)}
QUICK = {(twin_id, language) for twin_id, language in EACH_ONCE
         if twin_id.startswith("love-letter") and not next(twin for twin in TWINS if twin.id == twin_id).bot_account}


# -- playing a world ----------------------------------------------------------------------------------------


class _UndoWorld(Exception):
    """Raised to roll a world back once its doors are read, so the next world starts from the same rows."""


def _ids_from_here() -> None:
    """Give the world's game the twin id and its events the ids after the last event there is (the same in both
    worlds: the first is rolled back; sequences are not, and the habits' games wrote events before)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT setval(pg_get_serial_sequence('play_game', 'id'), %s, false)", [TWIN_GAME_ID])
        cursor.execute("SELECT setval(pg_get_serial_sequence('events_event', 'id'), "
                       "(SELECT coalesce(max(id), 0) + 1 FROM events_event), false)")


def _send(game: Game, user, move: dict, *, program: bool) -> None:
    services.submit_move(game_id=game.pk, user=user, expected_seq=game.seq, move=move,
                         source=MoveSource.API if program else MoveSource.WEB)


def _forced(game: Game, users: list, step: Forced, world: int, twin: Twin, clock) -> None:
    began = game.last_move_at or game.started_at
    if world == 0:
        logged = Move.objects.filter(game=game, seq=game.seq + 1).first()
        if logged is None:  # not played yet: its first task draws the moment (nothing was committed to run it)
            services.play_forced_move(game_id=game.pk, seq=game.seq)
            due = ForcedMoveDue.objects.filter(game=game, seq=game.seq).first()
            if due is not None:
                clock.move_to(max(due.due_at, START))
            sweep.run()  # as the minute sweep finds it due, and its task plays it
        logged = Move.objects.get(game=game, seq=game.seq + 1)
        assert (logged.seat, logged.move, logged.source) == (step.seat, step.move, MoveSource.AUTO)
        return
    back = clock_services.absence_intervals(users[step.seat])
    began = max([began, *(end for start, end in back if start <= began < end)])
    clock.move_to(began + step.usual)
    _send(game, users[step.seat], step.move, program=twin.bot_account)
    sweep.run()  # the minute sweep of that moment, as in world A


def play_world(twin: Twin, world: int, users: list, read) -> list[tuple[int, Any]]:
    """Play one world on the stopped clock from ``START``, reading every door at each ``Look`` and at the end;
    then undo it."""
    readings = []
    with time_machine.travel(START, tick=False) as clock:
        try:
            with transaction.atomic():
                _ids_from_here()
                game = services.create_game(creator=users[0], engine_slug=twin.slug, players=2, seed=SEED,
                                            options=twin.options[world], time_control=twin.time_control)
                services.join_game(game_id=game.pk, user=users[1])
                for number, step in enumerate(twin.steps):
                    game.refresh_from_db()
                    if isinstance(step, Send):
                        clock.shift(step.after)
                        _send(game, users[step.seat], step.move, program=twin.bot_account and step.seat == 1)
                    elif isinstance(step, LateTurn):
                        clock.move_to(SeatClock.objects.get(game=game, seat=step.seat).deadline
                                      + timedelta(seconds=1))
                        sweep.run()
                    elif isinstance(step, Away):
                        today = clock_services.local_today(users[step.seat])
                        clock_services.absence_declare(user=users[step.seat], starts_on=today,
                                                       ends_on=today + timedelta(days=step.days - 1))
                    elif isinstance(step, Forced):
                        _forced(game, users, step, world, twin, clock)
                    elif isinstance(step, Look):
                        readings.append((number, read(Game.objects.get(pk=game.pk))))
                readings.append((len(twin.steps), read(Game.objects.get(pk=game.pk))))
                raise _UndoWorld
        except _UndoWorld:
            cache.clear()  # the undone world's positions must not answer for the next world's game (same id)
    return readings


# -- who reads, and what --------------------------------------------------------------------------------------


def _hook_bodies(user) -> list[str]:
    """Return the bodies the user's webhook is sent, in order, as the sending task builds them (times kept)."""
    hook = Webhook.objects.get(owner=user)
    return [delivery.body_of(delivery.document(sent, hook)).decode()
            for sent in WebhookDelivery.objects.filter(hook=hook).order_by("id")]


def everything(twin: Twin, users: list, stranger, language: str):
    """Return a reader of every door, for the seat that must not tell the worlds apart, a stranger and a visitor."""
    def read(game: Game) -> dict[str, dict[str, str]]:
        blind = doors.Door(game=game, user=users[twin.blind])
        return {
            "the other seat": {**blind.read_all(seated=True, keep_times=True), **blind.emails(keep_times=True),
                               "webhook deliveries": "\n".join(_hook_bodies(users[twin.blind]))},
            "stranger": doors.Door(game=game, user=stranger).read_all(seated=False, keep_times=True),
            "anonymous": doors.Door(game=game, user=None, language=language).read_all(seated=False,
                                                                                       keep_times=True),
        }

    return read


@pytest.fixture(scope="module")
def _people_of_the_module(django_db_setup, django_db_blocker):
    """alice and bob (a person), robo (a bot account), a stranger; their tokens and webhooks, made before the
    worlds so both list the same; and, before ``START``, bob's and robo's habits: every move of theirs in a game
    with carol took an hour (bob) or four seconds (robo), at every hour of the day. Built once for the module's
    tests (two games of sixty moves each), in a transaction of its own rolled back after them: each test's own
    transaction is a savepoint within it, rolled back after the test, so every test starts from these rows alone.
    Returns their ids and API tokens."""
    from turnbased.celery import app

    with django_db_blocker.unblock():
        outer = transaction.atomic()
        outer.__enter__()
        try:
            # As in a test (tests/conftest.py, secrecy/conftest.py): tasks inline, rates not the subject.
            app.conf.task_always_eager = True
            try:
                with override_settings(RATE_LIMITS_ON=False):
                    people = _people_made()
            finally:
                app.conf.task_always_eager = False
            yield people
        finally:
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)


def _people_made() -> dict[str, tuple[int, str]]:
    make_user = user_maker()
    alice, bob, carol, stranger = (make_user(name) for name in ("alice", "bob", "carol", "stranger"))
    robo = bot_account_made(make_user, "robo")
    keys = {}
    for user in (alice, bob, robo, stranger):
        keys[user.pk] = doors.api_token(user)
        profile = profile_of(user)
        profile.choose_play_forced_moves(True)
        profile.save()
    with override_settings(WEBHOOKS_ALLOW_PRIVATE_ADDRESSES=True, WEBHOOKS_ALLOW_HTTP=True):
        for user in (alice, bob, robo):
            webhook_services.webhook_create(owner=user, url="http://127.0.0.1:9999/hook")
    with time_machine.travel(START - timedelta(days=5), tick=False) as clock:
        for player, usual, program in ((bob, timedelta(hours=1), False), (robo, timedelta(seconds=4), True)):
            _habit(player, carol, clock, usual=usual, program=program)
    people = {"alice": alice, "bob": bob, "robo": robo, "stranger": stranger}
    return {name: (user.pk, keys[user.pk]) for name, user in people.items()}


@pytest.fixture
def people(_people_of_the_module, db):
    """The module's people (``_people_of_the_module``), read afresh for the test, each with its API token."""
    found = {}
    for name, (pk, key) in _people_of_the_module.items():
        found[name] = get_user_model().objects.get(pk=pk)
        found[name].api_key = key
    return found


def _habit(player, carol, clock, *, usual: timedelta, program: bool) -> None:
    """``player`` answers each of carol's moves (an hour apart) ``usual`` later, 30 times, in a game of Halali!."""
    engine = get_engine("halali")
    game = services.create_game(creator=carol, engine_slug="halali", players=2, seed="habit")
    services.join_game(game_id=game.pk, user=player)
    answered = 0
    while answered < 30:
        game.refresh_from_db()
        (seat,) = game.to_move
        mover = game.seats.get(index=seat).user
        clock.shift(usual if mover == player else timedelta(hours=1))
        _send(game, mover, engine.legal_moves(game.state, seat)[0], program=program and mover == player)
        answered += mover == player


def _seated(twin: Twin, people: dict) -> list:
    return [people["alice"], people["robo"] if twin.bot_account else people["bob"]]


def _difference(one: str, two: str) -> str:
    lines = difflib.unified_diff(one.splitlines(), two.splitlines(), "world A", "world B", lineterm="", n=1)
    return "\n".join(list(lines)[:40])


def assert_alike(worlds: list, twin: Twin) -> None:
    assert [number for number, _ in worlds[0]] == [number for number, _ in worlds[1]]
    for (number, one), (_, two) in zip(*worlds):
        for viewer in one:
            assert one[viewer].keys() == two[viewer].keys()
            for door in one[viewer]:
                assert one[viewer][door] == two[viewer][door], (
                    f"{twin.id}: after {number} steps, {viewer} can tell the worlds apart through {door}:\n"
                    + _difference(one[viewer][door], two[viewer][door]))


@pytest.fixture
def unspread(monkeypatch):
    monkeypatch.setattr(forced_timing, "RANDOM", Unspread(1))


@pytest.mark.parametrize("twin, language", [
    pytest.param(twin, language, id=f"{twin.id}-{language}",
                 marks=() if (twin.id, language) in QUICK else pytest.mark.long)
    for twin, language in CASES])
def test_a_forced_move_reads_as_the_players_own_through_every_door(twin, language, people, unspread, settings):
    """make test: the person's Love Letter twin through every door, in one language (``QUICK``); make test-long:
    every twin (the bot account's, Halali!'s too) in every language."""
    settings.WEBHOOKS_ALLOW_PRIVATE_ADDRESSES = settings.WEBHOOKS_ALLOW_HTTP = True
    users = _seated(twin, people)
    for user in (*users, people["stranger"]):
        language_choose(user=user, language=language)
    read = everything(twin, users, people["stranger"], language)
    assert_alike([play_world(twin, world, users, read) for world in (0, 1)], twin)


# -- the walk can fail: without each part of the fix, the other seat tells the worlds apart -----------------------

PERSON = TWINS[0]


def alices_reading(users: list):
    """What alice reads that each part of the fix is about: the game (its clocks), bob's page, the record, history."""
    def read(game: Game) -> dict[str, dict[str, str]]:
        client = doors.Door(game=game, user=users[0]).client()
        paths = (f"/api/games/{game.pk}/", f"/api/players/{users[1].get_username()}/",
                 f"/api/games/{game.pk}/record/", f"/api/games/{game.pk}/history/", f"/games/{game.pk}/")
        return {"alice": {path: doors._mask(client.get(path).content.decode(), game, keep_times=True)
                          for path in paths}}

    return read


def differences(people) -> set[str]:
    """Return the doors through which alice tells the person's worlds apart."""
    users = _seated(PERSON, people)
    worlds = [play_world(PERSON, world, users, alices_reading(users)) for world in (0, 1)]
    return {door for (_, one), (_, two) in zip(*worlds) for door in one["alice"] if one["alice"][door] != two["alice"][door]}


def test_the_walk_reads_alike_with_the_fix(people, unspread):
    assert differences(people) == set()


def test_the_walk_tells_a_move_that_came_at_once(people, unspread, monkeypatch):
    monkeypatch.setattr(forced_timing, "due_moment", lambda game, seat, *, since, now, rng=None: (now, False))
    assert "/api/games/4700001/record/" in differences(people)


def test_the_walk_tells_a_move_not_counted_on_time(people, unspread, monkeypatch):
    monkeypatch.setattr(rating_selectors, "PERSON_SOURCES", (MoveSource.WEB, MoveSource.API, MoveSource.EMAIL))
    assert "/api/players/bob/" in differences(people)


def test_the_walk_tells_timeouts_in_a_row_left_standing(people, unspread, monkeypatch):
    monkeypatch.setattr(clock_services, "PEOPLE", (MoveSource.WEB, MoveSource.API, MoveSource.EMAIL))
    assert "/api/games/4700001/" in differences(people)


def test_the_walk_tells_a_move_made_while_away(people, unspread, monkeypatch):
    monkeypatch.setattr(forced_timing, "outside_absences", lambda moment, absences, wait: (moment, None))
    monkeypatch.setattr(forced_moves, "away_until", lambda user: None)
    assert "/api/games/4700001/" in differences(people)


def test_the_walk_tells_the_note_or_the_source_shown_to_everyone(people, unspread, monkeypatch):
    with monkeypatch.context() as patched:
        patched.setattr(selectors, "_reads_forced_note", lambda game, seat, viewer_seat: True)
        assert "/api/games/4700001/history/" in differences(people)
    monkeypatch.setattr(records, "source_shown", lambda game, source, **where: source)
    assert "/api/games/4700001/record/" in differences(people)


def test_the_forced_seats_own_history_says_so(people, unspread):
    """The seat whose move was played for it reads why, in world A only: the worlds do differ for it."""
    users = _seated(PERSON, people)

    def bobs_history(game: Game):
        client = doors.Door(game=game, user=users[1]).client()
        return {"bob": {"history": client.get(f"/api/games/{game.pk}/history/").content.decode()}}

    worlds = [play_world(PERSON, world, users, bobs_history) for world in (0, 1)]
    (_, one), (_, two) = worlds[0][-1], worlds[1][-1]
    assert "the only legal move" in one["bob"]["history"] and "the only legal move" not in two["bob"]["history"]


def test_every_twin_comes_to_its_forced_move_and_the_bot_account_scenario_seats_one():
    assert {twin.slug for twin in TWINS} == {"love-letter", "halali"}
    assert any(twin.bot_account for twin in TWINS)
    assert all(isinstance(twin.steps[-1], Forced) for twin in TWINS)
    assert {language for _, language in CASES} == set(LANGUAGES)
    # Each twin once reads every twin and every language; make test's slice, the person's Love Letter twin.
    assert {twin_id for twin_id, _ in EACH_ONCE} == {twin.id for twin in TWINS}
    assert {language for _, language in EACH_ONCE} == set(LANGUAGES)
    assert {twin_id for twin_id, _ in QUICK} == {twin.id for twin in TWINS
                                                 if twin.slug == "love-letter" and not twin.bot_account}
