"""A bounded soak: tables of bots only, played by real Celery workers for N minutes, then checked.

    .venv/bin/python benchmarks/soak.py [--minutes 2] [--tables 8] [--concurrency 2]

It starts its own embedded PostgreSQL database and Redis, migrates a scratch database, starts a
Celery worker and beat as ``make run`` does (production settings, no pause between bot moves), and
keeps ``--tables`` tables of bots in play, every game in turn, opening a new table whenever one
ends. At the end it prints the games finished and the moves played, the games stuck (in play with
no move for ``STUCK_AFTER`` while the workers ran), the workers' memory idle at the start, once
warm (a quarter of the way in: every game's code and caches loaded) and at the end,
the errors the worker logged, and what ``verify_games`` says of every game (exit 1 if any differs,
any game is stuck, or the worker logged an error).
"""

from __future__ import annotations

import argparse
import os
import random
import re
import secrets
import sys
import tempfile
import time
from contextlib import ExitStack
from datetime import timedelta
from io import StringIO
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# The soak opens many tables from one process: the abuse limits must not count it (read when Django loads).
os.environ["RATE_LIMITS"] = "off"

from benchmarks.processes import start, stop  # noqa: E402

STUCK_AFTER = timedelta(seconds=60)
BOT_CREATORS = 50  # accounts the tables are spread over (each may have only a few bot tables in play)


def process_group_rss_kib(group: int) -> int:
    """Return the resident memory of every process in ``group`` (the worker and its children), in KiB."""
    total = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if os.getpgid(int(entry.name)) != group:
                continue
            status = (entry / "status").read_text()
        except (ProcessLookupError, FileNotFoundError, PermissionError):
            continue
        match = re.search(r"^VmRSS:\s+(\d+) kB", status, re.MULTILINE)
        total += int(match.group(1)) if match else 0
    return total


