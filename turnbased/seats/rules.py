"""What a table allows of its seats changing hands, and for how long an offer waits (docs/players.md, "A person takes
a seat"): the term a table is made with (a competition's tables keep their seats for its entrants)."""

from __future__ import annotations

from datetime import timedelta

from turnbased.play.models import Game, Visibility

# The table term (``play.facts.table_term``): false at a table whose seats are not offered to others (a competition
# writes it on each table it makes). A table made without it allows offers.
TERM = "seat_offers"
# How long an offer waits to be taken up; a change of the seat lapses it sooner.
WINDOW = timedelta(days=7)


def offers_allowed(game: Game) -> bool:
    return game.terms.get(TERM, True) is not False


def listable(game: Game) -> bool:
    """Whether the table's seats may be listed in the lobby for anyone: a public table nobody keeps back."""
    return game.visibility == Visibility.PUBLIC and not game.held
