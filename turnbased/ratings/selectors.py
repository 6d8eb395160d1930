"""Reads for the leaderboards, the player pages and the finished-games archive.

Whatever a viewer reads here counts only the games that viewer may see: public
games, and private ones they sit at or created (``visible_games``). Ratings
count public games only (``rules.unrated_reason``), so they are the same for
everyone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.paginator import Page, Paginator
from django.db.models import BooleanField, Case, Exists, F, OuterRef, Prefetch, Q, QuerySet, Value, When
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext, pgettext

from games import engines, get_engine
from games.base import ALL_LOSE, RESIGN
from turnbased.clocks.models import ClockKind
from turnbased.play.models import Game, GameStatus, Move, MoveSource, Seat, SeatChange, Visibility
from turnbased.play.seat_labels import SeatLabel, seat_label
from turnbased.ratings.models import Rating, RatingChange, RatingPool
from turnbased.ratings.rules import places

LEADERBOARD_PAGE_SIZE = 50
ARCHIVE_PAGE_SIZE = 20
# A person's own moves: those they send, and their only legal move played for them at their request (``auto``),
# which nobody may tell apart (``play.services.forced_moves``); a timeout is a move a bot made for them when their
# time ran out.
PERSON_SOURCES = (MoveSource.WEB, MoveSource.API, MoveSource.EMAIL, MoveSource.AUTO)

Viewer = AbstractBaseUser | AnonymousUser


class NoSuchPlayer(Exception):
    """No account has that username (bots have no page)."""



def player_named(username: str) -> AbstractBaseUser:
    """Return the active account called ``username`` (with its profile: whether it is a bot account); raise
    ``NoSuchPlayer``."""
    if not is_username(username):
        raise NoSuchPlayer(username)
    player = get_user_model().objects.filter(username=username, is_active=True).select_related("profile").first()
    if player is None:
        raise NoSuchPlayer(username)
    return player


def visible_games(viewer: Viewer) -> Q:
    """Return the condition on games that ``viewer`` may see: public, or private and theirs."""
    public = Q(visibility=Visibility.PUBLIC, held=False)
    if not viewer.is_authenticated:
        return public
    seated = Exists(Seat.objects.filter(game=OuterRef("pk"), user=viewer))
    return public | Q(created_by=viewer, held=False) | Q(seated)


# -- leaderboards ---------------------------------------------------------------------------------


def leaderboard(game_slug: str, players: int, pool: str = RatingPool.PEOPLE) -> QuerySet[Rating]:
    """Return the ratings at one game, player count and pool that are no longer provisional (``rules.provisional``),
    best first (displayed rating, then games, then name).

    Each with its player and their profile (whether they are a bot account), in the same query. A provisional
    rating stays off, as on lichess: a few games say little (issue 42: three games against fresh accounts put
    one first with "1402?").
    """
    return (
        Rating.objects.filter(game_slug=game_slug, players=players, pool=pool,
                              games__gte=settings.RATINGS_PROVISIONAL_GAMES)
        .select_related("user", "user__profile")
        .annotate(ordinal=F("mu") - 3 * F("sigma"))
        .order_by("-ordinal", "-games", "user__username")
    )


def leaderboard_page(game_slug: str, players: int, number: int | str | None, pool: str = RatingPool.PEOPLE) -> Page:
    """Return one page of a leaderboard; each rating gets its ``place`` (raises ``django.core.paginator`` errors)."""
    page = Paginator(leaderboard(game_slug, players, pool), LEADERBOARD_PAGE_SIZE).page(1 if number is None else number)
    for offset, rating in enumerate(page.object_list, start=page.start_index()):
        rating.place = offset
    return page


def place_of(rating: Rating) -> int:
    """Return the place of a rating read from ``leaderboard`` on its leaderboard: 1 plus the ratings ahead of it."""
    ahead = (
        Q(ordinal__gt=rating.ordinal)
        | Q(ordinal=rating.ordinal, games__gt=rating.games)
        | Q(ordinal=rating.ordinal, games=rating.games, user__username__lt=rating.user.get_username())
    )
    return 1 + leaderboard(rating.game_slug, rating.players, rating.pool).filter(ahead).count()


def player_counts(game_slug: str) -> list[int]:
    """Return the player counts a game can be played with (one leaderboard each)."""
    engine = get_engine(game_slug)
    return list(range(engine.min_players, engine.max_players + 1))


def ratings_of(player: AbstractBaseUser) -> list[Rating]:
    """Return the player's ratings, by game name, then player count, then pool (people first)."""
    names = {slug: engine.display_name() for slug, engine in engines().items()}
    ratings = [rating for rating in Rating.objects.filter(user=player) if rating.game_slug in names]
    for rating in ratings:
        rating.game_name = names[rating.game_slug]
    pools = list(RatingPool.values)
    return sorted(ratings, key=lambda rating: (rating.game_name, rating.players, pools.index(rating.pool)))


