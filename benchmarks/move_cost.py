"""What a move costs the server as a real client plays it: server CPU per move, beside a framework-floor request.

    .venv/bin/python benchmarks/move_cost.py [--rounds 3] [--seconds 5] [--clients 1,4,16,64] [--quick]

The stack of benchmarks/http_moves.py (the embedded PostgreSQL with a scratch database, a fresh Redis, the
production settings, gunicorn with ``deploy/gunicorn.conf.py``, no Celery worker, a connection per request)
and the stream process beside it (uvicorn, as the Procfile runs it). Interleaved, in each round and for each
client count:

* **framework floor**: each client POSTs to the floor's view (token auth, lock, INSERT, UPDATE);
* **polling client**: each client plays a Love Letter game of its own (both seats): GET legal-moves, then
  POST one of them (what a client that does not listen must do);
* **listening client**: each client is a table of two players, each following its own event stream with
  ``?include=actions``; the client answers each ``your_turn`` (which brings the seat's legal moves) with one
  POST sent with ``Prefer: return=minimal``, and plays on from the answer when it acts again at once. One
  request is in flight per client, as in the polling loop. A finished game is followed by a new one for the
  same two players, started in this process (its few statements count in the cell).

Around each cell the CPU time of the server's processes is read from ``/proc``: gunicorn (its master and
workers, and the workers that ended, through the master's children times), the stream process, the
dispatcher (which queues in Redis the work each commit names), and PostgreSQL (the postmaster, its
backends, and the backends that ended); not Redis's, which the framework floor does not use either. A unit's CPU is that time over the
cell's moves (or floor requests). The load generator runs in this process, on the same two cores: its own
CPU is not counted. Prints figures; asserts nothing.
"""

from __future__ import annotations

import os

os.environ["RATE_LIMITS"] = "off"
os.environ["DJANGO_SETTINGS_MODULE"] = "benchmarks.framework_floor.settings"

import argparse  # noqa: E402
import http.client  # noqa: E402
import json  # noqa: E402
import queue  # noqa: E402
import random  # noqa: E402
import signal  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402
from contextlib import ExitStack  # noqa: E402
from dataclasses import dataclass, field  # noqa: E402
from pathlib import Path  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks import framework_floor  # noqa: E402
from benchmarks.http_load import Connection, Run, percentile, run_clients  # noqa: E402
from benchmarks.http_moves import (  # noqa: E402
    Player, Server, framework_floor_run, machine_lines, make_floor_games, make_players, moves_run, new_table, served_stack,
)
from benchmarks.processes import Cpu, StreamServer, dispatcher as start_dispatcher, stat_fields  # noqa: E402

LISTENING, POLLING, FLOOR = "listening client", "polling client", "framework floor"


# -- the listening client -------------------------------------------------------------------------------


class Follower(threading.Thread):
    """One player's event stream (``?include=actions``, or ``path``): hands each ``your_turn`` that brings legal
    moves, and each ``game_finished``, to the client's queue. ``player.auth`` holds what identifies the player: a
    token, or a page's session cookie (benchmarks/capacity.py)."""

    def __init__(self, port: int, player: Player, seat_events: queue.Queue, stop: threading.Event,
                 path: str = "/api/stream/?include=actions"):
        super().__init__(daemon=True)
        self.port, self.player, self.events, self.stop_event, self.path = port, player, seat_events, stop, path
        self.opened = threading.Event()
        self.connection: http.client.HTTPConnection | None = None

    def run(self) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        self.connection.request("GET", self.path, headers={**self.player.auth, "Accept": "text/event-stream"})
        response = self.connection.getresponse()
        if response.status != 200:
            self.events.put(("error", f"stream answered {response.status}"))
            return
        try:
            self._read(response)
        except OSError:  # the stream closed under it at the end of a cell
            if not self.stop_event.is_set():
                raise

    def _read(self, response) -> None:
        kind = None
        for raw in response:
            if self.stop_event.is_set():
                break
            line = raw.decode().rstrip("\n")
            if line.startswith("id:") and not self.opened.is_set():
                self.opened.set()  # the opening: every event from now on reaches this stream
            elif line.startswith("event: "):
                kind = line[len("event: "):]
            elif line.startswith("data: ") and kind in ("your_turn", "game_finished"):
                event = json.loads(line[len("data: "):])
                self.events.put((kind, event))

    def close(self) -> None:
        if self.connection is not None and self.connection.sock is not None:
            try:
                self.connection.sock.shutdown(2)
            except OSError:
                pass


