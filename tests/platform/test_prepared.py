"""A prepared query answers exactly what the ORM answers for the same values, and compiles only once."""

from datetime import timedelta

import pytest
from django.db import transaction
from django.db.models.sql.compiler import SQLCompiler
from django.utils import timezone

from turnbased.clocks.services import absence_declare
from turnbased.play import services, store
from turnbased.play.models import Game, Seat
from turnbased.prepared import PreparedQuery

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


def _four_player_game(make_user):
    players = [make_user(f"seat{index}") for index in range(4)]
    game = services.create_game(creator=players[0], engine_slug="love-letter", players=4)
    for player in players[1:]:
        services.join_game(game_id=game.pk, user=player)
    game.refresh_from_db()
    return game, players


def test_a_move_decodes_the_state_once_however_many_seats(make_user, monkeypatch):
    """Every row of the locking query repeats the game; its state, which grows, comes on the first seat's only."""
    game, players = _four_player_game(make_user)
    state = game.state
    decoded = []
    field_class = type(Game._meta.get_field("state"))
    decode = field_class.from_db_value

    def counting(field, value, expression, connection):
        found = decode(field, value, expression, connection)
        if found == state:
            decoded.append(found)
        return found

    monkeypatch.setattr(field_class, "from_db_value", counting)
    seat = game.to_move[0]
    move = store.engine_of(game).legal_moves(state, seat)[0]
    services.submit_move(game_id=game.pk, user=players[seat], expected_seq=game.seq, move=move)
    assert len(decoded) == 1


def test_the_state_is_read_under_the_lock_without_the_first_seat(make_user):
    """Seat 0 never leaves a game in play; were its row gone, the state is read on its own, not lost."""
    game, _ = _four_player_game(make_user)
    Seat.objects.filter(game=game, index=0).delete()
    with transaction.atomic():
        locked = store.locked(game.pk)
        assert [seat.index for seat in locked.seats.all()] == [1, 2, 3]
        assert locked.state == game.state and locked.state is not None
