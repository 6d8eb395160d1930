"""The parameters of a session that LISTENs: the event stream's wakeups and the dispatcher's work both hold one.

It is the default database's connection, or ``STREAM_LISTEN_DATABASE_URL``'s when set (PgBouncer in transaction
pooling cannot LISTEN), with TCP keepalives so that a LISTEN that stops answering (a network cut) is noticed.
"""

from __future__ import annotations

import environ
from django.conf import settings
from django.db import connections

# A LISTEN over TCP that stops answering (a network cut) is noticed by the kernel within about a minute.
KEEPALIVES = {"keepalives": 1, "keepalives_idle": 30, "keepalives_interval": 10, "keepalives_count": 3}
LISTEN_APPLICATION_NAME = "turnbased-stream-listen"


def listen_parameters() -> dict:
    """Return psycopg2's connection parameters for the LISTEN session: the default database's, or
    ``STREAM_LISTEN_DATABASE_URL``'s when set (PgBouncer in transaction pooling cannot LISTEN)."""
    parameters = {key: value for key, value in connections["default"].get_connection_params().items()
                  if key not in ("cursor_factory", "context")}
    if settings.STREAM_LISTEN_DATABASE_URL:
        url = environ.Env.db_url_config(settings.STREAM_LISTEN_DATABASE_URL)
        parameters = {"dbname": url["NAME"], "user": url.get("USER") or None, "password": url.get("PASSWORD") or None,
                      "host": url.get("HOST") or None, "port": url.get("PORT") or None, **url.get("OPTIONS", {})}
        parameters = {key: value for key, value in parameters.items() if value is not None}
    host = str(parameters.get("host") or "")
    if host and not host.startswith("/"):  # TCP, not a Unix socket
        parameters = {**KEEPALIVES, **parameters}
    parameters["application_name"] = LISTEN_APPLICATION_NAME  # so it shows as what it is in pg_stat_activity
    return parameters
