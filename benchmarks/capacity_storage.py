"""What moves cost PostgreSQL besides CPU, and what a finished game keeps: part of benchmarks/capacity.py.

* Transactions and rows per move: ``pg_stat_database`` of the scratch database before and after a window of
  moves. A backend reports its counts at most once a second, and a busy backend's last second only after it has
  been idle for ``PGSTAT_IDLE_INTERVAL`` (10 s): so the window is framed by quiet waits of ``STATS_SETTLE``.
* WAL bytes per move: ``pg_current_wal_insert_lsn()`` before and after the window itself (immediate).
* Storage per finished game: the rows a finished game left in each table, summed with ``pg_column_size`` (a row's
  bytes as stored: its header and its values, compressed where PostgreSQL compressed them); and on disk, the rows'
  bytes times what the whole table (heap, indexes, TOAST, free space) takes over its rows' bytes at the end of the
  run.
"""

from __future__ import annotations

import os

# As every script here: one loopback address plays many accounts (read when Django loads).
os.environ["RATE_LIMITS"] = "off"

# pgstat.c: a backend flushes its counts at most every second (PGSTAT_MIN_INTERVAL) and, once idle, at most 10 s
# (PGSTAT_IDLE_INTERVAL) after a flush it had to put off.
STATS_SETTLE = 10.5

COUNTERS = ("xact_commit", "xact_rollback", "tup_inserted", "tup_updated", "tup_deleted")


class DatabaseCounters:
    """Readings of the scratch database's counters through a connection of its own (autocommit: each reading is
    fresh, not the statistics snapshot of an open transaction)."""

    def __init__(self, database_url: str):
        import psycopg2

        self.connection = psycopg2.connect(database_url)
        self.connection.autocommit = True

    def read(self) -> dict[str, int]:
        with self.connection.cursor() as cursor:
            cursor.execute("SELECT pg_stat_force_next_flush()")  # this connection's own counts are in, too
            cursor.execute(f"SELECT {', '.join(COUNTERS)} FROM pg_stat_database WHERE datname = current_database()")
            values = dict(zip(COUNTERS, cursor.fetchone()))
        values["wal_bytes"] = self.wal()
        return values

    def wal(self) -> int:
        with self.connection.cursor() as cursor:
            cursor.execute("SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), '0/0')::bigint")
            return cursor.fetchone()[0]

    def close(self) -> None:
        self.connection.close()


def per_move(before: dict[str, int], after: dict[str, int], wal: tuple[int, int], moves: int) -> dict[str, float]:
    """Return what a move cost the database from two readings and the WAL position around the window.

    The two readings are themselves transactions (two each), counted against the moves: a few in hundreds.
    """
    counts = {name: (after[name] - before[name]) / moves for name in COUNTERS}
    return {
        "transactions": counts["xact_commit"] + counts["xact_rollback"],
        "rows_inserted": counts["tup_inserted"],
        "rows_updated": counts["tup_updated"],
        "rows_deleted": counts["tup_deleted"],
        "wal_bytes": (wal[1] - wal[0]) / moves,
    }


# -- storage ------------------------------------------------------------------------------------------------


def tables() -> dict[str, list[tuple[str, str]]]:
    """Return, by part of what a game keeps, each table and how its rows of the games ``%(games)s`` are found."""
    from turnbased.events.models import Event
    from turnbased.mail.models import OutgoingEmail
    from turnbased.notifications.models import Notification
    from turnbased.play.models import Game, Move, Seat
    from turnbased.ratings.models import RatingChange
    from turnbased.webhooks.models import WebhookDelivery

    def name(model) -> str:
        return model._meta.db_table

    events, notifications = name(Event), name(Notification)
    return {
        "log": [(name(Move), "t.game_id = ANY(%(games)s)")],
        "snapshot": [(name(Game), "t.id = ANY(%(games)s)"), (name(Seat), "t.game_id = ANY(%(games)s)")],
        "events": [(events, "t.game_id = ANY(%(games)s)")],
        "outbox": [
            (notifications, "t.game_id = ANY(%(games)s)"),
            (name(OutgoingEmail), f"t.notification_id IN (SELECT id FROM {notifications} "
                                  "WHERE game_id = ANY(%(games)s))"),
            (name(WebhookDelivery), f"t.event_id IN (SELECT id FROM {events} WHERE game_id = ANY(%(games)s))"),
        ],
        "records": [(name(RatingChange), "t.game_id = ANY(%(games)s)")],
    }


def storage_per_game(game_ids: list[int]) -> dict:
    """Return the rows' bytes and the estimated bytes on disk a finished game keeps, by part, averaged over
    ``game_ids``, with the moves those games had and each table's factor from rows to disk."""
    from django.db import connection

    from turnbased.play.models import Move

    if not game_ids:
        return {}
    row_bytes, disk_bytes, factors = {}, {}, disk_factors()
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT count(*) FROM {Move._meta.db_table} WHERE game_id = ANY(%s)", [game_ids])
        moves = cursor.fetchone()[0] / len(game_ids)
        for part, found in tables().items():
            row_bytes[part] = disk_bytes[part] = 0.0
            for table, where in found:
                cursor.execute(f"SELECT coalesce(sum(pg_column_size(t.*)), 0) FROM {table} AS t WHERE {where}",
                               {"games": game_ids})
                rows = cursor.fetchone()[0] / len(game_ids)
                row_bytes[part] += rows
                disk_bytes[part] += rows * factors[table]
    return {"games": len(game_ids), "moves": moves, "row_bytes": row_bytes, "disk_bytes": disk_bytes,
            "disk_factors": factors}


# Below this a table's size is mostly its first pages (each index's metapage and root): its factor says nothing.
WEIGHED_FROM = 1024 * 1024


def disk_factors() -> dict[str, float]:
    """Return, for each table a game keeps rows in, what it takes on disk (heap, TOAST, indexes, free space and the
    dead rows vacuum has not yet reclaimed) over its live rows' bytes. A table too small to tell is given the move
    log's factor (a table of appended rows with two B-tree indexes, measured on thousands of rows)."""
    from django.db import connection

    found = {table for parts in tables().values() for table, _ in parts}
    measured = {}
    with connection.cursor() as cursor:
        for table in sorted(found):
            cursor.execute(f"SELECT pg_total_relation_size('{table}'), coalesce(sum(pg_column_size(t.*)), 0) "
                           f"FROM {table} AS t")
            total, rows = cursor.fetchone()
            measured[table] = total / rows if total >= WEIGHED_FROM and rows else None
    log = measured[tables()["log"][0][0]] or 1.0
    return {table: factor or log for table, factor in measured.items()}


def row_bytes_of(table_model, where: str, params: list) -> float:
    """Return the mean bytes of the rows of a table that ``where`` chooses (an email, a delivery), 0 for none."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(f"SELECT coalesce(avg(pg_column_size(t.*)), 0) FROM {table_model._meta.db_table} AS t "
                       f"WHERE {where}", params)
        return float(cursor.fetchone()[0])
