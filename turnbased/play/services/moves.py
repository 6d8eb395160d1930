"""The single door for moves: people (web, API, email), bots, and timeouts all come through here.

Each action locks the game row, checks it may act, validates through the
engine, appends to the log, moves the snapshot, charges the clocks and records
the notifications and each player's events, all in one transaction; on any
error nothing changes.

A move is a handful of statements: the locked game comes with its seats in
one query (``store.locked``), the idempotency key is checked in that same
query, a game without a clock does no clock work, and the game returned is
the one in memory, up to date, so the caller can answer without reading it
again.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy

from games.base import RESIGN, BadNotation, IllegalMove
from games.bots import bot_move, history_window
from games.i18n import in_english
from games.takebacks import take_back_move
from turnbased.kit.db import one_statement
from turnbased.accounts.models import is_bot_account
from turnbased.clocks.models import ClockKind, ExpiryPolicy, SeatClock
from turnbased.clocks.services import clocks_after_move, now, table_clock_of
from turnbased.kit.errors import Conflict, GameNotFound, IllegalMoveError, InvalidRequest, NotAllowed, StaleSequence
from turnbased.play import facts, player_events, store
from turnbased.play.models import Game, GameStatus, Move, MoveSource, Seat
from turnbased.play.services import forced_moves
from turnbased.play.services.forced_moves import schedule_forced_moves
from turnbased.play.services.tables import game_transition, hidden_from, locked_game, schedule_bot_turns
from turnbased.play.services.turn_notices import record_turn_notifications

# After this many timeouts in a row, the bot keeps the seat for the rest of the game.
TIMEOUTS_BEFORE_TAKEOVER = 3

# The doors a bot account may not play through: it plays with an API token (docs/api-guide.md, "Bot
# accounts").
PEOPLE_ONLY_SOURCES = (MoveSource.WEB, MoveSource.EMAIL)
BOT_ACCOUNT_PLAYS_BY_API = gettext_lazy("%(name)s is a bot account: it plays through the API with a token, not by "
                                        "the web page or by email.")


@dataclass(frozen=True)
class MoveOutcome:
    """What a submission did: the logged move, and whether it was a repeat of an earlier one."""

    game: Game
    move: Move
    replayed: bool


def _players_seat(game: Game, user: AbstractBaseUser) -> Seat:
    seat = next((seat for seat in game.seats.all() if seat.user_id == user.pk), None)
    if seat is None:
        if hidden_from(game, user):
            raise GameNotFound()
        raise NotAllowed(gettext("You are not playing in this game."))
    return seat


def _require_door_for(seat: Seat, source: str) -> None:
    """Refuse a bot account's move from a page or an email; the seat's user comes with its profile (no query)."""
    if source in PEOPLE_ONLY_SOURCES and is_bot_account(seat.user):
        raise NotAllowed(BOT_ACCOUNT_PLAYS_BY_API % {"name": seat.user.get_username()})


def _require_active(game: Game) -> None:
    if game.status != GameStatus.ACTIVE:
        raise Conflict(gettext("This game is not in play.") if game.status == GameStatus.OPEN
                       else gettext("This game is over."))


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
    outcome and appends nothing. A bot account's move from the web or by email
    is refused (``NotAllowed``). Raises a ``PlayError``; on any error nothing changes.
    """
    if (move is None) == (text is None):
        raise InvalidRequest(gettext("Send either a move or its text, not both or neither."))
    if idempotency_key is not None and not (isinstance(idempotency_key, str) and 0 < len(idempotency_key) <= 100):
        raise InvalidRequest(gettext("idempotency_key must be a string of 1 to 100 characters."))
    if not isinstance(expected_seq, int) or isinstance(expected_seq, bool) or expected_seq < 0:
        raise InvalidRequest(gettext("expected_seq must be a non-negative whole number."))
    try:
        return _submit(game_id, user, expected_seq, move, text, source, idempotency_key)
    except IntegrityError:
        # A writer without the row lock (never through this door) lost to the log's unique constraints.
        current = Game.objects.filter(pk=game_id).values_list("seq", flat=True).first()
        raise StaleSequence(current_seq=current or 0, sent_seq=expected_seq) from None


