"""No door shows a viewer what they may not know, for every game and every edition that hides something.

For each scenario (``worlds.py``) two games are played that differ only in
hidden information. At each checkpoint every route of the site (walked from
the URL configuration, ``doors.py``) is read by every viewer who must not
know the difference (the blind seats, a signed-in stranger, an anonymous
visitor), and so are the emails a blind seat would get; the two worlds must
read the same, byte for byte once ids, tokens and times are masked.

Each scenario is read in one language, English, Hungarian and German in turn (``_readings``): every
viewer's account, and the visitor's browser, in the reading's language; the stranger and the visitor read at the
last checkpoint. ``make test-long`` reads every scenario in every language, every viewer at every checkpoint.
"""

from __future__ import annotations

import difflib

import pytest
from django.core.cache import cache
from django.db import connection, transaction
from django.test import Client
from django.utils import translation

from games import engines
from tests.platform.secrecy import doors
from tests.platform.secrecy.worlds import SEED, Scenario, ask_for_forced_moves, play_step, scenarios
from turnbased.accounts.services.languages import language_choose
from turnbased.agreements.services import proposal_make, proposal_withdraw, takeback_ask
from turnbased.kit.errors import PlayError
from turnbased.notes.selectors import spots_of
from turnbased.notes.services import mark_set, note_save
from turnbased.play import services
from turnbased.play.selectors import viewer_of

pytestmark = pytest.mark.django_db

SCENARIOS = scenarios()


class _UndoWorld(Exception):
    """Raised to roll a world back once its doors are read, so the next world starts from the same users."""


def _read(game, users: list, stranger, scenario: Scenario, language: str, *,
          seats_only: bool = False) -> dict[str, dict[str, str]]:
    """Return, per viewer who must not tell the worlds apart, everything that viewer can read (``seats_only``: the
    blind seats alone, not the stranger and the visitor)."""
    readers: dict[str, dict[str, str]] = {}
    for seat in sorted(scenario.blind):
        door = doors.Door(game=game, user=users[seat])
        readers[f"seat {seat}"] = {**door.read_all(seated=True), **door.emails()}
    if not seats_only:
        readers["stranger"] = doors.Door(game=game, user=stranger).read_all(seated=False)
        readers["anonymous"] = doors.Door(game=game, user=None, language=language).read_all(seated=False)
    return readers


TWIN_GAME_ID = 4_700_001
TWIN_FIRST_EVENT_ID = 8_100_001


