"""What each unit of work costs on this machine, in one run: the figures docs/capacity.md builds its model on.

    .venv/bin/python benchmarks/capacity.py [--quick] [--rounds 3] [--seconds 4] [--clients 4] [--json FILE]

The stack of benchmarks/move_cost.py (the embedded PostgreSQL with a scratch database, a fresh Redis, the production
settings, gunicorn with ``deploy/gunicorn.conf.py``, the stream process, the dispatcher) and the two workers a move
hands work to: the mailer (``--queues=mail``) and the webhooks' worker (``--queues=webhooks``), with an SMTP relay
and a webhook receiver on loopback in this process. For each game (two players), interleaved over the rounds:

* **move**: a move as the game page makes it (htmx's POST with the session and CSRF cookies, answered with the
  panel), both players' pages following the event stream; everything it sets off is counted: the stream telling
  both players, the dispatcher queueing the turn's notification, the mailer settling it (these players want no
  email: an email is measured on its own), the game's end and its ratings;
* **game page view** (the player to move opens the game), **page refresh after a move** (what a page following the
  stream fetches when told of the move it waited for: the panel and the chat), **page poll, unchanged** (what a
  page that cannot follow the stream asks every 4 s while nothing changes: the panel's 204 and the chat's 204),
  **API poll, unchanged** (a client's ``GET /api/games/{id}/`` with ``If-None-Match``, answered 304);
* **email**: a turn email, from its task queued to the relay's 250 and the row marked sent (decide, compose with
  the position's picture, write the outbox row, send);
* **webhook delivery**: a move's deliveries to a receiver on loopback (the sweep that queues them, then for each
  the claim, the document, the signed POST, the settling).

Around each window the CPU time of every server process is read from ``/proc`` (gunicorn, the stream process, the
dispatcher, the mailer, the webhooks' worker, PostgreSQL, Redis) and divided by the units made; the framework
floor's request and PostgreSQL's floor commit (benchmarks/http_moves.py) are measured in each round as the
baselines. Each game's moves are also counted in PostgreSQL (transactions, rows, WAL bytes), and
at the end the games finished are weighed (``pg_column_size`` of every row they left). The idle stream: game
pages' streams held open doing nothing, against the same processes with none. Prints the figures and, with
``--json``, writes them for ``benchmarks/capacity_model.py``. The load generator runs in this process, on the same
cores: its own CPU is not counted. Asserts nothing.
"""

from __future__ import annotations

import os

os.environ["RATE_LIMITS"] = "off"
os.environ["DJANGO_SETTINGS_MODULE"] = "benchmarks.framework_floor.settings"
# The webhook receiver listens on loopback over plain http: never so in production.
os.environ["WEBHOOKS_ALLOW_PRIVATE_ADDRESSES"] = "on"
os.environ["WEBHOOKS_ALLOW_HTTP"] = "on"

import argparse  # noqa: E402
import json  # noqa: E402
import queue  # noqa: E402
import random  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from contextlib import ExitStack  # noqa: E402
from pathlib import Path  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks import capacity_report as report  # noqa: E402
from benchmarks.capacity_cells import (  # noqa: E402
    PageMoveClient, etags_of, local_table, moves_of, page_moves_run, page_players, play_to_end, positions, read_units,
    reads_run, units_of,
)
from benchmarks.capacity_outbox import (  # noqa: E402
    HookReceiver, OutboxTables, SmtpSink, email_round, hook_owners, idle_streams, webhook_round,
)
from benchmarks.capacity_storage import STATS_SETTLE, DatabaseCounters, per_move, storage_per_game  # noqa: E402
from benchmarks.http_moves import (  # noqa: E402
    Server, framework_floor_run, machine_lines, make_players, postgres_floor, served_stack,
)
from benchmarks.processes import (  # noqa: E402
    Cpu, StreamServer, celery_worker, child_named, dispatcher, stat_fields, stop,
)

GAMES = ["love-letter", "halali", "carcassonne-hg", "savernake-forest"]
READS = ["game page view", "page refresh after a move", "page poll, unchanged", "API poll, unchanged"]
# Fewest moves a game of random play lasts (tables are made ahead for the moves a window may take).
SHORTEST = {"love-letter": 15, "halali": 120, "carcassonne-hg": 70, "savernake-forest": 30}


