"""Tables: create, join, leave, start and abort; status changes through one transition table."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from games import engines, get_engine
from games.base import InvalidOptions
from turnbased.kit.db import dispatch
from turnbased.clocks.services import clocks_start, seats_with_time, table_clock_create
from turnbased.kit.errors import Conflict, GameNotFound, InvalidRequest, NotAllowed, Unprocessable
from turnbased.play import facts, player_events, store
from turnbased.play.models import Game, GameStatus, Seat, Visibility
from turnbased.play.services.forced_moves import schedule_forced_moves
from turnbased.play.services.turn_notices import record_turn_notifications

# Named, not imported: play.tasks imports these services.
BOT_TURN_TASK = "turnbased.play.tasks.play_bot_turn"

# Every status change goes through this table.
TRANSITIONS: dict[str, set[str]] = {
    GameStatus.OPEN: {GameStatus.ACTIVE, GameStatus.ABORTED},
    GameStatus.ACTIVE: {GameStatus.FINISHED, GameStatus.ABORTED},
    GameStatus.FINISHED: set(),
    GameStatus.ABORTED: set(),
}


def game_transition(*, game: Game, to: str, also: tuple[str, ...] = ()) -> None:
    """Move ``game`` to status ``to``, stamping the time; refuse a change the table does not allow.

    ``also``: fields the caller set on ``game`` that are saved in the same statement (a finished game's result).
    """
    if to not in TRANSITIONS[game.status]:
        raise Conflict(gettext("A game cannot go from the status %(old)s to %(new)s.") % {"old": game.status, "new": to})
    game.status = to
    now = timezone.now()
    fields = ["status", *also]
    if to == GameStatus.ACTIVE:
        game.started_at = now
        fields.append("started_at")
    if to in (GameStatus.FINISHED, GameStatus.ABORTED):
        game.finished_at = now
        fields.append("finished_at")
    game.save(update_fields=fields)
    if to == GameStatus.FINISHED:
        facts.tell(facts.GameFinished(game=game))  # in the transaction that ends the game (its rating, its news)


def game_release(*, game_ids) -> int:
    """Let go of held tables (``create_game(held=True)``): anyone the table's visibility allows sees them again, and
    a finished one's secrets are out (its seed, every hand), what its end kept from all but its seats told now
    (``facts.GameReleased``: its rating). Return how many were let go; a table let go already is left as it is."""
    with transaction.atomic():
        games = list(Game.objects.select_for_update().filter(pk__in=list(game_ids), held=True).order_by("pk")
                     .prefetch_related("seats"))
        Game.objects.filter(pk__in=[game.pk for game in games]).update(held=False)
        for game in games:
            game.held = False
            if game.status == GameStatus.FINISHED:
                facts.tell(facts.GameReleased(game=game))
    return len(games)


def hidden_from(game: Game, user: AbstractBaseUser) -> bool:
    """Tell whether the table does not exist for ``user``: private (or held: ``game_release``), and they neither sit
    at it nor created it.

    Such a user gets "no such game" from every action, never a refusal that would confirm the table exists.
    """
    if game.held:
        return not any(seat.user_id == user.pk for seat in game.seats.all())
    if game.visibility != Visibility.PRIVATE or game.created_by_id == user.pk:
        return False
    return not any(seat.user_id == user.pk for seat in game.seats.all())


def locked_game(game_id: int, *, idempotency_key: str | None = None) -> Game:
    """Return the game under its row lock with its seats loaded (``store.locked``); raise ``GameNotFound``."""
    try:
        return store.locked(game_id, idempotency_key=idempotency_key)
    except Game.DoesNotExist:
        raise GameNotFound() from None


def locked_table(game_id: int) -> Game:
    """Return the game under its row lock, its seats read afresh when asked for (they may have changed while
    the lock was awaited); raise ``GameNotFound``."""
    try:
        return store.locked_row(game_id)
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
    bots: dict[int, str] | None = None,
    creator_plays: bool = True,
    time_control: dict | None = None,
    terms: dict | None = None,
    people: dict[int, AbstractBaseUser] | None = None,
    held: bool = False,
) -> Game:
    """Create a table for ``players`` seats: the creator in seat 0 (unless they only watch), bots where asked.

    ``options`` go to the engine as given; callers taking options from users
    pass only the engine's ``option_specs`` names (see ``user_options``).
    ``bots`` maps seat indexes to bot names; a table whose seats are all
    filled at creation starts at once. A table over the creator's caps (open tables, tables of
    bots only in play), or one a feature keeps from the creator now (``facts.creation_kept``: too many games
    wait on them), is refused. ``terms`` are what features add to a table (``facts.table_term``: the group
    it is kept for), each recorded by its feature in the creation's transaction. ``people`` maps seat indexes to
    the people seated there at once, without asking them (a competition's round: its pairing decided who plays
    whom; the creator only watches); they are told the game started, as any player is. A ``held`` table is seen
    by its seats alone and keeps its secrets past its end until ``game_release`` (a duplicate round's tables, which
    deal from one seed).
    """
    if engine_slug not in engines():
        raise InvalidRequest(gettext("Unknown game %(slug)r. Known games: %(known)s.")
                             % {"slug": engine_slug, "known": ", ".join(engines())})
    engine = get_engine(engine_slug)
    players = engine.default_players if players is None else players
    if not isinstance(players, int) or isinstance(players, bool):
        raise InvalidRequest(gettext("players must be a whole number."))
    if not engine.min_players <= players <= engine.max_players:
        raise Unprocessable(
            ngettext("%(game)s takes %(min)s to %(max)s player.", "%(game)s takes %(min)s to %(max)s players.",
                     engine.max_players)
            % {"game": engine.display_name(), "min": engine.min_players, "max": engine.max_players}
        )
    if visibility not in Visibility.values:
        raise InvalidRequest(gettext("visibility must be one of %(values)s.") % {"values": ", ".join(Visibility.values)})
    try:
        options = engine.validate_options(players, dict(options or {}))
    except InvalidOptions as error:
        raise Unprocessable(error.reason) from None
    bots = _checked_bots(engine, players, bots or {}, creator_plays)
    people = _checked_people(players, people or {}, bots, creator_plays)
    terms = dict(terms or {})
    unknown = sorted(set(terms) - set(facts.table_terms()))
    if unknown:
        raise InvalidRequest(gettext("Unknown table terms: %(names)s.") % {"names": ", ".join(unknown)})
    with transaction.atomic():
        seated = len(bots) + len(people) + (1 if creator_plays else 0)
        bots_only = not creator_plays and len(bots) == players
        _check_table_caps(creator, waits_for_players=seated < players, bots_only=bots_only)
        if seated < players:
            kept = facts.why_creation_kept(creator, plays=creator_plays)
            if kept:
                raise Conflict(kept)
        game = Game.objects.create(
            engine=engine.slug,
            engine_version=engine.version,
            options=options,
            seed=seed or secrets.token_hex(16),
            visibility=visibility,
            invite_code=secrets.token_urlsafe(12),
            seat_count=players,
            created_by=creator,
            terms=terms,
            held=held,
        )
        table_clock_create(game=game, settings=time_control)
        facts.record_terms(game, creator, terms)
        if creator_plays:
            Seat.objects.create(game=game, index=0, user=creator)
        for index, bot in sorted(bots.items()):
            Seat.objects.create(game=game, index=index, bot=bot)
        Seat.objects.bulk_create(Seat(game=game, index=index, user=person) for index, person in sorted(people.items()))
        if seated == players:
            _start(game)
    return game


def _check_table_caps(creator: AbstractBaseUser, *, waits_for_players: bool, bots_only: bool) -> None:
    """Refuse a new table over the creator's caps: tables waiting for players, and tables of bots only in play."""
    if not (waits_for_players or bots_only):
        return
    # Lock the creator's row so that two creations at once cannot both pass the count.
    get_user_model().objects.select_for_update().only("pk").get(pk=creator.pk)
    mine = Game.objects.filter(created_by=creator)
    if waits_for_players:
        cap = settings.MAX_OPEN_TABLES_PER_ACCOUNT
        count = mine.filter(status=GameStatus.OPEN).count()
        if count >= cap:
            raise Conflict(
                ngettext("You have %(count)s table waiting for players; one account may have at most %(cap)s. "
                         "Abort one of them, or wait until one starts, before creating another.",
                         "You have %(count)s tables waiting for players; one account may have at most %(cap)s. "
                         "Abort one of them, or wait until one starts, before creating another.", count)
                % {"count": count, "cap": cap}
            )
    if bots_only:
        cap = settings.MAX_BOT_TABLES_PER_ACCOUNT
        people_playing = Seat.objects.filter(game=OuterRef("pk"), user__isnull=False, bot="")
        count = mine.filter(status=GameStatus.ACTIVE).exclude(Exists(people_playing)).count()
        if count >= cap:
            raise Conflict(
                ngettext("You have %(count)s table of bots only in play; one account may run at most %(cap)s at "
                         "once. Wait until one of them finishes before starting another.",
                         "You have %(count)s tables of bots only in play; one account may run at most %(cap)s at "
                         "once. Wait until one of them finishes before starting another.", count)
                % {"count": count, "cap": cap}
            )