@dataclass
class ListeningClient:
    """A table of two players who learn their turns from their streams and answer each with one POST."""

    web_port: int
    stream_port: int
    players: list[Player]
    rng: random.Random
    connection: Connection = field(init=False)
    events: queue.Queue = field(default_factory=queue.Queue)

    def __post_init__(self) -> None:
        self.connection = Connection(self.web_port)

    def loop(self, going) -> None:
        stop = threading.Event()
        followers = [Follower(self.stream_port, player, self.events, stop) for player in self.players]
        for follower in followers:
            follower.start()
        for follower in followers:
            if not follower.opened.wait(30):
                raise RuntimeError("a stream did not open")
        by_user = {player.user.pk: player for player in self.players}
        game_id, reached = new_table(self.players).game_id, 0
        try:
            while going():
                try:
                    kind, event = self.events.get(timeout=1)
                except queue.Empty:
                    continue
                if kind == "error":
                    raise RuntimeError(event)
                if event["game"] != game_id:
                    continue  # an earlier game's last news
                if kind == "game_finished":
                    if event["data"]["seat"] == 0:  # told to both players: start the next game once
                        game_id, reached = new_table(self.players).game_id, 0
                    continue
                moves = event["data"].get("legal_moves")
                if not moves or event["seq"] < reached:
                    # A turn that had passed when it was sent (a newer one follows), or one the mover already
                    # played from its own answer (acting again at once: a new round it begins).
                    continue
                player = self.players[event["data"]["seat"]]
                assert player.user.pk in by_user
                reached = self.play(game_id, player, event["seq"], moves, going)
        finally:
            stop.set()
            for follower in followers:
                follower.close()

    def play(self, game_id: int, player: Player, seq: int, moves: list[dict], going) -> int:
        """Play from position ``seq`` while the answers give the player moves; return the position reached."""
        while moves and going():
            move = self.rng.choice(moves)["move"]
            status, body = self.connection.request(
                "POST move", "POST", f"/api/games/{game_id}/moves/", {"move": move, "expected_seq": seq},
                headers={**player.auth, "Prefer": "return=minimal"})
            if status != 201:
                raise RuntimeError(f"a move answered {status} {body[:200]!r}")
            answer = json.loads(body)
            seq, moves = answer["game_seq"], answer["legal_moves"]
        return seq


def listening_run(server: Server, stream: StreamServer, pairs: list[list[Player]], seconds: float, seed: int,
                  cpu: Cpu) -> Run:
    clients = [ListeningClient(server.port, stream.port, pair, random.Random(seed + number))
               for number, pair in enumerate(pairs)]
    return run_clients([client.loop for client in clients], [client.connection for client in clients], seconds,
                       warm_up=1.0, on_measuring=cpu.start, on_done=cpu.stop)


# -- the cells ---------------------------------------------------------------------------------------------


@dataclass
class Cell:
    runs: list[Run] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)  # CPU seconds per unit, per round
    by_process: list[dict[str, float]] = field(default_factory=list)  # the same, by process, per round

    def add(self, run: Run, cpu: Cpu, units: int) -> None:
        self.runs.append(run)
        if units:
            self.cpu.append(cpu.used / units)
            self.by_process.append({name: used / units for name, used in cpu.by_process.items()})

    def process_ms(self) -> str:
        names = self.by_process[0] if self.by_process else {}
        return ", ".join(f"{name} {statistics.median(r[name] for r in self.by_process) * 1000:.2f}"
                         for name in names)


