"""A competition's pages, lists, standings, CSV, API and stream tell nobody anything of its games but what any
watcher of them may read (issue 45); an invitation-only competition tells a stranger nothing at all.

The twin worlds (``worlds.py``) are played to their middle at a table of a competition's open round, each world
with players and a competition of its own: the round is paired and opened by the competition's services, then its
one table's game is the scenario's (its seats, the shared seed and the world's scripted options: the hidden
information that differs). A watcher who may see the competition but did not enter, the organiser and a stranger read
every door of the competition. Both worlds are made at one frozen instant, so their times are compared too; once
ids and names are set aside, both worlds read the same, and the game is named in each, so the comparison compares
something. The same is then done with the game finished (the standings
and placements moved on). An invitation-only competition's doors answer a stranger 404, and its game too.
"""

from __future__ import annotations

import json
import re
from datetime import datetime, timedelta
from datetime import timezone as dt_timezone

import pytest
import time_machine
from django.test import Client
from django.utils import timezone

from tests.platform.competitions.conftest import CLOCK
from tests.platform.secrecy.doors import masked
from tests.platform.secrecy.worlds import SEED, Scenario, ask_for_forced_moves, play_step, scenarios
from turnbased.competitions.models import Competition, EventTable, Round, RoundStatus
from turnbased.competitions.services import duplicates, entries, rounds
from turnbased.play import services
from turnbased.play.models import Game, GameStatus, Visibility

pytestmark = pytest.mark.django_db

SCENARIOS = scenarios()
# make test reads Love Letter's first scenario (a hand and a set-aside card hidden); make test-long every other:
# a competition's doors show no game's content whatever the game, which the first already holds them to.
FIRST = SCENARIOS[0].id
MOMENT = datetime(2026, 12, 1, 12, 0, 30, tzinfo=dt_timezone.utc)


def _doors(competition_id: int) -> tuple[str, ...]:
    return (f"/competitions/{competition_id}/", f"/competitions/{competition_id}/standings.csv", "/competitions/",
            f"/api/competitions/{competition_id}/", f"/api/competitions/{competition_id}/rounds/",
            f"/api/competitions/{competition_id}/standings/", f"/api/competitions/{competition_id}/entrants/",
            "/api/competitions/", "/api/me/competitions/", "/api/stream/?last_event_id=0")


def _competition(scenario: Scenario, world: int, make_user, entry: str, duplicate: bool = False):
    """Make the world's competition (a Swiss of one round) with the scenario's players entered, and a watcher who
    may see it (invited, for an invitation-only one) but did not enter; a duplicate one also seats rivals at a second
    table."""
    organiser = make_user(f"world{world}-organiser")
    users = [make_user(f"world{world}-seat{seat}") for seat in range(scenario.players)]
    rivals = [make_user(f"world{world}-rival{seat}") for seat in range(scenario.players if duplicate else 0)]
    watcher = make_user(f"world{world}-watcher")
    competition = entries.competition_create(user=organiser, settings={
        "name": "Twin Cup", "game": scenario.slug, "table_size": scenario.players, "time_control": CLOCK,
        "entry": entry, "starts_at": (timezone.now() + timedelta(days=1)).isoformat(),
        "stages": [{"format": "swiss", "rounds": 1, "duplicate": duplicate}]})
    for person in (*users, *rivals, watcher):
        if entry == "invitation":
            entries.competition_invite(user=organiser, competition_id=competition.pk, username=person.username)
        if person is not watcher:
            entries.competition_enter(user=person, competition_id=competition.pk)
    Competition.objects.filter(pk=competition.pk).update(starts_at=timezone.now())
    return organiser, users, rivals, watcher, competition


def _scenario_game(scenario: Scenario, world: int, organiser, users, competition, rivals=()) -> Game:
    """Start the competition and put the scenario's game at the first table its round paired (seat by seat as the
    scenario plays it; the rivals at the second, a duplicate round's), then open the round as its task would."""
    rounds.competition_start(competition_id=competition.pk)
    played = Round.objects.get(stage__competition=competition)
    table, *others = EventTable.objects.filter(round=played).order_by("number")
    entrant_of = dict(competition.entrants.values_list("user_id", "pk"))
    assert sorted(player for row in (table, *others) for player in row.players) == \
        sorted(entrant_of[user.pk] for user in (*users, *rivals))
    if rivals:
        EventTable.objects.filter(pk=others[0].pk).update(players=[entrant_of[user.pk] for user in rivals])
    ask_for_forced_moves(scenario, users)
    game = services.create_game(creator=organiser, engine_slug=scenario.slug, players=scenario.players,
                                options=scenario.options[world], seed=SEED, creator_plays=False,
                                visibility=Visibility.PUBLIC if competition.entry == "open" else Visibility.PRIVATE,
                                time_control=CLOCK, terms={"competition": table.pk, "rematch": False},
                                people=dict(enumerate(users)), held=bool(rivals))
    EventTable.objects.filter(pk=table.pk).update(players=[entrant_of[user.pk] for user in users])
    rounds.round_open(round_id=played.pk)
    assert Round.objects.get(pk=played.pk).status == RoundStatus.OPEN
    return game


