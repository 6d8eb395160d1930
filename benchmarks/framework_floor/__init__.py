"""The floors benchmarks/http_moves.py compares a move against, doing exactly a move's SQL.

A move locks its game's row, appends a row to the move log and writes the game's new JSON snapshot,
in one transaction. The floors do the same to tables of their own (one game row per client, a
snapshot of 1 KB): PostgreSQL's floor straight through psycopg2, the framework floor through a
minimal Django + DRF view (``urls.py``) with the service's token authentication, served by the
same gunicorn as the service (``settings.py`` adds the view's URL to the service's).

No Django here: the PostgreSQL floor imports the statements without loading Django.
"""

from __future__ import annotations

import json

CREATE_TABLES = """
CREATE TABLE IF NOT EXISTS bench_floor_game (
    id bigserial PRIMARY KEY,
    seq integer NOT NULL,
    state jsonb NOT NULL
);
CREATE TABLE IF NOT EXISTS bench_floor_move (
    id bigserial PRIMARY KEY,
    game_id bigint NOT NULL REFERENCES bench_floor_game (id),
    seq integer NOT NULL,
    move jsonb NOT NULL,
    UNIQUE (game_id, seq)
);
"""
CREATE_GAME = "INSERT INTO bench_floor_game (seq, state) VALUES (0, %s) RETURNING id"
LOCK_GAME = "SELECT seq FROM bench_floor_game WHERE id = %s FOR UPDATE"
INSERT_MOVE = "INSERT INTO bench_floor_move (game_id, seq, move) VALUES (%s, %s, %s)"
UPDATE_SNAPSHOT = "UPDATE bench_floor_game SET seq = %s, state = %s WHERE id = %s"
# What a move's body carries (a Love Letter move).
MOVE = {"card": "Guard", "target": 1, "guess": "Priest"}


def snapshot(seq: int) -> str:
    """Return a 1 KB JSON snapshot for position ``seq``."""
    return json.dumps({"seq": seq, "state": "x" * 1000})


def play_one_move(cursor, game_id: int, move: dict) -> int:
    """Run a move's statements on ``cursor`` (the caller commits); return the new seq."""
    cursor.execute(LOCK_GAME, [game_id])
    seq = cursor.fetchone()[0] + 1
    cursor.execute(INSERT_MOVE, [game_id, seq, json.dumps(move)])
    cursor.execute(UPDATE_SNAPSHOT, [seq, snapshot(seq), game_id])
    return seq
