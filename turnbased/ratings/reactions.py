"""What the ratings do when something happens at a table (``play.facts``): a finished game is rated in the
transaction that ends it, so its rating commits (or rolls back) with its end."""

from __future__ import annotations

from turnbased.play import facts
from turnbased.ratings.services import ratings_record_game


@facts.reacting_to(facts.GameFinished)
def rate(fact: facts.GameFinished) -> None:
    ratings_record_game(game=fact.game)
