"""A streaming replica under the real service, and the failover drill (issue 29).

One primary and its synchronous streaming replica for the module (``turnbased/local/replica.py``: PostgreSQL 16
from the ``pgserver`` wheel, the primary a fresh ``initdb`` holding the run's schema, the replica its
``pg_basebackup -R``), and gunicorn with the production settings reading both (``DATABASE_REPLICA_URL``):

- with the replica's replay paused (lag, made to order), another player's history still lacks a move while
  the player who made it sees it at once, through the API and on the history page, and the next player's
  legal moves and move go to the primary;
- the same behind PgBouncer in transaction pooling (a pool for the primary and one for the replica), when
  Debian's pgbouncer is installed (``.ci/run`` installs it);
- with the replica stopped, every lag-tolerant page and endpoint answers from the primary, and the web
  process goes back to the replica once it is up;
- the drill: clients play moves they are told were played; the replica loses its link to the primary (every
  commit then waits for it, the standby being synchronous) and the primary is SIGKILLed with a commit waiting;
  the replica is promoted, the service started again on it, and every acknowledged move is there,
  ``verify_games`` is clean, and the games go on. The tests run in this order: the last one ends the primary.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import secrets
import subprocess
import threading
from concurrent.futures import ThreadPoolExecutor

import psycopg2
import pytest
from django.db import connection

from tests.faults.stack import manage, seed
from tests.serving.pgbouncer import running_pgbouncer
from tests.serving.served import database_url_for, served_web
from tests.waiting import wait_for
from turnbased.local.replica import DATABASE, POSTGRES_BIN, primary_and_replica
from turnbased.play.models import Move

# The run's test database is where the new primary's schema comes from: the mark has it made (and each test
# holds only an idle transaction on it).
pytestmark = [pytest.mark.faults, pytest.mark.django_db]

GAMES = 6  # one for the lag, one behind PgBouncer, four for the drill
HANDMAID = {"card": "handmaid"}
RAISED_RATES = {"RATE_LIMIT_API": "100000/min", "RATE_LIMIT_MOVES": "100000/min"}
REPLICA_APPLICATION_NAME = "served-web-replica"


def call(port: int, method: str, path: str, *, token: str | None = None, cookie: str | None = None,
         body: dict | None = None, timeout: float = 30) -> tuple[int, bytes]:
    """Send one request on a connection of its own (as nginx does); return the status and the body."""
    headers = {"Authorization": f"Token {token}"} if token else {}
    if cookie:
        headers["Cookie"] = f"sessionid={cookie}"
    payload = json.dumps(body).encode() if body is not None else None
    if payload is not None:
        headers["Content-Type"] = "application/json"
    client = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        client.request(method, path, body=payload, headers=headers)
        response = client.getresponse()
        return response.status, response.read()
    finally:
        client.close()


def answer(port: int, method: str, path: str, **kwargs) -> dict:
    status, content = call(port, method, path, **kwargs)
    assert status in (200, 201), f"{method} {path}: {status} {content[:300]!r}"
    return json.loads(content)


def _load_the_runs_schema(primary) -> None:
    """The run's tables, migrations record included, into the new primary (quicker than migrating it)."""
    dump = subprocess.run([str(POSTGRES_BIN / "pg_dump"), "--format=custom",
                           f"--dbname={database_url_for(connection.settings_dict['NAME'])}"],
                          check=True, capture_output=True, timeout=120).stdout
    subprocess.run([str(POSTGRES_BIN / "pg_restore"), "--no-owner", f"--dbname={primary.url()}"], input=dump,
                   check=True, capture_output=True, timeout=120)


@pytest.fixture(scope="module")
def cluster(django_db_setup):
    with primary_and_replica(synchronous=True, load=_load_the_runs_schema) as pair:
        yield pair


