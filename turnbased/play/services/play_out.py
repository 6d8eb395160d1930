"""A game played out by bots at once: every seat still a person's is handed to the table's bot for the rest of the
game, and the bots play it to its end (a competition's round deadline came with the game unfinished, and "the
seats' bots play it out" is what its organiser chose).

Not a timeout: nobody is told their seat was handed on (``facts.SeatHandedOn``: that tells of a player who ran out
of time), so no feature counts it against them. Every seat is left alike, so the seats' places come from the game's
own result (``ratings.rules.places``).
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from turnbased.play.models import Game, GameStatus, Seat
from turnbased.play.services.moves import _bot_for
from turnbased.play.services.tables import locked_game, schedule_bot_turns


def game_play_out(*, game_id: int) -> Game:
    """Hand every person's seat of the game in play to its bot and queue the bots' turns; nothing for a game that
    is over, or whose seats bots hold already (idempotent)."""
    with transaction.atomic():
        game = locked_game(game_id)
        if game.status != GameStatus.ACTIVE:
            return game
        if Seat.objects.filter(game=game, bot="").update(bot=_bot_for(game), left_at=timezone.now()):
            game = locked_game(game_id)  # the seats as they are now: bots to move
        schedule_bot_turns(game)
    return game
