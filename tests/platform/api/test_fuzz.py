"""schemathesis fuzzes every operation of /api/schema/ over real HTTP, with every check it has: no 5xx, every
answer as documented, a request the schema allows not refused as malformed, one it forbids refused.

The server is pytest-django's live server on the test database. The fuzzing
player (ann) holds a token and sits in games of every kind. Each operation
whose path names a game is fuzzed against every game of the world in turn
(hers in play against a bot that answers at once, open tables she created or
sits at, a finished one, a stranger's public tables, a private game hidden
from her, a game that does not exist), then with whatever schemathesis draws.
Moves sent to a real game often answer its real position, and half of those
are one of her legal moves, so moves are played, not only refused. Each
operation is also called without the token. Every operation of the schema is
fuzzed, ones added later included, the schema's own examples among the
requests; each run is seeded from its name and keeps no example database, so
the test repeats exactly.

schemathesis' pytest plugin (``schemathesis.pytest.from_fixture``) cannot run
under pytest 9.2, whose nodes no longer have ``_nodeid``; so each operation is
a Hypothesis test over ``operation.as_strategy()``, run in a subtest.
"""

from __future__ import annotations

import tomllib
import zlib
from collections import Counter
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path

import pytest
import requests
import schemathesis
import schemathesis.specs.openapi.checks  # noqa: F401  (registers the OpenAPI checks, so that get_all lists them)
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.test import override_settings
from django.utils import timezone
from hypothesis import HealthCheck, Verbosity, given, seed
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from schemathesis import GenerationMode

from games import engines
from tests.platform.conftest import api_token
from turnbased.accounts.services.tokens import token_create
from turnbased.chat.services import message_post
from turnbased.clocks.services import absence_declare, local_today
from turnbased.competitions.services.entries import competition_create, competition_enter, competition_invite
from turnbased.groups.services import group_create, invite, join
from turnbased.play import selectors, services
from turnbased.play.models import Game
from turnbased.play.services.invitations import invitation_create
from turnbased.webhooks.services import webhook_create



@dataclass(frozen=True)
class Depth:
    """How many requests are drawn per operation (any path parameters), and per world object its path names; the
    schema's examples come on top. The boundaries of every parameter and field are walked by
    test_coverage_phase.py; these draw at random around them."""

    drawn: int
    per_target: int
    # Moves sent to each game in play: enough that some are legal there (the test asserts moves were played).
    per_game_in_play: int


# make test: every operation against every object of the world, a few requests each; make test-long: more of each.
QUICK = Depth(drawn=3, per_target=1, per_game_in_play=2)
FULL = Depth(drawn=6, per_target=2, per_game_in_play=2)
PUBLIC_GAME = "ben and cat's public game"
# Every check schemathesis has (``--checks all``), configured as the suite's command-line run is; but
# ignored_auth, which reads the credentials a case was drawn with as the ones it sent, where this test sends
# the player's token in their place (test_coverage_phase.py runs it, with the token as a client sets it).
CHECKS = [check for check in schemathesis.checks.CHECKS.get_all() if check.__name__ != "ignored_auth"]
assert len(CHECKS) >= 13, [check.__name__ for check in CHECKS]
CONFIGURATION = tomllib.loads((Path(__file__).with_name("schemathesis.toml")).read_text())


@dataclass
class World:
    """The player whose token fuzzes, and by path parameter the objects the fuzzed paths name."""

    player: AbstractBaseUser
    targets: dict[str, dict[str, int]] = field(default_factory=dict)


