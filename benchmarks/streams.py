"""Hold many idle event streams on the stream process; measure its memory per stream and how soon events arrive.

    .venv/bin/python benchmarks/streams.py [--streams 500] [--moves 300] [--rate 10] [--idle 20]

On the embedded PostgreSQL (a scratch database of its own, dropped afterwards) and a fresh embedded
Redis, with the production settings (DEBUG off), the stream process runs as the Procfile runs it
(uvicorn, ``turnbased.events.asgi:application``). Then:

1. ``--streams`` players, two to a Love Letter game, each with an API token; the stream process's
   resident memory (RSS) is read once it has started and served one stream, so its code is loaded;
2. every player opens one stream (``GET /api/stream/``) from this process: one asyncio client, one
   connection per stream. Once all are open and have been idle a few seconds, RSS again: the
   difference divided by the streams is the memory one idle stream costs;
3. for ``--idle`` seconds nothing happens: the stream process's CPU time over that span is what the
   idle streams cost (heartbeats);
4. ``--moves`` moves at ``--rate`` a second, each through ``services.submit_move`` here, in a random
   game: from the moment the move's transaction has committed (``submit_move`` returned) to the
   moment the other player's client has read the ``move_played`` event, measured on one clock. The
   p50 and p99 of that delay, and the most database connections the stream process held meanwhile.
"""

from __future__ import annotations

import os

# Every client comes from one loopback address: measure the streams, not the rate limits.
os.environ["RATE_LIMITS"] = "off"
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "turnbased.settings")

import argparse  # noqa: E402
import asyncio  # noqa: E402
import datetime  # noqa: E402
import json  # noqa: E402
import platform  # noqa: E402
import random  # noqa: E402
import secrets  # noqa: E402
import signal  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402
from contextlib import ExitStack  # noqa: E402
from pathlib import Path  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.processes import cpu_seconds, rss_kib  # noqa: E402

APPLICATION_NAME = "bench-stream"


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


# -- the clients: one asyncio loop in a thread, one raw HTTP/1.1 connection per stream ------------------


def token_request(key: str) -> bytes:
    """The opening request of a client's stream, with an API token."""
    return (f"GET /api/stream/ HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Token {key}\r\n"
            "Accept: text/event-stream\r\n\r\n").encode()


class Clients:
    """Open streams and note when each ``move_played`` event arrives, by (game, seq).

    Each stream is opened for a key with the request ``request(key)`` makes: by default a client's, with the key as
    its API token (benchmarks/capacity.py opens game pages' streams, with a session cookie).
    """

    def __init__(self, port: int, request=token_request):
        self.port = port
        self.request = request
        self.loop = asyncio.new_event_loop()
        self.arrived: dict[tuple[int, int], float] = {}
        self.opened = 0
        self.failures: list[str] = []
        self._thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self._writers: list[asyncio.StreamWriter] = []

    def start(self) -> None:
        self._thread.start()

    def open(self, keys: list[str], timeout: float = 120.0) -> None:
        future = asyncio.run_coroutine_threadsafe(self._open_all(keys), self.loop)
        future.result(timeout)

    async def _open_all(self, keys: list[str]) -> None:
        for number in range(0, len(keys), 50):  # in batches, as clients would come
            await asyncio.gather(*(self._open(key) for key in keys[number:number + 50]))

    async def _open(self, key: str) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
        writer.write(self.request(key))
        status = await reader.readline()
        if b" 200 " not in status:
            self.failures.append(status.decode(errors="replace"))
            writer.close()
            return
        while (await reader.readline()) not in (b"\r\n", b""):
            pass  # headers
        self._writers.append(writer)
        self.opened += 1
        asyncio.get_running_loop().create_task(self._read(reader))

    async def _read(self, reader: asyncio.StreamReader) -> None:
        buffer = ""
        try:
            while True:
                size = int((await reader.readline()).strip() or b"0", 16)  # chunked transfer encoding
                if size == 0:
                    return
                chunk = await reader.readexactly(size + 2)
                buffer += chunk[:-2].decode()
                *blocks, buffer = buffer.split("\n\n")
                for block in blocks:
                    self._event(block)
        except (asyncio.IncompleteReadError, ConnectionError, ValueError):
            return

    def _event(self, block: str) -> None:
        lines = dict(line.split(": ", 1) for line in block.split("\n") if ": " in line and not line.startswith(":"))
        if lines.get("event") == "move_played":
            data = json.loads(lines["data"])
            self.arrived.setdefault((data["game"], data["seq"]), time.monotonic())

    def close(self) -> None:
        if self._thread.is_alive():
            asyncio.run_coroutine_threadsafe(self._close_all(), self.loop).result(30)
            self.loop.call_soon_threadsafe(self.loop.stop)
            self._thread.join(10)

    async def _close_all(self) -> None:
        for writer in self._writers:
            writer.close()
        readers = [task for task in asyncio.all_tasks() if task is not asyncio.current_task()]
        for task in readers:
            task.cancel()
        await asyncio.gather(*readers, return_exceptions=True)


