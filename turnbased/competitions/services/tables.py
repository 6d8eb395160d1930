"""A competition's table made into a game: through the core's ``create_game`` like any table, its players in seat
order, on the competition's game, options and clock, linked to the table by the term ``competition`` (a round's
opening and a ladder's challenge both make their games here)."""

from __future__ import annotations

from django.contrib.auth import get_user_model

from turnbased.clocks.models import StandIn
from turnbased.competitions.models import (
    AGREEMENT_KINDS, Competition, Entrant, EntryKind, EventTable, TableStatus, TakebackPolicy,
)
from turnbased.play.models import Visibility
from turnbased.play.services import create_game


def _terms(competition: Competition, table: EventTable) -> dict:
    # The game is the table's (linked in the creation's transaction: ``reactions``), rated as the organiser chose,
    # without a rematch (the pairing decides who meets next); takebacks as the organiser chose (agreements.rules);
    # its seats kept for its entrants (seats.rules: a seat a bot took over is nobody else's to take).
    return {"competition": table.pk, "rated": competition.rated, "rematch": False,
            "agreements": _agreements(competition), "seat_offers": False}


def _agreements(competition: Competition) -> dict:
    """The table's agreements term: the kinds its organiser forbade, a cancel always (a round needs every table's
    result), and whether bots agree to a takeback or a draw."""
    forbidden = [kind for kind in AGREEMENT_KINDS if kind not in competition.agreements] + ["cancel"]
    if competition.takebacks == TakebackPolicy.FORBIDDEN:
        return {"forbidden": ["take_back", *forbidden], "bots_agree": False}
    return {"forbidden": forbidden, "bots_agree": competition.takebacks == TakebackPolicy.EVERYONE}


def table_game(competition: Competition, table: EventTable, *, seed: str | None = None, held: bool = False) -> None:
    """Make the table's game with its players in seat order, on the competition's game, options and clock; a
    duplicate round's from the round's ``seed``, ``held`` (seen by its seats alone, its secrets kept past its end)
    until the round closes."""
    users = dict(Entrant.objects.filter(pk__in=table.players).values_list("pk", "user_id"))
    people = get_user_model().objects.in_bulk(users.values())
    game = create_game(
        creator=competition.organiser, engine_slug=competition.engine, players=len(table.players),
        options=competition.options,
        visibility=Visibility.PUBLIC if competition.entry == EntryKind.OPEN else Visibility.PRIVATE,
        # A seat its player leaves is played by the strong bot unless the organiser chose: a weak stand-in would
        # hand the table to whoever sits after it.
        creator_plays=False, time_control={"stand_in": StandIn.STRONG, **competition.time_control},
        terms=_terms(competition, table),
        people={seat: people[users[entrant]] for seat, entrant in enumerate(table.players)},
        seed=seed, held=held,
    )
    table.game, table.status = game, TableStatus.PLAYING  # as the term wrote them
