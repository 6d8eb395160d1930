"""The stream process: ``GET /api/stream/`` as Server-Sent Events, served by an ASGI server.

    uvicorn turnbased.events.asgi:application --port 8001 --timeout-graceful-shutdown 2

Each open stream is a coroutine waiting on a flag (``wakeups.Subscription``), so
an idle one holds no thread and no database connection. The database is used
only from ``STREAM_DATABASE_THREADS`` threads (to authenticate, and to read a
woken stream's new events), and from the one LISTEN connection that wakes the
streams: the process's share of PostgreSQL's connections is their sum.

A stream authenticates like the API (``Authorization: Token <key>``), or with the
browser's session (a page's ``EventSource``: ``credentials.py``, which also says
which origin's pages may read it), and answers errors as problem documents (RFC 9457,
``{type, title, status, detail}``); then it sends the opening (``sse.opening``), the events after the client's
``Last-Event-ID`` (or ``?last_event_id=``), every new one as it is committed, and a
comment line each ``STREAM_HEARTBEAT_SECONDS``. It ends after ``STREAM_MAX_SECONDS``, or at its next
read once its token or session no longer holds; the client reconnects and resumes
where it was (or is refused).

A client that plays opens it with ``?include=actions``: each ``your_turn`` still current when sent carries the
seat's view and legal moves (``play.turn_actions``), so a move needs no request but its POST.

A game's page opens its stream with ``?game=<id>``: while that stream is open its
player counts as having the page open (``notifications.presence``, in Redis), as
the page's polls counted them, so no turn email goes to a player watching the game.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from urllib.parse import parse_qs

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "turnbased.settings")
django.setup()

from django.conf import settings  # noqa: E402  (after django.setup())
from django.db import DatabaseError, close_old_connections  # noqa: E402
from django.utils import translation  # noqa: E402
from django.utils.translation import gettext, ngettext  # noqa: E402
from rest_framework.exceptions import AuthenticationFailed, MethodNotAllowed, NotAuthenticated  # noqa: E402

from turnbased.kit.texts import text_input  # noqa: E402
from turnbased.kit.api.problems import PROBLEM_MEDIA_TYPE, problem  # noqa: E402
from turnbased.kit.db.reconnect import without_health_check  # noqa: E402
from turnbased.events import credentials, selectors, sse, stream_slots  # noqa: E402
from turnbased.events.credentials import authenticate  # noqa: E402
from turnbased.events.presence import PRESENCE_WINDOW, record_visit  # noqa: E402
from turnbased.events.wakeups import Wakeups  # noqa: E402
from turnbased.kit.http.limits import client_address  # noqa: E402

logger = logging.getLogger(__name__)

STREAM_PATH = "/api/stream/"
# The answers' headers: never cached or buffered by a proxy (nginx reads X-Accel-Buffering), never sniffed.
STREAM_HEADERS = [
    (b"content-type", sse.CONTENT_TYPE.encode()),
    (b"cache-control", b"no-cache, no-store"),
    (b"x-accel-buffering", b"no"),
    (b"x-content-type-options", b"nosniff"),
]
# A game's page that follows the stream counts as open this often, well within the presence window.
PRESENCE_EVERY_SECONDS = PRESENCE_WINDOW.total_seconds() / 3
# ?game=: a game's id, as Last-Event-ID's are read (ASCII digits only).
_GAME_ID = re.compile(r"[0-9]{1,18}")


def _in_database_thread(function: Callable, kwargs: dict):
    """Run ``function`` as Django runs a request: connections past their age or broken are replaced first, and a
    kept one is used without a ``SELECT 1`` first (``kit.db.reconnect``: one that died is replaced then)."""
    close_old_connections()
    try:
        return without_health_check(function, **kwargs)
    finally:
        close_old_connections()


def _headers(scope) -> dict[str, str]:
    return {name.decode("latin-1").lower(): value.decode("latin-1") for name, value in scope.get("headers", ())}


def _invalid_text(scope) -> str | None:
    """Return where the request's query string or a header is not UTF-8 text (``text_input``), or None."""
    problem = text_input.query_problem(scope.get("query_string", b""))
    for name, value in scope.get("headers", ()):
        if problem is not None:
            break
        problem = text_input.header_problem(name.decode("latin-1").title(), value)
    return problem


