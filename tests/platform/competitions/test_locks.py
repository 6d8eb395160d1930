"""The order of the competitions' row locks: a competition's before its round's (entries, a round's close, a
ladder's challenge), and a game's end holding its round's alone. A FOR UPDATE of the round joined to its competition
locked the competition after the round, and a ladder's challenge (competition, then round) deadlocked with a
challenge's game ending at the same moment: the competitions' soak found it (``benchmarks/competition_soak.py``)."""

from __future__ import annotations

from threading import Thread

import pytest
from django.db import OperationalError, connection, transaction

from tests.platform.competitions.conftest import current_round, started
from turnbased.competitions.models import Competition, EventTable, Round
from turnbased.competitions.reactions import _table_of
from turnbased.competitions.services import ladders, rounds

pytestmark = pytest.mark.django_db(transaction=True)


def _free_from_elsewhere(model, pk: int) -> bool:
    """Tell whether another connection can lock the row now (NOWAIT)."""
    said = []

    def other() -> None:
        try:
            with transaction.atomic():
                model.objects.select_for_update(nowait=True).get(pk=pk)
            said.append(True)
        except OperationalError:
            said.append(False)
        finally:
            connection.close()

    thread = Thread(target=other)
    thread.start()
    thread.join(timeout=30)
    return said == [True]


def test_a_games_end_locks_its_table_and_round_and_never_the_competition(alice, people):
    competition = started(alice, people(4), ladder={}, stages=None)
    at = {row.place: row.entrant.user for row in competition.stages.get().standings.select_related("entrant__user")}
    table = ladders.ladder_challenge(user=at[2], competition_id=competition.pk, username=at[1].username)
    with transaction.atomic():
        locked = _table_of(table.game, lock=True)
        assert locked.pk == table.pk
        assert not _free_from_elsewhere(EventTable, table.pk)
        assert _free_from_elsewhere(Round, table.round_id) and _free_from_elsewhere(Competition, competition.pk)
    with transaction.atomic():
        rounds.round_locked(table.round_id)
        assert not _free_from_elsewhere(Round, table.round_id)
        assert _free_from_elsewhere(Competition, competition.pk)
    assert current_round(competition) is not None