def _submit(game_id, user, expected_seq, move, text, source, idempotency_key) -> MoveOutcome:
    with transaction.atomic():
        game = locked_game(game_id, idempotency_key=idempotency_key)
        seat = _players_seat(game, user)
        _require_door_for(seat, source)
        if idempotency_key is not None:
            earlier = _earlier(seat)
            if earlier is not None:
                return MoveOutcome(game=game, move=earlier, replayed=True)
        _require_active(game)
        if expected_seq != game.seq:
            raise StaleSequence(current_seq=game.seq, sent_seq=expected_seq)
        if seat.bot:
            raise Conflict(gettext("A bot plays this seat now: you left the game or ran out of time too often."))
        if seat.index not in game.to_move:
            raise Conflict(gettext("It is not your turn."))
        engine = store.engine_of(game)
        try:
            if text is not None:
                move = engine.parse_move(str(text), game.state, seat.index)
            if not isinstance(move, dict) or move == RESIGN:
                raise IllegalMove(gettext("A move must be one of the game's moves, as a JSON object."))
        except (IllegalMove, BadNotation) as error:
            raise IllegalMoveError(error.reason) from None
        entry = _play(game, seat.index, move, user=user, source=source, idempotency_key=idempotency_key)
    return MoveOutcome(game=game, move=entry, replayed=False)


def _earlier(seat: Seat) -> Move | None:
    """Return the seat's move logged under the request's idempotency key, which the locking query looked for."""
    earlier_id = getattr(seat, "earlier_move_id", None)
    return Move.objects.get(pk=earlier_id) if earlier_id is not None else None


def resign_game(*, game_id: int, user: AbstractBaseUser, source: str = MoveSource.WEB) -> MoveOutcome:
    """Leave a game in play for good, whoever's turn it is; the engine decides what follows.

    A bot account resigns through the API only, as it moves.
    """
    with transaction.atomic():
        game = locked_game(game_id)
        seat = _players_seat(game, user)
        _require_door_for(seat, source)
        _require_active(game)
        entry = _play(game, seat.index, RESIGN, user=user, source=source)
        Seat.objects.filter(pk=seat.pk).update(left_at=timezone.now())
    return MoveOutcome(game=game, move=entry, replayed=False)


def _play(game: Game, seat: int, move: dict, *, user=None, source: str, idempotency_key: str | None = None,
          chain: int = 0) -> Move:
    """Apply ``move`` for ``seat`` on the locked game and log it; raise ``IllegalMoveError``.

    ``chain``: how many forced moves in a row led to the new position, this one included (``forced_moves``);
    0 after any other move.
    """
    engine = store.engine_of(game)
    try:
        new_state, events = engine.play(game.state, seat, move)
    except IllegalMove as error:
        raise IllegalMoveError(error.reason) from None
    with in_english():  # the log's notation and the record's summary are English, whatever the mover reads
        text = "resign" if move == RESIGN else engine.describe_move(game.state, move)
        result = engine.result(new_state)
    return _log(game, seat, move, text, new_state, events, result, user=user, source=source,
                idempotency_key=idempotency_key, chain=chain)


def _log(game: Game, seat: int, move: dict, text: str, new_state: dict, events: list, result: dict | None, *,
         user, source: str, idempotency_key: str | None, chain: int, clock_of: int | None = None) -> Move:
    """Log an entry the engine played (a move, a resignation, a takeback) and do all that follows a new position;
    ``clock_of``: the seat whose thinking time the entry ends, when not ``seat``'s (a takeback's)."""
    # The log and snapshot, the notifications, the clocks and the players' events: one statement (a move
    # that finishes the game sends its result's writes on their own, after the move's).
    with one_statement.together():
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
        if result is not None:
            left = sorted(seat.index for seat in game.seats.all() if seat.left_at is not None)
            game.result = {**result, **store.bot_play_record(game), **({"left_seats": left} if left else {})}
            game_transition(game=game, to=GameStatus.FINISHED, also=("result",))  # told as a fact: its rating, its news
        else:
            # A seat whose only move is about to be played for it gets no turn email (``forced_moves``).
            played_for = schedule_forced_moves(game, chain=chain)
            # Every new position is a new decision for whoever is to move, even the same seat again
            # (a new round, a two-step move), and an email player needs each one.
            record_turn_notifications(game, skip=played_for)
            facts.tell(facts.MovePlayed(game=game, seq=entry.seq))  # its followers' news (a part of this statement)
        clocks = clocks_after_move(game=game, mover=seat if clock_of is None else clock_of, source=source)
        if clocks is not None:
            store.keep_loaded(game, "seat_clocks", clocks)  # the clocks as written, for the answer
        # Last, so the per-user locks it takes (see turnbased.events.services) are held only until the commit.
        # A forced move's stream rows are those of a move its player sent at once (``forced_moves``).
        player_events.record_move_played(game, seat=seat, events=events, mover_user_id=user.pk if user else None)
        schedule_bot_turns(game)
    return entry