def _checked_bots(engine, players: int, bots: dict, creator_plays: bool) -> dict[int, str]:
    checked: dict[int, str] = {}
    offered = engine.bots()
    for raw_index, name in bots.items():
        try:
            index = int(raw_index)
        except (TypeError, ValueError):
            raise Unprocessable(gettext("bots must map seat numbers to bot names.")) from None
        if not 0 <= index < players or (creator_plays and index == 0):
            refusal = (gettext("Seat %(index)s cannot take a bot (it is yours).") if index == 0
                       else gettext("Seat %(index)s cannot take a bot."))
            raise Unprocessable(refusal % {"index": index})
        if name not in offered:
            raise Unprocessable(gettext("%(game)s has no bot called %(name)r; it has: %(bots)s.")
                                 % {"game": engine.display_name(), "name": name, "bots": ", ".join(offered)})
        checked[index] = name
    return checked


def _checked_people(players: int, people: dict, bots: dict[int, str], creator_plays: bool) -> dict:
    """Check the people seated at creation: each in a seat of the table no bot and no creator holds, each once."""
    for index in people:
        if not isinstance(index, int) or not 0 <= index < players or index in bots or (creator_plays and index == 0):
            raise Unprocessable(gettext("Seat %(index)s cannot take a player.") % {"index": index})
    if len({person.pk for person in people.values()}) < len(people):
        raise Unprocessable(gettext("A person takes one seat at a table."))
    return dict(people)