@pytest.fixture(scope="module")
def stack(cluster, tmp_path_factory):
    """Yield gunicorn reading the primary, and the replica where a view tolerates lag; the games (made while gunicorn
    starts); and the secret key of both. The web process tries a replica that failed again after a second."""
    secret_key = secrets.token_urlsafe(64)  # the seeded sessions and the web process must share it
    pool = ThreadPoolExecutor(1)
    seeding = pool.submit(seed, cluster.primary.url(), "scripted_tables", GAMES,
                          environment={**os.environ, "DJANGO_SECRET_KEY": secret_key})
    try:
        with served_web(tmp_path_factory.mktemp("web"), cluster.primary.url(), DJANGO_SECRET_KEY=secret_key,
                        DATABASE_REPLICA_URL=cluster.replica.url(application_name=REPLICA_APPLICATION_NAME),
                        REPLICA_RETRY_SECONDS="1", WEB_CONCURRENCY="2", **RAISED_RATES) as web:
            yield web, seeding.result(timeout=180), secret_key
    finally:
        pool.shutdown()


@pytest.fixture
def running(cluster, stack):
    """Check before and after each test that no server died that nothing was meant to stop."""
    web = stack[0]
    cluster.primary.check_running()
    cluster.replica.check_running()
    web.process.check_running()
    yield
    web.process.check_running()


def _history_seq(port: int, game: int, **who) -> int:
    return answer(port, "GET", f"/api/games/{game}/history/", **who)["seq"]


def _page_shows(port: int, game: int, seq: int, cookie: str) -> bool:
    status, content = call(port, "GET", f"/games/{game}/history/", cookie=cookie)
    assert status == 200, status
    return f'<span class="seq">{seq}</span>'.encode() in content


def _lag_and_read_your_writes(cluster, port: int, table: dict) -> None:
    """Pause the replica's replay; one player moves; check who reads the move where; resume."""
    game, (mover, other), (mover_session, other_session) = table["game"], table["tokens"], table["sessions"]
    cluster.wait_replayed()
    cluster.replica.sql("SELECT pg_wal_replay_pause()")
    try:
        moved = answer(port, "POST", f"/api/games/{game}/moves/", token=mover,
                       body={"move": HANDMAID, "expected_seq": 0})
        assert moved["seq"] == 1
        # The replica has the move (the commit waited for it to be written there) but has not replayed it.
        assert _history_seq(port, game, token=other) == 0
        assert not _page_shows(port, game, 1, other_session)
        assert _history_seq(port, game) == 0  # nor has anyone else
        # The mover reads it at once, through the API and on the history page.
        assert _history_seq(port, game, token=mover) == 1
        assert _page_shows(port, game, 1, mover_session)
        # What a move reads is the primary's: the next player sees their turn and plays it.
        listed = answer(port, "GET", f"/api/games/{game}/legal-moves/", token=other)
        assert listed["seq"] == 1 and listed["moves"]
        again = answer(port, "POST", f"/api/games/{game}/moves/", token=other,
                       body={"move": listed["moves"][0]["move"], "expected_seq": 1})
        assert again["seq"] == 2
    finally:
        cluster.replica.sql("SELECT pg_wal_replay_resume()")
    wait_for(lambda: _history_seq(port, game) == 2, "the replica to replay the moves", timeout=30)


def test_a_lagging_replica_serves_others_while_the_mover_reads_their_move_at_once(cluster, stack, running):
    web, tables, _ = stack
    _lag_and_read_your_writes(cluster, web.port, tables[0])


def test_behind_pgbouncer_in_transaction_pooling_too(cluster, stack, running, tmp_path):
    _, tables, secret_key = stack
    databases = {name: f"host={server.sockets} dbname={DATABASE}"
                 for name, server in (("primary", cluster.primary), ("replica", cluster.replica))}
    with running_pgbouncer(databases, pool=2, socket_folder=cluster.primary.sockets) as port:
        through = f"postgres://postgres@127.0.0.1:{port}"
        # As deploy/compose.pgbouncer.yaml sets them: nothing kept on a server connection between transactions.
        with served_web(tmp_path, f"{through}/primary", DATABASE_REPLICA_URL=f"{through}/replica",
                        DJANGO_SECRET_KEY=secret_key, DATABASE_DISABLE_SERVER_SIDE_CURSORS="on",
                        DATABASE_PREPARED_STATEMENTS="off",
                        WEB_CONCURRENCY="1", WEB_THREADS="4", **RAISED_RATES) as pooled:
            _lag_and_read_your_writes(cluster, pooled.port, tables[1])
            pooled.process.check_running()


