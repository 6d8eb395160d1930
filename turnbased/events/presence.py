"""Who has a game's page open: a turn email waits while its player is there."""

from __future__ import annotations

from datetime import timedelta

from django.core.cache import cache
from django.utils import timezone

# A player polling a game's page within this window is "there": their turn email waits.
PRESENCE_WINDOW = timedelta(minutes=1)


def _presence_key(user_id: int, game_id: int) -> str:
    return f"presence:{game_id}:{user_id}"


def record_visit(*, user_id: int, game_id: int) -> None:
    """Note that the user has the game open now, for ``PRESENCE_WINDOW``.

    The page polls every few seconds: presence lives in the shared cache
    (Redis), which forgets it by itself, so a poll writes nothing to the database.
    The moment is kept too, so the window is measured by the same clock as the
    turn emails it holds back.
    """
    cache.set(_presence_key(user_id, game_id), timezone.now().timestamp(), timeout=PRESENCE_WINDOW.total_seconds())


def is_present(user_id: int, game_id: int) -> bool:
    """Tell whether the user had the game's page open within ``PRESENCE_WINDOW``."""
    seen_at = cache.get(_presence_key(user_id, game_id))
    return seen_at is not None and seen_at >= (timezone.now() - PRESENCE_WINDOW).timestamp()