def _next_game_id_is(game_id: int) -> None:
    """Set the game table's id sequence, and the events' and proposals' (their ids are in the stream), as each world
    starts (sequences ignore rollbacks; the undone world left no row)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT setval(pg_get_serial_sequence('play_game', 'id'), %s, false)", [game_id])
        cursor.execute("SELECT setval(pg_get_serial_sequence('events_event', 'id'), %s, false)",
                       [TWIN_FIRST_EVENT_ID])
        for table in ("agreements_proposal", "agreements_answer"):  # a takeback asked: its id is in the stream
            cursor.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), 1, false)")


def _play_world(scenario: Scenario, world: int, users: list, stranger, *, read=None, language: str = "en",
                everyone_at_every_checkpoint: bool = True) -> list:
    """Play one world through the services, reading every door at each checkpoint; then undo it. Unless
    ``everyone_at_every_checkpoint``, the stranger and the visitor read at the end only, the blind seats at each."""
    def read_every_door(game, number: int):
        return _read(game, users, stranger, scenario, language,
                     seats_only=not everyone_at_every_checkpoint and number < len(scenario.steps))

    snapshots = []
    checkpoints = {*scenario.checkpoints, len(scenario.steps)}
    try:
        with transaction.atomic():
            _next_game_id_is(TWIN_GAME_ID)  # both worlds' games get the same id: nothing to mask
            ask_for_forced_moves(scenario, users)
            game = services.create_game(creator=users[0], engine_slug=scenario.slug, players=scenario.players,
                                        options=scenario.options[world], seed=SEED)
            for user in users[1:]:
                services.join_game(game_id=game.pk, user=user)
            # A seat that may tell the worlds apart keeps private notes that differ between them (issue 46): no
            # other viewer's door may show them (the same number of rows in each world: ids stay equal).
            knowing = sorted(set(range(scenario.players)) - scenario.blind)
            if knowing:
                note_save(game_id=game.pk, user=users[knowing[0]], text=f"World {'AB'[world]}: my private plan")
                marking = spots_of(viewer_of(game.pk, users[knowing[0]]))
                if marking:  # and a mark on a card or tile, its words as different
                    mark_set(game_id=game.pk, user=users[knowing[0]], spot=marking[0][0], symbol="question",
                             label=f"World {'AB'[world]}")
            asked: dict = {}  # a seat's takebacks asked, and whether it proposed a draw
            # A blind seat asks for its move back after its first three moves and its last (each ask replays the
            # log: asking after every move made the longest scenario a third slower for nothing more to find).
            moves_of = {seat: [n for n, step in enumerate(scenario.steps) if step.seat == seat] for seat in scenario.blind}
            asking = {n for numbers in moves_of.values() for n in (*numbers[:3], *numbers[-1:])}
            for number in range(len(scenario.steps) + 1):
                game.refresh_from_db()
                if number in checkpoints:
                    snapshots.append((number, read(game) if read else read_every_door(game, number)))
                if number < len(scenario.steps):
                    play_step(game, users, scenario.steps[number], world)
                    if not read and number in asking:
                        asked_now = _takeback_asked(game, users, scenario.steps[number].seat, asked, language)
                        snapshots.append((number + 1, asked_now))
            raise _UndoWorld
    except _UndoWorld:
        # The undone world's replayed positions must not answer for the next world's game (same id).
        cache.clear()
    return snapshots


def _takeback_asked(game, users: list, seat: int, asked: dict, language: str) -> dict[str, dict[str, str]]:
    """A blind seat that just moved asks to take the move back (issue 46): whether the game lets it, and the reason
    a refusal gives, must read the same in both worlds; the first time, it also proposes a draw. A proposal made is
    withdrawn at once (both worlds alike), and a seat asks twice at most, so the day's limit (whose answer names a
    time) is never reached."""
    if asked.get(seat, 0) >= 2:
        return {}
    answers = {}
    for kind in ("take_back", "draw") if f"draw {seat}" not in asked else ("take_back",):
        try:
            with translation.override(language):  # the reading's language, as the seat's own requests are answered
                proposal = (takeback_ask(game_id=game.pk, user=users[seat]) if kind == "take_back"
                            else proposal_make(game_id=game.pk, user=users[seat], kind=kind))
        except PlayError as refusal:
            answers[kind] = f"{refusal.status} {refusal.detail}"
            continue
        if proposal.status == "open":
            proposal_withdraw(game_id=game.pk, proposal_id=proposal.pk, user=users[seat])
        answers[kind] = f"asked: {proposal.status}"
        if kind == "take_back":
            asked[seat] = asked.get(seat, 0) + 1
    asked[f"draw {seat}"] = 1
    return {f"seat {seat}": answers}


def _difference(one: str, two: str) -> str:
    lines = difflib.unified_diff(one.splitlines(), two.splitlines(), "world A", "world B", lineterm="", n=1)
    return "\n".join(list(lines)[:40])


@pytest.fixture
def players(make_user):
    users = [make_user(f"seat{index}") for index in range(4)], make_user("stranger")
    for user in (*users[0], users[1]):
        user.api_key = doors.api_token(user)  # made once, outside the worlds, so both list the same tokens
    return users




def _readings(scenarios: list[Scenario]) -> list[tuple[Scenario, str]]:
    """Every scenario is read once, in one language, English, Hungarian and German in turn (a game's scenarios in
    turn, and the games with one scenario in turn among themselves, Hungarian first).

    One language a scenario suffices because a translation can carry nothing its English does not: the catalogs'
    test holds every placeholder of a text to its translations (``tests/platform/kit/texts/test_catalogs.py``); what a
    language may still change (plural forms, formats) is read through the walk's three languages."""
    by_game: dict[str, list[Scenario]] = {}
    for scenario in scenarios:
        by_game.setdefault(scenario.slug, []).append(scenario)
    readings, alone = [], 0
    for game_scenarios in by_game.values():
        if len(game_scenarios) > 1:
            readings += [(scenario, LANGUAGES[number % len(LANGUAGES)])
                         for number, scenario in enumerate(game_scenarios)]
        else:
            readings.append((game_scenarios[0], LANGUAGES[(alone + 1) % len(LANGUAGES)]))
            alone += 1
    return readings