def test_a_statement_that_finds_no_row_reads_none(cluster):
    # wait_streaming polls pg_stat_replication from the moment the replica starts: until its walreceiver
    # connects there is no row, which must read "not yet", not fail (it did, once, on a loaded machine).
    assert cluster.primary.sql("SELECT sync_state FROM pg_stat_replication WHERE application_name = 'nobody'") is None
    assert cluster.primary.sql("SELECT 1") == 1


def test_with_the_replica_down_every_lag_tolerant_read_answers_from_the_primary(cluster, stack, running):
    web, tables, _ = stack
    table = tables[0]
    game, name, session = table["game"], table["usernames"][0], table["sessions"][1]
    seq = answer(web.port, "GET", f"/api/games/{game}/")["seq"]
    cluster.wait_replayed()
    reads = [f"/api/games/{game}/history/", f"/games/{game}/history/", f"/games/{game}/replay/?seq={seq}",
             f"/api/games/{game}/positions/{seq}/", f"/api/games/{game}/record/", "/ratings/",
             "/ratings/love-letter/", f"/players/{name}/", f"/players/{name}/games/", "/api/ratings/?game=love-letter",
             f"/api/players/{name}/", f"/api/players/{name}/games/"]
    for path in reads:  # warm: the web process holds replica connections, which the stop then kills
        assert call(web.port, "GET", path)[0] == 200, path
    # No writes while it is down: with one synchronous standby, a commit waits for it (docs/operating.md).
    cluster.replica.stop()
    try:
        for _ in range(2):  # a kept connection that died, then one refused
            for path in reads:
                status, content = call(web.port, "GET", path, cookie=session)
                assert status == 200, (path, status, content[:300])
        assert _history_seq(web.port, game) == seq
        assert _page_shows(web.port, game, seq, session)
    finally:
        cluster.replica.start()
    cluster.wait_streaming()

    def replica_serves_again() -> bool:
        call(web.port, "GET", "/ratings/love-letter/")
        return cluster.replica.sql("SELECT count(*) FROM pg_stat_activity WHERE application_name = "
                                   f"'{REPLICA_APPLICATION_NAME}'") > 0

    wait_for(replica_serves_again, "the web process to read the replica again", timeout=30, every=0.3)


class Players:
    """Two players' clients playing one game through the API, each move under a key of its own, until stopped.

    A move is acknowledged when its answer says it was played. A 503 (the database went away) ends the game's
    play, as does the stop; anything else unexpected is kept as a failure.
    """

    def __init__(self, port: int, table: dict, number: int):
        self.port, self.game, self.tokens = port, table["game"], table["tokens"]
        self.rng = random.Random(number)
        self.acknowledged: list[str] = []
        self.failures: list[str] = []

    def play(self, stop: threading.Event) -> None:
        path = f"/api/games/{self.game}"
        try:
            while not stop.is_set():
                status, content = call(self.port, "GET", f"{path}/", token=self.tokens[0])
                if status == 503:
                    return
                game = json.loads(content)
                if game.get("status") != "active":
                    return
                seat = game["to_move"][0]
                status, content = call(self.port, "GET", f"{path}/legal-moves/", token=self.tokens[seat])
                if status == 503:
                    return
                listed = json.loads(content)
                key = f"{self.game}-{listed['seq']}-{secrets.token_hex(4)}"
                status, content = call(self.port, "POST", f"{path}/moves/", token=self.tokens[seat], body={
                    "move": self.rng.choice(listed["moves"])["move"], "expected_seq": listed["seq"],
                    "idempotency_key": key})
                if status in (200, 201):
                    self.acknowledged.append(key)
                elif status == 503:
                    return
                else:
                    self.failures.append(f"a move answered {status}: {content[:300]!r}")
                    return
        except Exception as error:  # a thread's error must fail the test, not vanish
            self.failures.append(repr(error))


