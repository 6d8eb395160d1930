"""A web request without the per-request ``SELECT 1``, and a kept connection that died answered on a new one.

The web process keeps its database connection between requests (``CONN_MAX_AGE``). Django's
``CONN_HEALTH_CHECKS`` would test it with a ``SELECT 1`` at the start of every request: a round trip
of its own on every move and page (issue 26 measured it at about 7 % of a move's server time). The web
process skips that check (``ReconnectMiddleware`` marks the connection checked), and pays for a dead
connection only when there is one: after a database restart, the first statement on a connection kept
from before fails. When that statement was the request's first (so nothing of the request reached the
database: no session, token or row was read, nothing written), the request is run again, once, on a new
connection, and the client never sees the restart. Anything else is answered as before: a 503 that asks
the client to retry (``request_guards.server_error``).

The stream process does the same for each of its database calls (``without_health_check``): a woken stream's
read is one statement, and the check doubled it. Celery workers keep Django's check.
"""

from __future__ import annotations

import logging

from django.db import InterfaceError, OperationalError, connection

logger = logging.getLogger(__name__)

_LOST = (OperationalError, InterfaceError)


class FirstStatementWatch:
    """An execute wrapper that notes whether the first statement it saw failed as a lost connection does."""

    def __init__(self) -> None:
        self.statements = 0
        self.first_failed = False

    def __call__(self, execute, sql, params, many, context):
        first = self.statements == 0
        self.statements += 1
        try:
            return execute(sql, params, many, context)
        except _LOST:
            if first:
                self.first_failed = True
            raise


class ReconnectMiddleware:
    """Skip the per-request health check; run a request again once when its first statement met a dead connection.

    Put it before everything that reads the database (sessions, tokens, views): all of that may be run twice,
    which is safe only because the first run reached the database with nothing. A body the first run read
    whole is read again from Django's copy of it; one it read as a stream (a large upload) cannot be, and
    that request is answered the 503 that asks to retry.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        kept = connection.connection is not None  # a connection from an earlier request: it may have died since
        if not kept:
            return self.get_response(request)
        # Django would run SELECT 1 on the connection's first use in this request (CONN_HEALTH_CHECKS);
        # the watch below does that check's work only when the connection is in fact dead.
        connection.health_check_done = True
        watch = FirstStatementWatch()
        with connection.execute_wrapper(watch):
            response = self.get_response(request)
        if not watch.first_failed or (connection.connection is not None and connection.is_usable()):
            return response  # nothing failed, or the connection works: the failure was the statement's own
        if request._read_started and not hasattr(request, "_body"):
            return response  # the body went by as a stream: it cannot be read a second time
        logger.info("the kept database connection was lost; %s %s runs again on a new one",
                    request.method, request.path)
        try:
            connection.close()
        except _LOST:  # closing a dead connection may fail too: it is gone either way
            pass
        return self.get_response(request)


def without_health_check(function, **kwargs):
    """Call ``function(**kwargs)`` (database work of the stream process) without Django's ``SELECT 1`` on a kept
    connection; if its first statement met a dead connection, call it again, once, on a new one.

    As for a request (``ReconnectMiddleware``), the call is run again only when its first statement failed
    and the connection is unusable: nothing of it reached the database.
    """
    if connection.connection is None:
        return function(**kwargs)
    connection.health_check_done = True
    watch = FirstStatementWatch()
    try:
        with connection.execute_wrapper(watch):
            return function(**kwargs)
    except _LOST:
        if not watch.first_failed or (connection.connection is not None and connection.is_usable()):
            raise
    logger.info("the kept database connection was lost; %s runs again on a new one", function.__name__)
    try:
        connection.close()
    except _LOST:
        pass
    return function(**kwargs)