# -- the run ------------------------------------------------------------------------------------------


def players_and_games(count: int) -> tuple[list[str], list[int]]:
    """Make ``count`` players, two to a started Love Letter game; return their token keys and the games."""
    from django.contrib.auth import get_user_model

    from turnbased.accounts.services.tokens import token_create
    from turnbased.play import services

    users = []
    for number in range(count):
        user = get_user_model().objects.create(username=f"streamer{number}", email=f"streamer{number}@example.com")
        user.set_unusable_password()
        user.save(update_fields=["password"])
        users.append(user)
    games = []
    for first, second in zip(users[::2], users[1::2]):
        game = services.create_game(creator=first, engine_slug="love-letter", players=2)
        services.join_game(game_id=game.pk, user=second)
        games.append(game.pk)
    keys = [token_create(user=user, name="bench", lifetime=None)[1] for user in users]
    return keys, games


def stream_connections() -> int:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND "
                       "application_name IN (%s, 'turnbased-stream-listen')", [APPLICATION_NAME])
        return cursor.fetchone()[0]


def play_moves(games: list[int], moves: int, rate: float, clients: Clients) -> tuple[list[float], int, int]:
    """Play ``moves`` random legal moves at ``rate`` a second; return the delays (ms), those lost, connections."""
    from turnbased.play import services, store
    from turnbased.play.models import Game, GameStatus

    rng = random.Random(15)
    committed: dict[tuple[int, int], float] = {}
    most_connections = 0
    start = time.monotonic()
    for number in range(moves):
        time.sleep(max(0.0, start + number / rate - time.monotonic()))
        game = Game.objects.get(pk=rng.choice(games))
        if game.status != GameStatus.ACTIVE:
            continue
        seat = game.to_move[0]
        user = game.seats.get(index=seat).user
        move = rng.choice(store.engine_of(game).legal_moves(game.state, seat))
        outcome = services.submit_move(game_id=game.pk, user=user, expected_seq=game.seq, move=move)
        committed[(game.pk, outcome.move.seq)] = time.monotonic()
        if number % 25 == 0:
            most_connections = max(most_connections, stream_connections())
    time.sleep(2.0)  # the last events' way
    delays = [(clients.arrived[key] - at) * 1000 for key, at in committed.items() if key in clients.arrived]
    return delays, len(committed) - len(delays), most_connections


