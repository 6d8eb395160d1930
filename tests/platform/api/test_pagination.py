"""Every list of the API pages by cursor: one answer shape, next and previous to follow, a strict cursor and page size.

The lists are found in the schema (an answer with ``results``), so a list added later is held to
the same: it must take ``cursor`` and ``page_size``, refuse ones that break the schema with 400 and a
cursor of the right shape it did not give out with 404, and a walk through it a page at a time must
see every item once, forwards and back.
"""

from __future__ import annotations

import base64
from datetime import timedelta
from urllib.parse import urlencode

import pytest
from django.db import transaction
from django.test import Client, override_settings
from django.utils import timezone
from rest_framework.test import APIClient

from tests.platform.conftest import api_token, user_maker
from turnbased.kit.api.pagination import BAD_CURSOR, MAX_PAGE_SIZE, SIGNATURE, signature_of
from turnbased.chat import services as chat_services
from turnbased.clocks.services import absence_declare, local_today
from turnbased.competitions.services import entries as competitions
from turnbased.groups import services as groups_services
from turnbased.play import services, store
from turnbased.webhooks.services import webhook_create

pytestmark = pytest.mark.django_db

# GETs answering a bare array (not paged), and why.
NOT_PAGED = {
    "/api/game-types/": "the catalogue of games this service's code offers: a few entries, read whole",
}


# More pages than any list of these tests has: a cursor that leads round in a circle fails instead of looping.
PAGES_AT_MOST = 500


def _schema() -> dict:
    return Client().get("/api/schema/?format=json").json()


def _lists(schema: dict) -> dict[str, dict]:
    """Return the GET operations whose answer is a page (it has results), by path."""
    found = {}
    for path, item in schema["paths"].items():
        answer = item.get("get", {}).get("responses", {}).get("200", {})
        reference = answer.get("content", {}).get("application/json", {}).get("schema", {}).get("$ref", "")
        component = schema["components"]["schemas"].get(reference.rsplit("/", 1)[-1], {})
        if "results" in component.get("properties", {}):
            found[path] = item["get"]
    return found


def test_every_list_takes_a_cursor_and_a_page_size_and_answers_next_previous_and_results():
    schema = _schema()
    lists = _lists(schema)
    assert {"/api/games/", "/api/games/open/", "/api/me/turns/", "/api/games/{game_id}/history/",
            "/api/games/{game_id}/messages/", "/api/tokens/", "/api/absences/", "/api/invitations/",
            "/api/invitations/people/", "/api/games/{game_id}/invitations/", "/api/ratings/",
            "/api/players/{username}/games/"} <= set(lists)
    for path, operation in lists.items():
        names = {parameter["name"] for parameter in operation["parameters"]}
        assert {"cursor", "page_size"} <= names, path
        page_size = next(parameter for parameter in operation["parameters"] if parameter["name"] == "page_size")
        assert page_size["schema"]["maximum"] == MAX_PAGE_SIZE, path
        reference = operation["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]
        component = schema["components"]["schemas"][reference.rsplit("/", 1)[-1]]
        assert {"next", "previous", "results"} <= set(component["required"]), path
        assert component["properties"]["results"]["type"] == "array", path


def test_no_get_answers_a_bare_array_but_those_explained():
    schema = _schema()
    bare = {
        path for path, item in schema["paths"].items()
        if item.get("get", {}).get("responses", {}).get("200", {}).get("content", {})
        .get("application/json", {}).get("schema", {}).get("type") == "array"
    }
    assert bare == set(NOT_PAGED), f"lists that do not page and are not explained: {bare - set(NOT_PAGED)}"


@pytest.fixture(scope="module")
def _world_of_the_module(django_db_setup, django_db_blocker):
    """The world (``_world_made``), built once for the module's tests (some forty) in a transaction of its own
    rolled back after them: each test's own transaction is a savepoint within it, rolled back after the test, so
    every test starts from these rows alone. Returns the ids of what the tests name."""
    from turnbased.celery import app

    with django_db_blocker.unblock():
        outer = transaction.atomic()
        outer.__enter__()
        try:
            app.conf.task_always_eager = True  # as in a test (tests/conftest.py): tasks inline
            try:
                with override_settings(MAX_OPEN_TABLES_PER_ACCOUNT=100, RATE_LIMITS_ON=False,
                                       WEBHOOKS_ALLOW_PRIVATE_ADDRESSES=True, WEBHOOKS_ALLOW_HTTP=True):
                    made = _world_made()
            finally:
                app.conf.task_always_eager = False
            yield {name: (type(thing), thing.pk) for name, thing in made.items()}
        finally:
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)


