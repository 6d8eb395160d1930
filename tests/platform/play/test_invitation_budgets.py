"""What the pages and endpoints of new tables and invitations cost in SQL statements.

Each is measured through its real HTTP path, in real transactions (as ``test_query_budgets``), and
with one invitation (or person played with) and with ten: the cost must not grow with them.
"""

from __future__ import annotations

import pytest
from django.test import Client

from tests.platform.play.costs import measured, token_client
from turnbased.kit.db import dispatch
from turnbased.play import services

pytestmark = pytest.mark.django_db(transaction=True)

# The lobby's own 8 (its order read from narrow rows, then only the shown page's games whole), the table
# talk's change version, the rematch offers, whether one follows anybody and whether one is in a group, invited
# to one or an admin of one (issue 44): one each; and the games waiting on one, under the site's limits (issue 44:
# fair entry), the competitions one plays in (issue 45), the seats one may take and whether one follows any game
# (issue 46). (A member of groups reads up to three more: tests/platform/groups; one who follows, two more: the
# followed games and their seats, tests/platform/following.)
LOBBY = 16
# The table's own 6, and the table talk beside it: its messages and the muted list, and the unread count
# for its host; the people offered for an invitation: blocks either way and friends, and what the table asks of
# its players (issue 44: fair entry); and the host's private notes on it (issue 46).
TABLE_PAGE = 13
# The session, the user, the groups whose tables one may make, and the games waiting on one (issue 44).
NEW_TABLE_PAGE = 4
# GET /api/invitations/ and /api/invitations/people/ in two; a table's list checks the caller's seat first.
INVITATION_LISTS = {"/api/invitations/": 2, "/api/invitations/people/": 2, "table": 4}
INVITE = 11  # issue 44: whether either of the two blocked the other, in one statement; the group the table is for


def limits_on(settings) -> None:
    """The site's limits on games waiting (the test runner turns them off): the pages then read where one stands."""
    settings.GAMES_WAITING_TO_CREATE, settings.GAMES_WAITING_TO_JOIN, settings.NEW_ACCOUNT_OPEN_GAMES = 3, 4, 3


def within(cost, budget: int, what: str) -> None:
    print(f"{what}: {cost.statements} statements (budget {budget})")
    assert cost.statements <= budget, f"{what}: {cost}, over {budget}:\n" + "\n".join(cost.sql)


def same(few, many, what: str) -> None:
    assert many.statements == few.statements, f"{what}: {few} then {many}:\n" + "\n".join(many.sql)


@pytest.fixture(autouse=True)
def queued(monkeypatch) -> list:
    """Record the deliveries and bot turns a request queues instead of running them (the worker pays)."""
    calls = []
    monkeypatch.setattr(dispatch, "queue", lambda task, args, countdown=0: calls.append(args[1]))
    return calls


