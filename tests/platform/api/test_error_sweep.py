"""Every error of the API is JSON of one documented shape: a sweep of every URL pattern with requests that must fail.

The URL configuration is walked (as the secrecy walk does), so an endpoint added later is swept
too. Each route gets, for each kind of mistake a client makes:

- every method it does not allow (405);
- each of its path parameters naming nothing (404; a method that reads a body may refuse the
  empty one first, 400);
- no credentials, where the schema says the operation needs them (401), and otherwise whatever
  it answers an anonymous visitor about a private game of others (an error there, too, is JSON);
- a token that is not one (401), once as a client and once as a browser asking for HTML;
- a JSON body that cannot be read, on each method it allows that may carry one (400);
- a body that is not JSON, on the same (415), whether the method reads a body or not (issue 42).

Every answer must be a 4xx, a problem document (RFC 9457: ``application/problem+json``, its ``status``
the answer's), and valid against the schema's ``Error`` component; nothing in the database may change. A route whose answers cannot be JSON (a stream,
say) is listed in ``EXCEPTIONS`` with the mistakes it is excused from and why.

Strings that are not text (issue 42) are swept from the schema instead, so a new field or parameter is
swept by itself: a lone surrogate, high or low, in every string of every operation's body (a member's
name of a free-form object too), bytes that are not UTF-8 percent-encoded in each of its query parameters
(and one it does not have), and raw in each header it reads. Each must be a 400 of the same shape.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from datetime import date, timedelta

import jsonschema
import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils import timezone

from tests.platform.api.test_schema import as_json_schema
from tests.platform.conftest import api_token
from tests.platform.notifications.push_service import Device
from tests.platform.play.test_bad_input import database_rows
from tests.platform.seats.conftest import taken_over
from games import get_engine
from turnbased.accounts.services.tokens import token_create
from turnbased.kit.api.problems import PROBLEM_MEDIA_TYPE
from turnbased.chat.services import message_post
from turnbased.clocks.services import absence_declare, local_today
from turnbased.competitions.services.entries import competition_create
from turnbased.groups.services import group_create, group_delete
from turnbased.play import services
from turnbased.agreements.services import takeback_ask
from turnbased.notifications.services import push_subscription_save
from turnbased.play.services.invitations import invitation_create
from turnbased.webhooks.services import webhook_create
from turnbased.following.services import watch_make
from turnbased.seats import services as seat_services

pytestmark = pytest.mark.django_db

HUGE = 10**30
MISTAKES = ("wrong method", "bad id", "no credentials", "bad token", "bad token, HTML wanted", "malformed JSON",
            "not JSON")
# Routes excused from some mistakes, with the reason: {route name: {mistake: why}}.
EXCEPTIONS: dict[str, dict[str, str]] = {}
# What each path parameter is, for the route to name something real, and values that name nothing.
BAD_VALUES = {
    "game_id": ["0", str(HUGE), "{missing_game}"],
    "seq": [str(HUGE)],
    "absence_id": ["0", str(HUGE), "{bens_absence}"],
    "token_id": ["0", str(HUGE), "{bens_token}"],
    "username": ["nobody", "bot1"],
    "webhook_id": ["0", str(HUGE), "{bens_webhook}"],
    "subscription_id": ["0", str(HUGE), "{bens_device}"],  # issue 25: a device told of turns
    # Issue 27: one chat message (of the private game, of another game) and one invitation (to another table).
    "message_id": ["0", str(HUGE), "{hidden_message}"],
    "invitation_id": ["0", str(HUGE), "{other_invitation}"],
    # Issue 44: a group (one deleted, for the last).
    "group_id": ["0", str(HUGE), "{deleted_group}"],
    # Issue 45: a competition (an invitation-only one alice may not see, for the last).
    "competition_id": ["0", str(HUGE), "{hidden_competition}"],
    # Issue 46: a proposal at a table (one at alice's other table, not the game the path names, for the last).
    "proposal_id": ["0", str(HUGE), "{other_proposal}"],
    # Issue 46: a seat offer (one named to another person at a table alice does not play, for the last).
    "offer_id": ["0", str(HUGE), "{hidden_offer}"],
    # Issue 46: a watch (ben's, for the last: another person's watch does not exist for alice).
    "watch_id": ["0", str(HUGE), "{bens_watch}"],
}
BODY_METHODS = ("POST", "PUT", "PATCH", "DELETE")
JSON = "application/json"
_PARAMETER = re.compile(r"<(?:\w+:)?(\w+)>")


def device_keys(name: str) -> dict:
    """A browser's push subscription (issue 25), as push_subscription_save takes it."""
    subscription = Device(name=name, endpoint=f"https://fcm.googleapis.com/fcm/send/{name}").subscription()
    return {"endpoint": subscription["endpoint"], **subscription["keys"]}


