"""Measure moves through the served stack against PostgreSQL's floor and the framework's, in one run.

    .venv/bin/python benchmarks/http_moves.py [--rounds 3] [--seconds 5] [--clients 1,4,16]
                                              [--sizes 5x2,3x4] [--quick] [--no-growth | --only-growth]
                                              [--keep-alive]

On the embedded PostgreSQL (a scratch database of its own, dropped afterwards) and a fresh embedded
Redis, with the production settings (DEBUG off; plain HTTP on loopback, no nginx) and
``RATE_LIMITS=off``, gunicorn serves the service with ``deploy/gunicorn.conf.py``. Celery tasks go to
that Redis and no worker runs, so no task's work is counted inside a move. Interleaved, in each of
``--rounds`` rounds and for each client count:

* **PostgreSQL floor**: each client thread commits, over and over, a transaction doing a move's SQL
  (lock the game row, insert a move, update a 1 KB JSON snapshot) through psycopg2;
* **framework floor**: each client POSTs to a minimal DRF view with the service's token
  authentication doing exactly that SQL (benchmarks/framework_floor/), served by the same gunicorn;
* **moves**: each client plays a Love Letter game of its own (both seats) through the REST API with
  token authentication: GET legal-moves, then POST a random one of them.

Each client is a thread that opens a connection for each request, as nginx in front of gunicorn does
in the deploy configuration (its upstream keeps no connection alive), so each request goes to whichever
worker takes it first (benchmarks/http_load.py; ``--keep-alive``: one connection per client, kept
alive, each client's requests then queue in the one worker that accepted it). Rates are the median over rounds, percentiles pool every round,
ratios are taken within a round. Then, one client
at a time and interleaved: the cost of each request early (from seq 10) and late (from seq 70) in long games,
and the lobby of a player with 5 and with 50 games. ``--sizes`` runs the floor and the moves under
several gunicorn sizes (workers x threads) side by side, to choose the default. ``--only-growth``
skips the throughput rounds and measures only the early/late costs and the lobby.
"""

from __future__ import annotations

import os

# Every client comes from one loopback address: measure speed, not the rate limits.
os.environ["RATE_LIMITS"] = "off"
os.environ["DJANGO_SETTINGS_MODULE"] = "benchmarks.framework_floor.settings"

import argparse  # noqa: E402
import datetime  # noqa: E402
import json  # noqa: E402
import platform  # noqa: E402
import queue  # noqa: E402
import random  # noqa: E402
import runpy  # noqa: E402
import secrets  # noqa: E402
import signal  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from contextlib import ExitStack  # noqa: E402
from dataclasses import dataclass, field  # noqa: E402
from pathlib import Path  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks import framework_floor  # noqa: E402
from benchmarks.http_growth import growth  # noqa: E402
from benchmarks.http_load import Connection, Run, Sample, median, percentile, run_clients  # noqa: E402

GUNICORN_CONFIG = ROOT / "deploy" / "gunicorn.conf.py"


# -- the served stack ---------------------------------------------------------------------------------


@dataclass
class Server:
    """gunicorn with the deploy config, at the config's size or ``workers`` x ``threads``."""

    environment: dict[str, str]
    log: Path
    workers: int | None = None
    threads: int | None = None
    port: int = 0
    process: subprocess.Popen | None = None

    def start(self) -> Server:
        from turnbased.local.services import free_port, port_answers

        self.port = free_port()
        environment = {**self.environment, "WEB_BIND": f"127.0.0.1:{self.port}"}
        if self.workers:
            environment["WEB_CONCURRENCY"] = str(self.workers)
        if self.threads:
            environment["WEB_THREADS"] = str(self.threads)
        sizing = runpy.run_path(str(GUNICORN_CONFIG))  # what gunicorn reads, with this environment
        self.workers = self.workers or sizing["workers"]
        self.threads = self.threads or sizing["threads"]
        gunicorn = Path(sys.executable).parent / "gunicorn"
        with self.log.open("ab") as output:
            self.process = subprocess.Popen(
                [str(gunicorn), "--config", str(GUNICORN_CONFIG), "turnbased.wsgi"], cwd=ROOT, env=environment,
                stdin=subprocess.DEVNULL, stdout=output, stderr=subprocess.STDOUT, start_new_session=True,
            )
        deadline = time.monotonic() + 60
        while not port_answers(self.port):
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"gunicorn did not start; see {self.log}")
            time.sleep(0.1)
        return self

    @property
    def label(self) -> str:
        return f"{self.workers}x{self.threads}"

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(40)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()


