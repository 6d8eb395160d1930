"""Querysets compiled once per thread and run again with other values: for the queries every move makes.

Django builds and compiles a queryset's SQL on each evaluation. For the move's locking query (the
seats with their players, profiles, absences and clocks, the game and its time control, and the
move an idempotency key names: a dozen joins and subqueries) building and compiling cost several
times what PostgreSQL takes to answer it, and that on every move. A ``PreparedQuery`` builds the
queryset once with sentinel values, keeps the compiled SQL and the compiler's row layout, and on
each call fills the sentinels' parameter slots with the real values and turns the rows into model
instances exactly as the ORM's own ``ModelIterable`` does (converters, ``select_related`` objects,
annotations).

Compiled state is kept per thread: a compiler holds its database connection, and connections are
per thread.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db import connections, transaction
from django.db.models import Model, QuerySet
from django.db.models.query import get_related_populators


@dataclass(frozen=True)
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


class PreparedQuery:
    """A queryset with named holes, compiled once per thread.

    ``build(**values)`` must return the same query shape for any values; every value must reach the
    SQL as a parameter (a filter value, not a table or column name). ``sentinels`` gives one value
    per name that no real call uses, so its parameter slots can be found in the compiled SQL.
    """

    def __init__(self, build: Callable[..., QuerySet], **sentinels: Any):
        self._build = build
        self._sentinels = sentinels
        self._local = threading.local()

    def _compiled(self) -> _Compiled:
        compiled = getattr(self._local, "compiled", None)
        if compiled is not None and compiled.compiler.connection is connections[compiled.db]:
            return compiled
        queryset = self._build(**self._sentinels)
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
        self._local.compiled = compiled
        return compiled

    def __call__(self, **values: Any) -> list[Model]:
        """Run the query with ``values`` in the sentinels' places and return its model instances."""
        if set(values) != set(self._sentinels):
            raise TypeError(f"expected values for {sorted(self._sentinels)}")
        compiled = self._compiled()
        if compiled.compiler.query.select_for_update and not transaction.get_connection(compiled.db).in_atomic_block:
            raise transaction.TransactionManagementError("select_for_update cannot be used outside of a transaction.")
        params = filled(compiled.params, compiled.slots, values)
        with connections[compiled.db].cursor() as cursor:
            cursor.execute(compiled.sql, params)
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
