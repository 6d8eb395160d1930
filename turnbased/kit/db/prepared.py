"""Querysets compiled once per thread and run again with other values: for the queries every move makes.

Django builds and compiles a queryset's SQL on each evaluation. For the move's locking query (the
seats with their players, profiles, absences and clocks, the game and its time control, and the
move an idempotency key names: a dozen joins and subqueries) building and compiling cost several
times what PostgreSQL takes to answer it, and that on every move. A ``PreparedQuery`` builds the
queryset once with sentinel values, keeps the compiled SQL and the compiler's row layout, and on
each call fills the sentinels' parameter slots with the real values and turns the rows into model
instances exactly as the ORM's own ``ModelIterable`` does (converters, ``select_related`` objects,
annotations).

Compiled once per process and database alias: a thread that has not run the query yet gets a copy of the
first compiler bound to its own connection (a compiler holds its connection, and connections are per thread and
alias), not a compilation of its own; a server that answers each request in a new thread compiled every query
at every request otherwise.

PostgreSQL then plans such a statement again on every run, and planning the locking query cost it three
times its execution (``pg_stat_statements`` with ``track_planning``: 0.78 ms to plan, 0.25 to run). So
``prepared_statement`` also makes it a server-side prepared statement on each connection (``PREPARE``
sent with the first ``EXECUTE`` in one round trip), which PostgreSQL plans once per connection and keeps
(a generic plan after five runs). ``DATABASE_PREPARED_STATEMENTS=off`` turns that off, as it must be behind
PgBouncer in transaction pooling, where the next transaction may land on a server connection that never
saw the ``PREPARE``.
"""

from __future__ import annotations

import copy
import dataclasses
import itertools
import re
import threading
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from django.conf import settings
from django.db import connections, router, transaction
from django.db.models import Model, QuerySet
from django.db.models.query import get_related_populators


@dataclasses.dataclass(frozen=True)
class _Compiled:
    sql: str
    params: tuple
    slots: tuple[tuple[int, str], ...]  # (parameter position, sentinel name)
    compiler: Any
    db: str
    init_list: list[str]
    fields_start: int
    fields_end: int
    related_populators: list
    annotation_col_map: dict[str, int]


def parameter_slots(params, sentinels: dict[str, Any]) -> tuple[tuple[int, str], ...]:
    """Return where each sentinel value stands among a compiled statement's ``params``: (position, name) pairs.

    Raises ``ValueError`` when a sentinel is not among them (the statement would run with it).
    """
    slots = tuple((position, name) for position, value in enumerate(params) for name, sentinel in sentinels.items()
                  if type(value) is type(sentinel) and value == sentinel)
    missing = set(sentinels) - {name for _, name in slots}
    if missing:
        raise ValueError(f"the query does not use {sorted(missing)} as parameters")
    return slots


def filled(params, slots: tuple[tuple[int, str], ...], values: dict[str, Any]) -> list:
    """Return ``params`` with the real ``values`` in the sentinels' places."""
    given = list(params)
    for position, name in slots:
        given[position] = values[name]
    return given


BIGINT_MIN, BIGINT_MAX = -(2 ** 63), 2 ** 63 - 1