# -- players and games ------------------------------------------------------------------------------


@dataclass
class Player:
    user: object
    token: str

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Token {self.token}"}


@dataclass
class Table:
    """A game in play and its players by seat, as a client knows it."""

    game_id: int
    players: list[Player]
    to_move: int = 0
    seq: int = 0


def make_players(count: int, prefix: str) -> list[Player]:
    """Create confirmed accounts with API tokens (a fast password hash: nobody logs in with it)."""
    from django.test import override_settings

    from turnbased.accounts.services.accounts import account_create
    from turnbased.accounts.services.tokens import token_create

    players = []
    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        for number in range(count):
            user = account_create(username=f"{prefix}{number}", email=f"{prefix}{number}@example.com",
                                  password="a-long-enough-pass-9", email_verified=True)
            players.append(Player(user, token_create(user=user, name="benchmark", lifetime=None)[1]))
    return players


def new_table(players: list[Player], slug: str = "love-letter") -> Table:
    """Create a game for ``players`` (seat order) and start it."""
    from turnbased.play import services
    from turnbased.play.models import Game

    game = services.create_game(creator=players[0].user, engine_slug=slug, players=len(players))
    for player in players[1:]:
        services.join_game(game_id=game.pk, user=player.user)
    game = Game.objects.get(pk=game.pk)
    return Table(game.pk, players, to_move=game.to_move[0], seq=game.seq)


class Fixtures:
    """What the growth part needs from Django: accounts, tables and a browser's session."""

    make_players = staticmethod(make_players)
    new_table = staticmethod(new_table)

    @staticmethod
    def session_cookie(player: Player) -> str:
        from django.conf import settings
        from django.test import Client

        browser = Client()
        browser.force_login(player.user)
        return f"{settings.SESSION_COOKIE_NAME}={browser.cookies[settings.SESSION_COOKIE_NAME].value}"


# -- the three measurements ----------------------------------------------------------------------------


def postgres_floor(database_url: str, game_ids: list[int], seconds: float, **around) -> Run:
    """Commit a move's SQL in a loop from each client thread, each on its own connection and game row (``around``:
    ``run_clients``'s hooks)."""
    import psycopg2

    class Client:
        def __init__(self, game_id: int):
            self.game_id = game_id
            self.samples: list[Sample] = []
            self.connection = psycopg2.connect(database_url)

        def loop(self, going) -> None:
            while going():
                started = time.perf_counter()
                with self.connection.cursor() as cursor:
                    framework_floor.play_one_move(cursor, self.game_id, framework_floor.MOVE)
                self.connection.commit()
                self.samples.append(Sample("commit", 200, time.perf_counter() - started, 0))

        def close(self) -> None:
            self.connection.close()

    clients = [Client(game_id) for game_id in game_ids]
    return run_clients([client.loop for client in clients], clients, seconds, **around)


def framework_floor_run(server: Server, game_ids: list[int], players: list[Player], seconds: float,
                        **around) -> Run:
    """POST to the framework floor's view in a loop, each client with its own token and game row (``around``:
    ``run_clients``'s hooks)."""
    connections = [Connection(server.port, player.auth) for player in players[:len(game_ids)]]

    def loop_for(connection: Connection, game_id: int):
        def loop(going) -> None:
            while going():
                connection.request("floor", "POST", f"/bench/floor/{game_id}/", {"move": framework_floor.MOVE})
        return loop

    return run_clients([loop_for(c, g) for c, g in zip(connections, game_ids)], connections, seconds, **around)