def take_back(*, game: Game, seat: int, seq: int, user=None) -> Move:
    """Log the takeback of ``seat``'s move ``seq`` on ``game``, which the caller has locked (``locked_game``) and
    whose players all agreed: the position returns to the one before it, rebuilt from the log (``games.takebacks``).

    Refused with the reason (``Conflict``, nothing changed) when the game is not in play, has moved past ``seq``,
    or the move may not be taken back (not ``seat``'s, the last of the log, or one the game forbids). The takeback
    is a new position like a move's: the clocks, the turn notices, the players' streams and the bots follow it.
    """
    _require_active(game)
    if game.seq != seq:
        raise Conflict(gettext("Someone has moved since: only the last move can be taken back."))
    replayed = store.log_replay(game)
    reason = replayed.refusal(seat)
    if reason is not None:
        raise Conflict(reason)
    move = take_back_move(seq)
    new_state, events = replayed.play(seat, move)
    # The clock of whoever was to move stops (their time used so far stays used); the mover's starts again.
    waiting = next((index for index in game.to_move if index != seat), seat)
    return _log(game, seat, move, f"take back {seq}", new_state, events, None, user=user,
                source=MoveSource.AGREED, idempotency_key=None, chain=0, clock_of=waiting)


def _bot_for(game: Game) -> str:
    """Return the bot that stands in for a late or departed player: the level the table chose (its time control's
    ``stand_in``), else the game's basic bot, else its random one."""
    offered = store.engine_of(game).bots()
    chosen = table_clock_of(game).stand_in
    if chosen in offered:
        return chosen
    return "basic" if "basic" in offered else "random"


def _bot_choice(game: Game, seat: int, bot_name: str) -> dict:
    """Ask the bot for a move; it sees only the seat's view, legal moves and the recent history it reads.

    Each bot says how many of the latest moves it reads (``history_window``):
    most read none, so a bot's turn costs the same late in a game as early.
    """
    engine = store.engine_of(game)
    history = [logged.event for logged in store.recent_events(game, moves=history_window(engine, bot_name))]
    try:
        return bot_move(engine, bot_name, game.state, seat, history, seed=f"{game.seed}:{game.seq}")
    except IllegalMove as error:
        raise IllegalMoveError(error.reason) from None


def play_bot_turn(*, game_id: int, seq: int, plain: bool = False) -> list[Move]:
    """Play the position ``seq`` for every bot seat to move; a stale or settled position is left alone.

    A bot that searches (``strong``) thinks before the game is locked: its search takes up to a couple of seconds,
    and the row lock would hold every other action on the table (a resignation, an offer, a takeover) that long.
    Its move is played under the lock only if the game is still at ``seq``. ``plain``: a searching bot plays its
    game's basic move instead (the task's time limit stopped its search: ``tasks.play_bot_turn``).
    """
    thought = _thought_before_the_lock(game_id, seq, plain)
    played = []
    with transaction.atomic():
        try:
            game = locked_game(game_id)
        except GameNotFound:
            return played
        if game.status != GameStatus.ACTIVE or game.seq != seq:
            return played
        for seat in [seat for seat in game.seats.all() if seat.index in game.to_move and seat.bot]:
            if game.seq != seq or seat.index not in game.to_move:
                break
            bot = _plain(game, seat.bot) if plain else seat.bot
            move = thought.get((seat.index, bot)) or _bot_choice(game, seat.index, bot)
            played.append(_play(game, seat.index, move, source=MoveSource.BOT))
    return played


