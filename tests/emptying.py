"""Emptying the test database after a test that commits (``transaction=True``, a live server), faster than flush.

Django's ``TransactionTestCase`` empties every table after each such test with ``flush``: one ``TRUNCATE`` of all
of them, which PostgreSQL carries out by giving each table and each of its indexes new files, half a second and
more for this project's tables on every such test, most of them empty. ``DELETE`` of a handful of rows costs next
to nothing, and the foreign keys Django makes are checked at the commit (deferred), when every table is empty.
Tables whose rows refuse ``DELETE`` (the append-only logs' triggers) are truncated, when they hold rows, with the
tables that refer to them. The rest is ``flush``'s: the same tables (Django's), and the post_migrate signal after,
unless Django's test case inhibits it. Its only receivers make the content types and the permissions again (a
third of a second more): while those two tables hold just what the signal made last time (the same number of
rows and the same highest id: ids only grow), they are left as they are and the signal is not sent.
"""

from __future__ import annotations

import weakref

from django.core.management.sql import emit_post_migrate_signal
from django.db import connections, transaction

# By database name: the tables with a trigger of their own on DELETE (row triggers that refuse it).
_refusing_delete: dict[str, list[str]] = {}


def _tables_refusing_delete(connection) -> list[str]:
    name = connection.settings_dict["NAME"]
    if name not in _refusing_delete:
        with connection.cursor() as cursor:
            # tgtype's bit 3 (8): the trigger fires on DELETE (PostgreSQL's TRIGGER_TYPE_DELETE).
            cursor.execute("SELECT DISTINCT tgrelid::regclass::text FROM pg_trigger "
                           "WHERE NOT tgisinternal AND tgtype & 8 = 8")
            _refusing_delete[name] = sorted(row[0].strip('"') for row in cursor.fetchall())
    return _refusing_delete[name]


# What post_migrate makes again after a flush: the content types and the permissions.
MADE_BY_POST_MIGRATE = ("django_content_type", "auth_permission")
_RECEIVERS_OF_POST_MIGRATE = {"create_contenttypes", "create_permissions"}
# By database name: (rows, highest id) of each table of MADE_BY_POST_MIGRATE just after post_migrate last ran.
_as_post_migrate_left_them: dict[str, tuple] = {}


def _made_by_post_migrate_now(cursor, quote) -> tuple:
    cursor.execute("SELECT " + ", ".join(f"(SELECT count(*) FROM {quote(table)}), (SELECT max(id) FROM {quote(table)})"
                                         for table in MADE_BY_POST_MIGRATE))
    return tuple(cursor.fetchone())


def empty_every_table(using: str, *, inhibit_post_migrate: bool) -> None:
    """Leave every table of Django's in database ``using`` as ``flush`` without resetting sequences does: empty, the
    content types and permissions made again (unless inhibited)."""
    connection = connections[using]
    tables = connection.introspection.django_table_names(only_existing=True, include_views=False)
    if not tables:
        return  # as flush: nothing to empty, and no post_migrate (it would fail on an empty database)
    quote = connection.ops.quote_name
    name = connection.settings_dict["NAME"]
    refusing = [table for table in _tables_refusing_delete(connection) if table in tables]
    only_its_receivers = {receiver.__name__ for receiver in _post_migrate_receivers()} <= _RECEIVERS_OF_POST_MIGRATE
    with transaction.atomic(using=using), connection.cursor() as cursor:
        kept = (not inhibit_post_migrate and only_its_receivers and set(MADE_BY_POST_MIGRATE) <= set(tables)
                and name in _as_post_migrate_left_them
                and _made_by_post_migrate_now(cursor, quote) == _as_post_migrate_left_them[name])
        emptied = [table for table in tables if not (kept and table in MADE_BY_POST_MIGRATE)]
        if refusing:
            cursor.execute("SELECT " + ", ".join(f"EXISTS (SELECT 1 FROM {quote(table)})" for table in refusing))
            holding = [table for table, has_rows in zip(refusing, cursor.fetchone()) if has_rows]
            if holding:
                cursor.execute(f"TRUNCATE {', '.join(map(quote, holding))} CASCADE")
        cursor.execute("SET CONSTRAINTS ALL DEFERRED")
        cursor.execute("; ".join(f"DELETE FROM {quote(table)}" for table in emptied if table not in refusing))
    if kept or inhibit_post_migrate:
        return
    emit_post_migrate_signal(0, False, using)
    if set(MADE_BY_POST_MIGRATE) <= set(tables):
        with connection.cursor() as cursor:
            _as_post_migrate_left_them[name] = _made_by_post_migrate_now(cursor, quote)


def _post_migrate_receivers() -> list:
    from django.db.models.signals import post_migrate

    # A receiver connected weakly (the default) is kept as a weak reference, else as itself.
    found = (reference() if isinstance(reference, weakref.ref) else reference
             for _, reference, *_ in post_migrate.receivers)
    return [receiver for receiver in found if receiver is not None]


def install() -> None:
    """Make Django's TransactionTestCase (pytest-django's transactional tests and live servers) empty the
    database with ``empty_every_table`` where it would flush all of it; a test case of some apps only
    (``available_apps``) still flushes, with its cascade."""
    from django.test import TransactionTestCase

    flush = TransactionTestCase._fixture_teardown

    def _fixture_teardown(self):
        if self.available_apps is not None:
            return flush(self)
        for db_name in self._databases_names(include_mirrors=False):
            # Django's own condition: a serialized rollback loads its data again, which post_migrate must not make.
            inhibit = self.serialized_rollback and hasattr(connections[db_name], "_test_serialized_contents")
            empty_every_table(db_name, inhibit_post_migrate=inhibit)

    TransactionTestCase._fixture_teardown = _fixture_teardown