def build_world(make_user) -> World:
    ann, ben, cat = make_user("ann"), make_user("ben"), make_user("cat")
    # Webhooks first, so the games' events give ann's a delivery log. Registered on loopback (a closed port);
    # while fuzzing the address rule holds again, so a ping or a delivery to them is refused before any connection.
    with override_settings(WEBHOOKS_ALLOW_PRIVATE_ADDRESSES=True, WEBHOOKS_ALLOW_HTTP=True):
        webhooks = {
            "ann's webhook": webhook_create(owner=ann, url="http://127.0.0.1:9999/hook")[0].pk,
            "ann's second webhook": webhook_create(owner=ann, url="http://127.0.0.1:9999/turns",
                                                   kinds=["your_turn"])[0].pk,
            "ben's webhook": webhook_create(owner=ben, url="http://127.0.0.1:9999/ben")[0].pk,
        }
    webhooks["no such webhook"] = max(webhooks.values()) + 1000
    games = {}
    for slug in engines():  # against a bot that answers at once, so it is her turn again after each move
        games[f"ann's {slug} in play"] = services.create_game(
            creator=ann, engine_slug=slug, players=2, bots={1: "random"}
        )
    games["ann's open table"] = services.create_game(creator=ann, engine_slug="love-letter", players=3)
    services.join_game(game_id=games["ann's open table"].pk, user=ben)
    games["ben's open table, ann seated"] = services.create_game(creator=ben, engine_slug="love-letter", players=4)
    services.join_game(game_id=games["ben's open table, ann seated"].pk, user=ann)
    games["cat's open table"] = services.create_game(creator=cat, engine_slug="halali", players=2)
    games["ben and cat's public game"] = services.create_game(creator=ben, engine_slug="love-letter", players=2)
    services.join_game(game_id=games["ben and cat's public game"].pk, user=cat)
    hidden = services.create_game(creator=ben, engine_slug="savernake-forest", players=2, visibility="private")
    services.join_game(game_id=hidden.pk, user=cat, invite_code=hidden.invite_code)
    games["ben and cat's private game"] = hidden
    games["ann's finished game"] = services.create_game(creator=ann, engine_slug="halali", players=2)
    services.join_game(game_id=games["ann's finished game"].pk, user=ben)
    services.resign_game(game_id=games["ann's finished game"].pk, user=ben)
    game_ids = {name: game.pk for name, game in games.items()}
    game_ids["no such game"] = max(game_ids.values()) + 1000

    absences = {}
    soon = local_today(ann) + timedelta(days=10)
    if soon.year == local_today(ann).year:  # an absence cannot cross New Year
        absences["ann's coming absence"] = absence_declare(user=ann, starts_on=soon, ends_on=soon).pk
        absences["ben's coming absence"] = absence_declare(user=ben, starts_on=soon, ends_on=soon).pk
    # Tokens a DELETE may hit: a spare one of ann's (not the one the fuzzer sends), ben's, none at all.
    tokens = {
        "ann's spare token": token_create(user=ann, name="spare", lifetime=None)[0].pk,
        "ben's token": token_create(user=ben, name="ben's", lifetime=None)[0].pk,
    }
    tokens["no such token"] = max(tokens.values()) + 1000
    # Player pages: hers, a player whose private game she may not see, and nobody.
    usernames = {"ann": "ann", "ben": "ben", "no such player": "nobody"}
    # Table talk and invitations (first, so that a path naming one of these and a drawn game meets it sometimes).
    messages = {"ann's message": message_post(game_id=games["ann's love-letter in play"].pk, user=ann,
                                              text="good luck").pk,
                "ben's message in the private game": message_post(game_id=hidden.pk, user=ben, text="psst").pk}
    messages["no such message"] = max(messages.values()) + 1000
    invitations = {"ann's invitation of cat": invitation_create(game_id=games["ann's open table"].pk, user=ann,
                                                                username="cat")[0].pk}
    invitations["no such invitation"] = max(invitations.values()) + 1000
    return World(player=ann, targets={"game_id": game_ids, "absence_id": absences, "token_id": tokens,
                                      "username": usernames, "webhook_id": webhooks, "message_id": messages,
                                      "invitation_id": invitations, "group_id": _groups(ann, ben),
                                      "competition_id": _competitions(ann, ben)})


def _groups(ann, ben) -> dict[str, int]:
    """Issue 44: ann's club (ben a member; dot and eve invited, fay asking to join, a table of its own), ben's club
    that invited ann, and no group at all."""
    club = group_create(user=ann, name="Ann's club", entry="request")
    make = get_user_model().objects.create_user
    for name in ("dot", "eve", "fay", "gil"):
        make(name, f"{name}@example.com")
    join(user=ben, group_id=club.pk)
    invite(user=ann, group_id=club.pk, username="ben")  # who asked is let in by an invitation
    for name in ("dot", "eve"):
        invite(user=ann, group_id=club.pk, username=name)
    join(user=get_user_model().objects.get(username="fay"), group_id=club.pk)
    services.create_game(creator=ann, engine_slug="love-letter", players=3, visibility="private",
                         terms={"group": club.pk})
    bens = group_create(user=ben, name="Ben's club", entry="invitation")
    invite(user=ben, group_id=bens.pk, username="ann")
    # One of ann's that nothing hands over to ben, for a delete to find her its owner.
    spare = group_create(user=ann, name="Ann's spare club")
    return {"ann's club": club.pk, "ben's club": bens.pk, "ann's spare club": spare.pk,
            "no such group": spare.pk + 1000}