def _web(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _invite_to_new_tables(count: int, hosts: list, guest) -> None:
    for number in range(count):
        host = hosts[number % len(hosts)]
        table = services.create_game(creator=host, engine_slug="love-letter", players=4)
        services.invitation_create(game_id=table.pk, user=host, username=guest.username)


def _play_with(count: int, user, make_user) -> None:
    """Give ``user`` ``count`` more people they played with."""
    for _ in range(count):
        other = make_user()
        game = services.create_game(creator=user, engine_slug="love-letter", players=2)
        services.join_game(game_id=game.pk, user=other)


def test_the_lobby_costs_the_same_with_one_invitation_and_with_ten(settings, alice, bob, carol):
    settings.MAX_OPEN_TABLES_PER_ACCOUNT = 100
    _invite_to_new_tables(1, [bob, carol], alice)
    web = _web(alice)
    limits_on(settings)
    few, page = measured(lambda: web.get("/"))
    assert page.content.decode().count("Take the seat") == 1 and "1 game waits on you" in page.content.decode()
    settings.GAMES_WAITING_TO_CREATE = settings.GAMES_WAITING_TO_JOIN = settings.NEW_ACCOUNT_OPEN_GAMES = None
    _invite_to_new_tables(9, [bob, carol], alice)
    limits_on(settings)
    many, page = measured(lambda: web.get("/"))
    assert page.content.decode().count("Take the seat") == 10 and "10 games wait on you" in page.content.decode()
    same(few, many, "lobby with invitations")
    within(many, LOBBY, "lobby with ten invitations")


def test_an_open_tables_page_costs_the_same_for_few_and_many_invitations_and_people(settings, alice, make_user):
    settings.MAX_OPEN_TABLES_PER_ACCOUNT = 100
    table = services.create_game(creator=alice, engine_slug="love-letter", players=4)
    _play_with(1, alice, make_user)
    services.invitation_create(game_id=table.pk, user=alice, username=make_user().username)
    web = _web(alice)
    few, page = measured(lambda: web.get(f"/games/{table.pk}/"))
    assert page.content.decode().count("not answered yet") == 1
    _play_with(9, alice, make_user)
    for _ in range(9):
        services.invitation_create(game_id=table.pk, user=alice, username=make_user().username)
    many, page = measured(lambda: web.get(f"/games/{table.pk}/"))
    text = page.content.decode()
    assert text.count("not answered yet") == 10 and text.count("<option value=\"player") == 10
    same(few, many, "open table's page for its host")
    within(many, TABLE_PAGE, "open table's page with ten invitations and ten people played with")


def test_the_invited_persons_view_of_the_table_stays_within_budget(settings, alice, bob):
    table = services.create_game(creator=alice, engine_slug="love-letter", players=2, visibility="private")
    services.invitation_create(game_id=table.pk, user=alice, username="bob")
    web = _web(bob)
    limits_on(settings)  # the games waiting on bob are read beside the seat he may take (issue 44)
    cost, page = measured(lambda: web.get(f"/games/{table.pk}/"))
    assert "alice invited you to this table" in page.content.decode() and "You can join 3 more" in page.content.decode()
    within(cost, TABLE_PAGE, "a private table's page for the person invited to it")


@pytest.mark.parametrize("query", ["?game=love-letter", "?game=savernake-forest&players=5&seat_0=basic&clock=bank"])
def test_the_new_table_page_stays_within_budget(settings, alice, query):
    limits_on(settings)
    web = _web(alice)
    cost, page = measured(lambda: web.get(f"/games/new/{query}"))
    assert page.status_code == 200 and "You can join 3 more games" in page.content.decode()  # a new account's cap
    within(cost, NEW_TABLE_PAGE, f"new table page {query}")


def test_the_invitation_lists_cost_the_same_for_one_and_for_ten(settings, alice, bob, carol, make_user):
    settings.MAX_OPEN_TABLES_PER_ACCOUNT = 100
    table = services.create_game(creator=alice, engine_slug="love-letter", players=4)
    paths = {"/api/invitations/": bob, f"/api/games/{table.pk}/invitations/": alice, "/api/invitations/people/": alice}

    def costs() -> dict:
        found = {}
        for path, user in paths.items():
            api = token_client(user)
            api.get("/api/invitations/")  # the new token's last_used_at is written once, not in the measure
            found[path], answer = measured(lambda: api.get(path))
            assert answer.status_code == 200
            found[path + " length"] = len(answer.json()["results"])
        return found

    _invite_to_new_tables(1, [carol], bob)
    services.invitation_create(game_id=table.pk, user=alice, username="bob")
    _play_with(1, alice, make_user)
    few = costs()
    _invite_to_new_tables(9, [carol], bob)
    for _ in range(9):
        services.invitation_create(game_id=table.pk, user=alice, username=make_user().username)
    _play_with(9, alice, make_user)
    many = costs()
    for path in paths:
        assert (few[path + " length"], many[path + " length"]) == (2 if path == "/api/invitations/" else 1,
                                                                    11 if path == "/api/invitations/" else 10)
        same(few[path], many[path], f"GET {path}")
        within(many[path], INVITATION_LISTS.get(path, INVITATION_LISTS["table"]), f"GET {path} with ten")


def test_an_invitation_stays_within_budget(alice, bob, queued):
    table = services.create_game(creator=alice, engine_slug="love-letter", players=3)
    api = token_client(alice)
    api.get("/api/invitations/")
    cost, answer = measured(lambda: api.post(f"/api/games/{table.pk}/invitations/", {"username": "bob"},
                                             format="json"))
    assert answer.status_code == 201 and queued  # the email is queued for the worker
    within(cost, INVITE, "POST invitation")


def test_a_signed_in_page_finds_the_time_zone_in_the_cache(alice):
    web = _web(alice)  # logging in reads the zone once, into the cache
    cost, page = measured(lambda: web.get("/"))
    assert page.status_code == 200
    # A profile joined to a list (a bot account's badge) is no read of the zone: only a query of the profiles is.
    assert not [sql for sql in cost.sql if 'FROM "accounts_profile"' in sql], "the zone was read from the database"
