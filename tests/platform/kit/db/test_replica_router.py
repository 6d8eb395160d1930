"""The replica's router (turnbased/kit/db/replica.py), in one process, with the test database standing in for the replica.

A second alias on the same database is enough to see which connection each query takes; what only a
real standby shows (lag, a paused replay, a failover) is in tests/faults/test_failover.py.
"""

from __future__ import annotations

import runpy
from types import SimpleNamespace

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.db import DEFAULT_DB_ALIAS, connections, router, transaction
from django.test import Client, RequestFactory
from django.test.utils import CaptureQueriesContext
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from rest_framework.test import APIClient

from tests.platform.conftest import api_token
from turnbased.kit.db import replica
from turnbased.local.services import BASE_DIR, free_port
from turnbased.play import selectors
from turnbased.play.models import Game

HANDMAID = {"card": "handmaid"}
# Committed rows (the stand-in is a connection of its own), and no transaction opened on the replica's alias.
BOTH_DATABASES = pytest.mark.django_db(transaction=True, databases=[DEFAULT_DB_ALIAS, replica.REPLICA])
# Every route whose view may read the replica (issue 29: replays, records, leaderboards, profiles, finished games,
# history), and no other: a new one is a decision, made here.
LAG_TOLERANT = {
    "game-history", "game-replay", "game-verify", "ratings", "leaderboard", "player", "player-games",
    "api-history", "api-position", "api-game-record", "api-game-verify", "api-ratings", "api-player",
    "api-player-games",
}


def _routes(patterns, prefix: str = ""):
    for entry in patterns:
        if isinstance(entry, URLResolver):
            yield from _routes(entry.url_patterns, prefix + str(entry.pattern))
        elif isinstance(entry, URLPattern):
            yield entry


def _reading_methods(callback) -> list[str]:
    """Return the HTTP methods of a route's view that read from the replica."""
    if getattr(callback, "reads_from_replica", False):
        return ["get"]
    cls = getattr(callback, "cls", None) or getattr(callback, "view_class", None)
    return [name for name in ("get", "post", "put", "patch", "delete")
            if getattr(getattr(cls, name, None), "reads_from_replica", False)]


def test_exactly_the_lag_tolerant_views_read_the_replica_and_only_with_get():
    reading = {pattern.name: _reading_methods(pattern.callback) for pattern in _routes(get_resolver().url_patterns)}
    chosen = {name for name, methods in reading.items() if methods}
    assert chosen == LAG_TOLERANT
    assert all(reading[name] == ["get"] for name in chosen)


def _stand_in(**overrides) -> dict:
    primary = connections[DEFAULT_DB_ALIAS].settings_dict
    return {**primary, "TEST": {**primary.get("TEST", {}), "MIRROR": DEFAULT_DB_ALIAS},
            "OPTIONS": {**primary.get("OPTIONS", {}), "connect_timeout": 2}, **overrides}


def _point_the_replica_at(configuration: dict) -> None:
    if replica.REPLICA in connections.settings:
        connections[replica.REPLICA].close()
        del connections[replica.REPLICA]
    connections.settings[replica.REPLICA] = configuration


@pytest.fixture(scope="module", autouse=True)
def _replica_alias(django_db_setup):
    """The ``replica`` alias, as DATABASE_REPLICA_URL defines it, on the test database, for this module's tests.

    Defined before each test's database access is set up, so that a test may name it among its databases.
    """
    _point_the_replica_at(_stand_in())
    yield
    connections[replica.REPLICA].close()
    del connections[replica.REPLICA]
    del connections.settings[replica.REPLICA]


@pytest.fixture
def replica_alias(settings):
    """Route as DATABASE_REPLICA_URL does (the router, the middleware); yield a function that moves the replica."""
    settings.DATABASE_ROUTERS = ["turnbased.kit.db.replica.ReplicaRouter"]
    middleware = list(settings.MIDDLEWARE)
    middleware.insert(middleware.index("django.contrib.auth.middleware.AuthenticationMiddleware") + 1,
                      "turnbased.kit.db.replica.ReadYourWritesMiddleware")
    settings.MIDDLEWARE = middleware
    settings.DATABASE_PREPARED_STATEMENTS = False  # each statement sent whole: the SQL captured names its tables
    moved = []
    yield lambda configuration: moved.append(_point_the_replica_at(configuration))
    if moved:
        _point_the_replica_at(_stand_in())
    replica._resting_until = 0.0


