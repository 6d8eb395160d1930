"""Write users' events in the transaction of the change they tell of; prune the old ones.

Other apps call ``events_record`` (or ``row_insert_with_events``) with rows
already worded for each user: this app knows no game, engine or chat, so it
imports none of them, and every app may call it.

Why a lock per user: the stream resumes after the last id a client saw
(``id > Last-Event-ID``), which is only safe if a user's events become visible
in the order of their ids. Ids come from a sequence when a row is written, and
two transactions can commit in the other order; so each write first takes a
transaction lock per recipient (in user order, so two writes never wait on
each other in a circle) and holds it to its commit. Whoever writes to the same
user next gets a later id and commits later. It costs no statement: the locks
are taken inside the insert itself.

The insert also wakes the stream processes: a statement trigger (migration
0001) sends a PostgreSQL NOTIFY naming the users, which is delivered when the
transaction commits, and never when it rolls back.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection
from django.db.models import Model, QuerySet
from django.utils import timezone

from turnbased.kit.db import one_statement
from turnbased.events.models import Event

# The first key of the transaction locks taken per recipient (PostgreSQL's two-key advisory locks); the
# second is the user's id. "EVNT" in ASCII, so the locks are recognisable in pg_locks.
LOCK_SPACE = 0x45564E54
# Rows deleted per statement when pruning, so no statement holds many row locks or runs long.
PRUNE_BATCH = 5000


@dataclass(frozen=True)
class NewEvent:
    """An event to write: its user, kind, game and seq, and the payload as that user may read it."""

    user_id: int
    kind: str
    game_id: int | None = None
    seq: int | None = None
    payload: dict = field(default_factory=dict)


def _json(payload: dict) -> str:
    return json.dumps(payload, cls=DjangoJSONEncoder, separators=(",", ":"))


def _insert_sql(events: Sequence[NewEvent], *, lock_user_ids: Iterable[int], unless: QuerySet | None,
                source: str | None = None, source_id_key: str | None = None, locked: str = "locked",
                written: str = "written") -> tuple[str, list]:
    """Return the locks and the insert as two CTEs (named ``locked`` and ``written``) of one statement, and their
    parameters.

    With ``source`` (the name of an earlier CTE returning ``id``) each payload gets that row's id under
    ``source_id_key``.
    """
    quote = connection.ops.quote_name
    users = sorted({*lock_user_ids, *(event.user_id for event in events)})
    payload, source_join, source_params = "v.payload", "", []
    if source is not None:
        payload, source_join, source_params = f"v.payload || jsonb_build_object(%s, {source}.id)", f", {source}", [
            source_id_key]
    values, value_params = [], []
    for event in events:
        values.append("(%s::integer, %s, %s::bigint, %s::integer, %s::jsonb)")
        value_params += [event.user_id, event.kind, event.game_id, event.seq, _json(event.payload)]
    columns = ", ".join(quote(column) for column in ("user_id", "kind", "game_id", "seq", "payload", "created_at"))
    # The one-time filter on the locks' count runs before any row is produced, so every lock is held
    # before the sequence hands out the first id. unnest keeps the users' order: the locks are taken in it.
    sql = (
        f"{locked} AS MATERIALIZED (SELECT pg_advisory_xact_lock(%s, u) FROM unnest(%s::integer[]) AS u), "
        f"{written} AS (INSERT INTO {quote(Event._meta.db_table)} ({columns}) "
        f"SELECT v.user_id, v.kind, v.game_id, v.seq, {payload}, %s::timestamptz "
        f"FROM (VALUES {', '.join(values)}) AS v(user_id, kind, game_id, seq, payload){source_join} "
        f"WHERE (SELECT count(*) FROM {locked}) >= 0"
    )
    params = [LOCK_SPACE, users, *source_params, timezone.now(), *value_params]
    if unless is not None:
        unless_sql, unless_params = unless.query.sql_with_params()
        sql += f" AND v.user_id NOT IN ({unless_sql})"
        params += list(unless_params)
    return sql + " RETURNING 1)", params


def events_record(*, events: Sequence[NewEvent], lock_user_ids: Iterable[int] = (),
                  unless: QuerySet | None = None) -> None:
    """Write ``events`` in one statement; call inside the transaction of the change they tell of.

    ``lock_user_ids`` are locked with the recipients: a service that writes events more than once in
    a transaction passes the same set each time (a game's players), so its later writes take no lock
    in another order. ``unless`` is a query of user ids that get none of these events (those who
    muted the author of a message, say). Effects: the rows, and a wake-up for the stream processes
    when the transaction commits. Inside a ``one_statement.together()`` block (a move) the insert goes with
    the block's other writes: the locks are still taken before the rows get their ids.
    """
    if not events:
        return
    sql, params = _insert_sql(events, lock_user_ids=lock_user_ids, unless=unless,
                              locked=one_statement.name("locked"), written=one_statement.name("written"))
    one_statement.write(sql, params)


def row_insert_with_events(*, instance: Model, events: Sequence[NewEvent], source_id_key: str,
                           lock_user_ids: Iterable[int] = (), unless: QuerySet | None = None) -> None:
    """Insert ``instance`` (a new row) and the events announcing it in one statement, so both or neither are
    written even outside a transaction; each payload gets the new row's id under ``source_id_key``.

    Sets the instance's primary key, as ``save()`` would. ``unless`` and ``lock_user_ids`` as for
    ``events_record``.
    """
    quote = connection.ops.quote_name
    meta = instance._meta
    fields = [field for field in meta.concrete_fields if not field.primary_key]
    for model_field in fields:  # auto_now_add and other values set when a row is added
        if getattr(model_field, "auto_now_add", False) or getattr(model_field, "auto_now", False):
            setattr(instance, model_field.attname, timezone.now())
    row_values = [model_field.get_db_prep_save(getattr(instance, model_field.attname), connection)
                  for model_field in fields]
    source = (
        f"source AS (INSERT INTO {quote(meta.db_table)} ({', '.join(quote(f.column) for f in fields)}) "
        f"VALUES ({', '.join(['%s'] * len(fields))}) RETURNING {quote(meta.pk.column)} AS id)"
    )
    if events:
        events_sql, events_params = _insert_sql(events, lock_user_ids=lock_user_ids, unless=unless, source="source",
                                                source_id_key=source_id_key)
        sql, params = f"WITH {source}, {events_sql} SELECT id FROM source", [*row_values, *events_params]
    else:
        sql, params = f"WITH {source} SELECT id FROM source", row_values
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        instance.pk = cursor.fetchone()[0]
    instance._state.adding = False
    instance._state.db = connection.alias


def events_prune(*, now: datetime | None = None) -> int:
    """Delete the events older than ``EVENTS_KEEP_DAYS``, a batch per statement; return how many.

    Running it twice, or in two workers at once, deletes each row once.
    """
    cutoff = (now or timezone.now()) - timedelta(days=settings.EVENTS_KEEP_DAYS)
    deleted = 0
    while True:
        batch = list(Event.objects.filter(created_at__lt=cutoff).order_by("id").values_list("id", flat=True)
                     [:PRUNE_BATCH])
        if not batch:
            return deleted
        count, _ = Event.objects.filter(id__in=batch).delete()
        deleted += count
        if len(batch) < PRUNE_BATCH:
            return deleted