def _searches(game: Game, bot: str) -> bool:
    return getattr(store.engine_of(game).bots().get(bot), "searches", False)


def _plain(game: Game, bot: str) -> str:
    """Return the bot that plays instead of a searching one whose search was stopped: the game's basic bot."""
    if not _searches(game, bot):
        return bot
    return "basic" if "basic" in store.engine_of(game).bots() else "random"


def _thought_before_the_lock(game_id: int, seq: int, plain: bool) -> dict[tuple[int, str], dict]:
    """Return the moves of the searching bots to move at ``seq``, by (seat, bot), thought with no lock held (none
    for a game that moved on; a bot that does not search thinks under the lock, in a few milliseconds)."""
    if plain:
        return {}
    game = Game.objects.filter(pk=game_id, status=GameStatus.ACTIVE, seq=seq).first()
    if game is None:
        return {}
    searching = [seat for seat in game.seats.all() if seat.index in game.to_move and seat.bot
                 and _searches(game, seat.bot)]
    return {(seat.index, seat.bot): _bot_choice(game, seat.index, seat.bot) for seat in searching[:1]}


def play_forced_move(*, game_id: int, seq: int) -> Move | None:
    """Play position ``seq``'s only legal move for its seat (source ``auto``) once its moment has come, if its
    ``ForcedMoveDue`` is still there and the game still at ``seq``; else change nothing but that row
    (``forced_moves``: the first task draws the moment, ``forced_timing``).

    Under the game's row lock, as every move: a repeated task, or a seat that played the move itself
    first, finds the row gone or the game moved on. The player's setting and the legal moves are read
    again here, as they are now.
    """
    with transaction.atomic():
        try:
            game = locked_game(game_id)
        except GameNotFound:
            return None
        due = forced_moves.due_row(game, seq)
        if due is None:
            return None
        forced = forced_moves.forced_seats(game)
        if not forced:
            forced_moves.give_up(game, due)
            return None
        # One seat a task: its move makes a new position, which schedules the next forced seat if any.
        seat, move = forced[0]
        if not forced_moves.falls_due(game, seat, due):
            return None
        due.delete()
        return _play(game, seat.index, move, user=seat.user, source=MoveSource.AUTO, chain=due.chain + 1)


def play_timeout(*, game_id: int, seat: int) -> str:
    """Act on a seat whose deadline passed, under the game's row lock; acting twice acts once.

    The table's expiry policy decides: a bot plays the late turn (and keeps
    the seat after three timeouts in a row), or the player is removed and a
    bot plays their seat out.
    """
    with transaction.atomic():
        try:
            game = locked_game(game_id)
        except GameNotFound:
            return "no game"
        table = table_clock_of(game)
        # The clocks as they are now, under the lock (the sweep found this seat late a moment ago).
        clocks = list(SeatClock.objects.filter(game=game).order_by("seat"))
        store.keep_loaded(game, "seat_clocks", clocks)
        clock = next((row for row in clocks if row.seat == seat), None)
        seat_row = next((row for row in game.seats.all() if row.index == seat), None)
        if game.status != GameStatus.ACTIVE or table.kind == ClockKind.NONE or clock is None or seat_row is None:
            return "no clock"
        if seat not in game.to_move or clock.deadline is None or clock.deadline > now() or seat_row.bot:
            return "not late"
        clock.timeouts_in_row += 1  # written with the clocks after the bot's move
        takeover = table.expiry == ExpiryPolicy.REMOVE or clock.timeouts_in_row >= TIMEOUTS_BEFORE_TAKEOVER
        bot_name = _bot_for(game)
        _play(game, seat, _bot_choice(game, seat, bot_name), source=MoveSource.TIMEOUT)
        if takeover:
            Seat.objects.filter(pk=seat_row.pk).update(bot=bot_name, left_at=timezone.now())
            game.refresh_from_db()
            facts.tell(facts.SeatHandedOn(game=game, seat=seat, user_id=seat_row.user_id))
            schedule_bot_turns(game)
            return "seat handed to the bot"
    return "bot played the late turn"
