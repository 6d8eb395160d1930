"""What after-game adds to the core's decisions (``play.facts``): a rematch waiting for its players is theirs to
see, though private, and its seats are kept for them (they accept from the last game's page); a table made with
the term ``rematch`` set to false has none."""

from __future__ import annotations

from django.utils.translation import gettext

from turnbased.aftergame.models import RematchInvite
from turnbased.kit.errors import InvalidRequest
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


@facts.table_term("rematch")
def a_table_without_rematch(game: Game, creator, value) -> None:
    # The core keeps the terms on the table's row (``Game.terms``): read back by ``selectors.rematch_offered``.
    if not isinstance(value, bool):
        raise InvalidRequest(gettext("rematch must be true or false."))
