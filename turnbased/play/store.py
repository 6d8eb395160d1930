"""The event store: the one door to the move log and the state snapshot.

Appends happen under the game's row lock and check the expected sequence
number; the snapshot is a cache that ``replay`` must reproduce.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.utils import timezone

from games import get_engine
from games.base import Engine, Event
from turnbased.play.errors import StaleSequence
from turnbased.play.models import Game, Move


@dataclass(frozen=True)
class LoggedEvent:
    """An engine event with the sequence number of the move that produced it."""

    seq: int
    seat: int
    event: Event


@dataclass(frozen=True)
class LoggedMove:
    """A logged move as readers may use it: its position, seat and events, never its stored notation."""

    seq: int
    seat: int
    events: list[Event]


def engine_of(game: Game) -> Engine:
    return get_engine(game.engine)


def locked(game_id: int) -> Game:
    """Return the game with its row locked until the transaction ends (raises Game.DoesNotExist)."""
    return Game.objects.select_for_update().get(pk=game_id)


def initial_state(game: Game) -> dict:
    return engine_of(game).setup(list(game.player_names), game.options, game.seed)


def save_start(game: Game, state: dict) -> None:
    """Store the snapshot at seq 0, as the game starts."""
    engine = engine_of(game)
    game.seq = 0
    game.state = state
    game.to_move = engine.to_move(state)
    game.save(update_fields=["seq", "state", "to_move"])


def find_by_idempotency_key(game: Game, seat: int, key: str) -> Move | None:
    return Move.objects.filter(game=game, seat=seat, idempotency_key=key).first()


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
    """Append a move at ``expected_seq + 1`` and move the snapshot forward; call under the row lock."""
    if game.seq != expected_seq:
        raise StaleSequence(current_seq=game.seq, sent_seq=expected_seq)
    engine = engine_of(game)
    try:
        with transaction.atomic():
            entry = Move.objects.create(
                game=game,
                seq=expected_seq + 1,
                seat=seat,
                user_id=user_id,
                move=move,
                text=text,
                events=[event.to_json() for event in events],
                source=source,
                idempotency_key=idempotency_key,
            )
    except IntegrityError:
        # Another writer got here without the row lock (should not happen); the unique (game, seq) saves us.
        game.refresh_from_db()
        raise StaleSequence(current_seq=game.seq, sent_seq=expected_seq) from None
    game.seq = entry.seq
    game.state = new_state
    game.to_move = engine.to_move(new_state)
    game.last_move_at = entry.created_at or timezone.now()
    game.save(update_fields=["seq", "state", "to_move", "last_move_at"])
    return entry


def replay(game: Game) -> dict | None:
    """Rebuild the state from the seed and the full log (None for a game that never started)."""
    if game.started_at is None:
        return None
    engine = engine_of(game)
    state = initial_state(game)
    for entry in Move.objects.filter(game=game).order_by("seq").only("seat", "move"):
        state, _ = engine.play(state, entry.seat, entry.move)
    return state


def events_since(game: Game, after_seq: int) -> list[LoggedEvent]:
    """Return every event logged after ``after_seq``, oldest first, with no visibility filter."""
    logged = []
    for entry in Move.objects.filter(game=game, seq__gt=after_seq).order_by("seq").only("seq", "seat", "events"):
        logged.extend(LoggedEvent(entry.seq, entry.seat, Event.from_json(raw)) for raw in entry.events)
    return logged


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
