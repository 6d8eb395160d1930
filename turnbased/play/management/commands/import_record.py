"""Import finished games' records (docs/record-format.md) as games of this instance, each verified first."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from turnbased.kit.errors import PlayError
from turnbased.play import services


def _records(name: str) -> list[tuple[str, object]]:
    """Return the records of a file (one JSON record, or JSON Lines of them; - for stdin), each with where it was."""
    text = sys.stdin.read() if name == "-" else Path(name).read_text(encoding="utf-8")
    try:
        return [(name, json.loads(text))]
    except json.JSONDecodeError:
        pass
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            try:
                found.append((f"{name}:{number}", json.loads(line)))
            except json.JSONDecodeError as error:
                raise CommandError(f"{name}:{number}: not JSON ({error.msg})") from None
    return found


class Command(BaseCommand):
    help = ("Verify finished games' records and import each as a finished public game to replay; a record that "
            "does not verify is refused and nothing of it is written.")

    def add_arguments(self, parser):
        parser.add_argument("files", nargs="+", metavar="FILE", help="A record (.json), JSON Lines of records, or -.")
        parser.add_argument("--site", default="", help="Where the games were played, shown with them "
                                                       "(e.g. https://games.example.org).")
        parser.add_argument("--owner", help="The local account recorded as the importer (default: the first "
                                            "superuser). It takes no seat.")

    def handle(self, *args, **options):
        owner = self._owner(options["owner"])
        refused = []
        for name in options["files"]:
            try:
                found = _records(name)
            except OSError as error:
                raise CommandError(f"{name}: {error.strerror or error}") from None
            for where, record in found:
                try:
                    game = services.record_import(record=record, owner=owner, site=options["site"])
                except PlayError as error:
                    refused.append(where)
                    self.stderr.write(f"{where}: {error.detail}")
                    continue
                original = game.imported_from["id"]
                self.stdout.write(f"{where}: imported game {original} as game {game.pk}")
        if refused:
            raise CommandError(f"{len(refused)} record(s) not imported: {', '.join(refused)}")

    def _owner(self, username: str | None):
        users = get_user_model().objects
        if username:
            owner = users.filter(username=username).first()
            if owner is None:
                raise CommandError(f"--owner {username!r}: no such account.")
            return owner
        owner = users.filter(is_superuser=True, is_active=True).order_by("pk").first()
        if owner is None:
            raise CommandError("No superuser to record as the importer: name an account with --owner.")
        return owner