def api_routes(patterns=None, prefix=""):
    """Yield (route as written, its name, its view) for every URL pattern under /api/."""
    for entry in get_resolver().url_patterns if patterns is None else patterns:
        route = prefix + str(entry.pattern)
        if isinstance(entry, URLResolver):
            yield from api_routes(entry.url_patterns, route)
        elif isinstance(entry, URLPattern) and route.startswith("api/"):
            yield route, entry.name, entry.callback


def allowed_methods(callback) -> set[str]:
    """Return the methods a route's view answers (HEAD and OPTIONS aside: test_bad_input covers them)."""
    view = getattr(callback, "view_class", None) or getattr(callback, "cls", None)
    names = getattr(view, "http_method_names", [])
    return {name.upper() for name in names if hasattr(view, name)} - {"HEAD", "OPTIONS"}


@pytest.fixture
def world(alice, bob, carol, make_user, settings):
    """Alice's game in play and her spare token and absence; ben's token and absence; bob and carol's private game."""
    settings.RATE_LIMITS_ON = False  # hundreds of refused requests from one address: rates are tested elsewhere
    ben = bob
    game = services.create_game(creator=alice, engine_slug="love-letter", players=2)
    services.join_game(game_id=game.pk, user=bob)
    hidden = services.create_game(creator=bob, engine_slug="love-letter", players=2, visibility="private")
    services.join_game(game_id=hidden.pk, user=carol, invite_code=hidden.invite_code)
    today = local_today(alice)
    soon = min(today + timedelta(days=10), date(today.year, 12, 31))  # an absence stays within its year
    absences = {user.username: absence_declare(user=user, starts_on=soon, ends_on=soon).pk for user in (alice, ben)}
    settings.WEBHOOKS_ALLOW_PRIVATE_ADDRESSES = settings.WEBHOOKS_ALLOW_HTTP = True  # a receiver on loopback
    hooks = {user.username: webhook_create(owner=user, url="http://127.0.0.1:8080/hook")[0].pk for user in (alice, ben)}
    settings.WEB_PUSH_SERVICES = ["fcm.googleapis.com"]
    devices = {user.username: push_subscription_save(user=user, **device_keys(user.username))[0].pk
               for user in (alice, ben)}
    message = message_post(game_id=game.pk, user=alice, text="hello").pk
    hidden_message = message_post(game_id=hidden.pk, user=bob, text="psst").pk
    table = services.create_game(creator=alice, engine_slug="love-letter", players=3)
    invitation = invitation_create(game_id=table.pk, user=alice, username="carol")[0].pk
    other_table = services.create_game(creator=bob, engine_slug="love-letter", players=3)
    other_invitation = invitation_create(game_id=other_table.pk, user=bob, username="carol")[0].pk
    group = group_create(user=alice, name="Alice's club")
    deleted = group_create(user=bob, name="Gone club")
    group_delete(user=bob, group_id=deleted.pk)
    starts = (timezone.now() + timedelta(days=3)).isoformat()
    clock = {"kind": "per_move", "days_per_move": 3}
    competition = competition_create(user=alice, settings={"name": "Alice's cup", "game": "love-letter",
                                                           "starts_at": starts, "time_control": clock})
    forest = services.create_game(creator=alice, engine_slug="savernake-forest", players=2, seed="t1")
    services.join_game(game_id=forest.pk, user=carol)
    forest.refresh_from_db()
    services.submit_move(game_id=forest.pk, user=alice, expected_seq=0,
                         move=get_engine(forest.engine).legal_moves(forest.state, 0)[0])
    other_proposal = takeback_ask(game_id=forest.pk, user=alice)
    make_user("dora")
    listed_offer, hidden_offer = (_seat_offer(bob, carol, seed=seed, username=username)
                                  for seed, username in (("listed", None), ("named", "dora")))
    watches = {user.username: watch_make(user=user, kind="game", target_id=followed.pk)[0].pk
               for user, followed in ((alice, other_table), (ben, table))}
    hidden_competition = competition_create(user=bob, settings={"name": "Bob's cup", "game": "love-letter",
                                                                 "starts_at": starts, "time_control": clock,
                                                                 "entry": "invitation"})
    return {
        "alice": alice,
        "key": api_token(alice),
        "good": {"game_id": str(game.pk), "seq": "0", "absence_id": str(absences["alice"]),
                 "message_id": str(message), "invitation_id": str(invitation),
                 "token_id": str(token_create(user=alice, name="spare", lifetime=None)[0].pk), "username": "alice",
                 "webhook_id": str(hooks["alice"]), "subscription_id": str(devices["alice"]),
                 "group_id": str(group.pk), "competition_id": str(competition.pk),
                 "proposal_id": str(other_proposal.pk), "offer_id": str(listed_offer.pk),
                 "watch_id": str(watches["alice"])},
        "hidden": {"game_id": str(hidden.pk)},
        "fill": {"missing_game": str(hidden.pk + 1000), "bens_absence": str(absences["bob"]),
                 "bens_token": str(token_create(user=ben, name="ben's", lifetime=None)[0].pk),
                 "bens_webhook": str(hooks["bob"]), "bens_device": str(devices["bob"]),
                 "hidden_message": str(hidden_message), "other_invitation": str(other_invitation),
                 "deleted_group": str(deleted.pk), "hidden_competition": str(hidden_competition.pk),
                 "other_proposal": str(other_proposal.pk), "hidden_offer": str(hidden_offer.pk),
                 "bens_watch": str(watches["bob"])},
    }


