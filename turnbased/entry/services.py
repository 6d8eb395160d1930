"""Fair entry's one action of its own: a person whose seat was handed to a bot leaves the tables they wait to start.

Someone who let a started game go (a bot took their seat after timeouts, or the table removed them) is not someone
other players should wait for: the open tables where they sat before the bot took over are left (the ones they made
are aborted, as their creator would), and they are told why, in their stream and by email (``signals.tables_left``).
Tables they joined after it are theirs: they came back.
"""

from __future__ import annotations

import logging

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Exists, OuterRef

from turnbased.entry.signals import tables_left
from turnbased.events.models import EventKind
from turnbased.events.services import NewEvent, events_record
from turnbased.kit.errors import PlayError
from turnbased.play import services as play_services
from turnbased.play.models import GameStatus, Seat

logger = logging.getLogger(__name__)


def _handed_on(user_id: int):
    """The person's seats a bot took over (handed on, not resigned: a resignation leaves the seat to no one)."""
    return Seat.objects.filter(user_id=user_id, left_at__isnull=False).exclude(bot="")


def waiting_tables_leave(*, user_id: int) -> list[int]:
    """Take the person out of every open table they sat at before a bot last took one of their seats; return the
    games left. Idempotent: a second call finds none. Each table is left (or, made by them, aborted) through the
    core's services, and the person is told once, in the same transaction."""
    person = get_user_model().objects.filter(pk=user_id, is_active=True).first()
    if person is None:
        return []
    handed = _handed_on(user_id).select_related("game").order_by("-left_at").first()  # the latest hand-over
    if handed is None:
        return []
    with transaction.atomic():
        seats = list(Seat.objects.filter(user_id=user_id, game__status=GameStatus.OPEN, joined_at__lt=handed.left_at)
                     .select_related("game").order_by("game_id"))
        left = []
        for seat in seats:
            game = seat.game
            try:
                if game.created_by_id == user_id:
                    play_services.abort_game(game_id=game.pk, user=person)
                else:
                    play_services.leave_game(game_id=game.pk, user=person)
            except PlayError as refusal:  # it started, or was aborted, since it was read: nothing to leave
                logger.info("table %s not left: %s", game.pk, refusal.detail)
                continue
            left.append(game)
        if left:
            taken = handed.game
            events_record(events=[NewEvent(user_id=user_id, kind=EventKind.TABLES_LEFT, game_id=taken.pk, payload={
                "game": {"id": taken.pk, "engine": taken.engine},
                "tables": [{"id": game.pk, "engine": game.engine, "aborted": game.created_by_id == user_id}
                           for game in left]})])
            tables_left.send(sender=waiting_tables_leave, user_id=user_id, game=taken, tables=left)
    return [game.pk for game in left]


def people_waiting_to_leave() -> list[int]:
    """Return the people still sitting at an open table they joined before a bot took one of their seats (the ones
    whose task was lost), in one statement."""
    handed = _handed_on(OuterRef("user_id")).filter(left_at__gt=OuterRef("joined_at"))
    return list(Seat.objects.filter(game__status=GameStatus.OPEN, user__isnull=False).filter(Exists(handed))
                .order_by("user_id").values_list("user_id", flat=True).distinct())
