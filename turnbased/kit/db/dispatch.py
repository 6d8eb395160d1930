"""Work that follows a commit, handed to Celery by a process of its own: a move's request publishes nothing.

A change that needs work done once it is committed (its turn notifications delivered, a bot's turn, a
forced move) calls ``after_commit(task, *args)``. That sends ``NOTIFY turnbased_work`` with the task and its
arguments inside the change's transaction, as a part of the move's one statement (``one_statement``): no
round trip of its own, and PostgreSQL delivers it when the transaction commits, never when it rolls back.
The dispatcher (``python manage.py dispatch_work``: ``dispatch`` in the Procfile and in compose.yaml) LISTENs
on that channel and queues each task in Celery. Before, each request queued its tasks in Redis itself
after its commit: about 13 % of a move's server time (issue 26).

Nothing is lost when a notification is. A NOTIFY no one LISTENs to is dropped (the dispatcher is down or
restarting), Redis may refuse the task or lose it (restarted empty), the dispatcher may die between reading a
notification and queueing it: in each case the row the change wrote stays for the minute sweeps to queue its
task again (the outbox's unsent notifications, the clock sweep's stalled bot turns and forced moves), a little
later. Bot turns do not wait for that (issue 42): ``run`` calls ``recover`` each time its LISTEN is in place
(what was notified while it was not is lost) and whenever ``BrokerWatch`` finds the broker back from an
outage or restarted (what it held is lost), and the command's ``recover`` queues every waiting bot turn again
(``play.services.bot_turns``). Nothing is done twice: every task is idempotent (a notification row is sent
once, a bot or forced move plays only the position it was queued for). Two dispatchers would queue each task
twice, harmlessly.

``WORK_DISPATCH=inline`` (the test runner's setting) queues the task in the process itself when the
transaction commits, as requests did before: tests run their tasks at once, in the test's process.
"""

from __future__ import annotations

import functools
import importlib
import json
import logging
import select
import threading
import time
from collections.abc import Callable, Sequence

from celery import current_app
from django.conf import settings
from django.db import transaction

from turnbased.kit.db import one_statement
from turnbased.kit.db.listening import listen_parameters  # as the event stream's LISTEN session

logger = logging.getLogger(__name__)

CHANNEL = "turnbased_work"
# The tasks a notification may name: the dispatcher queues no other (a payload is data, never a command).
TASKS = frozenset({
    "turnbased.competitions.tasks.competition_start",
    "turnbased.competitions.tasks.round_close",
    "turnbased.competitions.tasks.round_open",
    "turnbased.competitions.tasks.table_abandoned",
    "turnbased.entry.tasks.leave_waiting_tables",
    "turnbased.mail.tasks.deliver_game_notifications",
    "turnbased.mail.tasks.handle_accepted_reply",
    "turnbased.play.tasks.play_bot_turn",
    "turnbased.play.tasks.play_forced_move",
})
APPLICATION_NAME = "turnbased-dispatch"
READY = "dispatch: listening on turnbased_work"
# Between tries to LISTEN again: short, so that the work a database restart lost is queued again within seconds
# of its return (a try at a server that is down costs it nothing).
FIRST_PAUSE, LONGEST_PAUSE = 0.5, 2.0
# How often the broker is asked whether it is the one it was (BrokerWatch).
BROKER_CHECK_SECONDS = 1.0
# Set by ``queue`` when the broker refuses a task: the broker's watch then treats it as away, even if the outage
# was too short for its own check to see.
_refused = threading.Event()