def units_of(what: str, run: Run) -> int:
    if what == FLOOR:
        return len([sample for sample in run.samples if 200 <= sample.status < 300])
    return len([sample for sample in run.samples if sample.kind == "POST move" and sample.status == 201])


def measure(args, database_url: str, environment: dict[str, str], folder: Path) -> None:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(framework_floor.CREATE_TABLES)
        cursor.execute("SELECT pg_backend_pid()")
        backend = cursor.fetchone()[0]
    postmaster = int(stat_fields(backend)[1])
    most = max(args.clients)
    players = make_players(2 * most, "cost")
    floor_games = make_floor_games(most)
    server = Server(environment, folder / "gunicorn.log").start()
    stream = StreamServer({**environment, "STREAM_HEARTBEAT_SECONDS": "1"}, folder / "stream.log").start()
    # The dispatcher queues in Redis what each commit names (turn emails, bots): server work per move too.
    dispatcher = start_dispatcher(environment, folder)
    roots = {"web": server.process.pid, "stream": stream.process.pid, "dispatch": dispatcher.pid,
             "PostgreSQL": postmaster}
    for line in machine_lines(database_url):
        print(line)
    print(f"gunicorn {server.label} (deploy/gunicorn.conf.py), the stream process (uvicorn), a connection per "
          f"request; {args.rounds} rounds of {args.seconds:g} s per cell; clients {', '.join(map(str, args.clients))}; "
          f"CPU of gunicorn, the stream process, the dispatcher and PostgreSQL from /proc", flush=True)

    def tables_for(clients: int, expected_moves: float) -> queue.Queue:
        tables: queue.Queue = queue.Queue()
        for number in range(clients * 2 + int(expected_moves / 20)):
            index = number % clients
            tables.put(new_table([players[2 * index], players[2 * index + 1]]))
        return tables

    pairs = [[players[2 * index], players[2 * index + 1]] for index in range(most)]
    try:
        moves_run(server, tables_for(4, 200), 4, 2.0, seed=0)  # warm up: every worker imports what a move needs
        listening_run(server, stream, pairs[:4], 2.0, 0, Cpu({}))
        cells: dict[tuple[str, int], Cell] = {}
        for round_number in range(1, args.rounds + 1):
            for clients in args.clients:
                cpu = Cpu(roots)
                run = framework_floor_run(server, floor_games[:clients], players, args.seconds,
                                          on_measuring=cpu.start, on_done=cpu.stop)
                cells.setdefault((FLOOR, clients), Cell()).add(run, cpu, units_of(FLOOR, run))
                cpu = Cpu(roots)
                guess = cells[(FLOOR, clients)].runs[-1].rate() * args.seconds * 1.5
                run = moves_run(server, tables_for(clients, guess), clients, args.seconds, round_number,
                                on_measuring=cpu.start, on_done=cpu.stop)
                cells.setdefault((POLLING, clients), Cell()).add(run, cpu, units_of(POLLING, run))
                cpu = Cpu(roots)
                run = listening_run(server, stream, pairs[:clients], args.seconds, round_number, cpu)
                cells.setdefault((LISTENING, clients), Cell()).add(run, cpu, units_of(LISTENING, run))
            print(f"round {round_number} of {args.rounds} done", flush=True)
        print_table(cells, args.clients)
        if args.profile:
            profile(Path(args.profile), server, stream, postmaster, args, pairs, tables_for, floor_games, players)
    finally:
        dispatcher.terminate()
        dispatcher.wait(20)
        stream.stop()
        server.stop()