def soak(args, environment: dict[str, str], folder: Path) -> int:
    from django.core.management import call_command
    from django.core.management.base import CommandError
    from django.db import close_old_connections
    from django.utils import timezone

    from games import engines
    from turnbased.accounts.services.accounts import account_create
    from turnbased.play import services
    from turnbased.play.models import Game, GameStatus, Move

    creators = [account_create(username=f"soak{n}", email=f"soak{n}@example.com", password=secrets.token_urlsafe(16),
                               email_verified=True) for n in range(BOT_CREATORS)]
    slugs = sorted(engines())
    rng = random.Random(args.seed)
    opened = 0

    def open_table() -> None:
        nonlocal opened
        slug = slugs[opened % len(slugs)]
        engine = engines()[slug]
        seats = engine.default_players
        bots = {seat: rng.choice(sorted(engine.bots())) for seat in range(seats)}
        services.create_game(creator=creators[opened % len(creators)], engine_slug=slug, players=seats, bots=bots,
                             creator_plays=False, seed=f"soak-{args.seed}-{opened}")
        opened += 1

    python_bin = str(Path(sys.executable).parent)
    # One worker of every queue the games need, bot turns' own among them (the Procfile's worker, bots and mailer).
    worker, worker_log = start("worker", [f"{python_bin}/celery", "-A", "turnbased", "worker", "--loglevel=warning",
                                          f"--concurrency={args.concurrency}", "-Q", "celery,bots,mail",
                                          "--without-gossip", "--without-mingle"],
                               environment, folder)
    beat, _ = start("beat", [f"{python_bin}/celery", "-A", "turnbased", "beat", "--loglevel=warning",
                             f"--schedule={folder / 'celerybeat-schedule'}"], environment, folder)
    try:
        time.sleep(3)  # the worker's pool forks and connects
        memory_start = process_group_rss_kib(worker.pid)
        for _ in range(args.tables):
            open_table()
        began = time.monotonic()
        memory_warm = None
        while time.monotonic() - began < args.minutes * 60:
            time.sleep(2)
            if memory_warm is None and time.monotonic() - began > args.minutes * 60 / 4:
                memory_warm = process_group_rss_kib(worker.pid)  # every game played once: imports and caches loaded
            close_old_connections()
            for _ in range(args.tables - Game.objects.filter(status=GameStatus.ACTIVE).count()):
                open_table()
            if worker.poll() is not None:
                raise SystemExit(f"the worker exited with {worker.returncode}; see {worker_log}")
        memory_end = process_group_rss_kib(worker.pid)
        close_old_connections()
        moment = timezone.now()
        stuck = [
            game.pk for game in Game.objects.filter(status=GameStatus.ACTIVE)
            if moment - (game.last_move_at or game.started_at) > STUCK_AFTER
        ]
        log_text = worker_log.read_text(errors="replace")  # before the shutdown, which logs its own lines
    finally:
        stop(beat)
        stop(worker)
    finished = Game.objects.filter(status=GameStatus.FINISHED).count()
    moves = Move.objects.count()
    errors = [line for line in log_text.splitlines() if " ERROR/" in line or line.startswith("Traceback")]
    print(f"soak of {args.minutes:g} min, {args.tables} tables at a time, worker concurrency {args.concurrency}, "
          f"{os.cpu_count()} cores")
    print(f"  tables opened {opened}, games finished {finished}, moves {moves} "
          f"({moves / (args.minutes * 60):.1f} per second)")
    by_game = {slug: Game.objects.filter(engine=slug, status=GameStatus.FINISHED).count() for slug in slugs}
    print("  finished by game: " + ", ".join(f"{slug} {count}" for slug, count in by_game.items()))
    print(f"  stuck games (in play, no move for {STUCK_AFTER.seconds} s): {len(stuck)} {stuck[:10]}")
    print(f"  worker memory (the worker and its pool): {memory_start / 1024:.1f} MiB idle at the start, "
          f"{(memory_warm or 0) / 1024:.1f} MiB after a quarter of the time, {memory_end / 1024:.1f} MiB at the end "
          f"(growth after warming up: {(memory_end - (memory_warm or memory_end)) / 1024:+.1f} MiB)")
    print(f"  errors in the worker's log: {len(errors)}")
    for line in errors[:10]:
        print(f"    {line}")
    output = StringIO()
    try:
        call_command("verify_games", stdout=output, stderr=output)
        verified = True
    except CommandError:
        verified = False
    print("  verify_games: " + output.getvalue().strip().replace("\n", "\n    "))
    return 0 if verified and not stuck and not errors else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=2.0, help="how long the workers play (default 2)")
    parser.add_argument("--tables", type=int, default=8, help="tables of bots in play at once (default 8)")
    parser.add_argument("--concurrency", type=int, default=2, help="the worker's pool size (default 2)")
    parser.add_argument("--seed", type=int, default=1, help="seeds the games and the bots' names")
    args = parser.parse_args()

    import django
    from django.core.management import call_command
    from django.db import connections

    from turnbased.local import services as local

    with ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="soak-")))
        server_url = os.environ.get("DATABASE_URL") or stack.enter_context(local.embedded_postgres())
        database_url = stack.enter_context(local.scratch_database(server_url, f"soak_{os.getpid()}"))
        broker_url = stack.enter_context(local.embedded_redis(local.free_port(), folder=folder / "redis"))
        (folder / "data").mkdir()
        environment = {
            **os.environ,
            "DATABASE_URL": database_url,
            "CELERY_BROKER_URL": broker_url,
            "CACHE_URL": broker_url.rsplit("/", 1)[0] + "/1",
            "DJANGO_DEBUG": "false",
            "DJANGO_HTTPS": "off",
            "DJANGO_SECRET_KEY": secrets.token_urlsafe(64),
            "TURNBASED_DATA_DIR": str(folder / "data"),
            "BOT_MOVE_DELAY_SECONDS": "0",
            "MAX_BOT_TABLES_PER_ACCOUNT": "1000",
            "PYTHONPATH": str(ROOT),
        }
        environment.pop("CELERY_TASK_ALWAYS_EAGER", None)
        os.environ.update(environment)
        django.setup()
        stack.callback(connections.close_all)
        call_command("migrate", verbosity=0)
        return soak(args, environment, folder)


if __name__ == "__main__":
    sys.exit(main())
