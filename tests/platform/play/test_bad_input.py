"""Bad input gets a clear 4xx, JSON where the API promises JSON, and changes nothing.

One table of requests a careless client or an attacker might send, each with the answer it must
get; every row also proves that no row of the database changed. A request that breaks the API's
schema (a value of the wrong JSON type, off an enum or range, a required field missing) is a 400;
one of the schema's shape that cannot be done for what it says (a move the rules refuse, a player
count or bot seat the game does not take, an unknown time zone) is a 422.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

import pytest
from django.apps import apps
from django.conf import settings
from django.db import connection
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from turnbased.accounts.models import profile_of
from tests.platform.conftest import api_token
from turnbased.play import services

pytestmark = pytest.mark.django_db

DEEP = "[" * 100_000 + "]" * 100_000
HUGE = 10**30


@dataclass
class Bad:
    """One bad request: who sends it, and the status (and body) it must get back."""

    name: str
    method: str
    url: str
    status: int
    who: str = "alice"  # alice sits at every table but bob's open one; carol at none; "anonymous" is logged out
    api: bool = True  # an API request: token, JSON in and out
    body: object = None  # JSON for the API (a str is sent as is), form fields for pages
    headers: dict = field(default_factory=dict)
    says: str = ""  # a piece of the answer's detail (or page)


def post_json(name, url, body, status=400, says="", who="alice"):
    return Bad(name, "POST", url, status, who=who, body=body, says=says)


def create(name, says="", status=400, **fields):
    return post_json(f"create with {name}", "/api/games/", {"game": "love-letter", **fields}, says=says,
                     status=status)


def move(name, says="", status=400, **fields):
    return post_json(f"move with {name}", "/api/games/{game}/moves/", {"expected_seq": 0, **fields}, says=says,
                     status=status)


CASES = [
    # Nesting deeper than Python's recursion limit (json raised RecursionError: a 500).
    *[post_json(f"deep JSON to {url}", url, DEEP, says="nested") for url in (
        "/api/games/", "/api/games/{game}/moves/", "/api/games/{open}/join/", "/api/accounts/",
        "/api/auth/token/", "/api/absences/",
    )],
    Bad("deep JSON to PATCH /api/me/", "PATCH", "/api/me/", 400, body=DEEP, says="nested"),
    move("a move nested 40 deep", move=json.loads("[" * 40 + "]" * 40), says="nested"),
    Bad("deep JSON in the move form", "POST", "/games/{game}/move/", 302, api=False,
        body={"move": DEEP, "expected_seq": "0"}),
    Bad("deep JSON in the move form (htmx)", "POST", "/games/{game}/move/", 200, api=False,
        body={"move": DEEP, "expected_seq": "0"}, headers={"HTTP_HX_REQUEST": "true"}, says="could not be read"),
    # ?since= takes ASCII digits only ('²'.isdigit() is True and int('²') raised: a 500).
    *[Bad(f"history since={since!r}", "GET", f"/api/games/{{game}}/history/?since={since}", 400, says="since")
      for since in ("²", "٣", "𝟙", str(HUGE), "2147483648", "-1", "", "1.5", "0x1")],
    # Bodies over DATA_UPLOAD_MAX_MEMORY_SIZE, refused unread.
    post_json("an API body over the limit", "/api/games/", "x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1),
              status=413, says="larger than the limit"),
    Bad("a form over the limit", "POST", "/games/new/", 413, api=False,
        body={"game": "love-letter", "padding": "x" * settings.DATA_UPLOAD_MAX_MEMORY_SIZE}, says="too large"),
    # Provider webhooks without a provider (anymail raised ImproperlyConfigured, or trusted anyone).
    *[Bad(f"webhook {url} without ANYMAIL", "POST", url, 404, who="anonymous", api=False, body={"x": "y"})
      for url in ("/anymail/mailgun/inbound/", "/anymail/mailgun/tracking/", "/anymail/postmark/inbound/",
                  "/anymail/amazon_ses/inbound/", "/anymail/sendgrid/tracking/")],
    # A private table does not exist for a stranger, whatever they try (start, leave and abort said 403).
    *[Bad(f"stranger: API {method} {path or 'detail'}", method, f"/api/games/{{private}}/{path}", 404, who="carol",
          body=body, says="No such game")
      for method, path, body in (
          ("GET", "", None), ("GET", "legal-moves/", None), ("GET", "history/", None), ("GET", "text/", None),
          ("GET", "?invite=wrong", None), ("POST", "join/", {}), ("POST", "join/", {"invite_code": "wrong"}),
          ("POST", "start/", None), ("POST", "leave/", None), ("POST", "abort/", None), ("POST", "resign/", None),
          ("POST", "moves/", {"move": {"card": "handmaid"}, "expected_seq": 0}),
      )],
    *[Bad(f"stranger: API {action} on the private table in play", "POST", f"/api/games/{{private_game}}/{action}/",
          404, who="carol", says="No such game")
      for action in ("start", "leave", "abort", "resign", "join")],
    *[Bad(f"stranger: page {method} {path or 'detail'}", method, f"/games/{{private}}/{path}", 404, who="carol",
          api=False, body=body)
      for method, path, body in (
          ("GET", "", None), ("GET", "panel/", None), ("GET", "invite/wrong/", None), ("POST", "join/", {}),
          ("POST", "start/", {}), ("POST", "leave/", {}), ("POST", "abort/", {}), ("POST", "resign/", {}),
          ("POST", "move/", {"move": '{"card": "handmaid"}', "expected_seq": "0"}),
      )],
    Bad("anonymous: API detail of a private table", "GET", "/api/games/{private}/", 404, who="anonymous"),
    # Numbers beyond any column, and every field of the API with the wrong JSON type.
    move("expected_seq 10**30", move={"card": "handmaid"}, expected_seq=HUGE, says="expected_seq"),
    # Whole numbers the schema allows that the game does not take: 422.
    create("players 10**30", players=HUGE, says="players", status=422),
    create("a bot in seat 5 of two", players=2, bots={"5": "basic"}, says="Seat", status=422),
    # Issue 42: the schema names the seats a bot may take at any game; a key that is none breaks it: 400.
    create("a bot in seat 10**30", players=2, bots={str(HUGE): "basic"}, says="bots"),
    *[create(f"time_control {control!r}", time_control=control) for control in (
        {"kind": "none", "days_per_move": "x"}, {"kind": "none", "bank_days": HUGE}, {"kind": "per_move",
        "days_per_move": [3]}, {"kind": "bank", "bank_days": 5, "increment_days": "x"}, {"kind": []},
        {"kind": "bank", "bank_days": True}, {"weekends_off": "yes"}, {"expiry": {}}, [], "x",
        {"kind": "none", "bank_days": 0}, {"kind": "per_move", "days_per_move": 4}, {"kind": "sundial"},
        {"weekends_off": 0},
    )],
    create("time_control with an increment over the bank", time_control={"kind": "bank", "bank_days": 3,
           "increment_days": 5}, says="increment_days", status=422),
    *[create(f"{name}={value!r}", **{name: value}) for name, values in {
        "game": [5, [], {}, None, "chess"],
        "players": ["x", "2", [], True, None, 1.5],
        "options": [[], "x", None],
        "visibility": [5, [], None, "secret"],
        "bots": [[], None, {"1": []}, {"1": 0}, {"x": "basic"}, {"-1": "basic"}],  # keys no seat (issue 42)
        "play": ["maybe", [], None, 0],
    }.items() for value in values],
    *[create(f"{name}={value!r}", status=422, **{name: value}) for name, values in {
        "players": [-1, 1, 7],
        "options": [{"edition": []}, {"edition": "1999"}, {"deck": ["guard"]}],
        "bots": [{"1": "nope"}, {"0": "basic"}, {"5": "basic"}],
    }.items() for value in values],
    # move is a JSON object in the schema: anything else breaks it (400); an object the rules refuse is a 422.
    *[move(f"{name}={value!r}", **{name: value}) for name, values in {
        "move": ["x", 5, [], None],
        "expected_seq": ["x", -1, None, True, 1.5, [], {}],
        "idempotency_key": [[], {}, "x" * 101, "", 0],
    }.items() for value in values],
    *[move(f"move={value!r}", move=value, status=422) for value in (
        {}, {"card": []}, {"card": {}}, {"card": "guard", "target": []}, {"card": "guard", "target": HUGE,
        "guess": {}}, {"card": "princess"},
    )],
    *[post_json(f"move text={value!r}", "/api/games/{game}/moves/", {"text": value, "expected_seq": 0})
      for value in ([], {}, 0, None, "\x00", "guard " * 40, "")],
    *[post_json(f"move text={value!r}", "/api/games/{game}/moves/", {"text": value, "expected_seq": 0}, status=422)
      for value in ("٣", "guard ²", "fly away")],
    *[post_json(f"join with invite_code={value!r}", "/api/games/{open}/join/", {"invite_code": value}, who="carol")
      for value in ([], {}, None, 0)],
    *[post_json(f"absence {body!r}", "/api/absences/", body) for body in (
        {"starts_on": "x", "ends_on": "y"}, {"starts_on": 5, "ends_on": []}, {"starts_on": "2030-02-30", "ends_on":
        "2030-03-01"}, {"starts_on": "2030-01-01"}, {"starts_on": 20300101, "ends_on": "2030-01-02"},
    )],
    *[post_json(f"absence {body!r}", "/api/absences/", body, status=422, says=says) for body, says in (
        ({"starts_on": "9999-12-31", "ends_on": "9999-12-31"}, "at most a year ahead"),
        ({"starts_on": "2000-01-01", "ends_on": "2000-01-02"}, "in the past"),
    )],
    *[Bad(f"profile {body!r}", "PATCH", "/api/me/", 400, body=body) for body in (
        {"time_zone": []}, {"time_zone": "\x00"}, {"time_zone": 0}, {"reminder_lead_hours": HUGE},
        {"reminder_lead_hours": "soon"}, {"reminder_lead_hours": "6"}, {"play_forced_moves": 0},
        {"language": "xx"},
    )],
    Bad("profile with a time zone that is no zone", "PATCH", "/api/me/", 422, body={"time_zone": "../../etc/passwd"},
        says="not a time zone name"),
    # Malformed and unknown addresses: JSON under /api/, whatever Django's URL resolver says.
    *[Bad(f"GET {url}", "GET", url, 404) for url in (
        "/api/games/abc/", f"/api/games/{HUGE}/", f"/api/games/{HUGE}/history/", "/api/nothing/", "/api/games/1/x/",
    )],
    post_json("a move in game 10**30", f"/api/games/{HUGE}/moves/", {"text": "handmaid", "expected_seq": 0},
              status=404),
    Bad("DELETE absence 10**30", "DELETE", f"/api/absences/{HUGE}/", 404, says="No such absence"),
    Bad("page of game 10**30", "GET", f"/games/{HUGE}/", 404, api=False),
    Bad("join game 10**30", "POST", f"/games/{HUGE}/join/", 404, api=False, body={}),
    Bad("OPTIONS on the API docs", "OPTIONS", "/api/docs/", 405, says="not allowed"),
    Bad("a Host header the site does not serve", "GET", "/api/game-types/", 400, who="anonymous",
        headers={"HTTP_HOST": "evil.example"}, says="Bad request"),
]


@pytest.fixture(autouse=True)
def _rates_off(settings):
    """Well over a hundred bad requests from one address: rates are tested in tests/platform/kit/http/limits."""
    settings.RATE_LIMITS_ON = False


@pytest.fixture
def tables(alice, bob, carol, start_scripted_game):
    """Alice's public and private games in play (against bob), her private table still open, bob's public one."""
    private_open = services.create_game(creator=alice, engine_slug="love-letter", players=3, visibility="private")
    services.join_game(game_id=private_open.pk, user=bob, invite_code=private_open.invite_code)
    public_open = services.create_game(creator=bob, engine_slug="love-letter", players=3)
    for user in (alice, bob, carol):
        profile_of(user)  # made on first use; not a change a request makes
    return {
        "game": start_scripted_game(alice, bob).pk,
        "private_game": start_scripted_game(alice, bob, visibility="private").pk,
        "private": private_open.pk,
        "open": public_open.pk,
    }


# Columns a request may stamp without changing anything: authenticating notes a token's last use.
STAMPS = {"accounts.ApiToken": {"last_used_at"}}


def database_rows() -> dict[str, str]:
    """A digest of every row of each of the service's own tables, to prove a request changed nothing.

    One statement for all the tables (the database hashes each table's rows as text), so a snapshot before and after
    each of the table's many requests costs one round trip, not a query and a Python object per model and row."""
    with connection.cursor() as cursor:
        cursor.execute(_rows_digest_query())
        return dict(zip(_digested_labels(), cursor.fetchone()))


def _digested_models() -> list:
    return [model for model in apps.get_models()
            if model.__module__.startswith("turnbased.") and not model._meta.proxy and model._meta.managed]


def _digested_labels() -> list[str]:
    return [model._meta.label for model in _digested_models()]


def _rows_digest_query() -> str:
    quote = connection.ops.quote_name
    digests = []
    for model in _digested_models():
        columns = [quote(field.column) for field in model._meta.concrete_fields
                   if field.name not in STAMPS.get(model._meta.label, ())]
        row = f"ROW({', '.join(columns)})::text"
        digests.append(f"(SELECT md5(coalesce(string_agg({row}, '|' ORDER BY {row}), '')) "
                       f"FROM {quote(model._meta.db_table)})")
    return "SELECT " + ", ".join(digests)


_KEYS: dict[int, str] = {}


def key_of(user) -> str:
    """Return the user's one API token for this test (made before the first snapshot)."""
    if user.pk not in _KEYS:
        _KEYS[user.pk] = api_token(user)
    return _KEYS[user.pk]


@pytest.fixture(autouse=True)
def _no_keys_from_other_tests():
    _KEYS.clear()


def send(case: Bad, users: dict, tables: dict):
    client = Client(raise_request_exception=False)
    headers = dict(case.headers)
    user = users.get(case.who)
    if case.api and user is not None:
        headers["HTTP_AUTHORIZATION"] = f"Token {key_of(user)}"
    elif user is not None:
        client.force_login(user)
    url = case.url.format(**tables)
    if case.api:
        data = case.body if isinstance(case.body, str) else "" if case.body is None else json.dumps(case.body)
        return client.generic(case.method, url, data, content_type="application/json", **headers)
    if case.method == "POST":
        return client.post(url, case.body or {}, **headers)
    return client.generic(case.method, url, **headers)


def test_bad_input_gets_a_4xx_and_changes_nothing(tables, alice, carol, subtests):
    users = {"alice": alice, "carol": carol, "anonymous": None}
    for user in (alice, carol):
        key_of(user)
    for case in CASES:
        with subtests.test(case.name):
            before = database_rows()
            response = send(case, users, tables)
            assert response.status_code == case.status, response.content[:300]
            if case.api:
                assert response["Content-Type"] == "application/problem+json", response.content[:300]  # issue 42
                assert case.says in response.json()["detail"]
            elif case.status == 302:
                messages = [message.message for message in get_messages(response.wsgi_request)]
                assert "could not be read" in str(messages)
            else:
                assert case.says in response.content.decode()
            assert database_rows() == before


def api_routes(resolver=None, prefix=""):
    """Yield every URL pattern of the API as a path with its parameters still in <...>."""
    for entry in (resolver or get_resolver()).url_patterns:
        route = prefix + str(entry.pattern)
        if isinstance(entry, URLResolver):
            yield from api_routes(entry, route)
        elif isinstance(entry, URLPattern) and route.startswith("api/"):
            yield "/" + route


def test_every_api_address_answers_head_and_options_without_a_server_error(tables, alice):
    routes = sorted(set(api_routes()))
    assert "/api/games/<int:game_id>/moves/" in routes and len(routes) > 10
    users = {"alice": alice, "anonymous": None}
    key_of(alice)
    before = database_rows()
    for route in routes:
        url = (route.replace("<int:game_id>", str(tables["game"])).replace("<int:absence_id>", "1")
               .replace("<int:token_id>", "1").replace("<int:webhook_id>", "1"))
        for who in users:
            for method in ("HEAD", "OPTIONS"):
                response = send(Bad("probe", method, url, 0, who=who), users, tables)
                assert response.status_code < 500, (method, url, who, response.content[:300])
                if response.status_code >= 400 and method == "OPTIONS":
                    assert response.json()["detail"], (method, url, who)
    assert database_rows() == before


def test_webhooks_answer_only_for_the_configured_provider(settings):
    settings.ANYMAIL = {"WEBHOOK_SECRET": "hook:secret"}  # enough for Postmark, not for Mailgun (a signing key)
    client = Client(raise_request_exception=False)
    unsigned = client.post("/anymail/postmark/inbound/", "{}", content_type="application/json")
    assert unsigned.status_code in (400, 401, 403)  # anymail's own refusal of an unsigned call: the route is live
    assert client.post("/anymail/mailgun/tracking/", {}).status_code == 404


def test_a_mail_webhook_takes_a_message_bigger_than_a_request_but_not_without_end(settings):
    settings.ANYMAIL = {"WEBHOOK_SECRET": "hook:secret"}
    client = Client(raise_request_exception=False)
    auth = {"HTTP_AUTHORIZATION": "Basic aG9vazpzZWNyZXQ="}  # hook:secret
    between = '{"padding": "' + "x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 10) + '"}'
    # Over an ordinary request's limit, under the webhook's: it reaches the provider's view (which
    # finds no message in it) instead of a 413 or Django's refusal to read the body.
    assert client.post("/anymail/postmark/inbound/", between, content_type="application/json", **auth).status_code \
        not in (400, 413, 500)
    beyond = "x" * (settings.MAIL_WEBHOOK_MAX_BODY_BYTES + 1)
    assert client.post("/anymail/postmark/inbound/", beyond, content_type="application/json", **auth).status_code == 413


def test_a_mail_webhook_answers_400_to_a_body_its_provider_cannot_read(settings):
    settings.ANYMAIL = {"WEBHOOK_SECRET": "hook:secret", "REQUESTS_TIMEOUT": 20}
    client = Client(raise_request_exception=False)
    auth = {"HTTP_AUTHORIZATION": "Basic aG9vazpzZWNyZXQ="}  # hook:secret
    answer = client.post("/anymail/postmark/inbound/", "{not json", content_type="application/json", **auth)
    assert answer.status_code == 400


def test_the_request_timeout_alone_configures_no_mail_provider(settings):
    settings.ANYMAIL = {"REQUESTS_TIMEOUT": 20}
    assert Client(raise_request_exception=False).post("/anymail/postmark/inbound/", "{}",
                                                      content_type="application/json").status_code == 404
