"""The term a table is made with: which agreements its players may make, and whether its bots agree (an event's
organiser decides for its tables); the core keeps it on the table's row (``Game.terms``), read back by ``rules``."""

from __future__ import annotations

from django.utils.translation import gettext

from turnbased.agreements import rules
from turnbased.kit.errors import InvalidRequest
from turnbased.play import facts
from turnbased.play.models import Game


@facts.table_term(rules.TERM)
def table_agreements(game: Game, creator, value) -> None:
    try:
        rules.checked_term(value)
    except ValueError:
        raise InvalidRequest(gettext("agreements must say which agreements are forbidden (a list of kinds) and "
                                     "whether bots agree (true or false).")) from None