def _competitions(ann, ben) -> dict[str, int]:
    """Issue 45: ann's open cup (ben entered), ben's invitation-only cup ann is invited to, a spare cup of ann's (for
    a call-off to find her its organiser), and no competition at all."""
    settings = {"game": "love-letter", "time_control": {"kind": "per_move", "days_per_move": 3},
                "starts_at": (timezone.now() + timedelta(days=5)).isoformat()}
    cup = competition_create(user=ann, settings={**settings, "name": "Ann's cup"})
    competition_enter(user=ben, competition_id=cup.pk)
    bens = competition_create(user=ben, settings={**settings, "name": "Ben's cup", "entry": "invitation"})
    competition_invite(user=ben, competition_id=bens.pk, username="ann")
    spare = competition_create(user=ann, settings={**settings, "name": "Ann's spare cup"})
    return {"ann's cup": cup.pk, "ben's cup": bens.pk, "ann's spare cup": spare.pk,
            "no such competition": spare.pk + 1000}


def move_bodies(game: Game, drawn: dict, player) -> st.SearchStrategy[dict]:
    """Return the drawn body, the same at the game's real position, or one of the player's legal moves there."""
    at_position = {**drawn, "expected_seq": game.seq}
    legal = selectors.legal_moves_for(selectors.Viewer(game=game, seat=selectors.seat_of(game, player)))
    bodies = [st.just(drawn), st.just(at_position)]
    if legal:
        bodies.append(st.sampled_from(legal).map(lambda choice: {"move": choice["move"], "expected_seq": game.seq}))
        bodies.append(st.sampled_from(legal).map(lambda choice: {"text": choice["text"], "expected_seq": game.seq}))
    return st.one_of(bodies)


def register_move_hook(schema, world: World) -> None:
    """Make moves sent to a real game often answer its real position, and often be legal there."""
    game_ids = set(world.targets["game_id"].values())

    def flatmap_case(context, case):
        game = None
        if case.operation.path.endswith("/moves/") and isinstance(case.body, dict):
            game_id = (case.path_parameters or {}).get("game_id")
            game = Game.objects.filter(pk=game_id).first() if game_id in game_ids else None
        if game is None:
            return st.just(case)

        def with_body(body):
            if body is not case.body:
                # A body of its own: a drawn Idempotency-Key, named before for another request, would refuse it
                # (422, as documented) before the game is reached.
                case.headers = {name: value for name, value in (case.headers or {}).items()
                                if name.lower() != "idempotency-key"}
            case.body = body
            return case

        return move_bodies(game, case.body, world.player).map(with_body)

    schema.hooks.register_hook_with_name(flatmap_case, "flatmap_case")


@pytest.fixture
def world(transactional_db, make_user) -> World:
    # Committed, not in a rolled-back transaction: the live server answers from its own connection.
    return build_world(make_user)


@pytest.fixture
def served_schema(live_server, settings):
    """Load the schema the live server serves.

    Rate limits are off (RATE_LIMITS=off): a thousand requests in half a minute from one account would
    otherwise be mostly 429s, documented but fuzzing nothing.
    """
    settings.RATE_LIMITS_ON = False
    config = schemathesis.Config.from_dict({**CONFIGURATION, "base-url": live_server.url,
                                            "phases": {"stateful": {"enabled": False}}})
    return schemathesis.openapi.from_url(f"{live_server.url}/api/schema/?format=json", config=config)


@pytest.fixture
def api_schema(served_schema, world):
    """The served schema, with the hook that steers moves to real positions of the world."""
    register_move_hook(served_schema, world)
    return served_schema


