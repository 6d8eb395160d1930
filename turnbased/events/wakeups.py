"""Wake the streams whose user was just written an event: one PostgreSQL LISTEN for the whole stream process.

Every insert of events sends a NOTIFY naming its users (the trigger of migration
0001), delivered when the writing transaction commits. ``Wakeups`` holds the one
connection that LISTENs, reads its notifications as they arrive on the event
loop (no thread waits on it), and sets the flag of each stream of those users;
a woken stream reads its new events itself. An idle stream costs a flag and a
heartbeat now and then, nothing in the database.

When the LISTEN connection is lost (PostgreSQL restarted, a network cut),
nothing can be missed for long: while it is down, every stream is woken each
``STREAM_POLL_SECONDS`` to look for itself, the connection is made again with a
growing pause, and once it is back every stream is woken once more for what
was written in between.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable

import psycopg2
from django.conf import settings

from turnbased.events.models import NOTIFY_CHANNEL
from turnbased.kit.db.listening import listen_parameters

logger = logging.getLogger(__name__)

FIRST_PAUSE = 0.5


class Subscription:
    """One open stream's place among those to wake: its user and the flag set when it should read."""

    __slots__ = ("user_id", "woken")

    def __init__(self, user_id: int):
        self.user_id = user_id
        self.woken = asyncio.Event()


class Wakeups:
    """The streams of one process, by user, and the LISTEN connection that wakes them."""

    def __init__(self, connect: Callable[[], object] | None = None):
        self._connect = connect or (lambda: psycopg2.connect(**listen_parameters()))
        self._streams: dict[int, set[Subscription]] = {}
        self._connection = None
        self._descriptor: int | None = None
        self._lost = asyncio.Event()
        self.listening = False

    # -- the streams ------------------------------------------------------------------------------

    def subscribe(self, user_id: int) -> Subscription:
        subscription = Subscription(user_id)
        self._streams.setdefault(user_id, set()).add(subscription)
        return subscription

    def unsubscribe(self, subscription: Subscription) -> None:
        streams = self._streams.get(subscription.user_id)
        if streams is not None:
            streams.discard(subscription)
            if not streams:
                del self._streams[subscription.user_id]

    def open_streams(self, user_id: int | None = None) -> int:
        """Return how many streams are open: the user's, or all of them."""
        if user_id is not None:
            return len(self._streams.get(user_id, ()))
        return sum(len(streams) for streams in self._streams.values())

    def wake(self, user_ids: Iterable[int] | None) -> None:
        """Wake the streams of ``user_ids`` (None: every stream) to read their new events."""
        if user_ids is None:
            groups = list(self._streams.values())
        else:
            groups = [self._streams[user_id] for user_id in user_ids if user_id in self._streams]
        for streams in groups:
            for subscription in streams:
                subscription.woken.set()

    # -- the LISTEN connection --------------------------------------------------------------------

    async def run(self, database: Callable) -> None:
        """LISTEN for as long as the process runs, connecting again whenever the connection is lost.

        ``database(function)`` runs a blocking call off the event loop (the process's database threads).
        """
        loop = asyncio.get_running_loop()
        pause = FIRST_PAUSE
        while True:
            try:
                self._connection = await database(self._listening_connection)
            except Exception as error:  # the database is away: poll, and try again after a pause
                logger.warning("the stream cannot LISTEN for events (%s); streams poll every %s s meanwhile",
                               error, settings.STREAM_POLL_SECONDS)
                self.wake(None)
                await asyncio.sleep(pause)
                pause = min(pause * 2, settings.STREAM_POLL_SECONDS)
                continue
            pause = FIRST_PAUSE
            self._lost.clear()
            self._descriptor = self._connection.fileno()
            loop.add_reader(self._descriptor, self._readable)
            self.listening = True
            self.wake(None)  # whatever was written while no one listened
            try:
                await self._while_listening()
            finally:
                self.listening = False
                self._close(loop)

    def _listening_connection(self):
        connection = self._connect()
        connection.autocommit = True
        with connection.cursor() as cursor:
            cursor.execute(f"LISTEN {NOTIFY_CHANNEL}")
        return connection

    async def _while_listening(self) -> None:
        await self._lost.wait()
        logger.warning("the stream's LISTEN connection was lost; listening again")

    def _readable(self) -> None:
        """Read what arrived on the LISTEN connection: notifications, or the news that it closed."""
        try:
            self._connection.poll()
        except psycopg2.Error:
            self._lost.set()
            return
        if self._connection.closed:
            self._lost.set()
            return
        woken: set[int] | None = set()
        while self._connection.notifies:
            payload = self._connection.notifies.pop(0).payload
            if payload == "*" or woken is None:
                woken = None
                continue
            woken.update(int(user_id) for user_id in payload.split(",") if user_id.isdigit())
        self.wake(woken)

    def _close(self, loop: asyncio.AbstractEventLoop) -> None:
        if self._descriptor is not None:
            loop.remove_reader(self._descriptor)
            self._descriptor = None
        if self._connection is None:
            return
        try:
            self._connection.close()
        except psycopg2.Error:
            pass
        self._connection = None
