"""What after-game adds to the core's decisions (``play.facts``): a rematch waiting for its players is theirs to
see, though private, and its seats are kept for them (they accept from the last game's page)."""

from __future__ import annotations

from django.utils.translation import gettext

from turnbased.aftergame.models import RematchInvite
from turnbased.play import facts
from turnbased.play.models import Game, GameStatus


@facts.sees_private_table
def rematch_players_see_it(game: Game, user) -> bool:
    return (game.status == GameStatus.OPEN
            and RematchInvite.objects.filter(rematch__game_id=game.pk, user_id=user.pk).exists())


@facts.seat_kept
def rematch_seats_are_kept(game: Game, user) -> str | None:
    if not hasattr(game, "rematch_of"):
        return None
    return gettext("This table is a rematch: its seats are kept for the players of the last game, who accept it from "
                   "that game's page.")