def moves_run(server: Server, tables: queue.Queue, clients: int, seconds: float, seed: int, **around) -> Run:
    """Each client plays a game of its own (both seats): GET legal-moves, POST one; the next game when it ends."""
    connections = [Connection(server.port) for _ in range(clients)]

    def loop_for(connection: Connection, rng: random.Random):
        def loop(going) -> None:
            table = tables.get_nowait()
            while going():
                auth = table.players[table.to_move].auth
                path = f"/api/games/{table.game_id}"
                status, body = connection.request("GET legal-moves", "GET", f"{path}/legal-moves/", headers=auth)
                listed = json.loads(body)
                if status != 200 or not listed["moves"]:
                    raise RuntimeError(f"legal-moves answered {status} {body[:200]!r}")
                move = rng.choice(listed["moves"])["move"]
                status, body = connection.request("POST move", "POST", f"{path}/moves/",
                                                  {"move": move, "expected_seq": listed["seq"]}, headers=auth)
                if status != 201:
                    raise RuntimeError(f"a move answered {status} {body[:200]!r}")
                game = json.loads(body)["game"]
                if game["status"] != "active":
                    try:
                        table = tables.get_nowait()
                    except queue.Empty:
                        raise RuntimeError("ran out of prepared games") from None
                else:
                    table.to_move = game["to_move"][0]
        return loop

    loops = [loop_for(connection, random.Random(seed + number)) for number, connection in enumerate(connections)]
    return run_clients(loops, connections, seconds, **around)


# -- results --------------------------------------------------------------------------------------------


@dataclass
class Cell:
    """One measurement (what, where, how many clients) over the rounds."""

    runs: list[Run] = field(default_factory=list)

    def rate(self, kind: str | None = None, status: int | None = None) -> float:
        return statistics.median(run.rate(kind, status) for run in self.runs)

    def latencies(self, kind: str | None = None) -> list[float]:
        return [s.seconds for run in self.runs for s in run.of(kind)]

    def server_errors(self) -> int:
        return sum(run.server_errors() for run in self.runs)

    def errors(self) -> list[str]:
        return [error for run in self.runs for error in run.errors]


def ms(values: list[float], q: float) -> str:
    return f"{percentile(values, q) * 1000:7.1f}" if values else "      -"


def ratio(numerators: list[float], denominators: list[float]) -> str:
    """Return the median of per-round ratios, as a percentage."""
    pairs = [n / d for n, d in zip(numerators, denominators) if d]
    return f"{statistics.median(pairs) * 100:6.1f} %" if pairs else "      -"


def print_table(cells: dict, client_counts: list[int], servers: list[Server]) -> None:
    print("\nMoves against the floors (rates: median of rounds; p50/p99 over all rounds; ratios per round)")
    header = f"{'clients':>7}  {'what':<34} {'gunicorn':>8} {'per s':>9} {'p50 ms':>7} {'p99 ms':>7}" \
             f"  {'/ framework':>11}  {'/ PostgreSQL':>12}  {'5xx':>4}"
    print(header)
    print("-" * len(header))
    for clients in client_counts:
        floor = cells[("pg", "", clients)]
        commits = [run.rate() for run in floor.runs]
        print(f"{clients:>7}  {'PostgreSQL floor (commits)':<34} {'':>8} {floor.rate():9.1f} "
              f"{ms(floor.latencies(), 0.5)} {ms(floor.latencies(), 0.99)}")
        for server in servers:
            framework = cells[("floor", server.label, clients)]
            moves = cells[("moves", server.label, clients)]
            framework_rates = [run.rate() for run in framework.runs]
            print(f"{clients:>7}  {'framework floor (requests)':<34} {server.label:>8} {framework.rate():9.1f} "
                  f"{ms(framework.latencies(), 0.5)} {ms(framework.latencies(), 0.99)}  {'':>11}  "
                  f"{ratio(framework_rates, commits):>12}  {framework.server_errors():>4}")
            move_rates = [run.rate("POST move", 201) for run in moves.runs]
            request_rates = [run.rate() for run in moves.runs]
            print(f"{clients:>7}  {'moves (GET legal-moves + POST)':<34} {server.label:>8} "
                  f"{moves.rate('POST move', 201):9.1f} {'':>7} {'':>7}  {ratio(move_rates, framework_rates):>11}  "
                  f"{ratio(move_rates, commits):>12}  {moves.server_errors():>4}")
            print(f"{clients:>7}  {'  their requests':<34} {server.label:>8} {moves.rate():9.1f} "
                  f"{ms(moves.latencies(), 0.5)} {ms(moves.latencies(), 0.99)}  "
                  f"{ratio(request_rates, framework_rates):>11}  {ratio(request_rates, commits):>12}")
            for kind in ("GET legal-moves", "POST move"):
                print(f"{clients:>7}  {'    ' + kind:<34} {server.label:>8} {moves.rate(kind):9.1f} "
                      f"{ms(moves.latencies(kind), 0.5)} {ms(moves.latencies(kind), 0.99)}")
            for error in sorted(set(framework.errors() + moves.errors())):
                print(f"{'':>9}client error: {error}")