def _seat_offer(creator, other, *, seed: str, username: str | None):
    """A seat a bot took over at a table of ``creator`` and ``other``, offered by the one who stayed."""
    game, late = taken_over(creator, other, seed=seed)
    stayer = next(seat.user for seat in game.seats.all() if seat.index != late)
    return seat_services.offer_make(game_id=game.pk, user=stayer, seat=late, username=username)


def path_of(route: str, values: dict) -> str:
    return "/" + _PARAMETER.sub(lambda match: values[match.group(1)], route)


def mistakes_of(route: str, callback, world: dict):
    """Yield (mistake, method, path, headers, body, content type) for every request the sweep sends to a route."""
    token = {"HTTP_AUTHORIZATION": f"Token {world['key']}"}
    allowed = allowed_methods(callback)
    parameters = _PARAMETER.findall(route)
    good = path_of(route, world["good"])
    for method in sorted({"GET", "POST", "PUT", "PATCH", "DELETE"} - allowed):
        yield "wrong method", method, good, token, None, JSON
    for parameter in parameters:
        for bad in BAD_VALUES[parameter]:
            path = path_of(route, {**world["good"], parameter: bad.format(**world["fill"])})
            for method in sorted(allowed):
                yield "bad id", method, path, token, "{}" if method in BODY_METHODS else None, JSON
    anonymous_path = path_of(route, {**world["good"], **world["hidden"]})
    for method in sorted(allowed):
        body = "{}" if method in BODY_METHODS else None
        yield "no credentials", method, anonymous_path, {}, body, JSON
        yield "bad token", method, good, {"HTTP_AUTHORIZATION": "Token not-a-token"}, body, JSON
        yield ("bad token, HTML wanted", method, good,
               {"HTTP_AUTHORIZATION": "Token not-a-token", "HTTP_ACCEPT": "text/html"}, body, JSON)
        if method in BODY_METHODS:
            yield "malformed JSON", method, good, token, '{"expected_seq": 0,', JSON
            yield "not JSON", method, good, token, "expected_seq=0", "application/x-www-form-urlencoded"