def print_table(cells: dict, client_counts: list[int]) -> None:
    print("\nServer CPU per move (gunicorn + stream process + dispatcher + PostgreSQL), medians of rounds; "
          "ratios per round")
    header = (f"{'clients':>7}  {'what':<18} {'per s':>8} {'p50 ms':>7} {'p99 ms':>7} {'CPU ms/unit':>11} "
              f"{'CPU / floor':>11} {'rate / floor':>12} {'5xx':>4} {'errors':>6}")
    print(header)
    print("-" * len(header))
    for clients in client_counts:
        floor = cells[(FLOOR, clients)]
        for what in (FLOOR, POLLING, LISTENING):
            cell = cells[(what, clients)]
            rates = [units_of(what, run) / run.seconds for run in cell.runs]
            floor_rates = [units_of(FLOOR, run) / run.seconds for run in floor.runs]
            posts = [sample.seconds for run in cell.runs for sample in run.samples
                     if sample.kind == ("floor" if what == FLOOR else "POST move")]
            cpu_ratio = statistics.median(c / f for c, f in zip(cell.cpu, floor.cpu)) if cell.cpu else float("nan")
            rate_ratio = statistics.median(r / f for r, f in zip(rates, floor_rates) if f)
            errors = len({error for run in cell.runs for error in run.errors})
            print(f"{clients:>7}  {what:<18} {statistics.median(rates):8.1f} {percentile(posts, 0.5) * 1000:7.1f} "
                  f"{percentile(posts, 0.99) * 1000:7.1f} {statistics.median(cell.cpu) * 1000 if cell.cpu else 0:11.2f} "
                  f"{cpu_ratio:10.2f}x {rate_ratio * 100:11.1f}% {sum(r.server_errors() for r in cell.runs):>4} "
                  f"{errors:>6}")
        for what in (FLOOR, POLLING, LISTENING):
            print(f"{'':>9}{what}, CPU ms per unit by process: {cells[(what, clients)].process_ms()}")
        for error in sorted({error for what in (FLOOR, POLLING, LISTENING) for run in cells[(what, clients)].runs
                             for error in run.errors}):
            print(f"{'':>9}client error: {error}")
    print("(p50/p99: the POST move, or the floor's POST; a polling client also sends a GET before each move)")


def profile(folder: Path, server: Server, stream: StreamServer, postmaster: int, args, pairs, tables_for,
            floor_games, players) -> None:
    """Run each loop once more at the most clients under py-spy (gunicorn's workers, the stream process), writing
    ``<loop>.<process>.txt`` collapsed stacks into ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    spy = Path(sys.executable).parent / "py-spy"
    most, seconds = max(args.clients), max(args.seconds, 10.0)
    loops = {
        "floor": lambda: framework_floor_run(server, floor_games[:most], players, seconds),
        "polling": lambda: moves_run(server, tables_for(most, 100 * seconds), most, seconds, 99),
        "listening": lambda: listening_run(server, stream, pairs[:most], seconds, 99, Cpu({})),
    }
    for name, run in loops.items():
        samplers = [subprocess.Popen([str(spy), "record", "--format", "raw", "--rate", "200", "--subprocesses",
                                      "--nonblocking", "--pid", str(pid), "--output", str(folder / f"{name}.{what}.txt")],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                    for what, pid in (("web", server.process.pid), ("stream", stream.process.pid))]
        time.sleep(1.0)
        run()
        for sampler in samplers:
            sampler.send_signal(signal.SIGINT)
            sampler.wait(30)
        print(f"profiled the {name} loop: {folder}/{name}.*.txt", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds (default 3)")
    parser.add_argument("--seconds", type=float, default=5.0, help="seconds per cell (default 5)")
    parser.add_argument("--clients", default="1,4,16,64", help="client counts (default 1,4,16,64)")
    parser.add_argument("--quick", action="store_true", help="1 round of 2 s at 1 and 4 clients")
    parser.add_argument("--profile", metavar="FOLDER", default="",
                        help="sample the server's processes with py-spy during one more run of each loop at the most "
                             "clients, and write their collapsed stacks to FOLDER (py-spy must be installed)")
    args = parser.parse_args()
    args.clients = sorted({int(value) for value in args.clients.split(",")})
    if args.quick:
        args.rounds, args.seconds, args.clients = 1, 2.0, [1, 4]

    with ExitStack() as stack:
        database_url, environment, folder = served_stack(stack, "move-cost")
        measure(args, database_url, environment, folder)
    return 0


if __name__ == "__main__":
    sys.exit(main())