# -- a player's page ------------------------------------------------------------------------------


@dataclass(frozen=True)
class GameRecord:
    """How many finished games of one kind the player played and won."""

    game_slug: str
    name: str
    played: int
    won: int


@dataclass(frozen=True)
class Reliability:
    """Moves the player made in games with a clock, and the turns a bot played because their time ran out."""

    moves_on_time: int
    timeouts: int

    @property
    def percent(self) -> int | None:
        total = self.moves_on_time + self.timeouts
        return None if total == 0 else (100 * self.moves_on_time) // total


def game_records(player: AbstractBaseUser, viewer: Viewer) -> list[GameRecord]:
    """Return the player's finished games per kind, played and won, counting only games ``viewer`` may see."""
    rows = (
        Seat.objects.filter(user=player, game__status=GameStatus.FINISHED)
        .filter(game__in=Game.objects.filter(visible_games(viewer)))
        .values_list("game__engine", "index", "game__result__winners")
    )
    counts: dict[str, list[int]] = {}
    for slug, index, winners in rows:
        played_won = counts.setdefault(slug, [0, 0])
        played_won[0] += 1
        played_won[1] += index in (winners or [])
    offered = engines()
    return sorted(
        (GameRecord(slug, offered[slug].display_name() if slug in offered else slug, played, won)
         for slug, (played, won) in counts.items()),
        key=lambda record: record.name,
    )


def reliability(player: AbstractBaseUser, viewer: Viewer) -> Reliability:
    """Return the player's moves on time and timeouts in clocked games that ``viewer`` may see (like BGA's karma).

    A move on time is one of the player's own (web, API or email, or their only legal move played for them at
    their request, which nobody may tell from one they sent; resigning is not a move); a timeout is a turn of
    their seat that a bot played because their deadline passed.
    """
    clocked = (
        Game.objects.filter(visible_games(viewer))
        .filter(clock__kind__in=[ClockKind.PER_MOVE, ClockKind.BANK])
    )
    on_time = (
        Move.objects.filter(user=player, source__in=PERSON_SOURCES, game__in=clocked).exclude(move=RESIGN).count()
    )
    # One filter() call: the seat joined is the one that made the move and is the player's.
    timeouts = Move.objects.filter(
        source=MoveSource.TIMEOUT, game__in=clocked, game__seats__user=player, game__seats__index=F("seat")
    ).count()
    return Reliability(moves_on_time=on_time, timeouts=timeouts)


def days_since_active(player: AbstractBaseUser, viewer: Viewer) -> int | None:
    """Return the whole days since the player's latest own move in a game ``viewer`` may see (None: no such move).

    Only what the moves themselves show anyone who may see those games, and in days: no visit, sign-in or private
    table tells anything here (a player's page says "active today", never the hour).
    """
    latest = (Move.objects.filter(user=player, source__in=PERSON_SOURCES,
                                  game__in=Game.objects.filter(visible_games(viewer)))
              .order_by("-created_at").values_list("created_at", flat=True).first())
    return None if latest is None else max(0, (timezone.now() - latest).days)


# How many of a player's latest finished games with a clock the per-game figure looks at (issue 44, fair entry).
RECENT_CLOCKED_GAMES = 10


@dataclass(frozen=True)
class Abandonment:
    """Of the player's latest finished games with a clock (at most ``RECENT_CLOCKED_GAMES``), how many they left to
    a bot: their seat handed on after too many timeouts, or at the first one where the table removes late players.

    A player with no such game is new (``is_new``): a gate reads them as neither reliable nor unreliable."""

    games: int
    abandoned: int

    @property
    def is_new(self) -> bool:
        return self.games == 0