def needs_credentials(schema: dict, route: str, method: str) -> bool:
    """Tell whether the schema says the operation needs credentials (no anonymous ``{}`` among its security)."""
    operation = schema["paths"].get(path_of(route, {name: f"{{{name}}}" for name in _PARAMETER.findall(route)}), {})
    security = operation.get(method.lower(), {}).get("security")
    return security is not None and {} not in security


@pytest.fixture
def error_shape(client) -> jsonschema.Validator:
    schema = client.get("/api/schema/?format=json").json()
    components = as_json_schema(schema["components"])
    return jsonschema.Draft202012Validator({"components": components, "$ref": "#/components/schemas/Error"}), schema


def test_every_route_answers_every_mistake_with_a_json_error_of_the_documented_shape(world, error_shape, subtests):
    validator, schema = error_shape
    routes = list(api_routes())
    assert len(routes) > 20 and any(route == "api/games/<int:game_id>/moves/" for route, _, _ in routes)
    before = database_rows()
    client = Client(raise_request_exception=False)
    swept = set()
    for route, name, callback in routes:
        for mistake, method, path, headers, body, content_type in mistakes_of(route, callback, world):
            if mistake in EXCEPTIONS.get(name, {}):
                continue
            swept.add(mistake)
            label = f"{mistake}: {method} {path} {sorted(headers)}"
            with subtests.test(label):
                response = client.generic(method, path, body or "", content_type=content_type, **headers)
                if mistake == "no credentials" and not needs_credentials(schema, route, method):
                    if response.status_code < 400:  # an endpoint anyone may use: not a mistake here
                        continue
                assert 400 <= response.status_code < 500, (label, response.status_code, response.content[:300])
                # A route with no HTML to give (the schema) may refuse the Accept header first: 406.
                expected = {"wrong method": {405}, "bad token": {401}, "bad token, HTML wanted": {401, 406},
                            "malformed JSON": {400}, "not JSON": {415}, "no credentials": {401} if needs_credentials(
                                schema, route, method) else None,
                            "bad id": {404} if method in ("GET", "DELETE") else {400, 404}}[mistake]
                assert expected is None or response.status_code in expected, (label, response.status_code)
                assert response["Content-Type"] == PROBLEM_MEDIA_TYPE, (label, response["Content-Type"])
                problem = json.loads(response.content)
                validator.validate(problem)
                assert problem["status"] == response.status_code, (label, problem)
    assert swept == set(MISTAKES)
    assert database_rows() == before


def test_the_exceptions_name_real_routes_and_mistakes():
    names = {name for _, name, _ in api_routes()}
    for name, excused in EXCEPTIONS.items():
        assert name in names, f"{name} is excused from the sweep but is no longer a route"
        assert set(excused) <= set(MISTAKES) and all(excused.values()), name


def test_every_path_parameter_of_the_api_has_values_that_name_nothing():
    """A new kind of path parameter cannot escape the bad-id sweep: it must be given bad values here."""
    parameters = {parameter for route, _, _ in api_routes() for parameter in _PARAMETER.findall(route)}
    assert parameters <= set(BAD_VALUES), parameters - set(BAD_VALUES)


