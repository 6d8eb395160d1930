"""A game in play whose seat a bot took over: its player ran out of time at a table whose late players are removed
(the clock's real sweep path, ``play_timeout``, at a time past the deadline)."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from turnbased.play import services
from turnbased.play.models import Game, Seat


def taken_over(creator, other, *, slug="love-letter", seed="seats", visibility="public") -> tuple[Game, int]:
    """A two-player game whose first player to move ran out of time: a bot plays that seat now. Return the game and
    that seat."""
    game = services.create_game(creator=creator, engine_slug=slug, players=2, seed=seed, visibility=visibility,
                                time_control={"kind": "per_move", "days_per_move": 1, "expiry": "remove"})
    invite = game.invite_code if visibility == "private" else None
    services.join_game(game_id=game.pk, user=other, invite_code=invite)
    game.refresh_from_db()
    late = game.to_move[0]
    with time_machine.travel(timezone.now() + timedelta(days=1, minutes=5), tick=False):
        assert services.play_timeout(game_id=game.pk, seat=late) == "seat handed to the bot"
    game.refresh_from_db()
    assert Seat.objects.get(game=game, index=late).bot
    return game, late


@pytest.fixture
def late_game(alice, bob):
    return taken_over(alice, bob)