def _read(client: Client, competition: Competition, game: Game, world: int, *, listed: bool) -> dict[str, str]:
    read = {}
    for path in _doors(competition.pk):
        answer = client.get(path)
        text = answer.content.decode()
        if path == "/competitions/":  # every world's competitions are listed: this world's row is compared
            text = "\n".join(re.findall(rf'<tr>(?:(?!</tr>).)*?/competitions/{competition.pk}/"(?:(?!</tr>).)*</tr>',
                                         text, flags=re.S))
        elif path == "/api/competitions/":
            text = json.dumps([row for row in answer.json()["results"] if row["id"] == competition.pk])
        if listed and path in (f"/competitions/{competition.pk}/", f"/api/competitions/{competition.pk}/rounds/"):
            assert f"/games/{game.pk}/" in text or re.search(rf'"game": ?{game.pk}\b', text), path
        text = re.sub(r'"(id|game|seed)": ?\d+', r'"\1": <id>', text)
        text = re.sub(r'"games": ?\[[\d, ]*\]', '"games": [<ids>]', text)  # a player's own tables, in the stream
        text = re.sub(r"^id: \d+$", "id: <id>", text, flags=re.M)  # the stream's event ids
        text = re.sub(r"/competitions/\d+/|/api/competitions/\d+/|/games/\d+/", "<link>", text)
        text = re.sub(r"#\d+", "#<id>", text)
        text = re.sub(r"\b[0-9a-f]{64}\b", "<commitment>", text)  # a duplicate round's: a hash of a random seed
        read[path.replace(str(competition.pk), "<id>")] = \
            f"{answer.status_code} " + masked(text, game).replace(f"world{world}", "world")
    return read


def _world(scenario: Scenario, world: int, make_user, *, entry: str = "open", finish: bool = False,
           duplicate: bool = False):
    # Both worlds are made at one frozen instant, so the times they print (deadlines, entries, moves) are compared
    # too rather than masked: a time told apart is a leak like any other.
    with time_machine.travel(MOMENT, tick=False):
        return _made_and_read(scenario, world, make_user, entry=entry, finish=finish, duplicate=duplicate)


def _made_and_read(scenario: Scenario, world: int, make_user, *, entry: str, finish: bool, duplicate: bool):
    organiser, users, rivals, watcher, competition = _competition(scenario, world, make_user, entry, duplicate)
    stranger = make_user(f"world{world}-stranger")
    game = _scenario_game(scenario, world, organiser, users, competition, rivals)
    steps = scenario.steps if finish else scenario.steps[: len(scenario.steps) // 2]
    for step in steps:
        play_step(game, users, step, world)
    game.refresh_from_db()
    if finish and game.status == GameStatus.ACTIVE:
        services.resign_game(game_id=game.pk, user=users[0])
        game.refresh_from_db()
    reads = {}
    readers = [("watcher", watcher), ("organiser", organiser), ("stranger", stranger)]
    for name, reader in readers + [("rival", rival) for rival in rivals[:1]]:
        client = Client()
        client.force_login(reader)
        closed = entry == "invitation" and reader is stranger
        # A duplicate round's game is its seats' alone until the round closes: listed, but no door of it opens.
        reads[name] = _read(client, competition, game, world, listed=not closed and not duplicate)
        if duplicate:
            for path in (f"/games/{game.pk}/", f"/api/games/{game.pk}/", f"/api/games/{game.pk}/record/"):
                assert client.get(path).status_code == 404, (name, path)
        if closed:
            for path in _doors(competition.pk)[:2] + (f"/api/competitions/{competition.pk}/",
                                                      f"/games/{game.pk}/", f"/api/games/{game.pk}/"):
                assert client.get(path).status_code == 404, path
    return reads


@pytest.mark.parametrize("scenario", [
    pytest.param(scenario, id=scenario.id, marks=() if scenario.id == FIRST else pytest.mark.long)
    for scenario in SCENARIOS])
def test_a_competitions_doors_read_the_same_in_both_worlds(scenario, make_user):
    one, two = _world(scenario, 0, make_user), _world(scenario, 1, make_user)
    for reader in one:
        for path in one[reader]:
            assert one[reader][path] == two[reader][path], f"{scenario.id}: {path} tells {reader} the worlds apart"


@pytest.mark.parametrize("scenario", [pytest.param(SCENARIOS[0], id=FIRST)])
def test_an_invitation_only_competition_reads_the_same_finished_and_shows_a_stranger_nothing(scenario, make_user):
    one = _world(scenario, 0, make_user, entry="invitation", finish=True)
    two = _world(scenario, 1, make_user, entry="invitation", finish=True)
    for reader in one:
        for path in one[reader]:
            assert one[reader][path] == two[reader][path], f"{scenario.id}: {path} tells {reader} the worlds apart"


@pytest.mark.parametrize("scenario", [pytest.param(SCENARIOS[0], id=FIRST)])
def test_a_duplicate_rounds_table_finished_tells_the_other_tables_and_everyone_else_nothing(scenario, make_user,
                                                                                          monkeypatch):
    """The scenario's table ends while the rivals' table of the same duplicate round plays on: the competition's
    doors read the same in both worlds to every reader, a rival among them, and the finished game opens to none.
    The round's seed is the same in both worlds (the rival's own game, and so their stream, plays alike)."""
    monkeypatch.setattr(duplicates, "new_seed", lambda: SEED)
    one = _world(scenario, 0, make_user, finish=True, duplicate=True)
    two = _world(scenario, 1, make_user, finish=True, duplicate=True)
    assert "rival" in one
    for reader in one:
        for path in one[reader]:
            assert one[reader][path] == two[reader][path], f"{scenario.id}: {path} tells {reader} the worlds apart"
