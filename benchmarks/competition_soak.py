"""A soak of competitions run to their end through real Celery workers, bots in every seat, then checked.

    .venv/bin/python benchmarks/competition_soak.py [--concurrency 2] [--minutes 40]

It starts its own embedded PostgreSQL and Redis, migrates a scratch database and starts a Celery worker, beat and
the work dispatcher as ``make run`` does (production settings, no pause between bot moves). Then it makes five
competitions and runs them: a 64-player two-player Swiss of 6 rounds (Love Letter), a 48-player event of 4-player
pools with a final (Love Letter at four), a 3-division league season (Halali!, 12 players), a ladder with 30
challenges (Love Letter, 10 players) and a duplicate Swiss of 3 rounds (Savernake Forest at four, 16 players).
Each competition starts by its task on the worker; as each round opens, the driver hands every seat to its bot
(``game_play_out``: what a round's deadline does), and the worker's bots play the games out, the games' ends closing
the rounds and pairing the next on the worker. The ladder's challenges are made by the driver, each
played out the same way; after the 30th its end is brought forward.

At the end it prints how long each took and checks: every game finished, no game stuck, every standing equal to a
recomputation from scratch, no two Swiss players paired twice, the byes rotated, the league's next season made with
its players carried, every table of a duplicate round dealt from the round's seed and no game left held, the
worker's log free of errors, and ``verify_games`` of every game (exit 1 if any fails).
"""

from __future__ import annotations

import argparse
import os
import random
import secrets
import sys
import tempfile
import time
from collections import Counter
from contextlib import ExitStack
from datetime import timedelta
from io import StringIO
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

os.environ["RATE_LIMITS"] = "off"  # one process makes every account, entry and challenge

from benchmarks.processes import start, stop  # noqa: E402

CLOCK = {"kind": "per_move", "days_per_move": 3}
LADDER_CHALLENGES = 30


def _make(organiser, people, **settings):
    from django.utils import timezone

    from turnbased.competitions.models import Competition
    from turnbased.competitions.services import entries

    chosen = {"name": settings.pop("name"), "time_control": CLOCK,
              "starts_at": (timezone.now() + timedelta(days=1)).isoformat(), **settings}
    competition = entries.competition_create(user=organiser, settings=chosen)
    for person in people:
        entries.competition_enter(user=person, competition_id=competition.pk)
    Competition.objects.filter(pk=competition.pk).update(starts_at=timezone.now())
    return competition