def after_commit(task: str, *args: int, countdown: float = 0) -> None:
    """Have ``task(*args)`` queued once the current transaction commits (``countdown`` seconds later), and never
    if it rolls back. Call inside the change's transaction."""
    if task not in TASKS:
        raise ValueError(f"{task} is not a task the dispatcher queues")
    if settings.WORK_DISPATCH == "inline":
        transaction.on_commit(lambda: queue(task, list(args), countdown))
        return
    payload = json.dumps({"task": task, "args": list(args), "countdown": countdown}, separators=(",", ":"))
    woken = one_statement.name("woken")
    # A WITH query that is only a SELECT runs only if the statement reads it: the result reads it.
    one_statement.write(f"{woken} AS (SELECT pg_notify(%s, %s))", [CHANNEL, payload],
                        result=f"(SELECT count(*) FROM {woken})")


def write_then_queue_if_rows(sql: str, params: Sequence, task: str, *args: int) -> None:
    """Send the data-modifying query ``sql`` (with RETURNING) as a part of the change's statement (``one_statement``)
    and have ``task(*args)`` queued once the transaction commits, only if it returned a row: a write that usually
    finds nothing to do (who follows this game?) wakes no worker when it did nothing. Call inside the change's
    transaction."""
    if task not in TASKS:
        raise ValueError(f"{task} is not a task the dispatcher queues")
    rows = one_statement.name("rows")
    if settings.WORK_DISPATCH == "inline":
        def queued_if_any(count) -> None:
            if count:
                transaction.on_commit(lambda: queue(task, list(args)))

        one_statement.write(f"{rows} AS ({sql})", params, result=f"(SELECT count(*) FROM {rows})",
                            then=queued_if_any)
        return
    payload = json.dumps({"task": task, "args": list(args), "countdown": 0}, separators=(",", ":"))
    woken = one_statement.name("woken")
    # The NOTIFY runs once, or not at all when the write found nothing; the result reads it, so it runs.
    one_statement.write(f"{rows} AS ({sql}), {woken} AS (SELECT pg_notify(%s, %s) FROM (SELECT 1 FROM {rows} LIMIT 1)"
                        f" AS found)", [*params, CHANNEL, payload], result=f"(SELECT count(*) FROM {woken})")


def queue(task: str, args: list, countdown: float = 0) -> bool:
    """Queue one task in Celery (by name: its queue comes from ``CELERY_TASK_ROUTES``); return whether it went.

    With the broker down the task is not queued and the sweeps queue it later: logged, never raised.
    """
    try:
        _load_task(task)
        current_app.signature(task, args=args).apply_async(countdown=countdown or None)
    except Exception:
        logger.warning("could not queue %s%s; the sweep will", task, tuple(args), exc_info=True)
        _refused.set()
        return False
    return True


class BrokerWatch:
    """Tell when the broker may have lost the tasks it held: it was away (a check failed, or it refused a task) and
    answers again, or it answers as another server (Redis's ``run_id`` changed: it restarted, empty unless it kept
    its data on disk). A check is one short command, at most every ``BROKER_CHECK_SECONDS``."""

    def __init__(self, url: str):
        import redis

        self._client = redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=1)
        self._errors = (redis.RedisError, OSError)
        self._server: str | None = None
        self._away = False
        self._checked_at = 0.0

    @classmethod
    def of(cls, url: str) -> BrokerWatch | None:
        """Return a watch of the broker at ``url``; None for a broker that is not Redis (left to the sweeps)."""
        return cls(url) if url.split(":", 1)[0] in ("redis", "rediss") else None

    def back(self) -> bool:
        """Check the broker (unless it was checked a moment ago); return whether it is back from an absence or
        restarted since the last check."""
        if time.monotonic() - self._checked_at < BROKER_CHECK_SECONDS:
            return False
        self._checked_at = time.monotonic()
        if _refused.is_set():
            _refused.clear()
            self._away = True
        try:
            server = self._client.info("server")["run_id"]
        except self._errors:
            self._away = True
            return False
        back = self._away or (self._server is not None and server != self._server)
        self._server, self._away = server, False
        return back


@functools.cache
def _load_task(task: str) -> None:
    """Import the module defining ``task`` (by name; a worker has them all, a web process may not), so the task is
    sent as its own definition says: run at once where tasks run eagerly (tests), else to its queue."""
    importlib.import_module(task.rsplit(".", 1)[0])