def abandonment(player: AbstractBaseUser, viewer: Viewer | None = None) -> Abandonment:
    """Return the per-game figure (``Abandonment``) over the finished clocked games ``viewer`` may see (every one,
    for None: what a gate reads of the player). One statement."""
    clocked = {"game__status": GameStatus.FINISHED, "game__clock__kind__in": [ClockKind.PER_MOVE, ClockKind.BANK]}
    seats = Seat.objects.filter(user=player, **clocked)
    # A seat a bot took over from the player that a person then took (``SeatChange``): left to a bot all the same.
    taken = SeatChange.objects.filter(left_by=player, reason=SeatChange.Reason.TAKEN, **clocked)
    if viewer is not None:
        seen = Game.objects.filter(visible_games(viewer))
        seats, taken = seats.filter(game__in=seen), taken.filter(game__in=seen)
    # A person's seat that a bot plays was handed on (a resignation leaves the seat to no one: it is not counted).
    mine = seats.annotate(ended=F("game__finished_at"), gone=Case(When(bot="", then=Value(False)), default=Value(True),
                                                                  output_field=BooleanField()))
    replaced = taken.annotate(ended=F("game__finished_at"), gone=Value(True, output_field=BooleanField()))
    rows = (mine.values_list("ended", "game_id", "gone").union(replaced.values_list("ended", "game_id", "gone"))
            .order_by("-ended", "-game_id"))
    latest = [gone for _, _, gone in rows[:RECENT_CLOCKED_GAMES]]
    return Abandonment(games=len(latest), abandoned=sum(1 for gone in latest if gone))


# -- the archive ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class ArchivedGame:
    """One finished game in a player's archive, as the viewer may see it."""

    game: Game
    name: str
    finished_at: datetime | None
    seats: list[SeatLabel]
    place: int
    won: bool
    draw: bool
    summary: str
    rating_change: RatingChange | None

    @property
    def outcome(self) -> str:
        """Return how the game went for the player, in the active language: a draw, a win, or their place."""
        if self.draw:
            return pgettext("how a game went for a player", "Draw")
        if self.won:
            return pgettext("how a game went for a player", "Won")
        # Translators: a player's place among the players of a game: "2nd of 4" (Hungarian "4 közül 2.").
        return gettext("%(place)s of %(count)s") % {"place": ordinal(self.place), "count": len(self.seats)}


def ordinal(number: int) -> str:
    """Return ``number`` as an ordinal in the active language: English 1st, 2nd, 3rd, 11th; Hungarian and
    German 1., 2., 3. (each language words the four English endings as it writes its ordinals)."""
    if 10 <= number % 100 <= 20:
        form = pgettext("an ordinal number ending in th: 4th, 11th, 12th", "%(number)sth")
    elif number % 10 == 1:
        form = pgettext("an ordinal number ending in st: 1st, 21st", "%(number)sst")
    elif number % 10 == 2:
        form = pgettext("an ordinal number ending in nd: 2nd, 22nd", "%(number)snd")
    elif number % 10 == 3:
        form = pgettext("an ordinal number ending in rd: 3rd, 23rd", "%(number)srd")
    else:
        form = pgettext("an ordinal number ending in th: 4th, 11th, 12th", "%(number)sth")
    return form % {"number": number}


def archive(player: AbstractBaseUser, viewer: Viewer, *, game_slug: str | None = None,
            opponent: str | None = None) -> QuerySet[Game]:
    """Return the player's finished games that ``viewer`` may see, newest first, filtered by game and opponent."""
    games = Game.objects.filter(status=GameStatus.FINISHED, seats__user=player).filter(visible_games(viewer))
    if game_slug:
        games = games.filter(engine=game_slug)
    if opponent and not is_username(opponent):
        return games.none()
    if opponent:
        games = games.filter(Exists(Seat.objects.filter(game=OuterRef("pk"), user__username=opponent)
                                    .exclude(user=player)))
    seats = Seat.objects.select_related("user", "user__profile").order_by("index")
    return games.prefetch_related(Prefetch("seats", queryset=seats)).order_by("-finished_at", "-pk")


def archive_page(player: AbstractBaseUser, viewer: Viewer, number: int | str | None, **filters) -> Page:
    """Return one page of the archive as ``ArchivedGame`` rows (raises ``django.core.paginator`` errors)."""
    page = Paginator(archive(player, viewer, **filters), ARCHIVE_PAGE_SIZE).page(1 if number is None else number)
    page.object_list = archived_games(player, list(page.object_list))
    return page


def archive_by_end(player: AbstractBaseUser, viewer: Viewer, **filters) -> QuerySet[Game]:
    """Return ``archive`` with ``ended``, when each game ended (when it was created, for a game imported without
    its end): a moment every game has, for a list walked by it."""
    return archive(player, viewer, **filters).annotate(ended=Coalesce("finished_at", "created_at"))


def resigned_last(game: Game) -> int | None:
    """Return the seat whose resignation ended the game, or None when the game ended by its own rules.

    Only whether the last entry of the log is the platform's resignation is read, never a move's content.
    """
    entry = Move.objects.filter(game=game, seq=game.seq).values_list("seat", "move").first()
    return entry[0] if entry is not None and entry[1] == RESIGN else None