class PreparedQuery:
    """A queryset with named holes, compiled once per thread.

    ``build(**values)`` must return the same query shape for any values; every value must reach the
    SQL as a parameter (a filter value, not a table or column name) and be compared for equality. ``sentinels`` gives one value
    per name that no real call uses, so its parameter slots can be found in the compiled SQL.
    """

    def __init__(self, build: Callable[..., QuerySet], *, before: tuple[str, tuple[str, ...]] | None = None,
                 **sentinels: Any):
        """``before`` is SQL sent ahead of the query's own in the same statement (a data-modifying ``WITH``), with
        the names of the values its placeholders take, in order; a call gives them with the others."""
        self._build = build
        self._sentinels = sentinels
        self._before_sql, self._before_names = before or ("", ())
        self._names = set(sentinels) | set(self._before_names)
        self._local = threading.local()
        self._first_compiled: dict[str, _Compiled] = {}  # by database alias: what the first thread compiled
        self._shape: tuple[type[Model], bool] | None = None  # (model, whether a write), known after the first build

    def _database(self) -> str | None:
        """Return the alias the router sends this query to now (None before the first build shows its model).

        Asked at each call, not once: with a replica (``turnbased.kit.db.replica``) the same query reads the replica in a
        lag-tolerant view and the primary everywhere else. A statement that writes (``before``) or locks is a write.
        """
        if self._shape is None:
            return None
        model, for_write = self._shape
        return router.db_for_write(model) if for_write else router.db_for_read(model)

    def _compiled(self) -> _Compiled:
        by_database = getattr(self._local, "by_database", None)
        if by_database is None:
            by_database = self._local.by_database = {}
        alias = self._database()
        compiled = by_database.get(alias)
        if compiled is not None and compiled.compiler.connection is connections[compiled.db]:
            return compiled
        first = self._first_compiled.get(alias)
        if first is not None:  # another thread compiled it: the same SQL and row layout, on this thread's connection
            compiler = copy.copy(first.compiler)
            compiler.connection = connections[first.db]
            compiled = by_database[first.db] = dataclasses.replace(first, compiler=compiler)
            return compiled
        queryset = self._build(**self._sentinels)
        for_write = bool(self._before_sql) or queryset.query.select_for_update
        self._shape = (queryset.model, for_write)
        queryset = queryset.using(self._database())
        compiler = queryset.query.get_compiler(using=queryset.db)
        sql, params = compiler.as_sql()
        slots = parameter_slots(params, self._sentinels)
        select, klass_info = compiler.select, compiler.klass_info
        start, end = klass_info["select_fields"][0], klass_info["select_fields"][-1] + 1
        compiled = _Compiled(
            sql=sql,
            params=tuple(params),
            slots=slots,
            compiler=compiler,
            db=queryset.db,
            init_list=[column[0].target.attname for column in select[start:end]],
            fields_start=start,
            fields_end=end,
            related_populators=get_related_populators(klass_info, select, queryset.db),
            annotation_col_map=dict(compiler.annotation_col_map or {}),
        )
        by_database[compiled.db] = compiled
        unbound = copy.copy(compiler)
        unbound.connection = None  # kept for other threads, without holding on to this thread's connection
        self._first_compiled.setdefault(compiled.db, dataclasses.replace(compiled, compiler=unbound))
        return compiled

    def __call__(self, **values: Any) -> list[Model]:
        """Run the query with ``values`` in the sentinels' places and return its model instances."""
        if set(values) != self._names:
            raise TypeError(f"expected values for {sorted(self._names)}")
        compiled = self._compiled()
        if compiled.compiler.query.select_for_update and not transaction.get_connection(compiled.db).in_atomic_block:
            raise transaction.TransactionManagementError("select_for_update cannot be used outside of a transaction.")
        if any(type(value) is int and not BIGINT_MIN <= value <= BIGINT_MAX for value in values.values()):
            # A number no column can hold (an id from a URL) matches no row, as the ORM's own lookups answer it;
            # sent, it would fail as a parameter of the prepared statement's bigint type.
            return []
        params = [*(values[name] for name in self._before_names), *filled(compiled.params, compiled.slots, values)]
        connection = connections[compiled.db]
        with connection.cursor() as cursor, \
                prepared_statement(connection, self._before_sql + compiled.sql, params) as sql:
            cursor.execute(sql, params)
            rows = cursor.fetchall()
        model = compiled.compiler.klass_info["model"]
        instances = []
        for row in compiled.compiler.results_iter([rows]):
            instance = model.from_db(compiled.db, compiled.init_list, row[compiled.fields_start:compiled.fields_end])
            for populator in compiled.related_populators:
                populator.populate(row, instance)
            for name, position in compiled.annotation_col_map.items():
                setattr(instance, name, row[position])
            instances.append(instance)
        return instances


# -- server-side prepared statements -----------------------------------------------------------------

_PLACEHOLDER = re.compile(r"%%|%s")
_names = itertools.count(1)
_per_thread = threading.local()


def numbered(sql: str) -> tuple[str, int]:
    """Return ``sql`` with Django's ``%s`` placeholders as PostgreSQL's ``$1, $2, ...``, and how many there are.

    ``%%`` stays as it is: the ``EXECUTE`` that follows still goes through the driver's interpolation.
    """
    count = 0

    def number(match: re.Match) -> str:
        nonlocal count
        if match.group() == "%%":
            return "%%"
        count += 1
        return f"${count}"

    return _PLACEHOLDER.sub(number, sql), count


def _known(raw_connection) -> dict[str, str]:
    """Return the statements prepared on this driver connection, by their SQL (a new connection has none)."""
    by_connection = getattr(_per_thread, "by_connection", None)
    if by_connection is None:
        by_connection = _per_thread.by_connection = weakref.WeakKeyDictionary()
    known = by_connection.get(raw_connection)
    if known is None:
        known = by_connection[raw_connection] = {}
    return known


@contextmanager
def prepared_statement(connection, sql: str, params) -> Iterator[str]:
    """Yield the statement to run with ``params`` in place of ``sql``: ``EXECUTE`` of ``sql`` prepared on this
    connection, preceded by its ``PREPARE`` the first time (one round trip).

    ``sql`` is Django's (``%s`` placeholders, one per parameter) and must always get parameters of the same
    types. If running it fails the first time, it is prepared again, under a new name, next time: whether
    PostgreSQL kept it is not known (a ``PREPARE`` outlives a rollback, but not a failure of its own).
    """
    if not settings.DATABASE_PREPARED_STATEMENTS:
        yield sql
        return
    connection.ensure_connection()
    known = _known(connection.connection)
    arguments = ", ".join(["%s"] * len(params))
    name = known.get(sql)
    if name is not None:
        yield f"EXECUTE {name}({arguments})" if arguments else f"EXECUTE {name}"
        return
    body, count = numbered(sql)
    if count != len(params):
        raise ValueError(f"the statement has {count} placeholders for {len(params)} parameters")
    name = f"turnbased_{next(_names)}"
    execute = f"EXECUTE {name}({arguments})" if arguments else f"EXECUTE {name}"
    yield f"PREPARE {name} AS {body}; {execute}"
    known[sql] = name  # only once it ran: an exception leaves it unknown
