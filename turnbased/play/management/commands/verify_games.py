"""Replay every started game from its seed and move log and compare with its snapshot."""

import json

from django.core.management.base import BaseCommand, CommandError

from turnbased.play import store
from turnbased.play.models import Game


class Command(BaseCommand):
    help = "Replay every game from seed and log; report any whose replay differs from its snapshot (exit 1)."

    def add_arguments(self, parser):
        parser.add_argument("game_ids", nargs="*", type=int, help="Only these games (default: all started games).")

    def handle(self, *args, **options):
        games = Game.objects.exclude(started_at=None).order_by("pk")
        if options["game_ids"]:
            games = games.filter(pk__in=options["game_ids"])
        checked, broken = 0, []
        for game in games.iterator():
            checked += 1
            try:
                replayed = store.replay(game)
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


def _canonical(state) -> str:
    return json.dumps(state, sort_keys=True)