def soak(args, environment: dict[str, str], folder: Path) -> int:
    from django.core.management import call_command
    from django.core.management.base import CommandError
    from django.db import close_old_connections

    from turnbased.accounts.services.accounts import account_create
    from turnbased.competitions import standings
    from turnbased.competitions.models import (
        Bye, Competition, CompetitionStatus, Entrant, EntrantStatus, EventTable, Round, RoundStatus, Standing,
        TableStatus,
    )
    from turnbased.competitions.services import ladders
    from turnbased.kit.db import dispatch
    from turnbased.kit.errors import PlayError
    from turnbased.play.models import Game, GameStatus, Seat
    from turnbased.play.services import game_play_out

    people = [account_create(username=f"entrant{n}", email=f"entrant{n}@example.com",
                             password=secrets.token_urlsafe(16), email_verified=True) for n in range(150)]
    organiser = account_create(username="organiser", email="organiser@example.com",
                               password=secrets.token_urlsafe(16), email_verified=True)
    python_bin = str(Path(sys.executable).parent)
    worker, worker_log = start("worker", [f"{python_bin}/celery", "-A", "turnbased", "worker", "--loglevel=warning",
                                          f"--concurrency={args.concurrency}", "-Q", "celery,bots,mail",
                                          "--without-gossip", "--without-mingle"], environment, folder)
    beat, _ = start("beat", [f"{python_bin}/celery", "-A", "turnbased", "beat", "--loglevel=warning",
                             f"--schedule={folder / 'celerybeat-schedule'}"], environment, folder)
    # The work each commit names (a bot's turn, a round to open or close) is queued by the dispatcher, as in
    # ``make run``: without it only the minute sweeps would find it.
    dispatcher, _ = start("dispatch", [sys.executable, str(ROOT / "manage.py"), "dispatch_work"], environment, folder)
    rng = random.Random(args.seed)
    began = time.monotonic()
    took: dict[str, float] = {}
    try:
        time.sleep(3)
        made = {
            "swiss": _make(organiser, people[:64], name="Soak Swiss", game="love-letter", table_size=2,
                           stages=[{"format": "swiss", "rounds": 6}]),
            "pools": _make(organiser, people[64:112], name="Soak Pools", game="love-letter", table_size=4,
                           stages=[{"format": "round_robin", "pool_size": 4, "advance": 1},
                                   {"format": "elimination", "advance": 1}]),
            "league": _make(organiser, people[112:124], name="Soak League", game="halali", table_size=2,
                            league={"division_size": 4, "movers": 1}, stages=[{"format": "round_robin",
                                                                                "rounds": 1}]),
            "ladder": _make(organiser, people[124:134], name="Soak Ladder", game="love-letter", table_size=2,
                            ladder={"reach": 3, "open_challenges": 2, "cooldown_days": 0, "days": 30}),
            "duplicate": _make(organiser, people[134:150], name="Soak Duplicate", game="savernake-forest",
                               table_size=4, stages=[{"format": "swiss", "rounds": 3, "duplicate": True}]),
        }
        for competition in made.values():
            dispatch.queue("turnbased.competitions.tasks.competition_start", [competition.pk])
        ladder, challenges, handed = made["ladder"], 0, set()
        while time.monotonic() - began < args.minutes * 60:
            time.sleep(1)
            close_old_connections()
            if worker.poll() is not None:
                raise SystemExit(f"the worker exited with {worker.returncode}; see {worker_log}")
            # Every game in play at a competition's table whose seats people still hold: their bots play it out.
            waiting = (EventTable.objects.filter(status=TableStatus.PLAYING, game__status=GameStatus.ACTIVE)
                       .filter(game__seats__bot="").values_list("game_id", flat=True).distinct())
            for game_id in set(waiting) - handed:
                game_play_out(game_id=game_id)
                handed.add(game_id)
            ladder.refresh_from_db()
            if ladder.status == CompetitionStatus.RUNNING and challenges < LADDER_CHALLENGES:
                entrants = list(Entrant.objects.filter(competition=ladder, status=EntrantStatus.ACTIVE)
                                .select_related("user"))
                challenger = rng.choice(entrants)
                place = Standing.objects.filter(entrant=challenger).values_list("place", flat=True).first() or 1
                above = list(Standing.objects.filter(stage__competition=ladder, place__lt=place,
                                                     place__gte=place - 3).values_list("entrant__user__username",
                                                                                       flat=True))
                if above:
                    try:
                        ladders.ladder_challenge(user=challenger.user, competition_id=ladder.pk,
                                                 username=rng.choice(above))
                        challenges += 1
                    except PlayError:
                        pass  # a cap reached: another player next time
            elif challenges >= LADDER_CHALLENGES and "ladder" not in took and not EventTable.objects.filter(
                    round__stage__competition=ladder, status=TableStatus.PLAYING).exists():
                Round.objects.filter(stage__competition=ladder, status=RoundStatus.OPEN).update(
                    deadline=ladder.started_at)  # its end brought forward: the games are over, the ladder closes
                for round_id in Round.objects.filter(stage__competition=ladder, status=RoundStatus.OPEN) \
                        .values_list("pk", flat=True):
                    dispatch.queue("turnbased.competitions.tasks.round_close", [round_id])
            for name, competition in made.items():
                competition.refresh_from_db()
                if name not in took and competition.status == CompetitionStatus.FINISHED:
                    took[name] = time.monotonic() - began
            if len(took) == len(made):
                break
        log_text = worker_log.read_text(errors="replace")
    finally:
        stop(dispatcher)
        stop(beat)
        stop(worker)
    close_old_connections()
    problems = []
    print(f"competition soak, worker concurrency {args.concurrency}, {os.cpu_count()} cores")
    for name, competition in made.items():
        competition.refresh_from_db()
        games = Game.objects.filter(pk__in=EventTable.objects.filter(round__stage__competition=competition)
                                    .values("game_id"))
        unfinished = games.exclude(status=GameStatus.FINISHED).count()
        print(f"  {name}: {competition.status}, {games.count()} games, {unfinished} unfinished, "
              + (f"finished after {took[name]:.0f} s" if name in took else "not finished"))
        if name not in took or unfinished:
            problems.append(f"{name} did not finish")
        for stage in competition.stages.all():
            differences = standings.differences(stage)
            if differences:
                problems.append(f"{name} stage {stage.number}: standings differ from a recomputation: "
                                f"{differences[:3]}")
    pairs = Counter(frozenset(table.players) for table in
                    EventTable.objects.filter(round__stage__competition=made["swiss"]))
    repeated = [sorted(pair) for pair, count in pairs.items() if count > 1]
    byes = Counter(Bye.objects.filter(round__stage__competition__in=[made["swiss"], made["pools"]])
                   .values_list("entrant_id", flat=True))
    print(f"  swiss: pairs played twice {len(repeated)}; byes {sum(byes.values())}, most to one player "
          f"{max(byes.values(), default=0)}")
    if repeated:
        problems.append(f"Swiss pairs played twice: {repeated[:5]}")
    if max(byes.values(), default=0) > 1:
        problems.append("a player had two byes")
    duplicate_rounds = Round.objects.filter(stage__competition=made["duplicate"])
    seeds_shared = all(set(EventTable.objects.filter(round=played).values_list("game__seed", flat=True))
                       == {played.seed} for played in duplicate_rounds)
    still_held = Game.objects.filter(held=True).count()
    print(f"  duplicate: {duplicate_rounds.count()} rounds, each table of a round from its seed: {seeds_shared}; "
          f"games still held: {still_held}")
    if not seeds_shared or still_held:
        problems.append("a duplicate round's tables did not share its seed, or a game stayed held")
    following = Competition.objects.filter(previous_season=made["league"]).first()
    carried = following.entrants.count() if following else 0
    print(f"  league: season 2 {'made' if following else 'missing'}, {carried} players carried")
    if following is None or carried != 12:
        problems.append("the league's next season is missing or did not carry its players")
    people_left = Seat.objects.filter(game__status=GameStatus.ACTIVE).count()
    errors = [line for line in log_text.splitlines() if " ERROR/" in line or line.startswith("Traceback")]
    print(f"  seats of games still in play: {people_left}; errors in the worker's log: {len(errors)}")
    problems += errors[:5]
    output = StringIO()
    try:
        call_command("verify_games", stdout=output, stderr=output)
    except CommandError:
        problems.append("verify_games found a game that does not verify")
    print("  verify_games: " + output.getvalue().strip().replace("\n", "\n    "))
    for problem in problems:
        print(f"  PROBLEM: {problem}")
    return 1 if problems else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--concurrency", type=int, default=2, help="the worker's pool size (default 2)")
    parser.add_argument("--minutes", type=float, default=40.0, help="the most it may take (default 40)")
    parser.add_argument("--seed", type=int, default=1, help="seeds the ladder's challenges")
    args = parser.parse_args()

    import django
    from django.core.management import call_command
    from django.db import connections

    from turnbased.local import services as local

    with ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="competition-soak-")))
        server_url = os.environ.get("DATABASE_URL") or stack.enter_context(local.embedded_postgres())
        database_url = stack.enter_context(local.scratch_database(server_url, f"competition_soak_{os.getpid()}"))
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
            "PYTHONPATH": str(ROOT),
            # The competitions' news is written and sent as ever, to memory: no relay to wait on.
            "EMAIL_BACKEND": "django.core.mail.backends.locmem.EmailBackend",
            # Every entrant sits at many tables at once over the soak: the limits on waiting games are off.
            "GAMES_WAITING_TO_CREATE": "off", "GAMES_WAITING_TO_JOIN": "off", "NEW_ACCOUNT_OPEN_GAMES": "off",
        }
        environment.pop("CELERY_TASK_ALWAYS_EAGER", None)
        os.environ.update(environment)
        django.setup()
        stack.callback(connections.close_all)
        call_command("migrate", verbosity=0)
        return soak(args, environment, folder)


if __name__ == "__main__":
    sys.exit(main())