def _played(players: list[Players], cluster) -> None:
    """Let the clients play until each has a move acknowledged; then the bad moment, and the primary's death."""
    stop = threading.Event()
    threads = [threading.Thread(target=table.play, args=(stop,)) for table in players]
    for thread in threads:
        thread.start()
    wait_for(lambda: all(table.acknowledged or table.failures for table in players),
             "a move acknowledged in every game", timeout=60)
    # The bad moment: the standby stops receiving (a lost link), so every commit from now on waits for it...
    cluster.cut_the_link()
    wait_for(lambda: cluster.primary.sql("SELECT count(*) FROM pg_stat_activity WHERE wait_event = 'SyncRep'"),
             "a move's commit to wait for the standby", timeout=30)
    # ...and the primary's machine dies with those commits on its own disk alone, their clients still waiting.
    cluster.primary.kill()
    stop.set()
    for thread in threads:
        thread.join(60)
    assert not any(thread.is_alive() for thread in threads), "a client still waits a minute after the primary died"


def _logged_keys(server) -> dict[int, list[str]]:
    """Return each game's logged idempotency keys, in seq order, read straight from ``server``."""
    reader = psycopg2.connect(server.url(), connect_timeout=10)
    try:
        with reader.cursor() as cursor:
            cursor.execute(f'SELECT game_id, idempotency_key FROM "{Move._meta.db_table}" ORDER BY game_id, seq')
            keys: dict[int, list[str]] = {}
            for game, key in cursor.fetchall():
                keys.setdefault(game, []).append(key)
            return keys
    finally:
        reader.close()


def test_failover_to_the_synchronous_replica_keeps_every_acknowledged_move(cluster, stack, running, tmp_path):
    web, tables, _ = stack
    assert cluster.primary.sql("SELECT sync_state FROM pg_stat_replication") == "sync"
    players = [Players(web.port, table, number) for number, table in enumerate(tables[2:])]
    _played(players, cluster)
    failures = [failure for table in players for failure in table.failures]
    assert not failures, f"{failures[:5]}\n{web.process.tail()}"

    # Failover: promote the replica, check it, and start the service again on it (its DATABASE_URL).
    cluster.replica.promote()
    assert cluster.replica.sql("SELECT pg_is_in_recovery()") is False
    logged = _logged_keys(cluster.replica)
    for table in players:
        # Every move a client was told was played is there, in order; a move whose answer was lost may be too.
        assert logged.get(table.game, [])[:len(table.acknowledged)] == table.acknowledged, table.game
    with ThreadPoolExecutor(1) as pool:
        verifying = pool.submit(manage, cluster.replica.url(), "verify_games")
        with served_web(tmp_path, cluster.replica.url(), WEB_CONCURRENCY="1", **RAISED_RATES) as after:
            for table in players:  # the games go on
                game = answer(after.port, "GET", f"/api/games/{table.game}/", token=table.tokens[0])
                if game["status"] != "active":
                    continue
                seat = game["to_move"][0]
                listed = answer(after.port, "GET", f"/api/games/{table.game}/legal-moves/", token=table.tokens[seat])
                answer(after.port, "POST", f"/api/games/{table.game}/moves/", token=table.tokens[seat],
                       body={"move": listed["moves"][0]["move"], "expected_seq": listed["seq"]})
        verified = verifying.result(timeout=180)
    assert verified.returncode == 0, verified.stderr
    assert f"checked {len(tables)} game(s), 0 differ" in verified.stdout