def test_the_sweep_can_fail(world, error_shape):
    """An error that is not JSON, or not of the shape, is caught: the checks are not vacuous."""
    validator, _ = error_shape
    with pytest.raises(jsonschema.ValidationError):
        validator.validate({"message": "no detail"})
    with pytest.raises(jsonschema.ValidationError):
        validator.validate({"type": "about:blank", "title": "Bad Request", "status": 400, "detail": ["not a string"]})
    with pytest.raises(jsonschema.ValidationError):  # today's fields alone are not a problem document
        validator.validate({"detail": "no type, title or status"})
    page = Client().get("/accounts/login/", HTTP_AUTHORIZATION="Token not-a-token")
    assert page["Content-Type"] != "application/json"  # outside /api/ the site answers pages


# Issue 42: JSON escapes of strings no UTF-8 text can hold, a lone high surrogate and a low one with no high one.
NOT_TEXT_IN_JSON = ("\ud800", "\udc00")
# Percent-encoded bytes that are not UTF-8: a surrogate's own three bytes, a byte UTF-8 never uses, a sequence
# cut short, an overlong "/".
NOT_UTF8_ESCAPED = ("%ED%A0%80", "%FF", "%C3", "%C0%AF")
# A header's bytes that are not UTF-8, as the server hands them on (PEP 3333: each byte a Latin-1 character).
NOT_UTF8_RAW = ("\xff", "caf\xe9")
# Headers every operation may read, besides those its schema lists: its language, and the client's name.
HEADERS_OF_EVERY_OPERATION = ("Accept-Language", "User-Agent")
# The last step of a place that is a member's name (of an object whose members are free), not a value.
MEMBER_NAME = object()


def resolved(schema: dict, node: dict) -> dict:
    while "$ref" in node:
        node = schema["components"]["schemas"][node["$ref"].rsplit("/", 1)[1]]
    return node


def string_places(schema: dict, node: dict, place: tuple = (), through: frozenset = frozenset()) -> Iterator[tuple]:
    """Yield the place of every string a body of the schema ``node`` may hold: a tuple of member names and list
    indexes, ending in ``MEMBER_NAME`` where the string is a free member's name."""
    reference = node.get("$ref")
    if reference is not None:
        if reference in through:
            return  # a schema that holds itself: its strings are found once
        node, through = resolved(schema, node), through | {reference}
    for alternatives in ("oneOf", "anyOf", "allOf"):
        for alternative in node.get(alternatives, []):
            yield from string_places(schema, alternative, place, through)
    kind = node.get("type")
    if kind == "object" or "properties" in node:
        for name, member in node.get("properties", {}).items():
            yield from string_places(schema, member, (*place, name), through)
        free = node.get("additionalProperties", "properties" not in node)
        if free is not False:
            yield (*place, MEMBER_NAME)
            yield from string_places(schema, free if isinstance(free, dict) else {}, (*place, "x"), through)
    elif kind == "array":
        yield from string_places(schema, node.get("items", {}), (*place, 0), through)
    elif kind == "string" or (kind is None and not any(key in node for key in ("oneOf", "anyOf", "allOf"))):
        yield place  # a string, or a value of any type


def body_with(place: tuple, bad: str):
    """Return the smallest body that holds ``bad`` at ``place``."""
    value = {bad: "x"} if place and place[-1] is MEMBER_NAME else bad
    for step in reversed(place[:-1] if place and place[-1] is MEMBER_NAME else place):
        value = [value] if isinstance(step, int) else {step: value}
    return value


def written(place: tuple) -> str:
    return ".".join("<name>" if step is MEMBER_NAME else str(step) for step in place) or "<body>"


