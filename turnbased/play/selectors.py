"""Reads: which games a user sees, and each viewer's projection of a game.

Everything shown to a person goes through ``private_view``, ``visible_history``
(and its pages, ``history_page``) and ``legal_moves_for``, which ask the engine
for that seat's projection only.

What a read costs does not grow with the game: a game comes with its seats,
their players and what their clocks need in a constant number of queries
(``viewer_of``, ``games_of``), history is read a page of moves at a time, and
a poll learns whether anything changed from one row (``game_version``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from datetime import timezone as dt_timezone

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Count, F, Func, IntegerField, JSONField, OuterRef, QuerySet, Subquery, Value
from django.db.models.functions import Coalesce
from django.utils.translation import gettext

from games.base import Event
from games.takebacks import describe
from turnbased.accounts.models import is_bot_account, plays_forced_moves
from turnbased.clocks.models import SeatClock
from turnbased.clocks.services import seats_with_time
from turnbased.kit.errors import EngineUnavailable, GameNotFound
from turnbased.play import facts, store
from turnbased.play.invitation_selectors import is_invited
from turnbased.play.models import ForcedMoveDue, Game, GameStatus, MoveSource, Seat, Visibility
from turnbased.play.seat_labels import seat_label
from turnbased.kit.db.prepared import PreparedQuery

# The game page shows the entries of this many latest moves; older ones come a page at a time.
HISTORY_PAGE_MOVES = 10


def _with_seats(games: QuerySet[Game], *, clocks: bool = False) -> list[Game]:
    """Read the games with their time controls, then their seats (``with_seats``)."""
    # A list never needs a game's position (the largest column): it is left in the database.
    return with_seats(list(games.select_related("clock").defer("state")), clocks=clocks)


def with_seats(games: list[Game], *, clocks: bool = False) -> list[Game]:
    """Give games read with their time controls their seats with their players (and what their clocks need)
    in one query; with ``clocks``, the seat clocks too (one query more), for showing time left.

    Not ``prefetch_related``: it builds a filtered queryset for every game it fills, which in a lobby of
    50 games cost more than the queries; ``store.keep_loaded`` hands each game its rows without one.
    """
    seats: dict[int, list[Seat]] = {game.pk: [] for game in games}
    seat_clocks: dict[int, list[SeatClock]] = {game.pk: [] for game in games}
    if games:
        for seat in seats_with_time(Seat.objects.filter(game_id__in=list(seats)).order_by("game_id", "index")):
            seats[seat.game_id].append(seat)
        if clocks:
            for clock in SeatClock.objects.filter(game_id__in=list(seats)).order_by("game_id", "seat"):
                seat_clocks[clock.game_id].append(clock)
    for game in games:
        store.keep_loaded(game, "seats", seats[game.pk], owner="game")
        if clocks:
            store.keep_loaded(game, "seat_clocks", seat_clocks[game.pk], owner="game")
    return games


def games_of(user: AbstractBaseUser, *, clocks: bool = False) -> list[Game]:
    """Return the user's games: in play first, then open, then ended, most recent activity first."""
    return _with_seats(Game.objects.filter(seats__user=user).order_by("-last_move_at", "-created_at"), clocks=clocks)


def my_games(user: AbstractBaseUser) -> QuerySet[Game]:
    """Return the user's games as a query for a page of them (``with_seats`` fills a page read from it)."""
    return Game.objects.filter(seats__user=user).select_related("clock").defer("state")


# How many of the public tables taking players the lobby lists, newest first.
OPEN_TABLES_LISTED = 50


def open_tables(user: AbstractBaseUser | AnonymousUser) -> QuerySet[Game]:
    """Return the public tables still taking players that the user is not already seated at, as a query."""
    games = Game.objects.filter(status=GameStatus.OPEN, visibility=Visibility.PUBLIC)
    if user.is_authenticated:
        games = games.exclude(seats__user=user)
        for condition in facts.hidden_open_tables(user):  # in the same statement (a block's tables: contacts)
            games = games.exclude(condition)
    games = games.filter(rematch_of__isnull=True)  # a rematch keeps its seats for the last game's players
    games = (
        games.annotate(seated=Count("seats")).filter(seated__lt=F("seat_count"))
        .select_related("created_by", "created_by__profile")  # the creator's name, with a bot account's badge
    )
    return games.select_related("clock").defer("state")