def print_targets(cells: dict, client_counts: list[int], servers: list[Server]) -> None:
    most = max(client_counts)
    for server in servers:
        moves, framework = cells[("moves", server.label, most)], cells[("floor", server.label, most)]
        share = statistics.median(m.rate() / f.rate() for m, f in zip(moves.runs, framework.runs))
        posts = moves.latencies("POST move")
        spread = percentile(posts, 0.99) / percentile(posts, 0.5)
        errors = sum(cells[(kind, server.label, clients)].server_errors()
                     for kind in ("moves", "floor") for clients in client_counts)
        print(f"targets ({server.label}): move-loop requests at {most} clients {share * 100:.1f} % of the framework "
              f"floor (target >= 50 %: {'ok' if share >= 0.5 else 'MISSED'}); POST p99 = {spread:.1f} x p50 "
              f"(target <= 5: {'ok' if spread <= 5 else 'MISSED'}); 5xx: {errors} "
              f"({'ok' if errors == 0 else 'MISSED'})")


# -- the run ----------------------------------------------------------------------------------------------


def machine_lines(database_url: str) -> list[str]:
    import psycopg2

    model = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                  if line.startswith("model name")), platform.processor()) if Path("/proc/cpuinfo").exists() else ""
    connection = psycopg2.connect(database_url)
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_setting('server_version'), current_setting('max_connections')")
        version, max_connections = cursor.fetchone()
    connection.close()
    return [
        f"date: {datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC",
        f"machine: {os.cpu_count()} cores ({len(os.sched_getaffinity(0))} usable), {model}; "
        f"load average {' '.join(f'{v:.2f}' for v in os.getloadavg())} at start",
        f"software: Python {platform.python_version()}, PostgreSQL {version} (max_connections {max_connections}), "
        f"load generator in this process (threads, http.client) on the same cores",
    ]


