"""What fair entry adds to the core's decisions (``play.facts``): a table made with requirements (the term
``requirements``) records them, and a free seat is kept from a person who does not meet them, in words that name
the requirement they miss (the page and the API alike)."""

from __future__ import annotations

from turnbased.entry import requirements as rules
from turnbased.entry.models import TableRequirements
from turnbased.play import facts
from turnbased.play.models import Game


def requirements_of(game: Game) -> TableRequirements | None:
    # Read once per game object: a page asks several questions of one table.
    if not hasattr(game, "_entry_requirements"):
        game._entry_requirements = TableRequirements.objects.filter(game_id=game.pk).first()
    return game._entry_requirements


@facts.table_term("requirements")
def a_table_with_requirements(game: Game, creator, value) -> None:
    chosen = rules.read(value)
    game._entry_requirements = None
    if rules.asks_anything(chosen):
        game._entry_requirements = TableRequirements.objects.create(game=game, **chosen)


@facts.seat_kept
def requirements_keep_a_seat(game: Game, user) -> str | None:
    requirements = requirements_of(game)
    return None if requirements is None else rules.unmet(requirements, user, game)
