"""Bot tables move again within seconds of each fault that loses their turn's task (issue 42: they waited 67 to
118 s for the clock sweep's stalled turns).

Real processes, as production runs them (``WORK_DISPATCH=notify``): the Celery worker of the ``bots`` queue (where
bot turns run: "the worker" below, one pool process as in the Procfile), the default queue's worker (the sweeps), the
dispatcher, beat, and a Redis broker of the test's own; tables of bots only, each moving a second after the
last (``BOT_MOVE_DELAY_SECONDS``). The clock sweep keeps its production pace (a minute; a turn stalls after
``BOT_STALL_SECONDS``, a minute): a table that waited for it would take a minute at least. Each test breaks one
process at the worst moment, mends it as its supervisor or its operator would, and measures the seconds from
the mending until every table still in play has moved again, held to ``RESUMED_WITHIN``:

- the worker's pool process SIGKILLed while it plays a bot turn (held there by the games' row locks);
- the whole worker SIGKILLed with bot turns in hand (received, waiting out their pause), then started again;
- the dispatcher SIGKILLed, the tables left stalled (the moves played meanwhile NOTIFY no one), then started;
- the broker SIGKILLed with turns queued and in the worker's hand, then started again, empty;
- PostgreSQL (a private server) stopped under the bots' moves and started again a few seconds later.

Nothing is played twice: a turn queued again plays only the position it was queued for, and every game's log
replays to its snapshot (``verify_games``) once the processes are stopped.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import psycopg2
import pytest
from django.db import connection

from tests.faults.stack import (
    Broker, celery, hold_a_bot_turn_in_the_workers_hand, manage, private_postgres, seed, stop_all, wait_for,
    worker_environment,
)
from tests.serving.served import database_url_for
from tests.topology.stack import Process
from turnbased.local.services import BASE_DIR

pytestmark = [pytest.mark.faults, pytest.mark.django_db(transaction=True)]

TABLES = 3
RESUMED_WITHIN = 15.0  # seconds; the clock sweep would take a minute at least
SETTINGS = {"BOT_MOVE_DELAY_SECONDS": "1", "WORK_DISPATCH": "notify"}


class BotTables:
    """The tables of bots of one test, read straight from their database (which may be restarting)."""

    def __init__(self, database_url: str, games: list[int]):
        self.database_url, self.games = database_url, games

    def _rows(self, sql: str) -> list[tuple]:
        with psycopg2.connect(self.database_url) as link, link.cursor() as cursor:
            cursor.execute(sql, [self.games])
            rows = cursor.fetchall()
        link.close()
        return rows

    def moves(self) -> dict[int, int]:
        """Return each game still in play with the number of moves in its log."""
        return dict(self._rows("SELECT g.id, count(m.id) FROM play_game AS g LEFT JOIN play_move AS m "
                               "ON m.game_id = g.id WHERE g.id = ANY(%s) AND g.status = 'active' GROUP BY g.id"))

    def moved_since(self, before: dict[int, int]) -> bool:
        """Tell whether every table in play at ``before`` has moved since (or ended)."""
        now = self.moves()
        return all(now.get(game, count + 1) > count for game, count in before.items())


class Stack:
    """The bots worker, the default queue's worker, the dispatcher and beat on a broker of the test's own, against
    ``database_url``."""

    def __init__(self, folder, database_url: str):
        self.folder, self.database_url = folder, database_url
        self.broker = Broker(folder / "redis")
        # The worker these tests break: the bots queue's, as the Procfile runs it.
        self.worker = celery("bots", ["worker", "-Q", "bots", "--concurrency=1", "--hostname=bots@%h",
                                      "--loglevel=info"], folder)
        # The default queue's: the sweeps beat sends (the clock sweep's stalled bot turns too, at its production pace).
        self.sweeper = celery("worker", ["worker", "-Q", "celery", "--concurrency=1", "--loglevel=info"], folder)
        self.beat = celery("beat", ["beat", "--loglevel=info", f"--schedule={folder / 'beat-schedule'}"], folder)
        self.dispatcher = Process("dispatch", [sys.executable, str(BASE_DIR / "manage.py"), "dispatch_work"],
                                  folder / "dispatch.log")
        self.environment: dict[str, str] = {}
        self.tables: BotTables | None = None

    @property
    def running(self) -> list[Process]:
        return [self.worker, self.sweeper, self.beat, self.dispatcher]

    def __enter__(self) -> Stack:
        self.broker.start()
        self.environment = worker_environment(self.database_url, self.broker.url, **SETTINGS)
        for process in self.running:
            process.start(self.environment)
        self.wait_ready(self.worker, " ready.")
        self.wait_ready(self.dispatcher, "listening on turnbased_work")
        games = seed(self.database_url, "bot_tables", TABLES, environment=self.environment)
        self.tables = BotTables(self.database_url, games)
        start = self.tables.moves()
        wait_for(lambda: self.tables.moved_since(start), "every table to move", processes=self.running, timeout=30)
        return self

    def __exit__(self, *exc_info) -> None:
        try:
            stop_all(*self.running)
        finally:
            self.broker.stop()

    def wait_ready(self, process: Process, line: str) -> None:
        wait_for(lambda: line in process.output_since_start(), f"{process.name} to be ready", processes=[process])

    def restart(self, process: Process, line: str) -> float:
        """Start a killed process again, as its supervisor would; return the moment it is ready."""
        process.start(self.environment)
        self.wait_ready(process, line)
        return time.monotonic()

    def resumed_after(self, mended_at: float, what: str) -> float:
        """Wait for every table in play to move again; return the seconds since ``mended_at``."""
        before = self.tables.moves()
        assert before, "every table ended before the fault: it proved nothing"
        wait_for(lambda: self.tables.moved_since(before), f"every table to move again after {what}",
                 processes=self.running, timeout=RESUMED_WITHIN + 5)
        took = time.monotonic() - mended_at
        print(f"{what}: every table moved again {took:.1f} s after")
        return took

    def check_played_once(self) -> None:
        """Check, the processes stopped, that every game replays from its log to its snapshot."""
        verified = manage(self.database_url, "verify_games")
        assert verified.returncode == 0 and " 0 differ" in verified.stdout, verified.stdout + verified.stderr


def _blocked_by(holding) -> int:
    """Return how many other sessions wait for a lock ``holding`` holds (bot turns being played, held). Asked on a
    connection of its own: within ``holding``'s transaction, the activity view would keep showing one snapshot."""
    with psycopg2.connect(holding.dsn) as link, link.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE %s = ANY(pg_blocking_pids(pid))",
                       [holding.get_backend_pid()])
        blocked = cursor.fetchone()[0]
    link.close()
    return blocked