def open_games(user: AbstractBaseUser | AnonymousUser) -> list[Game]:
    """Return the newest public tables still taking players that the user is not already seated at."""
    return with_seats(list(open_tables(user).order_by("-created_at")[:OPEN_TABLES_LISTED]))


# Every read of a game runs these two: compiled once per thread (see ``prepared``); the same rows as
# ``_with_seats(Game.objects.filter(pk=...))``. The sentinel is a value no game id takes.
_GAME_WITH_CLOCK = PreparedQuery(
    lambda game_id: Game.objects.filter(pk=game_id).select_related("clock", "rematch_of"), game_id=-8_675_309
)
_SEATS_WITH_TIME = PreparedQuery(
    lambda game_id: seats_with_time(Seat.objects.filter(game_id=game_id).order_by("index")), game_id=-8_675_309
)


@dataclass(frozen=True)
class Viewer:
    """Who is looking at a game: their seat, or None for a spectator."""

    game: Game
    seat: int | None

    @property
    def is_player(self) -> bool:
        return self.seat is not None


def viewer_of(game_id: int, user: AbstractBaseUser | AnonymousUser, invite_code: str | None = None) -> Viewer:
    """Return the user's place at the game; a private game they neither sit at nor created does not exist for them.

    The invite code lets a stranger see a private table that is still open, so they can join it.
    The creator of a table of bots (who holds no seat) watches it as a spectator.
    """
    found = _GAME_WITH_CLOCK(game_id=game_id)
    if not found:
        raise GameNotFound()
    game = found[0]
    store.keep_loaded(game, "seats", _SEATS_WITH_TIME(game_id=game_id), owner="game")
    seat = seat_of(game, user)
    if not _may_see(game, seat, user, invite_code):
        raise GameNotFound()
    return Viewer(game=game, seat=seat)


def _may_see(game: Game, seat: int | None, user, invite_code: str | None = None) -> bool:
    """Tell whether a private game exists for the user: they sit at it, created it, hold the open table's invite
    link, or were invited to it by name.

    A feature may let others see it too (``facts.sees_private_table``: a rematch waiting for its players is
    theirs to see, as it keeps a seat for each of them).
    """
    if seat is not None:
        return True
    if game.held:  # its seats alone, until the feature that holds it lets it go (``game_release``)
        return False
    if game.visibility != Visibility.PRIVATE:
        return True
    if user.is_authenticated and game.created_by_id == user.pk:
        return True
    if invite_code and invite_code == game.invite_code and game.status == GameStatus.OPEN \
            and not facts.closes_link(game, user):
        return True
    return is_invited(game, user) or (user.is_authenticated and facts.may_see_private(game, user))


@dataclass(frozen=True)
class GameVersion:
    """What a page of the game shows changes exactly when one of these does."""

    seq: int
    status: str
    seated: int
    held: bool = False  # a released table's pages change: its secrets are out


def game_version(game_id: int, user: AbstractBaseUser | AnonymousUser) -> tuple[GameVersion, int | None]:
    """Return the game's version and the user's seat from one row, for a poll that may have nothing to do.

    Raises ``GameNotFound`` as ``viewer_of`` does for a private game the user may not see.
    """
    seated = Seat.objects.filter(game=OuterRef("pk")).order_by().values("game").annotate(n=Count("pk")).values("n")
    if user.is_authenticated:
        mine = Subquery(Seat.objects.filter(game=OuterRef("pk"), user_id=user.pk).values("index")[:1])
    else:
        mine = Value(None, output_field=IntegerField())
    game = (
        Game.objects.filter(pk=game_id)
        .annotate(seated=Coalesce(Subquery(seated), 0), my_seat=mine)
        .only("seq", "status", "visibility", "created_by", "held")
        .first()
    )
    if game is None or not _may_see(game, game.my_seat, user):
        raise GameNotFound()
    return GameVersion(seq=game.seq, status=game.status, seated=game.seated, held=game.held), game.my_seat


def version_of(game: Game) -> GameVersion:
    """Return the version of a game read with its seats."""
    return GameVersion(seq=game.seq, status=game.status, seated=len(game.seats.all()), held=game.held)


def private_view(viewer: Viewer) -> dict | None:
    """Return the engine's projection for the viewer's seat (spectators get the public one)."""
    game = viewer.game
    if game.state is None:
        return None
    return store.engine_of(game).view(game.state, viewer.seat)