class Stack:
    """The server's processes and what is measured of them."""

    def __init__(self, environment: dict[str, str], folder: Path, database_url: str, receiver: HookReceiver):
        from django.db import connection

        from benchmarks import framework_floor

        with connection.cursor() as cursor:
            cursor.execute(framework_floor.CREATE_TABLES)
            cursor.execute("SELECT pg_backend_pid()")
            backend = cursor.fetchone()[0]
        self.server = Server(environment, folder / "gunicorn.log").start()
        self.stream = StreamServer(environment, folder / "stream.log").start()
        self.dispatcher = dispatcher(environment, folder)
        self.mailer = celery_worker("mail", environment, folder)
        self.hooks = celery_worker("webhooks", environment, folder)
        self.roots = {"web": self.server.process.pid, "stream": self.stream.process.pid,
                      "dispatch": self.dispatcher.pid, "mailer": self.mailer.pid, "hooks": self.hooks.pid,
                      "PostgreSQL": int(stat_fields(backend)[1]), "Redis": child_named(os.getpid(), "redis-server")}
        if self.roots["Redis"] is None:
            raise RuntimeError("the embedded Redis is not a child of this process")
        self.counters = DatabaseCounters(database_url)
        self.receiver = receiver

    def cpu(self) -> Cpu:
        return Cpu(self.roots)

    def close(self) -> None:
        self.counters.close()
        for process in (self.hooks, self.mailer, self.dispatcher):
            stop(process)
        self.stream.stop()
        self.server.stop()


class Game:
    """One game's players, tables and clients, kept across the rounds."""

    def __init__(self, slug: str, stack: Stack, args, rng: random.Random):
        self.slug, self.stack, self.args, self.rng = slug, stack, args, rng
        tag = "".join(part[0] for part in slug.split("-"))
        movers = page_players(2 * args.clients, f"{tag}move")
        self.finished: list[int] = []
        self.clients = [PageMoveClient(stack.server.port, stack.stream.port, movers[2 * n:2 * n + 2], queue.Queue(),
                                       random.Random(rng.random()), self.finished) for n in range(args.clients)]
        readers = page_players(2, f"{tag}read")
        self.positions = positions(readers, slug, args.positions, rng)
        self.units = read_units(self.positions, etags_of(stack.server.port, self.positions))
        self.emails = OutboxTables(page_players(2, f"{tag}mail", turn_emails="immediate", game_emails=True), slug,
                                   args.outbox, random.Random(rng.random()))
        # A pair of owners to each table: an owner's deliveries go one at a time (WEBHOOKS_IN_FLIGHT_PER_OWNER).
        owners = page_players(2 * args.outbox, f"{tag}hook")
        hook_owners(owners, stack.receiver.url)
        self.hooks = OutboxTables(owners, slug, args.outbox, random.Random(rng.random()))
        self.rate = 25.0  # moves a second, until measured

    def prepare(self) -> None:
        """Make the tables the next window of moves may need (each client plays its own two players' tables)."""
        wanted = 2 + int(self.rate * self.args.seconds * 1.5 / self.args.clients / SHORTEST[self.slug])
        for client in self.clients:
            while client.tables.qsize() < wanted:
                client.tables.put(local_table(client.players, self.slug))

    def moves(self, seconds: float, **around):
        run = page_moves_run(self.clients, seconds, **around)
        if run.errors:
            raise RuntimeError(f"{self.slug} moves: {run.errors[0]}")
        return run


def measure(args, database_url: str, environment: dict[str, str], folder: Path, sink: SmtpSink) -> dict:
    with ExitStack() as closing:
        receiver = closing.enter_context(HookReceiver())
        stack = Stack(environment, folder, database_url, receiver)
        closing.callback(stack.close)
        return measured(args, database_url, stack, sink)