def user_options(engine_slug: str, raw: dict) -> dict:
    """Keep only the options a player may set at creation; reject unknown names and values."""
    if not isinstance(raw, dict):
        raise InvalidRequest(gettext("options must be a JSON object."))
    specs = {spec.name: spec for spec in get_engine(engine_slug).option_specs}
    unknown = sorted(set(raw) - set(specs))
    if unknown:
        named = {"unknown": ", ".join(unknown), "known": ", ".join(specs)}
        if specs:
            raise Unprocessable(ngettext("Unknown option %(unknown)s; this game has: %(known)s.",
                                          "Unknown options %(unknown)s; this game has: %(known)s.", len(unknown)) % named)
        raise Unprocessable(ngettext("Unknown option %(unknown)s; this game has none.",
                                      "Unknown options %(unknown)s; this game has none.", len(unknown)) % named)
    for name, value in raw.items():
        allowed = [choice for choice, _ in specs[name].choices]
        if value not in allowed:
            raise Unprocessable(gettext("Option %(name)s must be one of: %(allowed)s.")
                                 % {"name": name, "allowed": ", ".join(map(str, allowed))})
    return dict(raw)


def join_game(*, game_id: int, user: AbstractBaseUser, invite_code: str | None = None) -> Seat:
    """Seat ``user`` in the lowest free seat; start the game when the last seat is taken.

    A private game needs its invite code, or an invitation by name, or a feature's leave (a group's members take
    the seats of its tables); to a stranger without any the game does not exist.
    """
    from turnbased.play.invitation_selectors import is_invited

    with transaction.atomic():
        game = locked_table(game_id)
        holds_link = invite_code == game.invite_code and not facts.closes_link(game, user)
        if not holds_link and hidden_from(game, user) and not is_invited(game, user) \
                and not facts.may_see_private(game, user):
            raise GameNotFound()
        if game.seats.filter(user=user).exists():
            raise Conflict(gettext("You already have a seat at this table."))
        if game.status != GameStatus.OPEN:
            raise Conflict(gettext("This game is no longer taking players."))
        kept = facts.why_seat_kept(game, user)
        if kept:
            raise Conflict(kept)
        taken = set(game.seats.values_list("index", flat=True))
        free = [index for index in range(game.seat_count) if index not in taken]
        if not free:
            raise Conflict(gettext("Every seat is taken."))
        seat = Seat.objects.create(game=game, index=free[0], user=user)
        facts.tell(facts.PlayerJoined(game=game, user_id=user.pk))
        if len(taken) + 1 == game.seat_count:
            _start(game)
    return seat


