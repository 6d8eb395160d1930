"""Replay every started game from its seed and move log and compare it with what the game row says.

Each game and its log are read in one snapshot (a REPEATABLE READ transaction of their own), so a
move committed while the command runs is either wholly in what it reads or wholly outside it: a
live service reports no false differences. Besides the state snapshot it compares ``seq`` with the
log's last entry and length, ``to_move``, ``status`` and the engine's part of ``result``. Each game is
replayed with the engine version it pinned (``store.engine_of``).

``--records FILE ...`` checks game records (docs/record-format.md) instead, as ``python -m games.verify``
does: the golden records under ``tests/records/`` must pass for good.
"""

import json

from django.core.management.base import BaseCommand, CommandError
from django.db import connection, transaction

from games.record import verify_record
from games.takebacks import LogReplay
from turnbased.play import store
from turnbased.play.models import Game, GameStatus, Move


class Command(BaseCommand):
    help = ("Replay every game from seed and log; report any whose snapshot, seq, turn, status or result differs "
            "from the replay (exit 1).")

    def add_arguments(self, parser):
        parser.add_argument("game_ids", nargs="*", type=int, help="Only these games (default: all started games).")
        parser.add_argument("--game", dest="games", action="append", type=int, default=[], metavar="ID",
                            help="Only this game (may be repeated; the same as giving ids).")
        parser.add_argument("--records", nargs="+", metavar="FILE",
                            help="Verify these game record files (JSON) instead of the games in the database.")

    def handle(self, *args, **options):
        if options["records"]:
            return self._verify_records(options["records"])
        wanted = [*options["game_ids"], *options["games"]]
        ids = Game.objects.exclude(started_at=None).order_by("pk")
        if wanted:
            ids = ids.filter(pk__in=wanted)
        checked, broken = 0, []
        for game_id in ids.values_list("pk", flat=True).iterator():
            problems = differences(game_id)
            if problems is None:
                continue  # deleted meanwhile
            checked += 1
            broken.extend(f"game {game_id}: {problem}" for problem in problems)
        for line in broken:
            self.stderr.write(line)
        games_broken = len({line.split(":", 1)[0] for line in broken})
        self.stdout.write(f"checked {checked} game(s), {games_broken} differ")
        if broken:
            raise CommandError(f"{games_broken} game(s) differ from their replay")

    def _verify_records(self, paths: list[str]) -> None:
        broken = []
        for path in paths:
            try:
                with open(path, encoding="utf-8") as handle:
                    report = verify_record(json.load(handle))
            except (OSError, UnicodeDecodeError, ValueError) as error:
                broken.append(f"{path}: cannot read the file as JSON: {error}")
                continue
            if not report.ok:
                failures = "; ".join(f"{name}: {detail}" for name, passed, detail in report.checks if not passed)
                broken.append(f"{path}: {failures}")
        for line in broken:
            self.stderr.write(line)
        self.stdout.write(f"checked {len(paths)} record(s), {len(broken)} differ")
        if broken:
            raise CommandError(f"{len(broken)} record(s) do not verify")


def differences(game_id: int) -> list[str] | None:
    """Return what differs between the game's row and the replay of its log (None: no such game)."""
    outermost = not connection.in_atomic_block  # inside a caller's transaction, its snapshot is the one we get
    with transaction.atomic():
        if outermost:
            # The first statement of the transaction fixes its snapshot; the row and its log come from it.
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        game = Game.objects.filter(pk=game_id).first()
        if game is None:
            return None
        entries = list(Move.objects.filter(game_id=game_id).order_by("seq").values_list("seq", "seat", "move"))
    try:
        return _compare(game, entries)
    except Exception as error:  # a log that no longer replays is exactly what we look for
        return [f"replay failed: {error}"]


def _compare(game: Game, entries: list[tuple[int, int, dict]]) -> list[str]:
    problems = []
    numbers = [seq for seq, _, _ in entries]
    if numbers != list(range(1, len(entries) + 1)):
        problems.append("the log's seq numbers are not 1, 2, 3 ... without gaps")
    if game.seq != len(entries):
        problems.append(f"seq is {game.seq} but the log holds {len(entries)} move(s)")
    engine = store.engine_of(game)
    replayed = LogReplay(engine, store.initial_state(game))
    for _, seat, move in entries:
        replayed.play(seat, move)  # a takeback returns to the position before the move it names
    state = replayed.state
    if _canonical(state) != _canonical(game.state):
        problems.append(f"the snapshot at seq {game.seq} differs from the replay of its log")
    if list(game.to_move) != engine.to_move(state):
        problems.append(f"to_move is {game.to_move} but the replay says {engine.to_move(state)}")
    result = engine.result(state)
    if result is not None:
        if game.status != GameStatus.FINISHED:
            problems.append(f"the replay ends the game but its status is {game.status}")
        recorded = game.result or {}
        changed = sorted(key for key, value in result.items() if _canonical(recorded.get(key)) != _canonical(value))
        if changed:
            problems.append(f"the result differs from the replay's in {', '.join(changed)}")
    else:
        if game.status == GameStatus.FINISHED:
            problems.append("the game is finished but the replay of its log is still in play")
        if game.result is not None:
            problems.append("the game has a result but the replay of its log is still in play")
    return problems


def _canonical(value) -> str:
    return json.dumps(value, sort_keys=True)