LANGUAGES = ("en", "hu", "de")
READINGS = _readings(SCENARIOS)
# make test reads each game's first scenario (each a way the game hides something; Love Letter's first, the other
# hand and the set-aside card, the one its other scenarios vary); make test-long reads the rest of READINGS too.
FIRST_OF_EACH_GAME = {next(scenario.id for scenario in SCENARIOS if scenario.slug == slug)
                      for slug in {scenario.slug for scenario in SCENARIOS}}
# make test-long reads every scenario in every language, every viewer at every checkpoint.
EVERY_READING = [(scenario, language) for scenario in SCENARIOS for language in LANGUAGES]


@pytest.mark.parametrize("scenario, language, everyone_at_every_checkpoint", [
    *(pytest.param(scenario, language, False, id=f"{scenario.id}-{language}",
                   marks=() if scenario.id in FIRST_OF_EACH_GAME else pytest.mark.long)
      for scenario, language in READINGS),
    *(pytest.param(scenario, language, True, id=f"{scenario.id}-{language}-everyone-at-every-checkpoint",
                   marks=pytest.mark.long) for scenario, language in EVERY_READING)])
def test_two_worlds_differing_only_in_hidden_information_read_the_same_through_every_door(
        scenario, language, everyone_at_every_checkpoint, players):
    """make test: every scenario (every game, every edition that hides something) in one language (``_readings``),
    every door read by the blind seats at each checkpoint (a turn's middle, where a seat's pages hold the most),
    by the stranger and the visitor at the end. make test-long: every scenario in every language, every viewer
    at every checkpoint (what only a spectator would read in a turn's middle)."""
    seated, stranger = players
    users = seated[: scenario.players]
    for user in (*seated, stranger):
        language_choose(user=user, language=language)
    worlds = [_play_world(scenario, world, users, stranger, language=language,
                          everyone_at_every_checkpoint=everyone_at_every_checkpoint) for world in (0, 1)]
    assert [number for number, _ in worlds[0]] == [number for number, _ in worlds[1]]
    for (number, one), (_, two) in zip(*worlds):
        for viewer in one:
            assert one[viewer].keys() == two[viewer].keys()
            for door in one[viewer]:
                assert one[viewer][door] == two[viewer][door], (
                    f"{scenario.id}: after {number} moves, {viewer} can tell the worlds apart through {door}:\n"
                    + _difference(one[viewer][door], two[viewer][door])
                )


@pytest.mark.parametrize(
    "scenario", [s for s in SCENARIOS if set(range(s.players)) - s.blind],
    ids=[s.id for s in SCENARIOS if set(range(s.players)) - s.blind],
)
def test_a_seat_that_holds_the_secret_does_see_a_difference(scenario, players):
    """The comparison can fail: the seat the secret belongs to reads two different worlds."""
    seated, stranger = players
    users = seated[: scenario.players]
    knowing = min(set(range(scenario.players)) - scenario.blind)

    def read(game):
        return doors.Door(game=game, user=users[knowing]).client().get(f"/api/games/{game.pk}/").content

    worlds = [_play_world(scenario, world, users, stranger, read=read) for world in (0, 1)]
    assert any(one != two for (_, one), (_, two) in zip(*worlds))


