"""Replay every started game from its seed and move log, with the engine version it pinned, and compare with its snapshot.

``--records FILE ...`` checks game records (docs/record-format.md) instead, as ``python -m games.verify``
does: the golden records under ``tests/records/`` must pass for good.
"""

import json

from django.core.management.base import BaseCommand, CommandError

from games.record import verify_record
from turnbased.play import store
from turnbased.play.models import Game


class Command(BaseCommand):
    help = "Replay every game from seed and log; report any whose replay differs from its snapshot (exit 1)."

    def add_arguments(self, parser):
        parser.add_argument("game_ids", nargs="*", type=int, help="Only these games (default: all started games).")
        parser.add_argument("--records", nargs="+", metavar="FILE",
                            help="Verify these game record files (JSON) instead of the games in the database.")

    def handle(self, *args, **options):
        if options["records"]:
            return self._verify_records(options["records"])
        games = Game.objects.exclude(started_at=None).order_by("pk")
        if options["game_ids"]:
            games = games.filter(pk__in=options["game_ids"])
        checked, broken = 0, []
        for game in games.iterator():
            checked += 1
            try:
                replayed = store.replay(game)  # with the engine version the game pinned (store.engine_of)
            except Exception as error:  # a log that no longer replays is exactly what we look for
                broken.append(f"game {game.pk}: replay failed: {error}")
                continue
            if _canonical(replayed) != _canonical(game.state):
                broken.append(f"game {game.pk}: snapshot at seq {game.seq} differs from the replay of its log")
        for line in broken:
            self.stderr.write(line)
        self.stdout.write(f"checked {checked} game(s), {len(broken)} differ")
        if broken:
            raise CommandError(f"{len(broken)} game(s) differ from their replay")

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


def _canonical(state) -> str:
    return json.dumps(state, sort_keys=True)
