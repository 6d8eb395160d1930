"""What one request costs: the SQL statements it runs and the bytes it answers.

Every statement the database connection executes is counted (Django's
``CaptureQueriesContext``, as pytest-django's ``django_assert_num_queries``),
savepoints and their releases included. Under ``transaction=True`` tests a
request's ``transaction.atomic()`` is a real transaction, as in production,
and its BEGIN and COMMIT are counted too. A statement run as a server-side prepared statement
(``turnbased/kit/db/prepared.py``) counts once, its ``PREPARE`` sent with its first ``EXECUTE`` included, and is
shown as the SQL it runs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from tests.platform.conftest import api_token


@dataclass(frozen=True)
class Cost:
    statements: int
    size: int
    status: int
    sql: tuple[str, ...]

    def __str__(self) -> str:
        return f"{self.statements} statements, {self.size} bytes (status {self.status})"


def measured(send) -> tuple[Cost, object]:
    """Return what ``send()`` (one request through a test client) cost, and its response."""
    with CaptureQueriesContext(connection) as captured:
        response = send()
    body = b"".join(response.streaming_content) if response.streaming else response.content
    sql = tuple(prepared_as_sql(query["sql"]) for query in captured.captured_queries)
    return Cost(len(sql), len(body), response.status_code, sql), response


_PREPARED = re.compile(r"PREPARE (\w+) AS (.*?); EXECUTE \1\b.*", re.S)
_EXECUTED = re.compile(r"EXECUTE (\w+)\b")


def prepared_as_sql(sql: str) -> str:
    """Return the SQL a statement runs: a prepared statement's own (with ``$1``-style placeholders)."""
    if found := _PREPARED.fullmatch(sql):
        return found.group(2)
    if found := _EXECUTED.match(sql):
        with connection.cursor() as cursor:
            cursor.execute("SELECT statement FROM pg_prepared_statements WHERE name = %s", [found.group(1)])
            return _PREPARED.fullmatch(cursor.fetchone()[0]).group(2)
    return sql


def token_client(user) -> APIClient:
    """Return an API client with a new token: its first request also notes the token's ``last_used_at``."""
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {api_token(user)}")
    return client