def handle(payload: str) -> bool:
    """Queue the task one notification names; ignore (and log) a payload that names none this queues."""
    try:
        work = json.loads(payload)
        task, args, countdown = work["task"], work["args"], float(work.get("countdown") or 0)
        if task not in TASKS or not isinstance(args, list) or not all(isinstance(value, int) for value in args):
            raise ValueError(task)
    except (ValueError, KeyError, TypeError):
        logger.warning("ignored a notification on %s that names no task to queue: %.200s", CHANNEL, payload)
        return False
    return queue(task, args, countdown)


def _listening_connection():
    import psycopg2

    connection = psycopg2.connect(**{**listen_parameters(), "application_name": APPLICATION_NAME})
    connection.autocommit = True
    with connection.cursor() as cursor:
        cursor.execute(f"LISTEN {CHANNEL}")
    return connection


def run(*, stopped: Callable[[], bool] = lambda: False, connect: Callable = _listening_connection,
        tick: float = 1.0, on_listening: Callable[[], None] = lambda: None,
        recover: Callable[[], object] = lambda: None, broker: BrokerWatch | None = None) -> None:
    """LISTEN and queue each task named, until ``stopped()``; connect again, after a growing pause, whenever the
    connection is lost. ``on_listening`` is called each time the LISTEN is in place.

    ``recover()`` queues again the work a fault may have lost: called once the LISTEN is in place, each time
    (what was notified meanwhile was dropped), and whenever ``broker`` finds the broker back (what it held may
    be gone). One that fails (the database is away too) is tried again at the next tick.
    """
    import psycopg2

    pause = FIRST_PAUSE
    while not stopped():
        try:
            connection = connect()
        except psycopg2.Error as error:
            logger.warning("dispatch: cannot LISTEN (%s); trying again in %.1f s", error, pause)
            time.sleep(pause)
            pause = min(pause * 2, LONGEST_PAUSE)
            continue
        pause = FIRST_PAUSE
        logger.debug(READY)  # said by on_listening (the command prints it: the topology test waits for it)
        on_listening()
        owed = True  # a recovery: the LISTEN is (again) in place
        try:
            while not stopped():
                if broker is not None and broker.back():
                    owed = True
                if owed:
                    owed = not _recovered(recover)
                if not select.select([connection], [], [], tick)[0]:
                    continue
                connection.poll()
                while connection.notifies:
                    handle(connection.notifies.pop(0).payload)
        except (psycopg2.Error, OSError) as error:
            logger.warning("dispatch: the LISTEN connection was lost (%s); listening again", error)
        finally:
            try:
                connection.close()
            except psycopg2.Error:
                pass


def _recovered(recover: Callable[[], object]) -> bool:
    """Run one recovery on a usable database connection (one a restart left dead is replaced); return whether it
    ran through."""
    from django.db import close_old_connections

    close_old_connections()
    try:
        recover()
    except Exception:
        logger.warning("dispatch: could not queue again the work a fault may have lost; trying again",
                       exc_info=True)
        close_old_connections()
        return False
    return True


class Dispatcher:
    """The dispatcher in a thread of this process (tests): ``with Dispatcher(): ...``."""

    def __init__(self, **options):
        self._stop, self.listening = threading.Event(), threading.Event()
        self._thread = threading.Thread(target=run, kwargs={"stopped": self._stop.is_set, "tick": 0.1,
                                                            "on_listening": self.listening.set, **options},
                                        daemon=True)

    def __enter__(self) -> Dispatcher:
        self._thread.start()
        if not self.listening.wait(10):
            raise RuntimeError("the dispatcher did not LISTEN within 10 s")
        return self

    def __exit__(self, *exc_info) -> None:
        self._stop.set()
        self._thread.join(5)
