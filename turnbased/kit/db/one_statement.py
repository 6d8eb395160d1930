"""The writes of one change sent to PostgreSQL as one statement: the parts of one data-modifying ``WITH``.

A move writes the log and its snapshot, the turn notifications, the seat clocks and its players' event
rows. Sent as each is made, that is four round trips, each with its own parse, plan and wait; inside
``together()`` each writer hands its statement over instead (``write``) and they go as the parts of one
``WITH`` when the block ends, or sooner: just before any other statement runs on the connection. So
every statement still runs after the writes made before it, and a read sees them, as if each write had
been sent at once; only the round trips are fewer.

What a part may be, as PostgreSQL allows a data-modifying ``WITH`` query: an INSERT, UPDATE or DELETE
(with RETURNING when another part or the result reads it), or a SELECT. The parts of one statement see
the database as the statement began, never each other's rows, and no two of them may change the same
row (PostgreSQL would apply one of them, unpredictably). So a writer whose statement reads what
another part writes, or changes a row another part changes, runs on its own: it is not handed over.

A block left by an exception sends nothing: the change it was part of is being undone (every caller
runs inside the change's transaction, which the exception rolls back).

Outside ``together()``, ``write`` sends its statement at once, so the writers work the same anywhere.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from django.db import connection
from django.db.models import Case, Model, QuerySet, Value, When
from django.db.models.functions import Cast
from django.db.models.sql import InsertQuery, UpdateQuery
from django.db.models.constants import OnConflict


@dataclass
class _Part:
    sql: str  # one or more WITH queries, "name AS (...), other AS (...)"
    params: list
    result: str | None  # a scalar SQL expression over the part's own queries, or None
    then: Callable[[Any], None] | None  # given the result's value once the statement ran


@dataclass
class _Batch:
    parts: list[_Part] = field(default_factory=list)
    names: int = 0
    sending: bool = False


def _batch() -> _Batch | None:
    return getattr(connection, "_one_statement_batch", None)


def name(stem: str) -> str:
    """Return a name for a ``WITH`` query no other part of the statement uses (``stem`` and a number)."""
    batch = _batch()
    if batch is None:
        return f"{stem}_0"
    batch.names += 1
    return f"{stem}_{batch.names}"


def write(sql: str, params: Sequence, *, result: str | None = None,
          then: Callable[[Any], None] | None = None) -> None:
    """Send the ``WITH`` queries ``sql`` (named with ``name``) now, or with the block's other writes.

    ``result``: an SQL expression read after the statement ran (a scalar subquery over this part's own
    queries, say the id a RETURNING gave), handed to ``then``.
    """
    part = _Part(sql, list(params), result, then)
    batch = _batch()
    if batch is None:
        _send([part])
    else:
        batch.parts.append(part)


def _send(parts: list[_Part]) -> None:
    results = ", ".join(part.result or "NULL" for part in parts)
    sql = f"WITH {', '.join(part.sql for part in parts)} SELECT {results}"
    with connection.cursor() as cursor:
        cursor.execute(sql, [param for part in parts for param in part.params])
        row = cursor.fetchone()
    for part, value in zip(parts, row):
        if part.then is not None:
            part.then(value)


def _flush(batch: _Batch) -> None:
    parts, batch.parts = batch.parts, []
    if not parts:
        return
    batch.sending = True
    try:
        _send(parts)
    finally:
        batch.sending = False


@contextmanager
def together() -> Iterator[None]:
    """Send the writes made in this block as one statement, sent when it ends or before any other statement.

    Inside another ``together()`` block this one is part of it.
    """
    if _batch() is not None:
        yield
        return
    batch = _Batch()

    def send_writes_first(execute, sql, params, many, context):
        if batch.parts and not batch.sending:
            _flush(batch)
        return execute(sql, params, many, context)

    connection._one_statement_batch = batch
    try:
        with connection.execute_wrapper(send_writes_first):
            yield
            _flush(batch)
    finally:
        connection._one_statement_batch = None


# -- statements the ORM would send, as parts ------------------------------------------------------


def insert(objects: Iterable[Model], *, ignore_conflicts: bool = False, update_conflicts: bool = False,
           unique_fields: Sequence[str] = (), update_fields: Sequence[str] = ()) -> tuple[str, list]:
    """Return the INSERT of ``objects`` (new rows of one model) as ``bulk_create`` would send it with the same
    arguments, without RETURNING: for rows whose ids nobody reads."""
    objects = list(objects)
    model = type(objects[0])
    # The primary key goes with the rows when they have one (a one-to-one key), as ``bulk_create`` sends it.
    with_key = all(row._is_pk_set() for row in objects)
    fields = [model_field for model_field in model._meta.concrete_fields
              if not model_field.generated and (with_key or not model_field.primary_key)]
    on_conflict = OnConflict.IGNORE if ignore_conflicts else OnConflict.UPDATE if update_conflicts else None
    query = InsertQuery(
        model, on_conflict=on_conflict,
        unique_fields=[model._meta.get_field(name) for name in unique_fields] or None,
        update_fields=[model._meta.get_field(name) for name in update_fields] or None,
    )
    query.insert_values(fields, objects)
    compiler = query.get_compiler(connection=connection)
    compiler.returning_fields = None
    [(sql, params)] = compiler.as_sql()
    return sql, list(params)


def bulk_update(objects: Sequence[Model], fields: Sequence[str]) -> tuple[str, list]:
    """Return the UPDATE ``QuerySet.bulk_update(objects, fields)`` sends for a batch: one CASE per field."""
    model = type(objects[0])
    updates = {}
    for model_field in (model._meta.get_field(field_name) for field_name in fields):
        whens = [When(pk=row.pk, then=Value(getattr(row, model_field.attname), output_field=model_field))
                 for row in objects]
        case = Case(*whens, output_field=model_field)
        if connection.features.requires_casted_case_in_updates:
            case = Cast(case, output_field=model_field)
        updates[model_field.attname] = case
    return update(model._default_manager.filter(pk__in=[row.pk for row in objects]), **updates)


def update(queryset: QuerySet, **values: Any) -> tuple[str, list]:
    """Return the UPDATE ``queryset.update(**values)`` sends (a plain filter, no joins)."""
    query = queryset.query.chain(UpdateQuery)
    query.add_update_values(values)
    sql, params = query.get_compiler(connection=connection).as_sql()
    return sql, list(params)
