"""Photograph each game's page in mid-game for the README; run it through ``python -m turnbased.local screenshots``."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from games import engines
from turnbased.play import screenshots


class Command(BaseCommand):
    help = ("Build a mid-game table of each game in THIS database and save a picture of its page under "
            "docs/screenshots/. Use `python -m turnbased.local screenshots`, which gives it a throwaway database.")

    def add_arguments(self, parser):
        parser.add_argument("games", nargs="*", help="Only these games (default: every game).")
        parser.add_argument("--output", type=Path, default=screenshots.OUTPUT, help="Folder for the pictures.")
        parser.add_argument("--languages", default=",".join(screenshots.LOCALES),
                            help="The languages to photograph each game in, comma-separated (default: every one).")
        parser.add_argument("--sizes", default=",".join(screenshots.SIZES),
                            help="desktop, phone or both, comma-separated (default: both; phones in English only).")

    def handle(self, *args, **options):
        unknown = set(options["games"]) - set(engines())
        if unknown:
            raise CommandError(f"Unknown game(s): {', '.join(sorted(unknown))}.")
        languages = [code.strip() for code in options["languages"].split(",") if code.strip()]
        if not languages or set(languages) - set(screenshots.LOCALES):
            raise CommandError(f"Languages are some of: {', '.join(screenshots.LOCALES)}.")
        sizes = [size.strip() for size in options["sizes"].split(",") if size.strip()]
        if not sizes or set(sizes) - set(screenshots.SIZES):
            raise CommandError(f"Sizes are some of: {', '.join(screenshots.SIZES)}.")
        try:
            shots = screenshots.prepare(options["games"] or None, languages, sizes)
            with screenshots.served_site() as base_url, screenshots.launched_chromium() as browser:
                saved = screenshots.photograph(base_url, browser, shots, output=options["output"])
        except RuntimeError as error:
            raise CommandError(str(error)) from None
        for path in saved:
            self.stdout.write(str(path))