def make_floor_games(count: int) -> list[int]:
    """Create the commit floor's tables and ``count`` games of its own (one per client); return their ids."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(framework_floor.CREATE_TABLES)
        games = []
        for _ in range(count):
            cursor.execute(framework_floor.CREATE_GAME, [framework_floor.snapshot(0)])
            games.append(cursor.fetchone()[0])
    return games


def measure(args, database_url: str, environment: dict[str, str], folder: Path) -> None:
    most = max(args.clients)
    floor_games = make_floor_games(most)
    players = make_players(2 * most, "bench")

    servers = [Server(environment, folder / f"gunicorn-{size or 'default'}.log",
                      *(map(int, size.split("x")) if size else ())) for size in args.sizes]
    for line in machine_lines(database_url):
        print(line)
    try:
        for server in servers:
            server.start()
        if args.only_growth:
            growth(servers[0].port, Fixtures(), samples=args.samples, games_per_set=args.games_per_set)
            return
        print(f"gunicorn (deploy/gunicorn.conf.py, gthread, workers x threads): "
              f"{', '.join(server.label for server in servers)}; {args.rounds} rounds of {args.seconds:g} s "
              f"per measurement; clients {', '.join(map(str, args.clients))}; "
              f"{'one connection per client, kept alive' if Connection.keep_alive else 'a connection per request'}",
              flush=True)

        def tables_for(clients: int, expected_moves: float) -> queue.Queue:
            tables: queue.Queue = queue.Queue()
            for number in range(clients * 2 + int(expected_moves / 20)):
                index = number % clients
                tables.put(new_table([players[2 * index], players[2 * index + 1]]))
            return tables

        expected: dict[tuple[str, int], float] = {}
        for server in servers:  # warm up: every worker imports what a move needs
            moves_run(server, tables_for(4, 200), 4, 2.0, seed=0)
        cells: dict = {}
        for round_number in range(1, args.rounds + 1):
            for clients in args.clients:
                cell = cells.setdefault(("pg", "", clients), Cell())
                cell.runs.append(postgres_floor(database_url, floor_games[:clients], args.seconds))
                for server in servers:
                    cell = cells.setdefault(("floor", server.label, clients), Cell())
                    cell.runs.append(framework_floor_run(server, floor_games[:clients], players, args.seconds))
                    guess = expected.get((server.label, clients), 60.0) * args.seconds * 1.5
                    run = moves_run(server, tables_for(clients, guess), clients, args.seconds, seed=round_number)
                    cells.setdefault(("moves", server.label, clients), Cell()).runs.append(run)
                    expected[(server.label, clients)] = run.rate("POST move", 201)
            print(f"round {round_number} of {args.rounds} done", flush=True)
        print_table(cells, args.clients, servers)
        print_targets(cells, args.clients, servers)
        if args.growth:
            growth(servers[0].port, Fixtures(), samples=args.samples, games_per_set=args.games_per_set)
    finally:
        for server in servers:
            server.stop()


def served_stack(stack: ExitStack, name: str) -> tuple[str, dict[str, str], Path]:
    """Start what a benchmark serves the service on, closed with ``stack``: a scratch database on the embedded
    PostgreSQL (or ``DATABASE_URL``'s server), a fresh Redis, the production settings, migrated; return the
    database's URL, the servers' environment and a scratch folder. Django is set up in this process too."""
    import django
    from django.core.management import call_command
    from django.db import connections

    from turnbased.local import services as local

    folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix=f"{name}-")))
    server_url = os.environ.get("DATABASE_URL") or stack.enter_context(local.embedded_postgres())
    database_name = f"bench_{name.replace('-', '_')}_{os.getpid()}"
    database_url = stack.enter_context(local.scratch_database(server_url, database_name))
    broker_url = stack.enter_context(local.embedded_redis(local.free_port(), folder=folder / "redis"))
    (folder / "data" / "staticfiles").mkdir(parents=True)
    environment = {
        **os.environ,
        "DATABASE_URL": database_url,
        "CELERY_BROKER_URL": broker_url,  # no worker: tasks wait in Redis, outside every measurement
        "CACHE_URL": broker_url.rsplit("/", 1)[0] + "/1",
        "DJANGO_DEBUG": "false",
        "DJANGO_HTTPS": "off",  # plain HTTP on loopback, no nginx in front
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(64),
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
        "TURNBASED_DATA_DIR": str(folder / "data"),
        "PYTHONPATH": str(ROOT),
        "STREAM_MAX_PER_ADDRESS": "100000",  # every client's streams come from loopback
    }
    environment.pop("CELERY_TASK_ALWAYS_EAGER", None)
    environment.pop("WORK_DISPATCH", None)  # production's: the commit's work goes to the dispatcher, if one runs
    os.environ.update(environment)
    django.setup()
    stack.callback(connections.close_all)
    call_command("migrate", verbosity=0)
    return database_url, environment, folder


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds (default 3)")
    parser.add_argument("--seconds", type=float, default=5.0, help="seconds per measurement (default 5)")
    parser.add_argument("--clients", default="1,4,16", help="client counts (default 1,4,16)")
    parser.add_argument("--sizes", default="", help="gunicorn sizes to compare, e.g. 5x2,3x4 (default: the config's)")
    parser.add_argument("--samples", type=int, default=18, help="samples per request of the lobby (default 18)")
    # Several games at each position, so that where a game stands within its round (a Love Letter
    # round's discards pile up, then start again) averages out, and only the log's length differs.
    parser.add_argument("--games-per-set", type=int, default=6, help="games at each position (default 6)")
    parser.add_argument("--no-growth", dest="growth", action="store_false", help="skip early/late and the lobby")
    parser.add_argument("--only-growth", action="store_true", help="measure only early/late and the lobby")
    parser.add_argument("--quick", action="store_true", help="1 round of 2 s, fewer samples: about a minute")
    parser.add_argument("--keep-alive", action="store_true",
                        help="one connection per client, kept alive, instead of one per request as nginx sends them")
    args = parser.parse_args()
    Connection.keep_alive = args.keep_alive
    if args.only_growth and not args.growth:
        parser.error("--only-growth and --no-growth exclude each other")
    args.clients = sorted({int(value) for value in args.clients.split(",")})
    args.sizes = [size.strip() for size in args.sizes.split(",") if size.strip()] or [""]
    if args.quick:
        args.rounds, args.seconds, args.samples, args.games_per_set = 1, 2.0, 6, 2

    with ExitStack() as stack:
        database_url, environment, folder = served_stack(stack, "http-moves")
        measure(args, database_url, environment, folder)
    return 0


if __name__ == "__main__":
    sys.exit(main())
