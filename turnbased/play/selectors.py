"""Reads: which games a user sees, and each viewer's projection of a game.

Everything shown to a person goes through ``private_view``, ``visible_history``
and ``legal_moves_for``, which ask the engine for that seat's projection only.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from datetime import timezone as dt_timezone

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Count, F, Prefetch, QuerySet

from games.base import Event
from turnbased.clocks.models import SeatClock
from turnbased.play import store
from turnbased.play.errors import GameNotFound
from turnbased.play.models import Game, GameStatus, Seat, Visibility


def _with_seats(games: QuerySet[Game]) -> QuerySet[Game]:
    return games.prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user").order_by("index")))


def games_of(user: AbstractBaseUser) -> QuerySet[Game]:
    """Return the user's games: in play first, then open, then ended, most recent activity first."""
    return _with_seats(Game.objects.filter(seats__user=user)).order_by("-last_move_at", "-created_at")


def open_games(user: AbstractBaseUser | AnonymousUser) -> QuerySet[Game]:
    """Return public tables still taking players that the user is not already seated at."""
    games = Game.objects.filter(status=GameStatus.OPEN, visibility=Visibility.PUBLIC)
    if user.is_authenticated:
        games = games.exclude(seats__user=user)
    games = games.annotate(seated=Count("seats")).filter(seated__lt=F("seat_count"))
    return _with_seats(games).order_by("-created_at")


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
    game = _with_seats(Game.objects.filter(pk=game_id)).first()
    if game is None:
        raise GameNotFound()
    seat = seat_of(game, user)
    is_creator = user.is_authenticated and game.created_by_id == user.pk
    if seat is None and game.visibility == Visibility.PRIVATE and not is_creator:
        if not (invite_code and invite_code == game.invite_code and game.status == GameStatus.OPEN):
            raise GameNotFound()
    return Viewer(game=game, seat=seat)


def private_view(viewer: Viewer) -> dict | None:
    """Return the engine's projection for the viewer's seat (spectators get the public one)."""
    game = viewer.game
    if game.state is None:
        return None
    return store.engine_of(game).view(game.state, viewer.seat)


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
    """Return the events after seq ``since`` that the viewer may see, each with its text."""
    game = viewer.game
    engine = store.engine_of(game)
    names = list(game.player_names)
    entries = []
    for logged in store.events_since(game, since):
        if not logged.event.visible_for(viewer.seat):
            continue
        entries.append(_history_entry(engine, logged.seq, logged.seat, logged.event, names, viewer.seat))
    return entries


def _history_entry(engine, seq: int, seat: int, event: Event, names: list[str], viewer_seat: int | None) -> dict:
    return {
        "seq": seq,
        "seat": seat,
        "kind": event.kind,
        "data": event.data,
        "private": event.visible_to is not None,
        "text": engine.describe_event(event, names, viewer_seat),
    }


def seat_summaries(game: Game) -> list[dict]:
    return [
        {
            "index": seat.index,
            "username": seat.user.get_username() if seat.user_id else None,
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
            lines[game.pk] = store.engine_of(game).describe_event(visible[0], list(game.player_names), seat)
    return lines


def lobby_rows(user: AbstractBaseUser) -> list[dict]:
    """Return the user's games with whose turn it is and the last move, games waiting for them first."""
    rows = []
    games = list(games_of(user))
    last_moves = last_move_lines(games, user)
    for game in games:
        seats = list(game.seats.all())
        my_seat = seat_of(game, user)
        names = {s.index: s.display_name for s in seats}
        rows.append({
            "game": game,
            "players": [names[i] for i in sorted(names)],
            "my_turn": game.status == GameStatus.ACTIVE and my_seat in game.to_move,
            "to_move": [names.get(i, f"seat {i}") for i in game.to_move] if game.status == GameStatus.ACTIVE else [],
            "last_move": last_moves.get(game.pk),
            "free_seats": game.seat_count - len(seats) if game.status == GameStatus.OPEN else 0,
        })
    deadlines = dict(
        SeatClock.objects.filter(game__in=[row["game"] for row in rows if row["my_turn"]], deadline__isnull=False,
                                 game__seats__user=user, seat=F("game__seats__index"))
        .values_list("game_id", "deadline")
    )
    for row in rows:
        row["deadline"] = deadlines.get(row["game"].pk) if row["my_turn"] else None
    order = {GameStatus.ACTIVE: 1, GameStatus.OPEN: 2, GameStatus.FINISHED: 3, GameStatus.ABORTED: 4}
    far = datetime.max.replace(tzinfo=dt_timezone.utc)
    # Urgency: my turn first, soonest deadline first, then the games that have waited longest.
    rows.sort(key=lambda row: (
        not row["my_turn"],
        row["deadline"] or far,
        order[row["game"].status],
        (row["game"].last_move_at or row["game"].created_at).timestamp() * (1 if row["my_turn"] else -1),
    ))
    return rows

