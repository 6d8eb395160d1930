"""The event store: the one door to the move log and the state snapshot.

Appends happen under the game's row lock and check the expected sequence
number; the snapshot is a cache that ``replay`` must reproduce. Reads of the
log are bounded by the position asked for (``events_between``,
``recent_events``), never by the length of the game.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.db import connection
from django.db.models import Case, F, Model, OuterRef, QuerySet, Subquery, When
from django.utils import timezone

from games import UnknownEngineVersion, engine_at
from games.base import Engine, Event
from games.takebacks import LogReplay
from turnbased.kit.db import one_statement
from turnbased.clocks.services import clocks_of_seats, seats_with_clocks, seats_with_time
from turnbased.kit.errors import EngineUnavailable, StaleSequence
from turnbased.play.models import Game, Move, Seat
from turnbased.kit.db.prepared import PreparedQuery


@dataclass(frozen=True)
class LoggedEvent:
    """An engine event with the sequence number of the move that produced it (and how that move came)."""

    seq: int
    seat: int
    event: Event
    source: str = ""


@dataclass(frozen=True)
class LoggedMove:
    """A logged move as readers may use it: its position, seat and events, never its stored notation."""

    seq: int
    seat: int
    events: list[Event]


def engine_of(game: Game) -> Engine:
    """Return the engine ``game`` is played with: its engine at the version the game pinned when it was created.

    Raises ``EngineUnavailable`` (a 409) when this installation does not have that version (a record imported
    from a newer one, a rolled-back deploy): the game is never played or shown by other rules.
    """
    try:
        return engine_at(game.engine, game.engine_version)
    except UnknownEngineVersion as error:
        raise EngineUnavailable(error.reason) from None


class _KeptRows(QuerySet):
    """Rows read elsewhere and handed to one instance's relation (``keep_loaded``).

    Reading it answers the rows kept; anything that would build another query from it (filter,
    order_by, get...) starts from the relation's real, filtered queryset instead, so it can never
    read beyond the instance's own rows.
    """

    @property
    def ordered(self) -> bool:
        return True  # the rows keep the order they were handed in

    def _chain(self):
        cache = self._kept_for.__dict__.setdefault("_prefetched_objects_cache", {})
        kept = cache.pop(self._kept_relation, None)
        try:
            return getattr(self._kept_for, self._kept_relation).get_queryset()._chain()
        finally:
            if kept is not None:
                cache[self._kept_relation] = kept


def keep_loaded(instance: Model, relation: str, objects: Iterable[Model], *, owner: str | None = None) -> None:
    """Make ``instance.<relation>.all()`` answer ``objects`` without a query, as ``prefetch_related`` would.

    Cheaper than ``prefetch_related``, which builds a filtered queryset for every instance it fills:
    in a list of 50 games that cost more than the queries did. With ``owner`` (the objects' foreign key
    back to ``instance``), each object's ``<owner>`` answers ``instance`` without a query too.
    """
    rel = instance._meta.get_field(relation)
    kept = _KeptRows(model=rel.related_model)
    kept._kept_for, kept._kept_relation = instance, relation
    kept._result_cache = list(objects)
    if owner is not None:
        back = rel.related_model._meta.get_field(owner)
        for row in kept._result_cache:
            back.set_cached_value(row, instance)  # what the descriptor's assignment does, without its checks
    kept._prefetch_done = True
    instance.__dict__.setdefault("_prefetched_objects_cache", {})[relation] = kept


# The game row as the locking query's snapshot saw it (``locked``): compared with the row it locked.
_SNAPSHOT_SEQ, _SNAPSHOT_STATUS, _SNAPSHOT_REVISION = "snapshot_seq", "snapshot_status", "snapshot_revision"
# The game's state, on the first seat's row only (``locked``).
_STATE_ONCE, _STATE_SEAT = "state_once", 0


def _seats_to_lock(seats) -> QuerySet[Seat]:
    as_read = Game.objects.filter(pk=OuterRef("game_id"))
    # Every row repeats the game's columns; the state, the one that grows, is sent and decoded once,
    # not once per seat (a late snapshot costs a few tenths of a millisecond to decode each time).
    state_field = type(Game._meta.get_field("state"))()
    state_once = Case(When(index=_STATE_SEAT, then=F("game__state")), output_field=state_field)
    return (
        # The rematch this table is, if any (the API's game carries it): joined, not locked.
        seats_with_clocks(seats_with_time(seats)).select_related("game", "game__clock", "game__rematch_of")
        .defer("game__state")
        .annotate(**{_SNAPSHOT_SEQ: Subquery(as_read.values("seq")),
                     _SNAPSHOT_STATUS: Subquery(as_read.values("status")),
                     _SNAPSHOT_REVISION: Subquery(as_read.values("revision")), _STATE_ONCE: state_once})
        .select_for_update(of=("game",)).order_by("index")
    )


def _seats_of(game_id: int) -> QuerySet[Seat]:
    return _seats_to_lock(Seat.objects.filter(game_id=game_id))


def _seats_with_earlier_move(game_id: int, idempotency_key: str) -> QuerySet[Seat]:
    earlier = Move.objects.filter(game_id=game_id, seat=OuterRef("index"), idempotency_key=idempotency_key)
    return _seats_to_lock(Seat.objects.filter(game_id=game_id).annotate(earlier_move_id=Subquery(earlier.values("pk")[:1])))


# Every move runs one of these: compiled once per thread (see ``prepared``). The sentinels are values
# no game id or key takes.
_LOCK_SEATS = PreparedQuery(_seats_of, game_id=-8_675_309)
_LOCK_SEATS_WITH_KEY = PreparedQuery(_seats_with_earlier_move, game_id=-8_675_309, idempotency_key="sentinel of the prepared locking query")


def _moved_while_waiting(rows: list[Seat]) -> bool:
    """Tell whether the game changed between the start of the locking query and the lock.

    A query that waits for a row lock gets the locked row as it is now, but
    every other row (seats, clocks, the key's move) as it was when the query
    began; the subqueries still see that older game row. Everything that
    changes a game in play changes its seq or its status (a move, a start, a
    takeover by a bot), or its revision (a seat changing hands, time the
    players agreed to: ``touch``).
    """
    game, columns = rows[0].game, vars(rows[0])
    return ((game.seq, game.status, game.revision)
            != (columns[_SNAPSHOT_SEQ], columns[_SNAPSHOT_STATUS], columns[_SNAPSHOT_REVISION]))


def touch(game: Game) -> None:
    """Tell whoever waits for the game's lock that what comes with it (its seats, its seat clocks) changed though no
    move was made: their locking query reads it again (``locked``). Call under the game's lock."""
    Game.objects.filter(pk=game.pk).update(revision=F("revision") + 1)


def locked(game_id: int, *, idempotency_key: str | None = None) -> Game:
    """Return the game with its row locked until the transaction ends, with its seats and seat clocks, in one query.

    The seats come with their players and what the players' clocks need
    (``seats_with_time``) and the game with its time control. With
    ``idempotency_key`` each seat also carries ``earlier_move_id``: its move
    logged under that key. When the game changed while the query waited for
    the lock, what came with it is read again, now under the lock (a second
    query, only then). Raises Game.DoesNotExist.
    """
    def read() -> list[Seat]:
        if idempotency_key is None:
            return _LOCK_SEATS(game_id=game_id)
        return _LOCK_SEATS_WITH_KEY(game_id=game_id, idempotency_key=idempotency_key)

    rows = read()
    if rows and _moved_while_waiting(rows):
        rows = read()
    if not rows:  # a table nobody sits at yet
        game = locked_row(game_id)
    else:
        game = rows[0].game  # the same row on every line: keep one copy
        for seat in rows:
            seat.game = game
        if rows[0].index == _STATE_SEAT:
            game.state = getattr(rows[0], _STATE_ONCE)
        else:  # the first seat has gone (never in play: the creator keeps seat 0); read the state under the lock
            game.refresh_from_db(fields=["state"])
    keep_loaded(game, "seats", rows)
    clocks = clocks_of_seats(game, rows)
    if clocks is not None:  # else ``game.seat_clocks`` is read when asked for
        keep_loaded(game, "seat_clocks", clocks)
    return game


def locked_row(game_id: int) -> Game:
    """Return the game (with its time control) with its row locked until the transaction ends, nothing else loaded.

    For the actions on a table that change its seats: they read them after the lock.
    """
    return Game.objects.select_related("clock").select_for_update(of=("self",)).get(pk=game_id)


def initial_state(game: Game) -> dict:
    return engine_of(game).setup(list(game.player_names), game.options, game.seed)


def save_start(game: Game, state: dict) -> None:
    """Store the snapshot at seq 0, as the game starts."""
    engine = engine_of(game)
    game.seq = 0
    game.state = state
    game.to_move = engine.to_move(state)
    game.save(update_fields=["seq", "state", "to_move"])


def append(
    game: Game,
    *,
    expected_seq: int,
    seat: int,
    user_id: int | None,
    move: dict,
    text: str,
    events: list[Event],
    new_state: dict,
    source: str,
    idempotency_key: str | None,
) -> Move:
    """Append a move at ``expected_seq + 1`` and move the snapshot forward, in one statement; call under the row lock.

    The unique (game, seq) and (game, seat, idempotency key) constraints back
    the lock up: a writer that got here without it fails with ``IntegrityError``
    and its whole transaction is rolled back.
    """
    if game.seq != expected_seq:
        raise StaleSequence(current_seq=game.seq, sent_seq=expected_seq)
    entry = Move(
        game=game,
        seq=expected_seq + 1,
        seat=seat,
        user_id=user_id,
        move=move,
        text=text,
        events=[event.to_json() for event in events],
        source=source,
        idempotency_key=idempotency_key,
        created_at=timezone.now(),
    )
    game.seq = entry.seq
    game.state = new_state
    game.to_move = engine_of(game).to_move(new_state)
    game.last_move_at = entry.created_at
    _insert_and_advance(entry, game, ["seq", "state", "to_move", "last_move_at"])
    return entry


def _insert_and_advance(entry: Move, game: Game, game_fields: list[str]) -> None:
    """Insert ``entry`` and write ``game_fields`` of its game in one statement (data-modifying WITH queries).

    The log and its snapshot move together; the ORM would take two round trips. Inside a
    ``one_statement.together()`` block (a move) they go with the move's other writes, and ``entry`` has its
    id once they are sent.
    """
    quote = connection.ops.quote_name

    def prepared(instance: Model, names: list[str]) -> tuple[list[str], list]:
        fields = [instance._meta.get_field(name) for name in names]
        values = [field.get_db_prep_save(getattr(instance, field.attname), connection) for field in fields]
        return [quote(field.column) for field in fields], values

    move_columns, move_values = prepared(entry, [field.name for field in Move._meta.concrete_fields if not field.primary_key])
    game_columns, game_values = prepared(game, game_fields)
    assignments = ", ".join(f"{column} = %s" for column in game_columns)
    logged, advanced = one_statement.name("entry"), one_statement.name("advanced")
    sql = (
        f"{logged} AS (INSERT INTO {quote(Move._meta.db_table)} ({', '.join(move_columns)}) "
        f"VALUES ({', '.join(['%s'] * len(move_columns))}) RETURNING {quote(Move._meta.pk.column)} AS id), "
        f"{advanced} AS (UPDATE {quote(Game._meta.db_table)} SET {assignments} "
        f"WHERE {quote(Game._meta.pk.column)} = %s)"
    )

    def logged_as(pk: int) -> None:
        entry.pk = pk
        entry._state.adding = False
        entry._state.db = connection.alias

    one_statement.write(sql, [*move_values, *game_values, game.pk], result=f"(SELECT id FROM {logged})",
                        then=logged_as)


def append_imported(game: Game, entries: list[Move]) -> None:
    """Write the whole log of an imported game (``services.record_import``), each move with its own time.

    The moves keep the times they were played at: ``created_at`` is set when a row is added, which the
    ORM's insert would overwrite, and the log refuses any later update.
    """
    if not entries:
        return
    quote = connection.ops.quote_name
    fields = [field for field in Move._meta.concrete_fields if not field.primary_key]
    sql = (
        f"INSERT INTO {quote(Move._meta.db_table)} ({', '.join(quote(field.column) for field in fields)}) "
        f"VALUES ({', '.join(['%s'] * len(fields))})"
    )
    rows = []
    for entry in entries:
        entry.game = game
        rows.append([field.get_db_prep_save(getattr(entry, field.attname), connection) for field in fields])
    with connection.cursor() as cursor:
        cursor.executemany(sql, rows)


def log_replay(game: Game) -> LogReplay:
    """Return the game's full log replayed from the seed (its takebacks included), in one read of the log: its
    ``state`` is the snapshot's, its ``last`` the entry a takeback could return before."""
    replayed = LogReplay(engine_of(game), initial_state(game))
    for seat, move in Move.objects.filter(game=game).order_by("seq").values_list("seat", "move"):
        replayed.play(seat, move)
    return replayed


def replay(game: Game) -> dict | None:
    """Rebuild the state from the seed and the full log (None for a game that never started)."""
    if game.started_at is None:
        return None
    return log_replay(game).state


def _logged(entries) -> list[LoggedEvent]:
    logged = []
    for seq, seat, source, events in entries:
        logged.extend(LoggedEvent(seq, seat, Event.from_json(raw), source) for raw in events)
    return logged


def events_since(game: Game, after_seq: int) -> list[LoggedEvent]:
    """Return every event logged after ``after_seq``, oldest first, with no visibility filter."""
    entries = (Move.objects.filter(game=game, seq__gt=after_seq).order_by("seq")
               .values_list("seq", "seat", "source", "events"))
    return _logged(entries)


def moves_after(game: Game, after_seq: int) -> QuerySet:
    """Return the moves logged after ``after_seq`` as a query of ``seq``, ``seat``, ``source`` and ``events`` rows,
    for a page of them to be read in order of seq (``events_of_rows`` gives their events); never their notation."""
    return Move.objects.filter(game=game, seq__gt=after_seq).values("seq", "seat", "source", "events")


def events_of_rows(rows: list[dict]) -> list[LoggedEvent]:
    """Return the events of move rows read from ``moves_after``, in the rows' order, with no visibility filter."""
    return _logged((row["seq"], row["seat"], row["source"], row["events"]) for row in rows)


def events_between(game: Game, *, after_seq: int, before_seq: int) -> list[LoggedEvent]:
    """Return the events of the moves after ``after_seq`` and before ``before_seq``, oldest first."""
    entries = (
        Move.objects.filter(game=game, seq__gt=after_seq, seq__lt=before_seq).order_by("seq")
        .values_list("seq", "seat", "source", "events")
    )
    return _logged(entries)


def recent_events(game: Game, *, moves: int) -> list[LoggedEvent]:
    """Return the events of the latest ``moves`` moves, oldest first (an index range, whatever the log's length)."""
    if moves <= 0:
        return []
    return events_between(game, after_seq=max(0, game.seq - moves), before_seq=game.seq + 1)


def last_move_of_seat(game: Game, seat: int, *, before_seq: int) -> Move | None:
    """Return the seat's latest logged move before ``before_seq`` (what happened since is news to them)."""
    return Move.objects.filter(game=game, seat=seat, seq__lt=before_seq).order_by("-seq").first()


def bot_play_record(game: Game) -> dict:
    """Return which seats a bot played at least once (for a result that must say so)."""
    seats = sorted(set(Move.objects.filter(game=game, source__in=["bot", "timeout"]).values_list("seat", flat=True)))
    return {"bot_played_seats": seats} if seats else {}


def latest_moves(game_ids: list[int]) -> dict[int, LoggedMove]:
    """Return each game's latest logged move with its events, in one query (PostgreSQL DISTINCT ON)."""
    rows = (
        Move.objects.filter(game_id__in=game_ids).order_by("game_id", "-seq").distinct("game_id")
        .values_list("game_id", "seq", "seat", "events")
    )
    return {
        game_id: LoggedMove(seq, seat, [Event.from_json(raw) for raw in events])
        for game_id, seq, seat, events in rows
    }