def _inside_a_lag_tolerant_view(user, look):
    """Return what ``look()`` returns when called inside a view that opted in, read by ``user``."""

    @replica.reads_from_replica
    def view(request):
        return look()

    request = RequestFactory().get("/")
    request.user = user
    return view(request)


def test_reads_go_to_the_replica_only_inside_an_opted_in_view_and_never_after_a_write(
        replica_alias):
    anyone = AnonymousUser()
    assert router.db_for_read(Game) == DEFAULT_DB_ALIAS
    assert _inside_a_lag_tolerant_view(anyone, lambda: router.db_for_read(Game)) == replica.REPLICA
    assert _inside_a_lag_tolerant_view(anyone, lambda: Game.objects.filter(pk=1).db) == replica.REPLICA
    assert _inside_a_lag_tolerant_view(anyone, lambda: Game.objects.select_for_update().db) == DEFAULT_DB_ALIAS

    def after_a_write():
        written = router.db_for_write(Game)
        return written, router.db_for_read(Game)

    assert _inside_a_lag_tolerant_view(anyone, after_a_write) == (DEFAULT_DB_ALIAS, DEFAULT_DB_ALIAS)
    assert not router.allow_migrate(replica.REPLICA, "play")
    assert router.allow_migrate(DEFAULT_DB_ALIAS, "play")
    # A view that opted in reads the primary for a request that changes something.
    posted = RequestFactory().post("/")
    posted.user = anyone
    assert replica.reads_from_replica(lambda request: router.db_for_read(Game))(posted) == DEFAULT_DB_ALIAS
    # A reader with no change kept reads the replica; one whose change's position could not be read, the primary.
    reader = SimpleNamespace(pk=10**9, is_authenticated=True)
    assert _inside_a_lag_tolerant_view(reader, lambda: router.db_for_read(Game)) == replica.REPLICA
    cache.set(f"replica:last-change:{reader.pk}", "", 60)
    assert _inside_a_lag_tolerant_view(reader, lambda: router.db_for_read(Game)) == DEFAULT_DB_ALIAS


@BOTH_DATABASES
def test_a_query_compiled_once_per_thread_still_follows_the_router_at_each_call_and_a_transaction_reads_the_primary(
        replica_alias):
    """The game's prepared read (``viewer_of``'s) is compiled once per thread: once per alias, or it would keep the
    first alias it met and read the replica where a move needs the primary."""

    def ran_on(alias) -> bool:
        with CaptureQueriesContext(connections[alias]) as captured:
            selectors._GAME_WITH_CLOCK(game_id=-1)
        return any("play_game" in query["sql"] for query in captured.captured_queries)

    def in_a_transaction():
        with transaction.atomic():
            return router.db_for_read(Game), ran_on(DEFAULT_DB_ALIAS)

    assert _inside_a_lag_tolerant_view(AnonymousUser(), lambda: ran_on(replica.REPLICA))
    assert ran_on(DEFAULT_DB_ALIAS)
    assert not _inside_a_lag_tolerant_view(AnonymousUser(), lambda: ran_on(DEFAULT_DB_ALIAS))
    assert _inside_a_lag_tolerant_view(AnonymousUser(), in_a_transaction) == (DEFAULT_DB_ALIAS, True)