def forced_move_due(viewer: Viewer, moves: list[dict]) -> datetime | None:
    """Return when the viewer's only legal move (``moves``) is to be played for them, if they asked for that and the
    moment is drawn (``services.forced_moves``); only then is its row read."""
    seat = next((seat for seat in viewer.game.seats.all() if seat.index == viewer.seat), None)
    if len(moves) != 1 or seat is None or not plays_forced_moves(seat.user):
        return None
    return (ForcedMoveDue.objects.filter(game_id=viewer.game.pk, seq=viewer.game.seq)
            .values_list("due_at", flat=True).first())


def legal_moves_for(viewer: Viewer) -> list[dict]:
    """Return ``[{move, text}]`` for the viewer now (empty for spectators and when not their turn)."""
    game = viewer.game
    if game.status != GameStatus.ACTIVE or viewer.seat is None or viewer.seat not in game.to_move:
        return []
    engine = store.engine_of(game)
    return [
        {"move": move, "text": engine.describe_move(game.state, move)}
        for move in engine.legal_moves(game.state, viewer.seat)
    ]


def visible_history(viewer: Viewer, *, since: int = 0) -> list[dict]:
    """Return the events after seq ``since`` that the viewer may see, each with its text, oldest first."""
    return _entries(viewer, store.events_since(viewer.game, since))


def history_moves(viewer: Viewer, *, since: int = 0):
    """Return the moves after seq ``since`` as a query for a page of them (``history_of_moves`` words them)."""
    return store.moves_after(viewer.game, since)


def history_of_moves(viewer: Viewer, rows: list[dict]) -> list[dict]:
    """Return the events of a page of ``history_moves`` that the viewer may see, each with its text, in the page's order."""
    return _entries(viewer, store.events_of_rows(rows))


def _entries(viewer: Viewer, logged_events) -> list[dict]:
    game = viewer.game
    engine = store.engine_of(game)
    names = list(game.player_names)
    entries, noted = [], set()
    for logged in logged_events:
        if not logged.event.visible_for(viewer.seat):
            continue
        entry = history_entry(engine, logged.seq, logged.seat, logged.event, names, viewer.seat)
        if logged.source == MoveSource.AUTO and logged.seq not in noted and _reads_forced_note(game, logged.seat,
                                                                                              viewer.seat):
            noted.add(logged.seq)  # on the move's first line the viewer reads
            entry["text"] = gettext("%(line)s (played automatically: the only legal move)") % {"line": entry["text"]}
        entries.append(entry)
    return entries


def _reads_forced_note(game: Game, seat: int, viewer_seat: int | None) -> bool:
    """Tell whether the viewer reads that a move of ``seat`` was played for it as its only legal move.

    The seat itself does. Nobody else while the game goes on: that a move was the only one can tell what
    only the seat knows (in Love Letter, a Countess played because the hand held a King or a Prince), so to
    them it reads as any move. Once the game is over everything is revealed (the seed, every hand), and
    everyone reads it.
    """
    over = game.status == GameStatus.FINISHED or (game.status == GameStatus.ABORTED and game.started_at is not None)
    return viewer_seat == seat or (over and not game.held)


@dataclass(frozen=True)
class HistoryPage:
    """Entries of a run of moves, newest first, and the seq to ask for older ones with (None: none older)."""

    entries: list[dict]
    older_than: int | None


def history_page(viewer: Viewer, *, before: int | None = None) -> HistoryPage:
    """Return what the viewer may see of the ``HISTORY_PAGE_MOVES`` moves before seq ``before`` (default: the latest)."""
    game = viewer.game
    before = game.seq + 1 if before is None else max(1, min(before, game.seq + 1))
    first = max(1, before - HISTORY_PAGE_MOVES)
    logged = store.events_between(game, after_seq=first - 1, before_seq=before)
    return HistoryPage(entries=list(reversed(_entries(viewer, logged))), older_than=first if first > 1 else None)


def history_after(viewer: Viewer, seen: int) -> list[dict] | None:
    """Return the entries after seq ``seen``, newest first; None when more than a page of moves came since."""
    game = viewer.game
    if not 0 <= seen <= game.seq or game.seq - seen > HISTORY_PAGE_MOVES:
        return None
    logged = store.events_between(game, after_seq=seen, before_seq=game.seq + 1) if seen < game.seq else []
    return list(reversed(_entries(viewer, logged)))


