"""Compare every competition's kept standings with a recomputation from its places and byes (they must agree: the
standings are moved on game by game, never recomputed), and print where they differ.

    python manage.py competition_standings [--competition ID]

Exits 1 when any row differs, 0 when every one agrees.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from turnbased.competitions import standings
from turnbased.competitions.models import Stage, StageStatus


class Command(BaseCommand):
    help = "Check that every competition's standings equal a recomputation from its places and byes."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--competition", type=int, help="Only this competition (its id).")

    def handle(self, *args, competition: int | None = None, **options) -> None:
        stages = Stage.objects.exclude(status=StageStatus.WAITING).select_related("competition").order_by("pk")
        if competition is not None:
            stages = stages.filter(competition_id=competition)
        checked, differing = 0, 0
        for stage in stages:
            checked += 1
            for line in standings.differences(stage):
                differing += 1
                self.stdout.write(f"{stage.competition.name} (#{stage.competition_id}), stage {stage.number}: {line}")
        if differing:
            raise CommandError(f"{differing} figures differ from a recomputation, in {checked} stages checked.")
        self.stdout.write(f"{checked} stages checked: every standing equals a recomputation.")
