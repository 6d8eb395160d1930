"""A prepared query answers exactly what the ORM answers for the same values, and compiles only once."""

from datetime import timedelta

import pytest
from django.db import transaction
from django.db.models.sql.compiler import SQLCompiler
from django.utils import timezone

from turnbased.clocks.services import absence_declare
from turnbased.play import services, store
from turnbased.play.models import Seat
from turnbased.play.prepared import PreparedQuery

pytestmark = pytest.mark.django_db(transaction=True)

HANDMAID = {"card": "handmaid"}


def _columns(seat: Seat) -> dict:
    """Everything a seat row brought: its fields, annotations and the related objects read with it."""
    columns = {name: value for name, value in vars(seat).items() if not name.startswith("_")}
    columns["game"] = vars(seat.game).copy() | {"clock": vars(seat.game.clock)}
    columns["user"] = vars(seat.user) | {"profile": vars(seat.user.profile)}
    for related in (columns["game"], columns["game"]["clock"], columns["user"], columns["user"]["profile"]):
        related.pop("_state", None)
        related.pop("_prefetched_objects_cache", None)
    return columns


def _clocked_game(start_scripted_game, alice, bob):
    game = start_scripted_game(alice, bob, time_control={"kind": "bank", "bank_days": 7, "increment_days": 1})
    absence_declare(user=bob, starts_on=timezone.localdate() + timedelta(days=3), ends_on=timezone.localdate() + timedelta(days=4))
    return game


def test_the_locking_query_reads_what_the_orm_reads(start_scripted_game, alice, bob):
    game = _clocked_game(start_scripted_game, alice, bob)
    services.submit_move(game_id=game.pk, user=alice, expected_seq=0, move=HANDMAID, idempotency_key="k-1")
    with transaction.atomic():
        by_orm = list(store._seats_with_earlier_move(game.pk, "k-1"))
    with transaction.atomic():
        prepared = store._LOCK_SEATS_WITH_KEY(game_id=game.pk, idempotency_key="k-1")
    assert len(prepared) == len(by_orm) == 2
    assert [_columns(seat) for seat in prepared] == [_columns(seat) for seat in by_orm]
    # the parts that matter are there: the earlier move, a clock, an absence
    assert prepared[0].earlier_move_id is not None and prepared[1].earlier_move_id is None
    assert prepared[1].clock_id is not None and prepared[1].user.username == "bob"


def test_each_call_fills_in_its_own_values(start_scripted_game, alice, bob, carol):
    first, second = _clocked_game(start_scripted_game, alice, bob), _clocked_game(start_scripted_game, bob, carol)
    with transaction.atomic():
        assert [seat.user for seat in store._LOCK_SEATS(game_id=second.pk)] == [bob, carol]
        assert [seat.user for seat in store._LOCK_SEATS(game_id=first.pk)] == [alice, bob]
        assert store._LOCK_SEATS(game_id=first.pk + second.pk) == []


def test_it_compiles_once_per_thread(started_game, monkeypatch):
    game = started_game
    query = PreparedQuery(lambda game_id: Seat.objects.filter(game_id=game_id).select_related("user").order_by("index"), game_id=-1)
    query(game_id=game.pk)
    compiled = []
    original = SQLCompiler.as_sql
    monkeypatch.setattr(SQLCompiler, "as_sql", lambda self, *args, **kwargs: compiled.append(self) or original(self, *args, **kwargs))
    again = query(game_id=game.pk)
    assert compiled == []
    assert [seat.user.username for seat in again] == ["alice", "bob"]


def test_a_locking_query_outside_a_transaction_is_refused(started_game):
    with pytest.raises(transaction.TransactionManagementError):
        store._LOCK_SEATS(game_id=started_game.pk)


def test_a_value_that_does_not_reach_the_sql_is_refused():
    query = PreparedQuery(lambda game_id: Seat.objects.filter(index=0), game_id=-1)
    with pytest.raises(ValueError, match="game_id"):
        query(game_id=1)
    with pytest.raises(TypeError):
        PreparedQuery(lambda game_id: Seat.objects.filter(game_id=game_id), game_id=-1)(seat=1)