@BOTH_DATABASES
def test_the_mover_reads_their_history_from_the_primary_and_everyone_else_from_the_replica(
        replica_alias, started_game, alice, bob):
    clients = {}
    for user in (alice, bob):
        clients[user.username] = APIClient()
        clients[user.username].credentials(HTTP_AUTHORIZATION=f"Token {api_token(user)}")
    moves = reverse("api-moves", args=[started_game.pk])
    refused = clients["bob"].post(moves, {"move": HANDMAID, "expected_seq": 0}, format="json")
    assert refused.status_code == 409  # not bob's turn: a refusal changes nothing, and leaves no position
    assert cache.get(f"replica:last-change:{bob.pk}") is None
    assert clients["alice"].post(moves, {"move": HANDMAID, "expected_seq": 0}, format="json").status_code == 201
    assert "/" in cache.get(f"replica:last-change:{alice.pk}")  # a WAL position, 0/1A2B3C8

    history = reverse("api-history", args=[started_game.pk])
    for name, reads_the_game_on in (("alice", DEFAULT_DB_ALIAS), ("bob", replica.REPLICA)):
        with CaptureQueriesContext(connections[DEFAULT_DB_ALIAS]) as primary, \
                CaptureQueriesContext(connections[replica.REPLICA]) as standby:
            answer = clients[name].get(history)
        assert answer.status_code == 200 and answer.json()["seq"] == 1, name
        on = {alias: [query["sql"] for query in captured.captured_queries if "play_game" in query["sql"]]
              for alias, captured in ((DEFAULT_DB_ALIAS, primary), (replica.REPLICA, standby))}
        other = replica.REPLICA if reads_the_game_on == DEFAULT_DB_ALIAS else DEFAULT_DB_ALIAS
        # alice's change is kept; the stand-in is no standby (pg_last_wal_replay_lsn() is NULL), so never caught up.
        assert on[reads_the_game_on] and not on[other], (name, on)


@BOTH_DATABASES
def test_a_replica_that_does_not_answer_leaves_every_lag_tolerant_read_on_the_primary(replica_alias, started_game,
                                                                                      alice):
    from turnbased.play import services

    services.submit_move(game_id=started_game.pk, user=alice, expected_seq=0, move=HANDMAID)
    replica_alias(_stand_in(HOST="127.0.0.1", PORT=str(free_port())))  # nothing listens there
    browser = Client()
    for url in (reverse("api-history", args=[started_game.pk]), reverse("game-history", args=[started_game.pk]),
                reverse("leaderboard", args=["love-letter"]), reverse("player", args=["alice"]),
                reverse("api-position", args=[started_game.pk, 1])):
        answer = browser.get(url)
        assert answer.status_code == 200, (url, answer.status_code)
    assert b'<span class="seq">1</span>' in browser.get(reverse("game-history", args=[started_game.pk])).content
    # The failure rests the replica in this process: the next reads do not knock on it first.
    assert replica._resting_until > 0
    assert _inside_a_lag_tolerant_view(AnonymousUser(), lambda: router.db_for_read(Game)) == DEFAULT_DB_ALIAS
    replica._resting_until = 0.0
    assert _inside_a_lag_tolerant_view(AnonymousUser(), lambda: router.db_for_read(Game)) == replica.REPLICA


def test_the_replica_setting_adds_the_alias_the_router_and_read_your_writes_unless_turned_off(monkeypatch):
    without = runpy.run_path(str(BASE_DIR / "turnbased" / "settings.py"))
    assert "replica" not in without["DATABASES"] and not without.get("DATABASE_ROUTERS")
    assert "turnbased.kit.db.replica.ReadYourWritesMiddleware" not in without["MIDDLEWARE"]
    monkeypatch.setenv("DATABASE_REPLICA_URL", "postgres://reader@standby.internal:5433/turnbased")
    configured = runpy.run_path(str(BASE_DIR / "turnbased" / "settings.py"))
    replica_database, primary = configured["DATABASES"]["replica"], configured["DATABASES"]["default"]
    assert (replica_database["HOST"], replica_database["PORT"], replica_database["USER"]) == ("standby.internal", 5433,
                                                                                               "reader")
    assert replica_database["TEST"] == {"MIRROR": "default"}
    assert replica_database["CONN_MAX_AGE"] == primary["CONN_MAX_AGE"]
    assert replica_database["OPTIONS"]["connect_timeout"] == 3
    assert configured["DATABASE_ROUTERS"] == ["turnbased.kit.db.replica.ReplicaRouter"]
    middleware = configured["MIDDLEWARE"]
    assert middleware.index("turnbased.kit.db.replica.ReadYourWritesMiddleware") == middleware.index(
        "django.contrib.auth.middleware.AuthenticationMiddleware") + 1
    assert primary == without["DATABASES"]["default"]  # the primary stays as it was
    monkeypatch.setenv("READ_YOUR_WRITES_SECONDS", "0")
    unfollowed = runpy.run_path(str(BASE_DIR / "turnbased" / "settings.py"))
    assert "turnbased.kit.db.replica.ReadYourWritesMiddleware" not in unfollowed["MIDDLEWARE"]
    assert unfollowed["DATABASE_ROUTERS"] == ["turnbased.kit.db.replica.ReplicaRouter"]
