"""What a competition costs as its games end, held in statements, not seconds: a game's end moves the standings
on with the same statements whatever the number of entrants (the rows it touches, in one update: never a
recomputation), and an ordinary game's end costs nothing more for competitions being possible."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.platform.competitions.conftest import current_round, play_round, started
from turnbased.competitions.models import EventTable
from turnbased.play import services as play_services

pytestmark = pytest.mark.django_db


def _rows_updated() -> int:
    # This transaction's own count of standings rows updated (the test runs in one transaction).
    with connection.cursor() as cursor:
        cursor.execute("SELECT coalesce(sum(n_tup_upd), 0) FROM pg_stat_xact_user_tables "
                       "WHERE relname = 'competitions_standing'")
        return cursor.fetchone()[0]


def _end_of_a_game(alice, entrants) -> tuple[int, int]:
    """Play round 1 of a Swiss (a history for the knock-ons), then count the statements of one game's end in
    round 2, and the standings rows it changed."""
    competition = started(alice, entrants, stages=[{"format": "swiss", "rounds": 3}])
    play_round(competition)
    table = EventTable.objects.filter(round=current_round(competition)).select_related("game").first()
    loser = table.game.seats.get(index=1).user
    before = _rows_updated()
    with CaptureQueriesContext(connection) as queries:
        play_services.resign_game(game_id=table.game_id, user=loser)
    return len(queries), _rows_updated() - before


def test_a_games_end_costs_the_same_for_four_entrants_as_for_sixteen(alice, people):
    few, few_rows = _end_of_a_game(alice, people(4))
    many, many_rows = _end_of_a_game(alice, people(16))
    assert few == many, (few, many)
    # The two players, and the winner's one earlier opponent (whose Buchholz and Sonneborn–Berger grow by the win;
    # the loser's earlier opponent gains nothing): never every row.
    assert few_rows == many_rows == 3, (few_rows, many_rows)