def measured(args, database_url: str, stack: Stack, sink: SmtpSink) -> dict:
    from django.db import connection

    from benchmarks import framework_floor

    rng = random.Random(29)
    figures = report.new_figures(machine_lines(database_url), args, stack.server.label)
    figures["games"] = {slug: {"units": {}} for slug in GAMES}
    say("the stack is up")
    floor_players, floor_games = make_players(args.clients, "floor"), []
    with connection.cursor() as cursor:
        for _ in range(args.clients):
            cursor.execute(framework_floor.CREATE_GAME, [framework_floor.snapshot(0)])
            floor_games.append(cursor.fetchone()[0])
    games = {slug: Game(slug, stack, args, rng) for slug in GAMES}
    idle_players = page_players(args.idle_streams // 4, "idle")
    say(f"prepared; gunicorn {stack.server.label}; {args.rounds} rounds of {args.seconds:g} s windows, "
        f"{args.clients} clients")
    if not args.quick:  # a quick run checks that everything runs; its figures, cold or not, are not for planning
        warm_up(games, stack, floor_games, floor_players, sink)
        say("warmed up")
    for number in range(1, args.rounds + 1):
        floors(figures, stack, floor_games, floor_players, database_url, args.seconds)
        for game in games.values():
            game.prepare()
        time.sleep(1.0)  # the new tables' start notifications are settled
        if number == args.rounds:  # its windows are also the quiet PostgreSQL's counters need before the first count
            figures["idle streams"] = idle(stack, idle_players, games, args)
            say("idle streams measured")
        else:
            time.sleep(args.settle)  # the counts of the tables just made come in before the first window
        for game in games.values():
            move_window(figures, game, stack)
        say("moves measured")
        for game in games.values():
            reads_and_outbox(figures, game, stack, sink)
        say(f"round {number} of {args.rounds} done")
    for slug, game in games.items():
        finished = game.finished + [play_to_end(game.clients[0].players, slug, rng) for _ in range(args.finished)]
        time.sleep(1.0)  # the last notifications are settled by the mailer
        figures["games"][slug]["storage per finished game"] = storage_per_game(finished)
        figures["games"][slug]["outbox row bytes"] = report.outbox_row_bytes(slug)
    say("storage weighed")
    connection.close()
    return figures


STARTED = time.monotonic()


def say(text: str) -> None:
    print(f"[{time.monotonic() - STARTED:6.1f} s] {text}", flush=True)


def warm_up(games: dict, stack: Stack, floor_games: list[int], floor_players: list, sink: SmtpSink) -> None:
    """Every gunicorn worker, the stream process and the workers load what each game's requests need; nothing of
    it is recorded."""
    framework_floor_run(stack.server, floor_games, floor_players, 0.5)
    for game in games.values():
        game.prepare()
        game.rate = max(5.0, moves_of(game.moves(1.0)) / 1.0)
        for units in game.units.values():
            reads_run(stack.server.port, units, game.args.clients, 0.3)
        for outbox, measured in ((game.emails, lambda: email_round(game.emails, sink, stack.cpu(), stack.mailer.pid)),
                                 (game.hooks, lambda: webhook_round(game.hooks, stack.receiver, stack.cpu(),
                                                                    stack.hooks.pid))):
            outbox.count, count = 1, outbox.count  # one table is enough to load what the worker needs
            measured()
            outbox.count = count
    for game in games.values():
        game.finished.clear()


def floors(figures: dict, stack: Stack, floor_games: list[int], floor_players: list, database_url: str,
           seconds: float) -> None:
    cpu = stack.cpu()
    run = framework_floor_run(stack.server, floor_games, floor_players, seconds, on_measuring=cpu.start,
                              on_done=cpu.stop)
    report.add(figures["baselines"], "framework floor request",
               len([s for s in run.samples if 200 <= s.status < 300]), cpu)
    cpu = stack.cpu()
    run = postgres_floor(database_url, floor_games, seconds, on_measuring=cpu.start, on_done=cpu.stop)
    report.add(figures["baselines"], "PostgreSQL floor commit", len(run.samples), cpu)


def idle(stack: Stack, players: list, games: dict, args) -> dict:
    """The server's processes with no stream open, then with idle game pages' streams, each over a window."""
    game_ids = [table.game_id for game in games.values() for table in game.positions]
    quiet = stack.cpu()
    quiet.start()
    time.sleep(args.idle_seconds / 2)
    quiet.stop()
    measured = idle_streams(stack.stream.port, stack.stream.process.pid, players, game_ids, 4, args.idle_seconds,
                            stack.roots)
    return {**measured, "none open": {"seconds": quiet.seconds, "cpu_seconds": quiet.by_process}}


def move_window(figures: dict, game: Game, stack: Stack) -> None:
    """One window of the game's moves, framed by PostgreSQL's counters, then the quiet wait they need (which also
    gives what the processes spend idle)."""
    cpu, wal = stack.cpu(), [0, 0]

    def started() -> None:
        cpu.start()
        wal[0] = stack.counters.wal()

    def done() -> None:
        cpu.stop()
        wal[1] = stack.counters.wal()

    before = stack.counters.read()
    run = game.moves(game.args.seconds, on_measuring=started, on_done=done)
    moves = moves_of(run)
    game.rate = moves / run.seconds
    report.add(figures["games"][game.slug]["units"], "move", moves, cpu)
    time.sleep(1.0)
    quiet = stack.cpu()
    quiet.start()
    time.sleep(game.args.settle)
    quiet.stop()
    figures["idle processes"].append({"seconds": quiet.seconds, "cpu_seconds": quiet.by_process})
    figures["games"][game.slug].setdefault("PostgreSQL per move", []).append(
        per_move(before, stack.counters.read(), tuple(wal), moves))


def reads_and_outbox(figures: dict, game: Game, stack: Stack, sink: SmtpSink) -> None:
    units = figures["games"][game.slug]["units"]
    for kind in READS:
        cpu = stack.cpu()
        run = reads_run(stack.server.port, game.units[kind], game.args.clients, game.args.seconds,
                        on_measuring=cpu.start, on_done=cpu.stop)
        if run.errors:
            raise RuntimeError(f"{game.slug} {kind}: {run.errors[0]}")
        report.add(units, kind, units_of(run, game.units[kind]), cpu)
    cpu = stack.cpu()
    report.add(units, "email", email_round(game.emails, sink, cpu, stack.mailer.pid), cpu)
    cpu = stack.cpu()
    report.add(units, "webhook delivery", webhook_round(game.hooks, stack.receiver, cpu, stack.hooks.pid), cpu)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds (default 3)")
    parser.add_argument("--seconds", type=float, default=4.0, help="seconds per measured window (default 4)")
    parser.add_argument("--clients", type=int, default=4, help="clients at once in each window (default 4)")
    parser.add_argument("--outbox", type=int, default=24, help="tables whose emails, and whose webhooks, are "
                                                               "measured in each round (default 24)")
    parser.add_argument("--finished", type=int, default=3,
                        help="games of each kind played to their end in this process and weighed (default 3)")
    parser.add_argument("--positions", type=int, default=8,
                        help="mid-game positions read, each game's (default 8: a page's cost follows its position)")
    parser.add_argument("--idle-streams", type=int, default=400, help="idle streams held open (default 400)")
    parser.add_argument("--idle-seconds", type=float, default=60.0,
                        help="seconds the idle streams are measured: a multiple of 60 s holds whole heartbeats "
                             "(15 s) and presence marks (20 s) (default 60)")
    parser.add_argument("--settle", type=float, default=STATS_SETTLE,
                        help=f"seconds of quiet after the counted moves, for PostgreSQL's counters to come in (default "
                             f"{STATS_SETTLE:g}; less and they may lag)")
    parser.add_argument("--quick", action="store_true",
                        help="1 round of 1.2 s windows, no warm-up, fewer of everything, and 3 s for the counters to "
                             "settle: a check that it runs")
    parser.add_argument("--json", metavar="FILE", default="", help="write the figures to FILE as JSON")
    args = parser.parse_args()
    if args.quick:
        args.rounds, args.seconds, args.outbox, args.idle_streams, args.idle_seconds = 1, 1.2, 3, 100, 15.0
        args.positions, args.finished, args.settle = 1, 1, 3.0
    import logging

    from turnbased.local.services import free_port

    logging.getLogger("mail.log").setLevel(logging.WARNING)  # aiosmtpd's line per SMTP command
    port = free_port()
    os.environ["EMAIL_PORT"] = str(port)  # the mailer's relay: the sink in this process
    with ExitStack() as stack:
        sink = stack.enter_context(SmtpSink(port))
        database_url, environment, folder = served_stack(stack, "capacity")
        figures = measure(args, database_url, environment, folder, sink)
    report.summarize(figures)
    report.print_figures(figures)
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=1, sort_keys=False) + "\n")
        print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