def final_places(game: Game, *, resigned: int | None | bool = False, also_left=()) -> list[int]:
    """Return each seat's place at the finished game (1 is best; ``rules.places``), the seats that left below the
    ones that stayed: the seats its result lists as gone before the last move, and a resignation that ended it.

    Read in the transaction that ends the game too (``resigned``: the resigning seat when the caller knows it; the
    log's last entry is read otherwise). ``also_left``: seats rated as their first player's, who left them (a seat
    that changed hands: ``services.rated_seats``).
    """
    if resigned is False:
        resigned = resigned_last(game)
    left = {*game.result.get("left_seats", []), *([] if resigned is None else [resigned])}
    if not also_left:
        return places(game.result, game.seat_count, left)
    # What a seat won after its first player left is nobody's: the others are placed as if it had not won, and the
    # seat's first player shares the last place, below everyone else.
    gone = set(also_left)
    result = {**game.result, "winners": [seat for seat in game.result.get("winners") or [] if seat not in gone],
              "ranking": [seat for seat in game.result.get("ranking") or [] if seat not in gone]}
    placed = places(result, game.seat_count, left | gone)
    return [game.seat_count - len(gone) + 1 if seat in gone else place for seat, place in enumerate(placed)]


def archived_games(player: AbstractBaseUser, games: list[Game]) -> list[ArchivedGame]:
    """Return games of the player's archive (read with their seats) as ``ArchivedGame`` rows, in their order."""
    changes = {
        change.game_id: change
        for change in RatingChange.objects.filter(user=player, game__in=[game.pk for game in games])
    }
    return [_archived(game, player, changes.get(game.pk)) for game in games]


def _archived(game: Game, player: AbstractBaseUser, change: RatingChange | None) -> ArchivedGame:
    seats = list(game.seats.all())
    mine = next(seat.index for seat in seats if seat.user_id == player.pk)
    result = game.result or {}
    # Who left (resigned, or handed to a bot), as the seats record it once the game is over.
    left = [seat.index for seat in seats if seat.left_at is not None]
    placed = places(result, len(seats), left) if result else [1] * len(seats)
    offered = engines()
    # Nobody won yet it was no draw: a game stopped with every seat losing (``games.base.ALL_LOSE``).
    draw = bool(result.get("draw")) or (not result.get("winners") and result.get("decided") != ALL_LOSE)
    return ArchivedGame(
        game=game,
        name=offered[game.engine].display_name() if game.engine in offered else game.engine,
        finished_at=game.finished_at,
        seats=[seat_label(seat) for seat in seats],
        place=placed[mine],
        won=mine in (result.get("winners") or []),
        draw=draw,
        summary=game.result_line,
        rating_change=change,
    )


def rating_changes_of(game: Game) -> list[RatingChange]:
    """Return what the finished game did to its players' ratings, in seat order, each with its rating (its pool):
    one query; none for a game that did not count (``rules.unrated_reason``)."""
    return list(RatingChange.objects.filter(game=game).select_related("rating").order_by("seat"))


def opponents(player: AbstractBaseUser, viewer: Viewer) -> list[str]:
    """Return the usernames of the people the player met in finished games ``viewer`` may see, by name."""
    games = Game.objects.filter(status=GameStatus.FINISHED, seats__user=player).filter(visible_games(viewer))
    return list(
        get_user_model().objects.filter(seats__game__in=games).exclude(pk=player.pk)
        .order_by("username").values_list("username", flat=True).distinct()
    )


def leaderboard_games() -> list[dict]:
    """Return each game offered with the player count its leaderboard opens at."""
    return [
        {"slug": slug, "name": engine.display_name(), "players": engine.default_players} for slug, engine in engines().items()
    ]


USERNAME = re.compile(r"[\w.@+-]{1,150}")  # Django's username characters


def is_username(text: str) -> bool:
    """Tell whether ``text`` could be a username (checked before it reaches a query: no NUL, no huge strings)."""
    return bool(USERNAME.fullmatch(text))


def table_is_rated(game: Game) -> bool:
    """Whether the table counts for ratings as it was made: public, not made unrated, every seat a person's. How it
    ends may still leave it unrated (``services.game_unrated_reason``); the seats come with the game."""
    seats = list(game.seats.all())
    return (game.visibility != Visibility.PRIVATE and game.terms.get("rated") is not False and len(seats) >= 2
            and all(seat.user_id is not None for seat in seats))
