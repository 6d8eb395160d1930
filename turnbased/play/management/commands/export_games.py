"""Write the complete records of games that are over: an administrator's backup, one JSON file per game."""

from __future__ import annotations

import json
from datetime import datetime, time
from datetime import timezone as dt_timezone
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db.models import Q
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime

from turnbased.play import records
from turnbased.play.models import Game, GameStatus


def _since(raw: str) -> datetime:
    try:
        moment, day = parse_datetime(raw), parse_date(raw)
    except ValueError:  # well formed, but no such day (2026-02-30)
        moment = day = None
    if moment is None:
        if day is None:
            raise CommandError(f"--since {raw!r}: give a date (2026-11-30) or a time (2026-11-30T12:00:00Z).")
        moment = datetime.combine(day, time.min)
    return moment if timezone.is_aware(moment) else timezone.make_aware(moment, dt_timezone.utc)


class Command(BaseCommand):
    help = ("Write the complete record (docs/record-format.md) of every game that is over: one "
            "<engine>-<id>.json per game in --output, or JSON Lines on stdout with --output -.")

    def add_arguments(self, parser):
        parser.add_argument("--since", help="Only games that ended at or after this date or time (UTC).")
        parser.add_argument("--game", type=int, nargs="+", dest="games", metavar="ID", help="Only these games.")
        parser.add_argument("--output", default="-", help="A directory to write into (made if missing), or - for "
                                                          "stdout, one record per line (the default).")

    def handle(self, *args, **options):
        over = (Q(status=GameStatus.FINISHED) | Q(status=GameStatus.ABORTED, started_at__isnull=False)) & Q(held=False)
        games = Game.objects.filter(over)
        if options["since"]:
            games = games.filter(finished_at__gte=_since(options["since"]))
        if options["games"]:
            games = games.filter(pk__in=options["games"])
            missing = sorted(set(options["games"]) - set(games.values_list("pk", flat=True)))
            if missing:
                raise CommandError(f"not over, or no such game: {', '.join(map(str, missing))} (only the record "
                                   "of a game that is over is complete)")
        output = options["output"]
        directory = None if output == "-" else Path(output)
        if directory is not None:
            directory.mkdir(parents=True, exist_ok=True)
        written = 0
        for game in games.prefetch_related("seats").order_by("pk").iterator(chunk_size=100):
            record = records.complete_record(game)
            if directory is None:
                self.stdout.write(json.dumps(record, ensure_ascii=False, sort_keys=True))
            else:
                path = directory / records.record_filename(game)
                path.write_text(json.dumps(record, ensure_ascii=False, indent=1, sort_keys=True) + "\n", encoding="utf-8")
            written += 1
        if directory is not None:
            self.stdout.write(f"wrote {written} record(s) to {directory}")