def _wait_until_still(stack: Stack, processes: list[Process], *, still: float = 3.0, timeout: float = 30) -> None:
    """Wait until no table has moved for ``still`` seconds (three pauses of a bot: its turns are lost)."""
    deadline = time.monotonic() + timeout
    moves, since = stack.tables.moves(), time.monotonic()
    while time.monotonic() - since < still:
        assert time.monotonic() < deadline, "the tables went on moving"
        for process in processes:
            process.check_running()
        time.sleep(0.2)
        now = stack.tables.moves()
        if now != moves:
            moves, since = now, time.monotonic()


def _pool_processes(worker: Process) -> list[int]:
    """Return the process ids of a Celery worker's pool (the children of its main process)."""
    children = subprocess.run(["ps", "-o", "pid=", "--ppid", str(worker.popen.pid)], capture_output=True, text=True)
    return [int(pid) for pid in children.stdout.split()]


def test_the_pool_processes_killed_mid_turn(tmp_path):
    with Stack(tmp_path, database_url_for(connection.settings_dict["NAME"])) as stack:
        holding = psycopg2.connect(stack.database_url)  # in a transaction until rolled back
        try:
            holding.cursor().execute("SELECT id FROM play_game WHERE id = ANY(%s) FOR UPDATE", [stack.tables.games])
            wait_for(lambda: _blocked_by(holding) >= 1, "a bot turn being played, held by the lock",
                     processes=stack.running)
            for pid in _pool_processes(stack.worker):
                os.kill(pid, signal.SIGKILL)
            wait_for(lambda: "WorkerLostError" in stack.worker.output(), "the worker to see its pool processes die",
                     processes=stack.running)
        finally:
            holding.rollback()
            holding.close()
        took = stack.resumed_after(time.monotonic(), "the pool processes killed mid-turn")
    stack.check_played_once()
    assert took <= RESUMED_WITHIN


def test_the_whole_worker_killed_with_turns_in_hand_and_started_again(tmp_path):
    with Stack(tmp_path, database_url_for(connection.settings_dict["NAME"])) as stack:
        holding = hold_a_bot_turn_in_the_workers_hand(stack.worker, stack.database_url, stack.tables.games,
                                                      stack.running)
        try:
            stack.worker.signal(signal.SIGKILL)
            stack.worker.popen.wait(10)
        finally:
            holding.rollback()
            holding.close()
        mended_at = stack.restart(stack.worker, " ready.")
        took = stack.resumed_after(mended_at, "the worker killed with turns in hand and started again")
    stack.check_played_once()
    assert took <= RESUMED_WITHIN


# The dispatcher and the broker killed under bot turns are make test's in tests/faults/test_dispatch.py (both at
# once, with email); these two, each alone and timed, are make test-long's.
@pytest.mark.long
def test_the_dispatcher_killed_and_started_again(tmp_path):
    with Stack(tmp_path, database_url_for(connection.settings_dict["NAME"])) as stack:
        stack.dispatcher.signal(signal.SIGKILL)
        stack.dispatcher.popen.wait(10)
        # The turns already queued are played; the turns their moves name are NOTIFYed to no one: the tables stop.
        _wait_until_still(stack, [stack.worker, stack.sweeper, stack.beat])
        mended_at = stack.restart(stack.dispatcher, "listening on turnbased_work")
        took = stack.resumed_after(mended_at, "the dispatcher killed and started again")
    stack.check_played_once()
    assert took <= RESUMED_WITHIN


@pytest.mark.long
def test_the_broker_killed_with_turns_in_hand_and_started_again_empty(tmp_path):
    with Stack(tmp_path, database_url_for(connection.settings_dict["NAME"])) as stack:
        holding = hold_a_bot_turn_in_the_workers_hand(stack.worker, stack.database_url, stack.tables.games,
                                                      stack.running)
        try:
            stack.broker.kill()
            time.sleep(2)  # the worker and the dispatcher find it gone
        finally:
            holding.rollback()
            holding.close()
        stack.broker.start()
        took = stack.resumed_after(time.monotonic(), "the broker killed and started again, empty")
    stack.check_played_once()
    assert took <= RESUMED_WITHIN


def test_postgresql_restarted_under_the_bots(tmp_path):
    with private_postgres(database_url_for(connection.settings_dict["NAME"]), tmp_path) as database:
        with Stack(tmp_path, database.url) as stack:
            database.stop()
            time.sleep(4)  # the bot turns that come due meanwhile fail, and the dispatcher loses its LISTEN
            database.start()
            took = stack.resumed_after(time.monotonic(), "PostgreSQL restarted")
        stack.check_played_once()
    assert took <= RESUMED_WITHIN
