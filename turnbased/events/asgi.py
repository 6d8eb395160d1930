"""The stream process: ``GET /api/stream/`` as Server-Sent Events, served by an ASGI server.

    uvicorn turnbased.events.asgi:application --port 8001 --timeout-graceful-shutdown 2

Each open stream is a coroutine waiting on a flag (``wakeups.Subscription``), so
an idle one holds no thread and no database connection. The database is used
only from ``STREAM_DATABASE_THREADS`` threads (to authenticate, and to read a
woken stream's new events), and from the one LISTEN connection that wakes the
streams: the process's share of PostgreSQL's connections is their sum.

A stream authenticates like the API (``Authorization: Token <key>``) and
answers errors as JSON ``{"detail": ...}``; then it sends the opening
(``sse.opening``), the events after the client's ``Last-Event-ID`` (or
``?last_event_id=``), every new one as it is committed, and a comment line each
``STREAM_HEARTBEAT_SECONDS``. It ends after ``STREAM_MAX_SECONDS``; the client
reconnects and resumes where it was.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from types import SimpleNamespace
from urllib.parse import parse_qs

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "turnbased.settings")
django.setup()

from django.conf import settings  # noqa: E402  (after django.setup())
from django.db import DatabaseError, close_old_connections  # noqa: E402
from django.utils import translation  # noqa: E402
from django.utils.translation import gettext, ngettext  # noqa: E402
from rest_framework.exceptions import AuthenticationFailed, MethodNotAllowed, NotAuthenticated  # noqa: E402

from turnbased.accounts.authentication import ApiTokenAuthentication  # noqa: E402
from turnbased.accounts.readers import chosen_language  # noqa: E402
from turnbased.events import selectors, sse  # noqa: E402
from turnbased.events.wakeups import Wakeups  # noqa: E402

logger = logging.getLogger(__name__)

STREAM_PATH = "/api/stream/"
# The answers' headers: never cached or buffered by a proxy (nginx reads X-Accel-Buffering), never sniffed.
STREAM_HEADERS = [
    (b"content-type", sse.CONTENT_TYPE.encode()),
    (b"cache-control", b"no-cache, no-store"),
    (b"x-accel-buffering", b"no"),
    (b"x-content-type-options", b"nosniff"),
]


def _in_database_thread(function: Callable, kwargs: dict):
    """Run ``function`` as Django runs a request: connections past their age or broken are replaced first."""
    close_old_connections()
    try:
        return function(**kwargs)
    finally:
        close_old_connections()


def authenticate(*, authorization: str | None, language: str = "") -> tuple[int, int, str] | None:
    """Return (user id, token id, the account's chosen language or "") for an ``Authorization: Token <key>``
    header; None without one.

    The same check as every API request (``ApiTokenAuthentication``), so a revoked or expired token,
    or an inactive account, is refused with the same words, in ``language`` (the database threads
    do not share the stream's active language); raise ``AuthenticationFailed``.
    """
    given = {"authorization": authorization} if authorization else {}
    request = SimpleNamespace(headers=given, META={f"HTTP_{name.upper()}": value for name, value in given.items()})
    with translation.override(language or settings.LANGUAGE_CODE):
        found = ApiTokenAuthentication().authenticate(request)
    if found is None:
        return None
    user, token = found
    return user.pk, token.pk, chosen_language(user)


def _headers(scope) -> dict[str, str]:
    return {name.decode("latin-1").lower(): value.decode("latin-1") for name, value in scope.get("headers", ())}


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
        # Every answer, errors too, in the language the client asks for; once it is known, the account's.
        with translation.override(asked_language(headers.get("accept-language")) or settings.LANGUAGE_CODE):
            if scope["path"] != STREAM_PATH:
                return await _error(send, 404, gettext("Not found: this server serves only GET /api/stream/."))
            if scope["method"] != "GET":
                return await _error(send, 405, str(MethodNotAllowed(scope["method"]).detail), [(b"allow", b"GET")])
            await self._http_in_language(scope, receive, send, headers)

    async def _http_in_language(self, scope, receive, send, headers: dict[str, str]) -> None:
        try:
            identity = await self.database(authenticate, authorization=headers.get("authorization"),
                                           language=translation.get_language())
        except AuthenticationFailed as refusal:
            return await _error(send, 401, str(refusal.detail), [(b"www-authenticate", b"Token")])
        except DatabaseError:
            return await _unavailable(send)
        if identity is None:
            return await _error(send, 401, str(NotAuthenticated.default_detail), [(b"www-authenticate", b"Token")])
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"), keep_blank_values=True)
        try:
            resume = sse.last_event_id(headers.get("last-event-id"), (query.get("last_event_id") or [None])[-1])
        except sse.BadLastEventId as error:
            return await _error(send, 400, str(error))
        user_id, token_id, account_language = identity
        if not asked_language(headers.get("accept-language")) and account_language:
            translation.activate(account_language)  # the stream's words: Accept-Language, else the account's
        if self.wakeups.open_streams(user_id) >= settings.STREAM_MAX_PER_USER:
            most = settings.STREAM_MAX_PER_USER
            return await _error(send, 429, ngettext("You have %(count)s stream open already; close it before opening "
                                                    "another.",
                                                    "You have %(count)s streams open already; close one before opening "
                                                    "another.", most) % {"count": most},
                                [(b"retry-after", str(settings.STREAM_RETRY_MILLISECONDS // 1000 or 1).encode())])
        self.start()
        await self._stream(send, receive, user_id=user_id, token_id=token_id, resume=resume)

    async def _stream(self, send, receive, *, user_id: int, token_id: int, resume: int | None) -> None:
        subscription = self.wakeups.subscribe(user_id)  # before the first read: no wake-up can fall between
        closed = asyncio.Event()
        watcher = asyncio.get_running_loop().create_task(_watch_disconnect(receive, closed, subscription))
        try:
            if resume is None:
                try:
                    resume = await self.database(selectors.latest_event_id, user_id=user_id)
                except DatabaseError:
                    return await _unavailable(send)
                opening = sse.opening(resume)
            else:
                opening = sse.opening(None)
            await send({"type": "http.response.start", "status": 200, "headers": STREAM_HEADERS})
            await send({"type": "http.response.body", "body": opening, "more_body": True})
            try:
                await self._send_events(send, closed, subscription, user_id=user_id, token_id=token_id,
                                        after=resume)
            except asyncio.CancelledError:
                # The server is stopping: uvicorn cancels the streams that outlive its graceful shutdown.
                # Ending the answer is all there is to do (the client resumes after its last id), not an error.
                pass
            await send({"type": "http.response.body", "body": b"", "more_body": False})
        finally:
            self.wakeups.unsubscribe(subscription)
            watcher.cancel()

    async def _send_events(self, send, closed: asyncio.Event, subscription, *, user_id: int, token_id: int,
                           after: int) -> None:
        """Send the events after ``after``, then each new one when woken, until the client leaves or time is up."""
        ends_at = time.monotonic() + settings.STREAM_MAX_SECONDS
        read = True  # a heartbeat's timeout reads nothing: an idle stream costs the database nothing
        while not closed.is_set():
            if read:
                subscription.woken.clear()
                try:
                    events = await self.database(selectors.events_after, user_id=user_id, after_id=after,
                                                 token_id=token_id)
                except DatabaseError as error:  # the database is away: try again at the next wake-up or poll
                    logger.warning("stream of user %s could not read its events: %s", user_id, error)
                    events = []
                if events:
                    await send({"type": "http.response.body", "more_body": True,
                                "body": b"".join(sse.frame(event) for event in events)})
                    after = events[-1].id
                    if len(events) == selectors.PAGE:
                        continue  # more are waiting
            left = ends_at - time.monotonic()
            if left <= 0:
                return
            try:
                async with asyncio.timeout(min(left, settings.STREAM_HEARTBEAT_SECONDS)):
                    await subscription.woken.wait()
                read = True
            except TimeoutError:
                read = False
                if not closed.is_set() and time.monotonic() < ends_at:
                    await send({"type": "http.response.body", "body": sse.HEARTBEAT, "more_body": True})


async def _watch_disconnect(receive, closed: asyncio.Event, subscription) -> None:
    """Note when the client goes away (the request's body is empty: anything else is read and dropped)."""
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            closed.set()
            subscription.woken.set()  # the stream stops waiting and ends
            return


async def _error(send, status: int, detail: str, headers: list | None = None) -> None:
    body = json.dumps({"detail": detail}).encode()
    await send({"type": "http.response.start", "status": status, "headers": [
        (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
        (b"x-content-type-options", b"nosniff"), *(headers or []),
    ]})
    await send({"type": "http.response.body", "body": body})


async def _unavailable(send) -> None:
    await _error(send, 503, gettext("The database is briefly unavailable; try again in a few seconds."),
                 [(b"retry-after", b"5")])


application = StreamApplication()