@pytest.fixture
def world(_world_of_the_module, db, settings):
    """Alice with several of everything each list holds, the ids of the paths that name something (the module's
    world, read afresh for the test)."""
    settings.RATE_LIMITS_ON = False
    return {name: model.objects.get(pk=pk) for name, (model, pk) in _world_of_the_module.items()}


def _world_made() -> dict:
    """Alice with several of everything each list holds."""
    make_user = user_maker()
    # Names of their own: the module's other tests make an alice, a bob and a carol while these rows stand.
    alice, bob, carol = (make_user(name) for name in ("alma", "bert", "cora"))
    games = []
    for opponent in (bob, carol, make_user("dag")):  # alice to move in each (seat 0 moves first)
        game = services.create_game(creator=alice, engine_slug="love-letter", players=2,
                                    options={"first_player": 0})
        services.join_game(game_id=game.pk, user=opponent)
        games.append(game)
    game = games[0]
    for _ in range(3):
        services.create_game(creator=carol, engine_slug="halali", players=2)  # open tables alice could join
    table = services.create_game(creator=alice, engine_slug="love-letter", players=4)
    for user in (bob, carol, make_user("eda")):
        services.invitation_create(game_id=table.pk, user=alice, username=user.username)
    for host in (bob, carol, make_user("fenn")):
        invited = services.create_game(creator=host, engine_slug="love-letter", players=3)
        services.invitation_create(game_id=invited.pk, user=host, username=alice.username)
    for text in ("one", "two", "three"):
        chat_services.message_post(game_id=game.pk, user=alice, text=text)
    for number in range(3):
        api_token(alice, f"spare {number}")
    first = local_today(alice) + timedelta(days=2)
    for offset in (0, 2, 4):
        day = first + timedelta(days=offset)
        if day.year == first.year:
            absence_declare(user=alice, starts_on=day, ends_on=day)
    _play(game, {alice.pk: alice, bob.pk: bob}, moves=3)  # history of several moves
    hook, _ = webhook_create(owner=alice, url="http://127.0.0.1:8080/hook")
    # Issue 44: a group of alice's with members, invitations, requests and tables; and groups she was invited to.
    group = groups_services.group_create(user=alice, name="Alice's club", entry="request")
    for user in (bob, carol, make_user("gaby")):
        groups_services.join(user=user, group_id=group.pk)
        groups_services.request_answer(user=alice, group_id=group.pk, username=user.username, accept=True)
    for name in ("hal", "ivy", "jon"):
        groups_services.invite(user=alice, group_id=group.pk, username=make_user(name).username)
        groups_services.join(user=make_user(f"{name}-asks"), group_id=group.pk)
    for number in range(3):
        services.create_game(creator=alice, engine_slug="love-letter", players=2, visibility="private",
                             terms={"group": group.pk})
    for number in range(5):  # alice in two of bob's clubs, invited to three
        other = groups_services.group_create(user=bob, name=f"Bob's club {number}", entry="invitation")
        groups_services.invite(user=bob, group_id=other.pk, username=alice.username)
        if number < 2:
            groups_services.invitation_answer(user=alice, group_id=other.pk, accept=True)
    # Issue 45: competitions alice organises and entered, with entrants.
    starts = (timezone.now() + timedelta(days=3)).isoformat()
    for number in range(3):
        competition = competitions.competition_create(user=alice, settings={
            "name": f"Alice's cup {number}", "game": "love-letter", "starts_at": starts,
            "time_control": {"kind": "per_move", "days_per_move": 3}})
        for user in (alice, bob, carol):
            competitions.competition_enter(user=user, competition_id=competition.pk)
    return {"alice": alice, "game": game, "table": table, "webhook": hook, "group": group, "competition": competition}


