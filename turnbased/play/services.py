"""Business actions on games: create, join, leave, start, abort, submit a move.

Every entry point (pages, API, email, timeouts, bots) calls these; they check
permissions and state, change the database in one transaction, and record the
notifications to send.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from games import engines, get_engine
from games.base import RESIGN, BadNotation, IllegalMove, InvalidOptions
from turnbased.notifications.models import NotificationKind
from turnbased.notifications.services import notifications_record
from turnbased.play import store
from turnbased.play.errors import (
    Conflict,
    GameNotFound,
    IllegalMoveError,
    InvalidRequest,
    NotAllowed,
    StaleSequence,
)
from turnbased.play.models import Game, GameStatus, Move, MoveSource, Seat, Visibility

# Every status change goes through this table.
TRANSITIONS: dict[str, set[str]] = {
    GameStatus.OPEN: {GameStatus.ACTIVE, GameStatus.ABORTED},
    GameStatus.ACTIVE: {GameStatus.FINISHED, GameStatus.ABORTED},
    GameStatus.FINISHED: set(),
    GameStatus.ABORTED: set(),
}


def game_transition(*, game: Game, to: str) -> None:
    """Move ``game`` to status ``to``, stamping the time; refuse a change the table does not allow."""
    if to not in TRANSITIONS[game.status]:
        raise Conflict(f"A game that is {game.get_status_display().lower()} cannot become {to}.")
    game.status = to
    now = timezone.now()
    fields = ["status"]
    if to == GameStatus.ACTIVE:
        game.started_at = now
        fields.append("started_at")
    if to in (GameStatus.FINISHED, GameStatus.ABORTED):
        game.finished_at = now
        fields.append("finished_at")
    game.save(update_fields=fields)


def _user_ids(game: Game, *, except_user_id: int | None = None) -> list[int]:
    return [seat.user_id for seat in game.seats.all() if seat.user_id != except_user_id]


def _locked_game(game_id: int) -> Game:
    try:
        return store.locked(game_id)
    except Game.DoesNotExist:
        raise GameNotFound() from None


def create_game(
    *,
    creator: AbstractBaseUser,
    engine_slug: str,
    players: int | None = None,
    options: dict | None = None,
    visibility: str = Visibility.PUBLIC,
    seed: str | None = None,
) -> Game:
    """Create an open table for ``players`` seats with the creator in seat 0.

    ``options`` go to the engine as given; callers taking options from users
    pass only the engine's ``option_specs`` names (see ``user_options``).
    """
    if engine_slug not in engines():
        raise InvalidRequest(f"Unknown game {engine_slug!r}. Known games: {', '.join(engines())}.")
    engine = get_engine(engine_slug)
    players = engine.default_players if players is None else players
    if not isinstance(players, int) or isinstance(players, bool):
        raise InvalidRequest("players must be a whole number.")
    if not engine.min_players <= players <= engine.max_players:
        raise InvalidRequest(f"{engine.name} takes {engine.min_players} to {engine.max_players} players.")
    if visibility not in Visibility.values:
        raise InvalidRequest(f"visibility must be one of {', '.join(Visibility.values)}.")
    try:
        options = engine.validate_options(players, dict(options or {}))
    except InvalidOptions as error:
        raise InvalidRequest(error.reason) from None
    with transaction.atomic():
        game = Game.objects.create(
            engine=engine.slug,
            engine_version=engine.version,
            options=options,
            seed=seed or secrets.token_hex(16),
            visibility=visibility,
            invite_code=secrets.token_urlsafe(12),
            seat_count=players,
            created_by=creator,
        )
        Seat.objects.create(game=game, index=0, user=creator)
    return game


def user_options(engine_slug: str, raw: dict) -> dict:
    """Keep only the options a player may set at creation; reject unknown names and values."""
    if not isinstance(raw, dict):
        raise InvalidRequest("options must be a JSON object.")
    specs = {spec.name: spec for spec in get_engine(engine_slug).option_specs}
    unknown = sorted(set(raw) - set(specs))
    if unknown:
        raise InvalidRequest(f"Unknown option(s) {', '.join(unknown)}; this game has: {', '.join(specs) or 'none'}.")
    for name, value in raw.items():
        allowed = [choice for choice, _ in specs[name].choices]
        if value not in allowed:
            raise InvalidRequest(f"Option {name} must be one of: {', '.join(map(str, allowed))}.")
    return dict(raw)


def join_game(*, game_id: int, user: AbstractBaseUser, invite_code: str | None = None) -> Seat:
    """Seat ``user`` in the lowest free seat; start the game when the last seat is taken.

    A private game needs its invite code; to a stranger without it the game does not exist.
    """
    with transaction.atomic():
        game = _locked_game(game_id)
        if game.visibility == Visibility.PRIVATE and invite_code != game.invite_code:
            if not game.seats.filter(user=user).exists():
                raise GameNotFound()
        if game.seats.filter(user=user).exists():
            raise Conflict("You already have a seat at this table.")
        if game.status != GameStatus.OPEN:
            raise Conflict("This game is no longer taking players.")
        taken = set(game.seats.values_list("index", flat=True))
        free = [index for index in range(game.seat_count) if index not in taken]
        if not free:
            raise Conflict("Every seat is taken.")
        seat = Seat.objects.create(game=game, index=free[0], user=user)
        notifications_record(
            game=game, seq=0, kind=NotificationKind.PLAYER_JOINED, user_ids=_user_ids(game, except_user_id=user.pk)
        )
        if len(taken) + 1 == game.seat_count:
            _start(game)
    return seat


def leave_game(*, game_id: int, user: AbstractBaseUser) -> None:
    """Give up a seat at a table that has not started; the creator aborts instead."""
    with transaction.atomic():
        game = _locked_game(game_id)
        seat = game.seats.filter(user=user).first()
        if seat is None:
            raise NotAllowed("You have no seat at this table.")
        if game.status != GameStatus.OPEN:
            raise Conflict("The game has started; seats can only be left before it starts.")
        if game.created_by_id == user.pk:
            raise NotAllowed("You created this table: abort it instead of leaving.")
        seat.delete()


def start_game(*, game_id: int, user: AbstractBaseUser) -> Game:
    """Start an open table now with the players already seated (the creator only)."""
    with transaction.atomic():
        game = _locked_game(game_id)
        if game.created_by_id != user.pk:
            raise NotAllowed("Only the player who created the table can start it early.")
        if game.status != GameStatus.OPEN:
            raise Conflict("This game has already started or ended.")
        seated = game.seats.count()
        engine = store.engine_of(game)
        if seated < engine.min_players:
            raise Conflict(f"{engine.name} needs at least {engine.min_players} players; {seated} seated.")
        try:
            game.options = engine.validate_options(seated, game.options)
        except InvalidOptions as error:
            raise Conflict(error.reason) from None
        # Close the gaps left by players who left, so seats are 0..n-1.
        for index, seat in enumerate(game.seats.order_by("index")):
            if seat.index != index:
                Seat.objects.filter(pk=seat.pk).update(index=index)
        game.seat_count = seated
        game.save(update_fields=["seat_count", "options"])
        _start(game)
    return game


def _start(game: Game) -> None:
    seats = list(game.seats.select_related("user").order_by("index"))
    game.player_names = [seat.user.get_username() for seat in seats]
    game.save(update_fields=["player_names"])
    game_transition(game=game, to=GameStatus.ACTIVE)
    store.save_start(game, store.initial_state(game))
    notifications_record(game=game, seq=0, kind=NotificationKind.GAME_STARTED, user_ids=_user_ids(game))
    _record_turn_notifications(game)


def abort_game(*, game_id: int, user: AbstractBaseUser) -> Game:
    """Cancel a table that has not started (the creator only)."""
    with transaction.atomic():
        game = _locked_game(game_id)
        if game.created_by_id != user.pk:
            raise NotAllowed("Only the player who created the table can abort it.")
        if game.status != GameStatus.OPEN:
            raise Conflict("Only a table that has not started can be aborted.")
        game_transition(game=game, to=GameStatus.ABORTED)
    return game


def _record_turn_notifications(game: Game) -> None:
    seat_users = {seat.index: seat.user_id for seat in game.seats.all()}
    notifications_record(
        game=game,
        seq=game.seq,
        kind=NotificationKind.YOUR_TURN,
        user_ids=[seat_users[index] for index in game.to_move if index in seat_users],
    )


@dataclass(frozen=True)
class MoveOutcome:
    """What a submission did: the logged move, and whether it was a repeat of an earlier one."""

    game: Game
    move: Move
    replayed: bool


def submit_move(
    *,
    game_id: int,
    user: AbstractBaseUser,
    expected_seq: int,
    move: dict | None = None,
    text: str | None = None,
    source: str = MoveSource.WEB,
    idempotency_key: str | None = None,
) -> MoveOutcome:
    """Validate and append one move, as the user's seat, at ``expected_seq + 1``.

    Exactly one of ``move`` (the engine's JSON) or ``text`` (its notation).
    A repeated ``idempotency_key`` for the same game and seat returns the first
    outcome and appends nothing. Raises a ``PlayError``; on any error nothing changes.
    """
    if (move is None) == (text is None):
        raise InvalidRequest("Send either a move or its text, not both or neither.")
    if idempotency_key is not None and not (isinstance(idempotency_key, str) and 0 < len(idempotency_key) <= 100):
        raise InvalidRequest("idempotency_key must be a string of 1 to 100 characters.")
    if not isinstance(expected_seq, int) or isinstance(expected_seq, bool) or expected_seq < 0:
        raise InvalidRequest("expected_seq must be a non-negative whole number.")
    with transaction.atomic():
        game = _locked_game(game_id)
        seat = game.seats.filter(user=user).first()
        if seat is None:
            if game.visibility == Visibility.PRIVATE:
                raise GameNotFound()
            raise NotAllowed("You are not playing in this game.")
        if idempotency_key is not None:
            earlier = store.find_by_idempotency_key(game, seat.index, idempotency_key)
            if earlier is not None:
                return MoveOutcome(game=game, move=earlier, replayed=True)
        if game.status != GameStatus.ACTIVE:
            raise Conflict("This game is not in play." if game.status == GameStatus.OPEN else "This game is over.")
        if expected_seq != game.seq:
            raise StaleSequence(current_seq=game.seq, sent_seq=expected_seq)
        if seat.index not in game.to_move:
            raise Conflict("It is not your turn.")
        engine = store.engine_of(game)
        try:
            if text is not None:
                move = engine.parse_move(str(text), game.state, seat.index)
            if not isinstance(move, dict) or move == RESIGN:
                raise IllegalMove("A move must be one of the game's moves, as a JSON object.")
            new_state, events = engine.apply(game.state, seat.index, move)
        except (IllegalMove, BadNotation) as error:
            raise IllegalMoveError(error.reason) from None
        entry = _append(game, seat=seat.index, user=user, move=move, text=engine.describe_move(game.state, move),
                        new_state=new_state, events=events, source=source, idempotency_key=idempotency_key)
    return MoveOutcome(game=game, move=entry, replayed=False)


def _append(game: Game, *, seat: int, user, move: dict, text: str, new_state: dict, events, source: str,
            idempotency_key: str | None) -> Move:
    """Log a validated move, finish the game if it ended, and record who must hear of it."""
    entry = store.append(
        game,
        expected_seq=game.seq,
        seat=seat,
        user_id=user.pk if user is not None else None,
        move=move,
        text=text,
        events=events,
        new_state=new_state,
        source=source,
        idempotency_key=idempotency_key,
    )
    result = store.engine_of(game).result(new_state)
    if result is not None:
        game.result = result
        game.save(update_fields=["result"])
        game_transition(game=game, to=GameStatus.FINISHED)
        notifications_record(game=game, seq=game.seq, kind=NotificationKind.GAME_FINISHED, user_ids=_user_ids(game))
    else:
        # Every new position is a new decision for whoever is to move, even the same seat again
        # (a new round, a two-step move), and an email player needs each one.
        _record_turn_notifications(game)
    return entry


def resign_game(*, game_id: int, user: AbstractBaseUser, source: str = MoveSource.WEB) -> MoveOutcome:
    """Leave a game in play for good, whoever's turn it is; the engine decides what follows."""
    with transaction.atomic():
        game = _locked_game(game_id)
        seat = game.seats.filter(user=user).first()
        if seat is None:
            if game.visibility == Visibility.PRIVATE:
                raise GameNotFound()
            raise NotAllowed("You are not playing in this game.")
        if game.status != GameStatus.ACTIVE:
            raise Conflict("This game is not in play." if game.status == GameStatus.OPEN else "This game is over.")
        try:
            new_state, events = store.engine_of(game).play(game.state, seat.index, RESIGN)
        except IllegalMove as error:
            raise IllegalMoveError(error.reason) from None
        entry = _append(game, seat=seat.index, user=user, move=RESIGN, text="resign", new_state=new_state,
                        events=events, source=source, idempotency_key=None)
    return MoveOutcome(game=game, move=entry, replayed=False)