def test_every_game_has_a_scenario():
    assert {scenario.slug for scenario in SCENARIOS} == set(engines())


def test_every_scenario_is_read_once_and_the_walk_in_every_language():
    assert sorted(scenario.id for scenario, _ in READINGS) == sorted(scenario.id for scenario in SCENARIOS)
    assert {language for _, language in READINGS} == set(LANGUAGES)
    several = [slug for slug in {s.slug for s in SCENARIOS} if sum(s.slug == slug for s in SCENARIOS) >= len(LANGUAGES)]
    for slug in several:  # a game with a scenario for each language is read in each
        assert {language for scenario, language in READINGS if scenario.slug == slug} == set(LANGUAGES), slug
    # make test's slice: every game, and the walk in every language.
    quick = [(scenario, language) for scenario, language in READINGS if scenario.id in FIRST_OF_EACH_GAME]
    assert {scenario.slug for scenario, _ in quick} == {scenario.slug for scenario in SCENARIOS}
    assert {language for _, language in quick} == set(LANGUAGES)


def test_every_route_is_walked_or_explained():
    """A new page or endpoint cannot escape the walk: it is fetched, or listed with its reason."""
    unexplained = [route.path for route in doors.routes() if doors.left_out_reason(route) is None]
    assert not unexplained, f"routes the secrecy walk can neither fill nor explain: {unexplained}"
    names = {route.name for route in doors.routes()}
    for listed in (*doors.POSTS, *doors.VARIANTS, *doors.LEFT_OUT, *doors.POST_ONLY_WITHOUT_GAMES):
        assert listed in names, f"{listed} is listed in the secrecy walk but is no longer a route"


def test_every_walked_route_that_refuses_get_has_its_posts(started_game):
    """A walked route answering 405 to GET is read only through the POSTs listed for it."""
    client = Client()
    client.force_login(started_game.seats.get(index=0).user)
    door = doors.Door(game=started_game, user=started_game.seats.get(index=0).user)
    refusing = []
    for route in doors.walked_routes():
        if route.name in doors.POSTS:
            continue
        if client.get(door.path(route)).status_code == 405:
            refusing.append(route.path)
    assert not refusing, f"these routes refuse GET and have no POSTs in the secrecy walk: {refusing}"


def test_admin_shows_players_nothing(started_game):
    client = Client()
    client.force_login(started_game.seats.get(index=0).user)
    for path in ("/admin/", f"/admin/play/game/{started_game.pk}/change/", "/admin/play/move/"):
        response = client.get(path)
        assert response.status_code == 302 and response["Location"].startswith("/admin/login/"), path


def test_mailbox_is_off_without_debug(started_game, settings):
    settings.DEBUG = False
    client = Client()
    client.force_login(started_game.seats.get(index=0).user)
    assert client.get("/mailbox/").status_code == 404
    assert client.get("/mailbox/1/").status_code == 404



@pytest.mark.parametrize(
    "scenario", [s for s in SCENARIOS if set(range(s.players)) - s.blind],
    ids=[s.id for s in SCENARIOS if set(range(s.players)) - s.blind],
)
def test_the_seat_that_holds_the_secret_sees_it_in_the_replay_too(scenario, players):
    """The walk of the replay's positions can fail: the seat the secret belongs to replays two different worlds."""
    seated, stranger = players
    users = seated[: scenario.players]
    knowing = min(set(range(scenario.players)) - scenario.blind)

    def read(game):
        client = doors.Door(game=game, user=users[knowing]).client()
        return [client.get(f"/api/games/{game.pk}/positions/{seq}/").content for seq in range(game.seq + 1)]

    worlds = [_play_world(scenario, world, users, stranger, read=read) for world in (0, 1)]
    assert any(one != two for (_, one), (_, two) in zip(*worlds))