def _play(game, users: dict, *, moves: int) -> None:
    """Play the first legal move ``moves`` times, whoever is to move."""
    for _ in range(moves):
        game.refresh_from_db()
        seat = game.to_move[0]
        player = users[game.seats.get(index=seat).user_id]
        move = store.engine_of(game).legal_moves(game.state, seat)[0]
        services.submit_move(game_id=game.pk, user=player, expected_seq=game.seq, move=move)
    game.refresh_from_db()


def _walk(client: APIClient, url: str) -> tuple[list, list]:
    """Follow next from ``url`` to the last page, then previous back to the first; return both item lists."""
    forward, pages = [], []
    while url:
        assert len(pages) < PAGES_AT_MOST, f"a cursor that never ends: {url}"
        body = client.get(url).json()
        pages.append(body)
        forward += body["results"]
        url = body["next"]
    backward, url = list(pages[-1]["results"]), pages[-1]["previous"]
    for _ in range(PAGES_AT_MOST):
        if not url:
            break
        body = client.get(url).json()
        backward = body["results"] + backward
        url = body["previous"]
    return forward, backward


LISTS = [
    "/api/games/", "/api/games/open/", "/api/me/turns/", "/api/games/{game}/messages/", "/api/tokens/",
    "/api/absences/", "/api/invitations/", "/api/invitations/people/", "/api/games/{table}/invitations/",
    "/api/games/{game}/history/", "/api/groups/", "/api/me/groups/", "/api/me/group-invitations/",
    "/api/groups/{group}/members/", "/api/groups/{group}/invitations/", "/api/groups/{group}/requests/",
    "/api/groups/{group}/tables/", "/api/competitions/", "/api/me/competitions/",
    "/api/competitions/{competition}/entrants/",
]


@pytest.mark.parametrize("path", LISTS)
def test_a_walk_a_page_at_a_time_sees_every_item_once_forwards_and_back(world, path):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {api_token(world['alice'], 'walker')}")
    url = path.format(game=world["game"].pk, table=world["table"].pk, group=world["group"].pk,
                      competition=world["competition"].pk)
    whole = client.get(url, {"page_size": MAX_PAGE_SIZE}).json()
    assert whole["next"] is None and whole["previous"] is None
    assert len(whole["results"]) >= 2, whole  # (a page of history holds the events of page_size moves)
    forward, backward = _walk(client, f"{url}?page_size=1")
    assert forward == whole["results"] and backward == whole["results"]


def _list_urls(world, query: str) -> list[str]:
    """Return every list's URL (found in the schema) with ``query``."""
    paths = [path.replace("{game_id}", str(world["game"].pk)).replace("{username}", world["alice"].username)
             .replace("{webhook_id}", str(world["webhook"].pk)).replace("{group_id}", str(world["group"].pk))
             .replace("{competition_id}", str(world["competition"].pk))
             for path in _lists(_schema())]
    return [f"{path}{'&' if '?' in path else '?'}{query}" + ("&game=halali" if path == "/api/ratings/" else "")
            for path in paths]


# What breaks the schema: a cursor off its pattern (not base64, or empty), a page size that is not a whole number
# from 1 to the maximum.
def _prober(world) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {api_token(world['alice'], 'prober')}")
    return client


@pytest.mark.parametrize("query", [
    "cursor=%C3%A9", "cursor=x!", "cursor=%25%25", "cursor=a%20b", "cursor=AAAA===",
    # Issue 27: a shape DRF read as no cursor at all, answering the first page with 200.
    "cursor=",
    "page_size=0", "page_size=-1", f"page_size={MAX_PAGE_SIZE + 1}", "page_size=x", "page_size=%C2%B2",
])
def test_a_malformed_cursor_or_page_size_is_refused_with_400_on_every_list(world, query):
    client = _prober(world)
    for url in _list_urls(world, query):
        answer = client.get(url)
        assert answer.status_code == 400, (url, answer.status_code, answer.content[:200])
        field = query.split("=")[0]
        assert field in answer.json()["errors"], (url, answer.json())


