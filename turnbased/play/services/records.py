"""Importing a finished game's record (docs/record-format.md) as a game of this instance, to replay and read.

The record is verified first (``games.record.verify_record``): a record that does not check out, or
that is not complete, is refused and nothing is written. The game keeps what binds its commitment,
the original game's id, in ``Game.imported_from`` with the site it came from and its players, so
its record exported again verifies as the original did. Its seats belong to no account of this
instance (a name in a file proves nothing about who played), and it is public: anyone here may
read it, as anyone may read the file.
"""

from __future__ import annotations

import secrets
from datetime import datetime
from datetime import timezone as dt_timezone

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext

from games import record as game_record
from turnbased.clocks.services import table_clock_create
from turnbased.kit.errors import Conflict, Unprocessable
from turnbased.play import store
from turnbased.play.models import IMPORTED_SEAT, Game, Move, MoveSource, Seat, Visibility


def _when(value, where: str) -> datetime | None:
    if value is None:
        return None
    try:
        moment = parse_datetime(value) if isinstance(value, str) else None
    except ValueError:  # well formed, but no such time
        moment = None
    if moment is None:
        raise Unprocessable(gettext("%(where)s is not an ISO 8601 time: %(value)r.") % {"where": where, "value": value})
    return moment if timezone.is_aware(moment) else timezone.make_aware(moment, dt_timezone.utc)


def already_imported(record: dict) -> Game | None:
    """Return the game this record was imported as before (same original id, engine and seed), if any."""
    game = record["game"]
    return (
        Game.objects.filter(imported_from__id=game["id"], engine=game["engine"], seed=record["seed"])
        .order_by("pk").first()
    )


def record_import(*, record: dict, owner: AbstractBaseUser, site: str = "") -> Game:
    """Verify a complete record and write it as a finished, public game; return the new game.

    Raises ``Unprocessable`` for a record that does not verify (the failed checks in its detail) and
    ``Conflict`` for one imported before.
    """
    report = game_record.verify_record(record)
    if not report.ok:
        failed = "; ".join(f"{name}: {detail}" for name, passed, detail in report.checks if not passed)
        raise Unprocessable(gettext("The record does not verify, so it was not imported. %(failed)s") % {"failed": failed})
    earlier = already_imported(record)
    if earlier is not None:
        raise Conflict(gettext("This record was imported already, as game %(id)s.") % {"id": earlier.pk})
    about, players, moves = record["game"], record["players"], record["moves"]
    with transaction.atomic():
        game = Game.objects.create(
            engine=about["engine"],
            engine_version=about["engine_version"],
            options=about["options"],
            seed=record["seed"],
            status=about["status"],
            visibility=Visibility.PUBLIC,
            invite_code=secrets.token_urlsafe(12),
            seat_count=len(players),
            created_by=owner,
            player_names=[player["name"] for player in players],
            result=record["result"],
            imported_from={
                "id": about["id"],
                "site": site,
                "players": [{"seat": p["seat"], "name": p["name"], "bot": p["bot"]} for p in players],
                "exported_at": record.get("exported_at"),
                "imported_at": timezone.now().isoformat(),
            },
        )
        table_clock_create(game=game, settings=None)
        Seat.objects.bulk_create([Seat(game=game, index=index, bot=IMPORTED_SEAT) for index in range(len(players))])
        store.append_imported(game, [
            Move(
                seq=entry["seq"], seat=entry["seat"], move=entry["move"], events=entry["events"],
                text=(entry.get("notation") or "")[:200],
                source=entry.get("source") if entry.get("source") in MoveSource.values else MoveSource.SYSTEM,
                created_at=_when(entry.get("at"), f"moves[{index}].at") or timezone.now(),
            )
            for index, entry in enumerate(moves)
        ])
        # The snapshot is the replay of the log, as for every game (``verify_games`` checks it).
        game.started_at = _when(about.get("started_at"), "game.started_at") or timezone.now()
        game.finished_at = _when(about.get("finished_at"), "game.finished_at")
        state = store.replay(game)
        game.seq = len(moves)
        game.state = state
        game.to_move = []  # over: no one is to move
        game.last_move_at = (_when(moves[-1].get("at"), f"moves[{len(moves) - 1}].at") if moves else None)
        game.created_at = _when(about.get("created_at"), "game.created_at") or game.created_at
        game.save(update_fields=["started_at", "finished_at", "seq", "state", "to_move", "last_move_at", "created_at"])
    return game
