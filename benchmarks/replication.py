"""Measure what a streaming replica costs a move, asynchronous and synchronous, and what a failover keeps of each.

    .venv/bin/python benchmarks/replication.py [--rounds 5] [--seconds 3] [--clients 1,4] [--quick]

On a primary and its streaming replica of their own (``turnbased/local/replica.py``: PostgreSQL 16.2 from the
``pgserver`` wheel, fresh clusters in a temporary folder, the primary migrated) and a fresh embedded Redis,
gunicorn serves the service with the production settings and ``RATE_LIMITS=off``, reading the primary and,
where a view tolerates lag, the replica (``DATABASE_REPLICA_URL``). Interleaved, in each round, for each
client count and each way the primary waits for the replica (switched on the same two servers with
``ALTER SYSTEM`` and a reload):

* **async**: the replica streams, a commit does not wait for it (``synchronous_standby_names`` empty);
* **sync**: ``synchronous_standby_names`` names it and ``synchronous_commit`` is ``on``: a commit returns
  once the replica has written its WAL to disk;
* **remote_apply**: and once the replica has replayed it (what every replica read seeing every commit would
  cost; the router waits for the mover's own commit alone, ``turnbased/kit/db/replica.py``),

it measures PostgreSQL's commit floor (each client commits a move's SQL, ``benchmarks/framework_floor``, through
psycopg2) and moves (each client plays Love Letter through the REST API: GET legal-moves, then POST a move).
With replication async, the moves are measured on two more gunicorns: one with the replica but
``READ_YOUR_WRITES_SECONDS=0``, and one without the replica: what read your writes costs a move (a
``SELECT pg_current_wal_insert_lsn()`` and a cache write), and what the router costs. The cells of a round
come in another order each round; rates and the p50s of a commit and of a move's POST (steadier than rates on
shared cores) are medians of rounds, ratios medians of per-round ratios.

Then the failover drill at the database, once synchronous and once asynchronous, each on a new pair: clients
commit moves and count those whose commit returned (acknowledged), the replica loses its link to the primary,
the primary is SIGKILLed a second later, the replica is promoted, and the acknowledged moves missing from it
are counted.
"""

from __future__ import annotations

import os

os.environ["RATE_LIMITS"] = "off"  # every client comes from one loopback address: measure speed, not limits

import argparse  # noqa: E402
import queue  # noqa: E402
import secrets  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402
from contextlib import ExitStack  # noqa: E402
from pathlib import Path  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks import framework_floor  # noqa: E402
from benchmarks.http_moves import Cell, Server, machine_lines, make_floor_games, make_players, moves_run  # noqa: E402
from benchmarks.http_moves import new_table  # noqa: E402
from benchmarks.http_moves import postgres_floor  # noqa: E402
from turnbased.local import services as local  # noqa: E402
from turnbased.local.replica import STANDBY_NAME, Pair, primary_and_replica  # noqa: E402

MODES = {
    "async": ("", "on"),
    "sync": (STANDBY_NAME, "on"),
    "remote_apply": (STANDBY_NAME, "remote_apply"),
}
# What each gunicorn adds to the servers' environment: the replica with read your writes, without it, or none.
SERVED = {
    "replica": lambda pair: {"DATABASE_REPLICA_URL": pair.replica.url()},
    "replica, no RYW": lambda pair: {"DATABASE_REPLICA_URL": pair.replica.url(), "READ_YOUR_WRITES_SECONDS": "0"},
    "no replica": lambda pair: {},
}
# A round's cells: (the replication mode, the gunicorn), each mode on the gunicorn with the replica, and async on
# the other two.
CELLS = [*((mode, "replica") for mode in MODES), ("async", "replica, no RYW"), ("async", "no replica")]


def label(cell: tuple[str, str]) -> str:
    mode, served = cell
    return mode if served == "replica" else f"{mode}, {served}"


def set_mode(pair: Pair, mode: str) -> None:
    """Make the primary wait for the replica as ``mode`` says, for every session (a reload reaches them all)."""
    standby, commit = MODES[mode]
    pair.primary.sql(f"ALTER SYSTEM SET synchronous_standby_names = '{standby}'")
    pair.primary.sql(f"ALTER SYSTEM SET synchronous_commit = '{commit}'")
    pair.primary.sql("SELECT pg_reload_conf()")
    pair.synchronous = bool(standby)
    pair.wait_streaming()
    time.sleep(0.2)  # the reload reaches each backend at its next command