# Cursors of the schema's shape that no list gave out (they do not decode, or hold other keys or positions): they
# name a page that is not there.
@pytest.mark.parametrize("query", [
    "cursor=x", f"cursor={base64.b64encode(b'p=not-a-number').decode()}",
    f"cursor={base64.b64encode(b'o=x').decode()}", f"cursor={base64.b64encode(b'r=x').decode()}",
    # Issue 27: shapes DRF read as no cursor at all, answering the first page with 200.
    "cursor=AAAA", f"cursor={base64.b64encode(b'x=1').decode()}",
    f"cursor={base64.b64encode(b'p=1&p=2').decode()}", f"cursor={base64.b64encode(b'o=1&zz=2').decode()}",
])
def test_a_cursor_the_list_did_not_give_out_is_a_404_naming_it_on_every_list(world, query):
    client = _prober(world)
    for url in _list_urls(world, query):
        answer = client.get(url)
        assert answer.status_code == 404, (url, answer.status_code, answer.content[:200])
        assert answer.json()["detail"] == BAD_CURSOR, (url, answer.json())


def _cursor(position: str, list_path: str | None = None) -> str:
    """Return a cursor as DRF writes one, at ``position`` (what a client could forge), signed for ``list_path``."""
    tokens = {"p": position}
    if list_path is not None:  # as only the server can sign it
        tokens[SIGNATURE] = signature_of(list_path, urlencode(tokens))
    return base64.b64encode(urlencode(tokens).encode()).decode()


def test_a_forged_position_the_column_cannot_hold_is_refused_before_any_sql(world):
    client = _prober(world)
    # Of the cursor's shape, so not a 400, but no page is there: 404 (even were it signed, as here).
    assert client.get(f"/api/games/?cursor={_cursor(str(10**30), '/api/games/')}").status_code == 404  # beyond a bigint
    assert client.get(f"/api/games/?cursor={_cursor(str(2**40), '/api/games/')}").status_code == 200  # no game yet
    assert client.get(f"/api/me/turns/?cursor={_cursor('2026-01-01 00:00:00', '/api/me/turns/')}").status_code == 404
    assert client.get(f"/api/me/turns/?cursor={_cursor('2026-01-01 00:00:00+00:00', '/api/me/turns/')}"
                      ).status_code == 200
    assert client.get(f"/api/absences/?cursor={_cursor('2026-02-30', '/api/absences/')}").status_code == 404
    assert client.get(f"/api/ratings/?game=halali&cursor={_cursor('nan', '/api/ratings/')}").status_code == 200


@pytest.mark.parametrize("position", [str(2**40), "2026-01-01 00:00:00+00:00", "1", "0"])
def test_a_forged_cursor_of_a_position_the_list_could_hold_is_a_404_on_every_list(world, position):
    """Only the cursors a list gave out page it (issue 42): they are signed for it, and one of another list fails."""
    client = _prober(world)
    for url in _list_urls(world, f"cursor={_cursor(position)}"):
        answer = client.get(url)
        assert answer.status_code == 404 and answer.json()["detail"] == BAD_CURSOR, (url, answer.status_code)
    given_out = client.get("/api/games/?page_size=1").json()["next"]
    assert given_out and client.get(given_out).status_code == 200
    elsewhere = given_out.replace("/api/games/", "/api/games/open/")  # a real cursor, of another list
    assert client.get(elsewhere).status_code == 404


def test_a_list_keeps_the_other_query_parameters_in_its_links(world):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {api_token(world['alice'], 'walker')}")
    first_id = client.get(f"/api/games/{world['game'].pk}/messages/").json()["results"][0]["id"]
    body = client.get(f"/api/games/{world['game'].pk}/messages/?after={first_id}&page_size=1").json()
    assert f"after={first_id}" in body["next"] and "page_size=1" in body["next"]
    assert [message["text"] for message in client.get(body["next"]).json()["results"]] == ["three"]