def measure(args, environment: dict[str, str], folder: Path) -> None:
    from turnbased.local.services import free_port, port_answers

    keys, games = players_and_games(args.streams)
    port = free_port()
    uvicorn = Path(sys.executable).parent / "uvicorn"
    log = folder / "stream.log"
    with log.open("ab") as output:
        process = subprocess.Popen(
            [str(uvicorn), "turnbased.events.asgi:application", "--host", "127.0.0.1", "--port", str(port),
             "--timeout-graceful-shutdown", "2", "--no-access-log"],
            cwd=ROOT, env=environment, stdin=subprocess.DEVNULL, stdout=output, stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    clients = Clients(port)
    try:
        deadline = time.monotonic() + 60
        while not port_answers(port):
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the stream process did not start; see {log}")
            time.sleep(0.1)
        clients.start()
        clients.open(keys[:1])  # one stream served: the code every stream runs is loaded
        time.sleep(2.0)
        before = rss_kib(process.pid)
        clients.open(keys[1:])
        time.sleep(5.0)
        after = rss_kib(process.pid)
        if clients.failures or clients.opened != len(keys):
            raise RuntimeError(f"{clients.opened} of {len(keys)} streams opened: {clients.failures[:3]}")
        cpu_before, idle_start = cpu_seconds(process.pid), time.monotonic()
        time.sleep(args.idle)
        idle_cpu = (cpu_seconds(process.pid) - cpu_before) / (time.monotonic() - idle_start)
        delays, lost, connections = play_moves(games, args.moves, args.rate, clients)
        final = rss_kib(process.pid)
    finally:
        clients.close()
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    per_stream = (after - before) / (len(keys) - 1)
    print(f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC, {os.cpu_count()} cores "
          f"({platform.processor() or platform.machine()}; load average {os.getloadavg()[0]:.1f}), "
          f"Python {platform.python_version()}")
    print(f"streams open: {clients.opened}; stream process RSS {before / 1024:.1f} MiB with one stream, "
          f"{after / 1024:.1f} MiB with {clients.opened} ({per_stream:.1f} KiB per idle stream), "
          f"{final / 1024:.1f} MiB after the moves")
    print(f"idle: the stream process used {idle_cpu * 100:.2f} % of one core over {args.idle:.0f} s "
          f"(heartbeats every {environment.get('STREAM_HEARTBEAT_SECONDS', '15')} s)")
    print(f"moves: {len(delays) + lost} at {args.rate:g}/s; commit to event at the other player's client: "
          f"p50 {statistics.median(delays):.1f} ms, p99 {percentile(delays, 0.99):.1f} ms, "
          f"max {max(delays):.1f} ms; {lost} never arrived")
    print(f"database connections of the stream process: at most {connections} "
          f"(STREAM_DATABASE_THREADS={environment.get('STREAM_DATABASE_THREADS', 2)} + 1 LISTEN)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--streams", type=int, default=500, help="streams to hold open (default 500, even)")
    parser.add_argument("--moves", type=int, default=300, help="moves to time (default 300)")
    parser.add_argument("--rate", type=float, default=10.0, help="moves a second (default 10)")
    parser.add_argument("--idle", type=float, default=20.0, help="seconds of idle streams to time (default 20)")
    args = parser.parse_args()
    args.streams += args.streams % 2

    import django
    from django.db import connections

    from turnbased.local import services as local

    with ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="streams-")))
        server_url = os.environ.get("DATABASE_URL") or stack.enter_context(local.embedded_postgres())
        database_url = stack.enter_context(local.scratch_database(server_url, f"bench_streams_{os.getpid()}"))
        broker_url = stack.enter_context(local.embedded_redis(local.free_port(), folder=folder / "redis"))
        (folder / "data" / "staticfiles").mkdir(parents=True)
        separator = "&" if "?" in database_url else "?"
        environment = {
            **os.environ,
            "DATABASE_URL": database_url,
            "CELERY_BROKER_URL": broker_url,  # no worker: the moves' emails wait in Redis
            "DJANGO_DEBUG": "false",
            "DJANGO_HTTPS": "off",
            "DJANGO_SECRET_KEY": secrets.token_urlsafe(64),
            "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
            "TURNBASED_DATA_DIR": str(folder / "data"),
            "PYTHONPATH": str(ROOT),
            "STREAM_MAX_PER_USER": "5",
            "STREAM_MAX_PER_ADDRESS": "100000",  # every stream comes from loopback
            "LOG_LEVEL": "WARNING",
        }
        environment.pop("CELERY_TASK_ALWAYS_EAGER", None)
        os.environ.update(environment)
        django.setup()
        stack.callback(connections.close_all)
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        stream_environment = {**environment,
                              "DATABASE_URL": f"{database_url}{separator}application_name={APPLICATION_NAME}"}
        measure(args, stream_environment, folder)
    return 0


if __name__ == "__main__":
    sys.exit(main())
