"""What the ratings do when something happens at a table (``play.facts``): a finished game is rated in the
transaction that ends it, so its rating commits (or rolls back) with its end (a held table's when it is let go);
a table made with the term ``rated`` set to false is not rated."""

from __future__ import annotations

from django.utils.translation import gettext

from turnbased.kit.errors import InvalidRequest
from turnbased.play import facts
from turnbased.play.models import Game
from turnbased.ratings.services import ratings_record_game


@facts.reacting_to(facts.GameFinished)
def rate(fact: facts.GameFinished) -> None:
    if not fact.game.held:  # a held table's rating would tell everyone how it ended: rated when let go
        ratings_record_game(game=fact.game)


@facts.reacting_to(facts.GameReleased)
def rate_released(fact: facts.GameReleased) -> None:
    ratings_record_game(game=fact.game)


@facts.table_term("rated")
def an_unrated_table(game: Game, creator, value) -> None:
    # The core keeps the terms on the table's row (``Game.terms``): read back by ``services.game_unrated_reason``.
    if not isinstance(value, bool):
        raise InvalidRequest(gettext("rated must be true or false."))
