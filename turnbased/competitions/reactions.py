"""What a competition adds to the core's decisions and reacts to (``play.facts``): a round's planned table takes
the game made for it (the term ``competition``, kept on the game's row, so an ordinary game's end costs no query
here); a finished game of one of its tables records its places and points; a player whose seat a bot took after a
timeout is withdrawn from the rounds to come; the people who may see a competition see its private tables (a
group's or an invitation-only one's)."""

from __future__ import annotations

from django.utils.translation import gettext

from turnbased.competitions import selectors
from turnbased.competitions.models import Competition, EventTable, TableStatus
from turnbased.competitions.services import results
from turnbased.kit.errors import Conflict
from turnbased.play import facts
from turnbased.play.models import Game


def _table_of(game: Game, *, lock: bool = False) -> EventTable | None:
    table_id = game.terms.get("competition")
    if not isinstance(table_id, int):
        return None
    tables = EventTable.objects.filter(pk=table_id, game_id=game.pk)
    return (tables.select_for_update(of=("self",)) if lock else tables).select_related("round__stage").first()


@facts.table_term("competition")
def a_competitions_table(game: Game, creator, value) -> None:
    # Only the competition's own opening of a round makes a table's game (its organiser creates it), once.
    linked = 0
    if isinstance(value, int) and not isinstance(value, bool):
        linked = EventTable.objects.filter(pk=value, game__isnull=True, status=TableStatus.PLANNED,
                                           round__stage__competition__organiser_id=creator.pk) \
            .update(game=game, status=TableStatus.PLAYING)
    if not linked:
        raise Conflict(gettext("This is no table of a competition waiting for its game."))


@facts.reacting_to(facts.GameFinished)
def game_finished(fact: facts.GameFinished) -> None:
    table = _table_of(fact.game, lock=True)
    if table is not None:
        results.table_finished(table=table, game=fact.game)


@facts.reacting_to(facts.SeatHandedOn)
def seat_handed_on(fact: facts.SeatHandedOn) -> None:
    if fact.user_id is None:
        return
    table = _table_of(fact.game)
    if table is not None:
        results.seat_timed_out(table=table, user_id=fact.user_id)


@facts.sees_private_table
def who_sees_the_competition_sees_its_tables(game: Game, user) -> bool:
    if not user.is_authenticated:
        return False
    table = _table_of(game)
    if table is None:
        return False
    return Competition.objects.filter(selectors.visible_to(user), pk=table.round.stage.competition_id).exists()