def environment_for(pair: Pair, folder: Path, broker_url: str) -> dict[str, str]:
    environment = {
        **os.environ,
        "DATABASE_URL": pair.primary.url(),
        "CELERY_BROKER_URL": broker_url,  # no worker: tasks wait in Redis, outside every measurement
        "CACHE_URL": broker_url.rsplit("/", 1)[0] + "/1",
        "DJANGO_SETTINGS_MODULE": "turnbased.settings",
        "DJANGO_DEBUG": "false",
        "DJANGO_HTTPS": "off",  # plain HTTP on loopback, no nginx in front
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(64),
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
        "TURNBASED_DATA_DIR": str(folder / "data"),
        "PYTHONPATH": str(ROOT),
    }
    for name in ("CELERY_TASK_ALWAYS_EAGER", "WORK_DISPATCH", "DATABASE_REPLICA_URL"):
        environment.pop(name, None)
    return environment


def measure(args, pair: Pair, folder: Path, broker_url: str) -> None:
    import django
    from django.core.management import call_command
    from django.db import connection

    environment = environment_for(pair, folder, broker_url)
    os.environ.update(environment)
    django.setup()
    call_command("migrate", verbosity=0)
    most = max(args.clients)
    floor_games = make_floor_games(most)
    players = make_players(2 * most, "replicated")
    connection.close()

    servers = {served: Server({**environment, **adds(pair)}, folder / f"gunicorn-{number}.log")
               for number, (served, adds) in enumerate(SERVED.items())}
    for line in machine_lines(pair.primary.url()):
        print(line)
    print(f"{args.rounds} rounds of {args.seconds:g} s per measurement; clients {', '.join(map(str, args.clients))}; "
          "a connection per request", flush=True)

    def tables_for(clients: int) -> queue.Queue:
        tables: queue.Queue = queue.Queue()
        for number in range(clients * 2 + int(80 * args.seconds / 20)):
            index = number % clients
            tables.put(new_table([players[2 * index], players[2 * index + 1]]))
        return tables

    cells: dict = {}
    try:
        for server in servers.values():
            server.start()
        set_mode(pair, "async")
        for server in servers.values():  # warm up: every worker imports what a move needs
            moves_run(server, tables_for(most), most, 2.0, seed=0)
        for round_number in range(1, args.rounds + 1):
            # Each round takes the cells in another order: none is always measured first, or just after another.
            order = CELLS[round_number % len(CELLS):] + CELLS[:round_number % len(CELLS)]
            for clients in args.clients:
                for cell in order:
                    mode, served = cell
                    set_mode(pair, mode)
                    if served == "replica":
                        cells.setdefault(("floor", mode, clients), Cell()).runs.append(
                            postgres_floor(pair.primary.url(), floor_games[:clients], args.seconds))
                    cells.setdefault(("moves", cell, clients), Cell()).runs.append(
                        moves_run(servers[served], tables_for(clients), clients, args.seconds, seed=round_number))
            print(f"round {round_number} of {args.rounds} done", flush=True)
    finally:
        for server in servers.values():
            server.stop()
    print_costs(cells, args.clients)


def _p50(run, kind: str) -> float:
    return statistics.median(sample.seconds for sample in run.of(kind))


def _ratio(numerators: list[float], denominators: list[float]) -> float:
    """Return the median of per-round ratios (a round's cells ran minutes apart at most, on the same load)."""
    return statistics.median(n / d for n, d in zip(numerators, denominators) if d)


