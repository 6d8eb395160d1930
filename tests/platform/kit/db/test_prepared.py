"""A prepared query answers exactly what the ORM answers for the same values, compiles only once, and is planned
once per connection by PostgreSQL as a server-side prepared statement."""

import threading
from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.db.models.sql.compiler import SQLCompiler
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from turnbased.clocks.services import absence_declare
from turnbased.play import services, store
from turnbased.play.models import Game, Seat
from turnbased.kit.db.prepared import PreparedQuery, numbered, prepared_statement

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


@pytest.mark.parametrize("server_side", [True, False], ids=["prepared on the server", "sent whole"])
def test_the_locking_query_reads_what_the_orm_reads(start_scripted_game, alice, bob, settings, server_side):
    settings.DATABASE_PREPARED_STATEMENTS = server_side
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


def test_a_thread_that_has_not_run_it_reads_with_the_first_threads_compilation_on_its_own_connection(
        start_scripted_game, alice, bob, monkeypatch):
    """A server that answers each request in a new thread (the development server, the tests' live server) does
    not compile the query again in each: the SQL and row layout are the first thread's, the connection its own."""
    game = _clocked_game(start_scripted_game, alice, bob)
    with transaction.atomic():
        expected = [_columns(seat) for seat in store._LOCK_SEATS(game_id=game.pk)]
    compiled, read, connections_used = [], [], []
    original = SQLCompiler.as_sql
    monkeypatch.setattr(SQLCompiler, "as_sql", lambda self, *args, **kwargs: compiled.append(self) or original(self, *args, **kwargs))

    def in_a_new_thread():
        try:
            with transaction.atomic():
                read.extend(_columns(seat) for seat in store._LOCK_SEATS(game_id=game.pk))
                connections_used.append(store._LOCK_SEATS._compiled().compiler.connection)
        finally:
            connection.close()

    worker = threading.Thread(target=in_a_new_thread)
    worker.start()
    worker.join()
    assert compiled == [] and read == expected
    assert connections_used and connections_used[0] is not connection  # the thread's own, not the first thread's


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


# -- prepared on the server ---------------------------------------------------------------------------


def _seats_query():
    return PreparedQuery(lambda game_id: Seat.objects.filter(game_id=game_id).select_related("user").order_by("index"),
                         game_id=-1)


def _sent(query, **values) -> tuple[list[str], list]:
    with CaptureQueriesContext(connection) as captured:
        found = query(**values)
    return [entry["sql"] for entry in captured.captured_queries], found


def _prepared_here() -> dict[str, int]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT name, generic_plans FROM pg_prepared_statements WHERE name LIKE 'turnbased%%'")
        return dict(cursor.fetchall())


def test_the_first_run_on_a_connection_prepares_in_the_same_round_trip_and_later_runs_only_execute(started_game):
    query = _seats_query()
    first, found = _sent(query, game_id=started_game.pk)
    assert len(first) == 1 and first[0].startswith("PREPARE turnbased_") and "; EXECUTE turnbased_" in first[0]
    assert [seat.user.username for seat in found] == ["alice", "bob"]
    name = first[0].split()[1]
    again, found = _sent(query, game_id=started_game.pk)
    assert again == [f"EXECUTE {name}({started_game.pk})"]
    assert [seat.user.username for seat in found] == ["alice", "bob"]
    assert query(game_id=started_game.pk + 1000) == []


def test_postgresql_plans_it_once_then_runs_its_generic_plan(started_game):
    """What the preparing is for: after PostgreSQL's five custom plans, runs skip the planner."""
    query = _seats_query()
    for _ in range(8):
        query(game_id=started_game.pk)
    name = _sent(query, game_id=started_game.pk)[0][0].split("(")[0].removeprefix("EXECUTE ")
    assert _prepared_here()[name] >= 3


def test_a_new_connection_prepares_again(started_game):
    query = _seats_query()
    query(game_id=started_game.pk)
    connection.close()
    sent, found = _sent(query, game_id=started_game.pk)
    assert sent[0].startswith("PREPARE ") and len(found) == 2


def test_a_statement_whose_first_run_failed_is_prepared_again_under_a_new_name():
    sql = "SELECT %s::integer + 1"
    with pytest.raises(RuntimeError), prepared_statement(connection, sql, [1]) as statement:
        assert statement.startswith("PREPARE ")
        raise RuntimeError("the first run failed")
    with prepared_statement(connection, sql, [1]) as retried, connection.cursor() as cursor:
        assert retried.startswith("PREPARE ") and retried.split()[1] != statement.split()[1]
        cursor.execute(retried, [1])
        assert cursor.fetchone() == (2,)
    with prepared_statement(connection, sql, [41]) as third, connection.cursor() as cursor:
        assert third.startswith("EXECUTE ")
        cursor.execute(third, [41])
        assert cursor.fetchone() == (42,)


def test_off_it_sends_the_statement_whole(started_game, settings):
    settings.DATABASE_PREPARED_STATEMENTS = False
    connection.close()  # a connection of its own, that no earlier test prepared anything on
    sent, found = _sent(_seats_query(), game_id=started_game.pk)
    assert len(sent) == 1 and sent[0].startswith("SELECT ") and len(found) == 2
    assert _prepared_here() == {}


@pytest.mark.parametrize("server_side", [True, False], ids=["prepared on the server", "sent whole"])
def test_a_number_no_column_can_hold_finds_nothing_as_the_orm_answers(started_game, settings, server_side):
    settings.DATABASE_PREPARED_STATEMENTS = server_side
    assert list(Seat.objects.filter(game_id=10 ** 30)) == []
    assert _seats_query()(game_id=10 ** 30) == [] and _seats_query()(game_id=-(10 ** 30)) == []
    assert len(_seats_query()(game_id=started_game.pk)) == 2


def test_placeholders_are_numbered_and_a_literal_percent_stays_escaped():
    assert numbered("SELECT %s, '100%%', %s") == ("SELECT $1, '100%%', $2", 2)
    with pytest.raises(ValueError, match="placeholders"), prepared_statement(connection, "SELECT %s", []):
        pass