def history_entry(engine, seq: int, seat: int, event: Event, names: list[str], viewer_seat: int | None) -> dict:
    """Return one event of move ``seq`` as the viewer at ``viewer_seat`` reads it (the history, the event stream)."""
    return {
        "seq": seq,
        "seat": seat,
        "kind": event.kind,
        "data": event.data,
        "private": event.visible_to is not None,
        "text": describe(engine, event, names, viewer_seat),
    }


def seat_summaries(game: Game) -> list[dict]:
    """Return the API's seats: each player's account (and whether it is a bot account), or the bot playing it."""
    return [
        {
            "index": seat.index,
            "username": seat.user.get_username() if seat.user_id else None,
            "bot_account": is_bot_account(seat.user) if seat.user_id else False,
            "name": seat.display_name,
            "bot": seat.bot or None,
        }
        for seat in game.seats.all()
    ]


def seat_of(game: Game, user: AbstractBaseUser | AnonymousUser) -> int | None:
    """Return the user's seat at the game (its seats prefetched), or None."""
    return next((s.index for s in game.seats.all() if user.is_authenticated and s.user_id == user.pk), None)


def last_move_lines(games: list[Game], user: AbstractBaseUser | AnonymousUser) -> dict[int, str]:
    """Return each game's latest move as one line worded for the user's seat (a spectator's if none).

    The line is the engine's description of the first event of that move the
    seat may see, never the stored notation: a move's text can hold what only
    its player knows (the cards a Chancellor puts back, say).
    """
    latest = store.latest_moves([game.pk for game in games])
    lines = {}
    for game in games:
        logged = latest.get(game.pk)
        if logged is None:
            continue
        seat = seat_of(game, user)
        visible = [event for event in logged.events if event.visible_for(seat)]
        if visible:
            try:
                engine = store.engine_of(game)
            except EngineUnavailable:  # its own page says why; the lobby still lists the user's other games
                continue
            lines[game.pk] = describe(engine, visible[0], list(game.player_names), seat)
    return lines


# The lobby shows the user's games this many at a time, the most urgent first.
LOBBY_PAGE_GAMES = 20


@dataclass(frozen=True)
class LobbyPage:
    """One page of the user's games, with what the lobby says of all of them."""

    rows: list[dict]
    number: int  # from 1
    has_next: bool
    game_ids: list[int]  # every game of the user, in lobby order
    my_turn_count: int  # games in play waiting for the user, on every page


def lobby_order(user: AbstractBaseUser) -> list[dict]:
    """Return every game of the user as the few columns the lobby sorts by, the most urgent first.

    My turn first, soonest deadline first, then in play, open, ended, aborted, the games that have
    waited longest (mine) or moved latest (others') first. Two statements whatever the number of
    games, reading no position and no seat but the user's own.
    """
    mine = list(
        Seat.objects.filter(user=user).values_list(
            "game_id", "index", "game__status", "game__to_move", "game__last_move_at", "game__created_at")
    )
    entries = [
        {"id": game_id, "status": status, "last_at": last_move_at or created_at,
         "my_turn": status == GameStatus.ACTIVE and seat in (to_move or [])}
        for game_id, seat, status, to_move, last_move_at, created_at in mine
    ]
    # The user's deadlines in every game in play, asked even when nothing waits for them: the lobby
    # costs the same statements whoever is to move.
    deadlines = dict(
        SeatClock.objects.filter(game__status=GameStatus.ACTIVE, deadline__isnull=False,
                                 game__seats__user=user, seat=F("game__seats__index"))
        .values_list("game_id", "deadline")
    )
    order = {GameStatus.ACTIVE: 1, GameStatus.OPEN: 2, GameStatus.FINISHED: 3, GameStatus.ABORTED: 4}
    far = datetime.max.replace(tzinfo=dt_timezone.utc)
    for entry in entries:
        entry["deadline"] = deadlines.get(entry["id"]) if entry["my_turn"] else None
    entries.sort(key=lambda entry: (
        not entry["my_turn"],
        entry["deadline"] or far,
        order[entry["status"]],
        entry["last_at"].timestamp() * (1 if entry["my_turn"] else -1),
        entry["id"],
    ))
    return entries