def not_text_requests(schema: dict, world: dict) -> Iterator[tuple[str, str, str, dict, str | None]]:
    """Yield (label, method, path, headers, body) for every string of every operation that is not text."""
    token = {"HTTP_AUTHORIZATION": f"Token {world['key']}"}
    for route, item in schema["paths"].items():
        path = re.sub(r"{(\w+)}", lambda match: world["good"][match.group(1)], route)
        for method in ("get", "post", "put", "patch", "delete"):
            operation = item.get(method)
            if operation is None:
                continue
            empty = "{}" if method.upper() in BODY_METHODS else None
            content = operation.get("requestBody", {}).get("content", {}).get("application/json")
            for place in dict.fromkeys(string_places(schema, content["schema"])) if content else ():
                for bad in NOT_TEXT_IN_JSON:
                    yield (f"body {written(place)}={bad!a}", method.upper(), path, token,
                           json.dumps(body_with(place, bad)))
            parameters = operation.get("parameters", [])
            for name in [parameter["name"] for parameter in parameters if parameter["in"] == "query"] + ["unknown"]:
                for bad in NOT_UTF8_ESCAPED:
                    yield f"query {name}={bad}", method.upper(), f"{path}?{name}={bad}", token, empty
            headers = [parameter["name"] for parameter in parameters if parameter["in"] == "header"]
            for name in dict.fromkeys([*headers, *HEADERS_OF_EVERY_OPERATION]):
                for bad in NOT_UTF8_RAW:
                    meta = "HTTP_" + name.upper().replace("-", "_")
                    yield f"header {name}: {bad!a}", method.upper(), path, {**token, meta: bad}, empty


def test_every_string_of_every_operation_that_is_not_text_is_a_400_of_the_error_shape(world, error_shape, subtests):
    """Issue 42: a lone surrogate in a choice field was a 500 (the refusal that quoted it could not be encoded)."""
    validator, schema = error_shape
    before = database_rows()
    client = Client(raise_request_exception=False)
    sent = []
    for label, method, path, headers, body in not_text_requests(schema, world):
        sent.append(label)
        with subtests.test(f"{method} {path} {label}"):
            response = client.generic(method, path, body or "", content_type="application/json", **headers)
            assert response.status_code == 400, (label, response.status_code, response.content[:300])
            assert response["Content-Type"].split(";")[0].endswith("json"), response["Content-Type"]
            answer = json.loads(response.content)
            validator.validate(answer)
            assert isinstance(answer["detail"], str) and answer["detail"], answer
    # The walk reached what the probe found, and every kind of place: nested, in a list, a member of an object
    # (a table's bots, by seat); test_the_walk_finds_every_string_of_a_schema holds a free member's name.
    for reached in ("body game='\\ud800'", "body visibility='\\udc00'", "body time_control.kind='\\ud800'",
                    "body kinds.0='\\ud800'", "body bots.1='\\ud800'", "query game=%ED%A0%80",
                    "header Idempotency-Key: '\\xff'"):
        assert reached in sent, reached
    assert len(sent) > 500
    assert database_rows() == before


def test_the_walk_finds_every_string_of_a_schema():
    """The walk is not vacuous: strings nested in objects, lists, alternatives and free objects are all found."""
    schema = {"components": {"schemas": {
        "Leaf": {"type": "object", "properties": {"name": {"type": "string"}, "count": {"type": "integer"}}},
        "Loop": {"type": "object", "properties": {"label": {"type": "string", "format": "date"},
                                                  "again": {"$ref": "#/components/schemas/Loop"}}},
    }}}
    body = {"type": "object", "properties": {
        "kinds": {"type": "array", "items": {"type": "string", "enum": ["a", "b"]}},
        "leaf": {"$ref": "#/components/schemas/Leaf"},
        "either": {"oneOf": [{"type": "string"}, {"type": "object", "additionalProperties": {"type": "string"}}]},
        "free": {"type": "object", "additionalProperties": True},
        "anything": {},
        "loop": {"$ref": "#/components/schemas/Loop"},
        "flag": {"type": "boolean"},
    }}
    places = {written(place) for place in string_places(schema, body)}
    assert places == {"kinds.0", "leaf.name", "either", "either.<name>", "either.x", "free.<name>", "free.x",
                      "anything", "loop.label"}
    assert body_with(("bots", MEMBER_NAME), "\ud800") == {"bots": {"\ud800": "x"}}
    assert body_with(("moves", 0, "text"), "\udc00") == {"moves": [{"text": "\udc00"}]}