def targets_of(operation, world: World) -> list[tuple[str, dict | None, bool]]:
    """Return (name, path parameters, anonymous) to fuzz with: each world object the path names, drawn ones,
    and a public game (or drawn parameters) without the token."""
    names = [parameter.name for parameter in operation.path_parameters]
    targets = [
        (target, {name: value}, False)
        for name in names
        for target, value in world.targets.get(name, {}).items()
    ]
    public = {name: world.targets[name][PUBLIC_GAME] for name in names if name == "game_id"}
    return [*targets, ("drawn", None, False), ("anonymous", public or None, True)]


def fuzz(operation, path_parameters: dict | None, max_examples: int, label: str, token: str | None,
         answers: Counter) -> None:
    """Send the schema's examples for the operation and drawn requests, with the token if any; check every answer.

    The seed comes from the label, so a run repeats exactly and each target gets its own requests. The
    token replaces whatever credentials schemathesis drew, whatever the schema names its token scheme.
    ``answers`` counts the statuses by label.
    """
    fixed = {"path_parameters": path_parameters} if path_parameters else {}
    examples = operation.schema.get_strategies_from_examples(operation, **fixed)
    drawn = st.one_of([operation.as_strategy(generation_mode=mode, **fixed) for mode in GenerationMode])

    @seed(zlib.crc32(label.encode()))
    @hypothesis_settings(max_examples=max_examples + len(examples), database=None, deadline=None,
                         suppress_health_check=list(HealthCheck), verbosity=Verbosity.quiet)
    @given(case=st.one_of(*examples, drawn))
    def answers_as_documented(case):
        headers = {name: value for name, value in (case.headers or {}).items() if name.lower() != "authorization"}
        case.headers = {**headers, "Authorization": f"Token {token}"} if token else headers
        answers[label, case.call_and_validate(checks=CHECKS).status_code] += 1

    answers_as_documented()


@pytest.mark.parametrize("depth", [pytest.param(QUICK, id="quick"), pytest.param(FULL, id="full", marks=pytest.mark.long)])
def test_every_operation_answers_as_documented(api_schema, world, subtests, depth):
    """No server error, and every answer as the schema says, on every operation and every kind of game.

    make test (``QUICK``): every operation against every object of the world its path names, without the token,
    and with drawn parameters, a few requests each; make test-long (``FULL``): twice as many of each."""
    token = api_token(world.player)
    operations = [result.ok() for result in api_schema.get_all_operations()]
    assert len(operations) >= 20
    answers, needs_the_token = Counter(), set()
    for operation in operations:
        for target, path_parameters, anonymous in targets_of(operation, world):
            label = f"{operation.label} ({target})"
            in_play = target.startswith("ann's ") and target.endswith(" in play")
            examples = (depth.drawn if not (path_parameters or anonymous)
                        else depth.per_game_in_play if in_play else depth.per_target)
            if not anonymous and {} not in operation.definition.raw.get("security", [{}]):
                needs_the_token.add(label)
            with subtests.test(label):
                fuzz(operation, path_parameters, examples, label, None if anonymous else token, answers)
    # The fuzzing reached the games: its token kept working (a 401 would be documented, and fuzz
    # nothing), and moves were played, not only refused.
    assert not [label for label, status in answers if status == 401 and label in needs_the_token]
    assert any(status == 201 and label.startswith("POST /api/games/{game_id}/moves/") for label, status in answers)


def test_the_error_answers_fuzzing_seldom_reaches_are_as_documented(served_schema, live_server, transactional_db,
                                                                    make_user, settings):
    """A body over the limit, a body that is not JSON, JSON nested too deep, a bad token: each as the schema says.
    A player of their own is enough: none of these reaches a game (building the world took longer than sending)."""
    url = f"{live_server.url}/api/games/"
    token = {"Authorization": f"Token {api_token(make_user('ann'))}"}
    as_json = {**token, "Content-Type": "application/json"}
    sent = {
        413: requests.post(url, data=b" " * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1) + b"{}", headers=as_json),
        415: requests.post(url, data="game=love-letter", headers={**token, "Content-Type": "text/plain"}),
        400: requests.post(url, data="[" * 1000 + "]" * 1000, headers=as_json),
        401: requests.post(url, json={"game": "love-letter"}, headers={"Authorization": "Token not-a-token"}),
    }
    create = served_schema["/api/games/"]["POST"]
    for status, response in sent.items():
        assert response.status_code == status, response.text
        create.Case(body={}).validate_response(response, checks=CHECKS)