def lobby_page(user: AbstractBaseUser, number: int = 1) -> LobbyPage:
    """Return page ``number`` of the user's games (see ``lobby_order``) with whose turn it is and the last move.

    A page past the last shows the last. The statements are the same for 5 games and for 500: the
    order is read from narrow rows, and only the page's games are read whole.
    """
    entries = lobby_order(user)
    pages = max(1, -(-len(entries) // LOBBY_PAGE_GAMES))
    number = min(max(1, number), pages)
    shown = entries[(number - 1) * LOBBY_PAGE_GAMES:number * LOBBY_PAGE_GAMES]
    by_id = {game.pk: game for game in _with_seats(Game.objects.filter(pk__in=[entry["id"] for entry in shown]))}
    games = [by_id[entry["id"]] for entry in shown if entry["id"] in by_id]
    last_moves = last_move_lines(games, user)
    rows = []
    for entry, game in zip((entry for entry in shown if entry["id"] in by_id), games):
        seats = list(game.seats.all())
        names = {s.index: s.display_name for s in seats}
        labels = [seat_label(s) for s in sorted(seats, key=lambda s: s.index)]
        rows.append({
            "game": game,
            # Bots by their kind ("Basic bot"), as the archive and the end screen name them; the labels also say
            # which players are bot accounts.
            "players": [label.name for label in labels],
            "labels": labels,
            "my_turn": entry["my_turn"],
            "to_move": [names[i] if i in names else gettext("seat %(number)s") % {"number": i + 1}
                        for i in game.to_move] if game.status == GameStatus.ACTIVE else [],
            "last_move": last_moves.get(game.pk),
            "free_seats": game.seat_count - len(seats) if game.status == GameStatus.OPEN else 0,
            "deadline": entry["deadline"],
            # Who won and how, in the reader's language (from the stored result: no query).
            "result": game.result_line if game.status == GameStatus.FINISHED else "",
        })
    return LobbyPage(rows=rows, number=number, has_next=number < pages, game_ids=[entry["id"] for entry in entries],
                     my_turn_count=sum(1 for entry in entries if entry["my_turn"]))


def lobby_rows(user: AbstractBaseUser) -> list[dict]:
    """Return the first page of the user's games (see ``lobby_page``)."""
    return lobby_page(user).rows


def games_waiting(user: AbstractBaseUser) -> QuerySet[Game]:
    """Return the games in play where the user is to move, as a query, each with ``waiting_since``: when the
    game began waiting for them (its latest move, or its start)."""
    # One filter() call, so the seat the user sits in is the seat whose index is among those to move.
    return (
        Game.objects.filter(status=GameStatus.ACTIVE, seats__user=user,
                            to_move__contains=Func(F("seats__index"), function="to_jsonb", output_field=JSONField()))
        .annotate(waiting_since=Coalesce("last_move_at", "started_at"))
        .select_related("clock").defer("state")
    )


def turn_rows(user: AbstractBaseUser, games: list[Game]) -> list[dict]:
    """Return, for games waiting for the user (read from ``games_waiting``), in their order: each with the user's
    seat, the moment it began waiting, their deadline if the table has a clock, and the latest move as they may
    see it. A fixed number of statements whatever the number of games.
    """
    games = with_seats(games)
    last_moves = last_move_lines(games, user)
    deadlines = dict(
        SeatClock.objects.filter(game__in=games, deadline__isnull=False, game__seats__user=user,
                                 seat=F("game__seats__index"))
        .values_list("game_id", "deadline")
    ) if games else {}
    return [
        {"game": game, "seat": seat_of(game, user), "waiting_since": game.waiting_since,
         "deadline": deadlines.get(game.pk), "last_move": last_moves.get(game.pk)}
        for game in games
    ]


def bot_turns_waiting(*, since_before: datetime | None = None) -> list[tuple[int, int, datetime]]:
    """Return (game, seq, waiting since) of each game in play whose position waits on a bot seat, in one query
    (those waiting since before ``since_before``, if given): the bot turns whose task may have been lost."""
    games = (
        Game.objects.filter(status=GameStatus.ACTIVE, seats__bot__gt="",
                            to_move__contains=Func(F("seats__index"), function="to_jsonb", output_field=JSONField()))
        .annotate(waiting_since=Coalesce("last_move_at", "started_at"))
    )
    if since_before is not None:
        games = games.filter(waiting_since__lt=since_before)
    return list(games.order_by("pk").distinct().values_list("pk", "seq", "waiting_since"))