def print_costs(cells: dict, client_counts: list[int]) -> None:
    print("\nA move's cost by replication mode (rates and p50: median of rounds; ratios: median of per-round ratios)")
    header = (f"{'clients':>7}  {'mode':<26} {'commits/s':>10} {'commit p50':>10} {'moves/s':>8} {'POST p50':>9}"
              f" {'moves/commits':>14} {'commit / async':>15} {'POST / async':>13} {'5xx':>4}")
    print(header)
    print("-" * len(header))
    for clients in client_counts:
        commit_p50 = {mode: [_p50(run, "commit") for run in cells[("floor", mode, clients)].runs] for mode in MODES}
        post_p50 = {cell: [_p50(run, "POST move") for run in cells[("moves", cell, clients)].runs] for cell in CELLS}
        for cell in CELLS:
            mode, served = cell
            moves = cells[("moves", cell, clients)]
            move_rates = [run.rate("POST move", 201) for run in moves.runs]
            if served == "replica":
                floor = cells[("floor", mode, clients)]
                commit_rates = [run.rate() for run in floor.runs]
                commits = (f"{floor.rate():10.1f} {statistics.median(commit_p50[mode]) * 1000:7.2f} ms",
                           f"{_ratio(move_rates, commit_rates) * 100:12.1f} % "
                           f"{_ratio(commit_p50[mode], commit_p50['async']):13.2f} x")
            else:
                commits = (f"{'':>10} {'':>10}", f"{'':>14} {'':>15}")
            print(f"{clients:>7}  {label(cell):<26} {commits[0]} {moves.rate('POST move', 201):8.1f} "
                  f"{statistics.median(post_p50[cell]) * 1000:6.1f} ms {commits[1]} "
                  f"{_ratio(post_p50[cell], post_p50[('async', 'replica')]):11.2f} x {moves.server_errors():>4}")
            for error in sorted(set(moves.errors())):
                print(f"{'':>9}client error: {error}")
    print("(RYW: read your writes, READ_YOUR_WRITES_SECONDS=0 turns it off; no replica: DATABASE_REPLICA_URL unset)")


def drill(synchronous: bool, clients: int, seconds: float, stalled: float) -> tuple[int, int, int]:
    """Commit moves from ``clients`` threads, cut the replica's link, kill the primary, promote the replica;
    return (moves acknowledged, of them after the cut, of them missing on the promoted replica)."""
    import psycopg2

    with primary_and_replica(synchronous=synchronous) as pair:
        games = []
        setup = psycopg2.connect(pair.primary.url())
        with setup.cursor() as cursor:
            cursor.execute(framework_floor.CREATE_TABLES)
            for _ in range(clients):
                cursor.execute(framework_floor.CREATE_GAME, [framework_floor.snapshot(0)])
                games.append(cursor.fetchone()[0])
        setup.commit()
        setup.close()
        acknowledged: list[tuple[int, int, float]] = []  # (game, seq, when its commit returned)
        stop = threading.Event()

        def play(game: int) -> None:
            try:
                session = psycopg2.connect(pair.primary.url())
                while not stop.is_set():
                    with session.cursor() as cursor:
                        seq = framework_floor.play_one_move(cursor, game, framework_floor.MOVE)
                    session.commit()
                    acknowledged.append((game, seq, time.monotonic()))
            except psycopg2.Error:
                return  # the primary died: this move was never acknowledged

        threads = [threading.Thread(target=play, args=(game,), daemon=True) for game in games]
        for thread in threads:
            thread.start()
        time.sleep(seconds)
        cut = time.monotonic()
        pair.cut_the_link()
        time.sleep(stalled)
        pair.primary.kill()
        stop.set()
        for thread in threads:
            thread.join(30)
        pair.replica.promote()
        reader = psycopg2.connect(pair.replica.url())
        with reader.cursor() as cursor:
            cursor.execute("SELECT game_id, seq FROM bench_floor_move")
            kept = set(cursor.fetchall())
        reader.close()
    missing = [(game, seq) for game, seq, _ in acknowledged if (game, seq) not in kept]
    return len(acknowledged), sum(1 for *_, at in acknowledged if at > cut), len(missing)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds (default 5)")
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds per measurement (default 3)")
    parser.add_argument("--clients", default="1,4", help="client counts (default 1,4)")
    parser.add_argument("--quick", action="store_true", help="1 round of 2 s: about a minute and a half")
    args = parser.parse_args()
    args.clients = sorted({int(value) for value in args.clients.split(",")})
    if args.quick:
        args.rounds, args.seconds = 1, 2.0
    with ExitStack() as stack:
        pair = stack.enter_context(primary_and_replica(synchronous=False))
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="replication-")))
        (folder / "data" / "staticfiles").mkdir(parents=True)
        broker_url = stack.enter_context(local.embedded_redis(local.free_port(), folder=folder / "redis"))
        measure(args, pair, folder, broker_url)
    print("\nFailover at the database: 4 clients commit moves for 2 s, the replica loses its link, the primary is "
          "SIGKILLed 1 s later, the replica is promoted")
    for synchronous in (True, False):
        total, after_cut, missing = drill(synchronous, clients=4, seconds=2.0, stalled=1.0)
        print(f"  {'sync ' if synchronous else 'async'}: {total} moves acknowledged ({after_cut} after the link was "
              f"lost), {missing} of them missing after the failover")
    return 0


if __name__ == "__main__":
    sys.exit(main())