def leave_game(*, game_id: int, user: AbstractBaseUser) -> None:
    """Give up a seat at a table that has not started; the creator aborts instead."""
    with transaction.atomic():
        game = locked_table(game_id)
        if hidden_from(game, user):
            raise GameNotFound()
        seat = game.seats.filter(user=user).first()
        if seat is None:
            raise NotAllowed(gettext("You have no seat at this table."))
        if game.status != GameStatus.OPEN:
            raise Conflict(gettext("The game has started; seats can only be left before it starts."))
        if game.created_by_id == user.pk:
            raise NotAllowed(gettext("You created this table: abort it instead of leaving."))
        seat.delete()


def start_game(*, game_id: int, user: AbstractBaseUser) -> Game:
    """Start an open table now with the players already seated (the creator only)."""
    with transaction.atomic():
        game = locked_table(game_id)
        if hidden_from(game, user):
            raise GameNotFound()
        if game.created_by_id != user.pk:
            raise NotAllowed(gettext("Only the player who created the table can start it early."))
        if game.status != GameStatus.OPEN:
            raise Conflict(gettext("This game has already started or ended."))
        seated = game.seats.count()
        engine = store.engine_of(game)
        if seated < engine.min_players:
            raise Conflict(ngettext("%(game)s needs at least %(min)s players; %(seated)s is seated.",
                                    "%(game)s needs at least %(min)s players; %(seated)s are seated.", seated)
                           % {"game": engine.display_name(), "min": engine.min_players, "seated": seated})
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
    seats = list(seats_with_time(Seat.objects.filter(game=game)).order_by("index"))
    store.keep_loaded(game, "seats", seats)  # the seats as they are now, for everything the start does
    game.player_names = [seat.display_name for seat in seats]
    game.save(update_fields=["player_names"])
    game_transition(game=game, to=GameStatus.ACTIVE)
    store.save_start(game, store.initial_state(game))
    clocks_start(game=game)
    facts.tell(facts.GameStarted(game=game))
    played_for = schedule_forced_moves(game)  # the first player's only move, if they asked for it
    record_turn_notifications(game, skip=played_for)
    player_events.record_game_started(game)
    schedule_bot_turns(game)


def abort_game(*, game_id: int, user: AbstractBaseUser) -> Game:
    """Cancel a table that has not started (the creator only)."""
    with transaction.atomic():
        game = locked_table(game_id)
        if hidden_from(game, user):
            raise GameNotFound()
        if game.created_by_id != user.pk:
            raise NotAllowed(gettext("Only the player who created the table can abort it."))
        if game.status != GameStatus.OPEN:
            raise Conflict(gettext("Only a table that has not started can be aborted."))
        game_transition(game=game, to=GameStatus.ABORTED)
    return game


def schedule_bot_turns(game: Game) -> None:
    """After commit, have a worker play the position for any bot now to move (``dispatch``; the clock sweep
    queues a bot turn whose task was lost)."""
    if game.status != GameStatus.ACTIVE:
        return
    bot_seats = {seat.index for seat in game.seats.all() if seat.bot}
    if bot_seats & set(game.to_move):
        dispatch.after_commit(BOT_TURN_TASK, game.pk, game.seq, countdown=settings.BOT_MOVE_DELAY_SECONDS)