def asked_language(accept_language: str | None) -> str:
    """Return the site's language that an ``Accept-Language`` header prefers, or "" (none, or none the site speaks)."""
    for code, _quality in translation.trans_real.parse_accept_lang_header(accept_language or ""):
        if code == "*":
            break
        try:
            return translation.get_supported_language_variant(code)
        except LookupError:
            continue
    return ""


class StreamApplication:
    """The ASGI application of the stream process."""

    def __init__(self, *, wakeups: Wakeups | None = None, threads: int | None = None):
        self.executor = ThreadPoolExecutor(max_workers=threads or settings.STREAM_DATABASE_THREADS,
                                           thread_name_prefix="stream-database")
        self.wakeups = wakeups or Wakeups()
        self._listening: asyncio.Task | None = None

    async def database(self, function: Callable, **kwargs):
        """Run a blocking database call in one of the process's database threads."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.executor, partial(_in_database_thread, function, kwargs))

    def start(self) -> None:
        """Begin listening for new events (at the server's start, or with the first stream)."""
        if self._listening is None or self._listening.done():
            self._listening = asyncio.get_running_loop().create_task(self.wakeups.run(self.database))

    async def stop(self) -> None:
        if self._listening is not None:
            self._listening.cancel()
            try:
                await self._listening
            except asyncio.CancelledError:
                pass
            self._listening = None

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
        elif scope["type"] == "http":
            started = False

            async def sending(message) -> None:
                nonlocal started
                started = True
                await send(message)

            try:
                await self._http(scope, receive, sending)
            except Exception:
                logger.exception("the stream failed")
                if not started:  # every error is JSON, even this one
                    with translation.override(asked_language(_headers(scope).get("accept-language"))
                                              or settings.LANGUAGE_CODE):
                        await _error(send, 500, gettext("The stream failed; try again in a few seconds."))

    async def _lifespan(self, receive, send) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                self.start()
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await self.stop()
                await send({"type": "lifespan.shutdown.complete"})
                return

    # -- one request ------------------------------------------------------------------------------

    async def _http(self, scope, receive, send) -> None:
        headers = _headers(scope)
        origin = headers.get("origin")
        cors = credentials.cors_headers(origin)
        # Every answer, errors too, in the language the client asks for; once it is known, the account's.
        with translation.override(asked_language(headers.get("accept-language")) or settings.LANGUAGE_CODE):
            if scope["path"] != STREAM_PATH:
                return await _error(send, 404, gettext("Not found: this server serves only GET /api/stream/."), cors)
            if scope["method"] == "OPTIONS" and (preflight := credentials.preflight_headers(origin)) is not None:
                return await _empty(send, 204, preflight)
            if scope["method"] != "GET":
                return await _error(send, 405, str(MethodNotAllowed(scope["method"]).detail),
                                    [(b"allow", b"GET"), *cors])
            if (problem := _invalid_text(scope)) is not None:  # issue 42, as the web process refuses it
                return await _error(send, 400, problem, cors)
            await self._http_in_language(scope, receive, send, headers, cors)

    async def _http_in_language(self, scope, receive, send, headers: dict[str, str], cors: list) -> None:
        refused = [(b"www-authenticate", b"Token"), *cors]
        try:
            identity = await self.database(authenticate, authorization=headers.get("authorization"),
                                           cookie=headers.get("cookie"), origin=headers.get("origin"),
                                           language=translation.get_language())
        except AuthenticationFailed as refusal:
            return await _error(send, 401, str(refusal.detail), refused)
        except DatabaseError:
            return await _unavailable(send, cors)
        if identity is None:
            return await _error(send, 401, str(NotAuthenticated.default_detail), refused)
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"), keep_blank_values=True)
        try:
            resume = sse.last_event_id(headers.get("last-event-id"), (query.get("last_event_id") or [None])[-1])
        except sse.BadLastEventId as error:
            return await _error(send, 400, str(error), cors)
        watching = (query.get("game") or [None])[-1]
        if watching is not None and not _GAME_ID.fullmatch(watching):
            return await _error(send, 400, gettext("game must be a game's id: a whole number of at most 18 digits."),
                                cors)
        try:
            extras = sse.extras(query.get("include", []))
        except sse.BadExtras as error:
            return await _error(send, 400, str(error), cors)
        if not asked_language(headers.get("accept-language")) and identity.language:
            translation.activate(identity.language)  # the stream's words: Accept-Language, else the account's
        busy = [(b"retry-after", str(settings.STREAM_RETRY_MILLISECONDS // 1000 or 1).encode()), *cors]
        # The account's and the address's streams in every stream process (stream_slots, in Redis); this process's
        # own count holds the account's cap should Redis be away.
        slots, full = await _in_thread(stream_slots.take, identity.user_id, _client_address(scope, headers))
        if full == "user" or self.wakeups.open_streams(identity.user_id) >= settings.STREAM_MAX_PER_USER:
            if slots is not None:
                await _in_thread(stream_slots.give_back, slots)
            most = settings.STREAM_MAX_PER_USER
            return await _error(send, 429, ngettext("You have %(count)s stream open already; close it before opening "
                                                    "another.",
                                                    "You have %(count)s streams open already; close one before opening "
                                                    "another.", most) % {"count": most}, busy)
        if full == "address":
            return await _error(send, 429, gettext("Too many streams are open from your address; close one before "
                                                   "opening another."), busy)
        self.start()
        try:
            await self._stream(send, receive, identity=identity, resume=resume, cors=cors, slots=slots,
                               watching=int(watching) if watching is not None else None, actions="actions" in extras)
        finally:
            await _in_thread(stream_slots.give_back, slots)

    async def _stream(self, send, receive, *, identity: credentials.Identity, resume: int | None, cors: list,
                      slots: stream_slots.Slots, watching: int | None = None, actions: bool = False) -> None:
        user_id = identity.user_id
        subscription = self.wakeups.subscribe(user_id)  # before the first read: no wake-up can fall between
        closed = asyncio.Event()
        watcher = asyncio.get_running_loop().create_task(_watch_disconnect(receive, closed, subscription))
        try:
            if resume is None:
                try:
                    resume = await self.database(selectors.latest_event_id, user_id=user_id)
                except DatabaseError:
                    return await _unavailable(send, cors)
                opening = sse.opening(resume)
            else:
                opening = sse.opening(None)
            await send({"type": "http.response.start", "status": 200, "headers": [*STREAM_HEADERS, *cors]})
            await send({"type": "http.response.body", "body": opening, "more_body": True})
            try:
                await self._send_events(send, closed, subscription, user_id=user_id, credential=identity.credential,
                                        after=resume, slots=slots, watching=watching, actions=actions)
            except asyncio.CancelledError:
                # The server is stopping: uvicorn cancels the streams that outlive its graceful shutdown.
                # Ending the answer is all there is to do (the client resumes after its last id), not an error.
                pass
            await send({"type": "http.response.body", "body": b"", "more_body": False})
        finally:
            self.wakeups.unsubscribe(subscription)
            watcher.cancel()

    async def _send_events(self, send, closed: asyncio.Event, subscription, *, user_id: int,
                           credential: selectors.Credential, after: int, slots: stream_slots.Slots | None = None,
                           watching: int | None = None, actions: bool = False) -> None:
        """Send the events after ``after``, then each new one when woken, until the client leaves, time is up or the
        credential no longer holds; keep the game ``watching`` marked as open meanwhile. With ``actions``, a
        ``your_turn`` still current carries the seat's view and legal moves (``play.turn_actions``)."""
        ends_at = time.monotonic() + settings.STREAM_MAX_SECONDS
        present_until = 0.0  # when the game's page must be marked open again (now: at once)
        renew_at = time.monotonic() + settings.STREAM_HEARTBEAT_SECONDS  # the stream's slots, kept from lapsing
        read = True  # a heartbeat's timeout reads nothing: an idle stream costs the database nothing
        while not closed.is_set():
            if read:
                subscription.woken.clear()
                try:
                    events = await self.database(selectors.events_after, user_id=user_id, after_id=after,
                                                 credential=credential, with_current=actions)
                except DatabaseError as error:  # the database is away: try again at the next wake-up or poll
                    logger.warning("stream of user %s could not read its events: %s", user_id, error)
                    events = []
                if events is None:
                    return  # the token was revoked, the session ended: the client reconnects and is refused
                if events:
                    await send({"type": "http.response.body", "more_body": True,
                                "body": b"".join(sse.frame(event) for event in events)})
                    after = events[-1].id
                    if len(events) == selectors.PAGE:
                        continue  # more are waiting
            now = time.monotonic()
            if watching is not None and now >= present_until:
                present_until = now + PRESENCE_EVERY_SECONDS
                await _mark_present(user_id, watching)
            if slots is not None and now >= renew_at:
                renew_at = now + settings.STREAM_HEARTBEAT_SECONDS
                await _in_thread(stream_slots.renew, slots)
            left = ends_at - now
            if left <= 0:
                return
            wait = min(left, settings.STREAM_HEARTBEAT_SECONDS)
            if watching is not None:
                wait = min(wait, max(0.0, present_until - now))
            try:
                async with asyncio.timeout(wait):
                    await subscription.woken.wait()
                read = True
            except TimeoutError:
                read = False
                if not closed.is_set() and time.monotonic() < ends_at:
                    await send({"type": "http.response.body", "body": sse.HEARTBEAT, "more_body": True})


async def _in_thread(function: Callable, *args):
    """Run a blocking call that is not the database's (Redis) in the loop's default threads."""
    return await asyncio.get_running_loop().run_in_executor(None, partial(function, *args))


def _client_address(scope, headers: dict[str, str]) -> str:
    """The address a stream's client is counted under, found as the API's rate limits find it: the peer, or the
    ``X-Forwarded-For`` entry the trusted proxies (``TRUSTED_PROXY_COUNT``) wrote."""
    remote = (scope.get("client") or ("",))[0]
    proxies = settings.REST_FRAMEWORK.get("NUM_PROXIES") or 0
    forwarded = headers.get("x-forwarded-for")
    if proxies and forwarded:
        entries = [entry.strip() for entry in forwarded.split(",")]
        remote = entries[-min(proxies, len(entries))]
    return client_address(remote)


async def _mark_present(user_id: int, game_id: int) -> None:
    """Note in Redis (never the database) that the user has the game's page open; a failure only means a turn email
    may go out, so it is logged, not raised."""
    try:
        await asyncio.get_running_loop().run_in_executor(None, partial(record_visit, user_id=user_id, game_id=game_id))
    except Exception as error:  # Redis away: the stream goes on
        logger.warning("could not note that user %s has game %s open: %s", user_id, game_id, error)


async def _watch_disconnect(receive, closed: asyncio.Event, subscription) -> None:
    """Note when the client goes away (the request's body is empty: anything else is read and dropped)."""
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            closed.set()
            subscription.woken.set()  # the stream stops waiting and ends
            return


async def _empty(send, status: int, headers: list) -> None:
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-length", b"0"), (b"x-content-type-options", b"nosniff"), *headers]})
    await send({"type": "http.response.body", "body": b""})


async def _error(send, status: int, detail: str, headers: list | None = None) -> None:
    body = json.dumps(problem(status, detail)).encode()  # a problem document, as every error of the API
    await send({"type": "http.response.start", "status": status, "headers": [
        (b"content-type", PROBLEM_MEDIA_TYPE.encode()), (b"content-length", str(len(body)).encode()),
        (b"x-content-type-options", b"nosniff"), *(headers or []),
    ]})
    await send({"type": "http.response.body", "body": body})


async def _unavailable(send, cors: list) -> None:
    await _error(send, 503, gettext("The database is briefly unavailable; try again in a few seconds."),
                 [(b"retry-after", b"5"), *cors])


application = StreamApplication()
