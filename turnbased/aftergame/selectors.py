"""Reads for the end of a game: how it ended, where the points came from, and its rematch.

Everything here describes a finished game as every viewer may see it: the result, the seats and
the engine's ``score_breakdown`` hold nothing hidden once the game is over, so no read takes a seat.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Count, Q
from django.utils.text import get_text_list
from django.utils.translation import gettext, ngettext, pgettext

from games.base import ADJUDICATED, AGREED_DRAW, ALL_LOSE, RESIGN
from turnbased.accounts.models import is_bot_account
from turnbased.aftergame.models import Rematch
from turnbased.play import store
from turnbased.play.models import Game, GameStatus, Move
from turnbased.play.seat_labels import SeatLabel, seat_label
from turnbased.ratings.models import RatingPool
from turnbased.ratings.selectors import rating_changes_of

RESIGNATION = "resignation"
TIMEOUT = "timeout"
PLAYED_OUT = "played_out"
# A deadline came before the end (a competition's round) and the bots played every player's seat out
# (``play.services.game_play_out``): handed over, not left.
BOTS_AT_DEADLINE = "bots_at_deadline"


@dataclass(frozen=True)
class Ending:
    """How a finished game ended: played out, by a resignation (the move that ended it), on time, or stopped before
    its end and decided (``games.base.DECIDED``: adjudicated on the count so far, or every player losing).

    ``seats`` are who resigned (the one whose resignation ended it) or who ran out of time (a bot
    took their seat and played it out); empty when the game was played out.
    """

    how: str
    seats: list[int]
    names: list[str]

    @property
    def heading(self) -> str:
        """Return the end screen's title, in the active language."""
        if self.how == RESIGNATION:
            return gettext("Game over by resignation")
        if self.how == TIMEOUT:
            return gettext("Game over on time")
        if self.how == ADJUDICATED:
            return gettext("Game adjudicated")
        if self.how == ALL_LOSE:
            return gettext("Game stopped")
        if self.how == AGREED_DRAW:
            return gettext("Drawn by agreement")
        if self.how == BOTS_AT_DEADLINE:
            return gettext("Game played out by bots")
        return gettext("Game over")

    @property
    def detail(self) -> str:
        """Return who resigned or ran out of time, as a sentence in the active language."""
        names = get_text_list(self.names, pgettext("the last two names of a list", "and"))
        if self.how == RESIGNATION:
            return gettext("%(names)s resigned.") % {"names": names}
        if self.how == TIMEOUT:
            return ngettext(
                "%(names)s ran out of time and was replaced by a bot, which played the seat out.",
                "%(names)s ran out of time and were replaced by a bot, which played the seat out.",
                len(self.names),
            ) % {"names": names}
        if self.how == ADJUDICATED:
            return gettext("Stopped before its end and decided on the count so far, which every player could see.")
        if self.how == ALL_LOSE:
            return gettext("Stopped before its end: every player lost.")
        if self.how == AGREED_DRAW:
            return gettext("Every player agreed to end the game here as a draw.")
        if self.how == BOTS_AT_DEADLINE:
            return gettext("Its deadline came before its end, and bots played every seat out.")
        return gettext("Played to the end.")


def ending(game: Game) -> Ending | None:
    """Return how the finished game ended (None before it has); its seats loaded, one query for resignations."""
    if game.status != GameStatus.FINISHED:
        return None
    if (game.result or {}).get("decided") in (ADJUDICATED, ALL_LOSE, AGREED_DRAW):
        return Ending(how=game.result["decided"], seats=[], names=[])
    seats = {seat.index: seat for seat in game.seats.all()}
    last_resignation = (
        Move.objects.filter(game=game, move=RESIGN).order_by("-seq").values_list("seq", "seat").first()
    )
    if last_resignation is not None and last_resignation[0] == game.seq:
        seat = last_resignation[1]
        return Ending(how=RESIGNATION, seats=[seat], names=[_name(seats.get(seat), game, seat)])
    if any(seat.user_id and seat.bot and seat.left_at is None for seat in seats.values()):
        return Ending(how=BOTS_AT_DEADLINE, seats=[], names=[])
    timed_out = sorted(index for index, seat in seats.items() if seat.user_id and seat.bot)
    if timed_out:
        return Ending(how=TIMEOUT, seats=timed_out, names=[_name(seats[index], game, index) for index in timed_out])
    return Ending(how=PLAYED_OUT, seats=[], names=[])


def _name(seat, game: Game, index: int) -> str:
    if seat is None:
        if index < len(game.player_names):
            return game.player_names[index]
        return gettext("seat %(number)s") % {"number": index + 1}
    return seat_label(seat).name


@dataclass(frozen=True)
class FinalScore:
    """The score table of a finished game: a column per seat, the engine's rows, the totals."""

    seats: list[SeatLabel]
    rows: list[dict]
    totals: list[int]
    winners: list[int]

    @property
    def counted_rows(self) -> list[dict]:
        return [row for row in self.rows if row["counts"]]

    @property
    def other_rows(self) -> list[dict]:
        return [row for row in self.rows if not row["counts"]]


def final_score(game: Game) -> FinalScore | None:
    """Return the finished game's score table (None before the end); its seats loaded, no query."""
    if game.status != GameStatus.FINISHED or game.state is None or not game.result:
        return None
    rows = store.engine_of(game).score_breakdown(game.state)
    seats = sorted(game.seats.all(), key=lambda seat: seat.index)
    return FinalScore(
        seats=[seat_label(seat) for seat in seats],
        rows=rows,
        totals=list(game.result.get("scores", [])),
        winners=list(game.result.get("winners", [])),
    )


@dataclass(frozen=True)
class RatingMove:
    """What a finished game did to one player's rating, as the end screen shows it."""

    seat: SeatLabel
    before: int
    after: int
    bot_pool: bool  # counted among games with a bot account (``rules.rating_pool``), not among people's

    @property
    def delta(self) -> int:
        return self.after - self.before


def rating_moves(game: Game) -> list[RatingMove]:
    """Return each player's rating before and after the finished game, in seat order (one query; none when the
    game did not count for ratings). Ratings are public, so every viewer reads the same."""
    if game.status != GameStatus.FINISHED:
        return []
    seats = {seat.index: seat for seat in game.seats.all()}
    return [
        RatingMove(seat=seat_label(seats[change.seat]), before=change.before, after=change.after,
                   bot_pool=change.rating.pool == RatingPool.BOTS)
        for change in rating_changes_of(game)
        if change.seat in seats
    ]


@dataclass(frozen=True)
class RematchState:
    """A rematch as one viewer sees it: who is seated, who is awaited, what the viewer may do."""

    rematch: Rematch
    seated: list[str]
    awaited: list[str]
    status: str
    can_accept: bool
    can_decline: bool
    # The names among its proposer, the invited and who declined that are bot accounts (they carry a badge).
    bot_accounts: frozenset[str] = frozenset()

    @property
    def game(self) -> Game:
        return self.rematch.game

    @property
    def version(self) -> str:
        """Return what a page showing this rematch shows changes exactly when this does."""
        return f"{self.rematch.pk}.{self.status}.{len(self.seated)}"


def rematch_state(rematch: Rematch, user: AbstractBaseUser | AnonymousUser) -> RematchState:
    """Return the rematch as ``user`` sees it (two queries: its invites and its table's seats)."""
    invites = list(rematch.invites.select_related("user", "user__profile"))
    seated_ids = {seat.user_id for seat in rematch.game.seats.all() if seat.user_id}
    game = rematch.game
    waiting = game.status == GameStatus.OPEN
    invited = user.is_authenticated and any(invite.user_id == user.pk for invite in invites)
    status = _status(game.status, rematch.declined_at is not None)
    return RematchState(
        rematch=rematch,
        seated=[invite.user.get_username() for invite in invites if invite.user_id in seated_ids],
        awaited=[invite.user.get_username() for invite in invites if invite.user_id not in seated_ids] if waiting
        else [],
        status=status,
        can_accept=waiting and invited and user.pk not in seated_ids,
        can_decline=waiting and invited,
        bot_accounts=frozenset(
            person.get_username()
            for person in [rematch.proposed_by, rematch.declined_by, *(invite.user for invite in invites)]
            if is_bot_account(person)
        ),
    )


def _status(table_status: str, declined: bool) -> str:
    if table_status == GameStatus.ABORTED:
        return "declined" if declined else "aborted"
    return {GameStatus.OPEN: "waiting", GameStatus.ACTIVE: "started", GameStatus.FINISHED: "finished"}[table_status]


def rematch_version(game_id: int) -> str:
    """Return ``RematchState.version`` of finished game ``game_id``'s rematch ("none" without one), in one query.

    For the rematch box's poll, which answers 204 while this is what the box shows. Only the players
    invited can sit at a rematch, so its seated people are the invited ones who accepted.
    """
    seated = Count("game__seats", filter=Q(game__seats__user__isnull=False))
    row = (
        Rematch.objects.filter(original_id=game_id).annotate(seated=seated)
        .values_list("pk", "game__status", "declined_at", "seated").first()
    )
    if row is None:
        return "none"
    pk, table_status, declined_at, count = row
    return f"{pk}.{_status(table_status, declined_at is not None)}.{count}"


def rematch_offered(game: Game) -> bool:
    """Tell whether the table may have a rematch (it was not made without one: the term ``rematch``)."""
    return game.terms.get("rematch") is not False


def rematch_for(game: Game) -> Rematch | None:
    """Return the finished game's rematch, with its table (one query)."""
    return (
        Rematch.objects.filter(original=game)
        .select_related("game", "proposed_by__profile", "declined_by__profile")  # names, with a bot account's badge
        .first()
    )


def rematched_from(game: Game) -> Rematch | None:
    """Return the rematch that created this table, if it is one (no query when ``viewer_of`` read the game)."""
    try:
        return game.rematch_of
    except Rematch.DoesNotExist:
        return None


def after_game_summary(game: Game) -> dict:
    """Return the API's end of a game: how it ended, its score breakdown, and the rematch links."""
    finished = game.status == GameStatus.FINISHED
    how = ending(game) if finished else None
    rematch = rematch_for(game) if finished else None
    came_from = rematched_from(game)
    return {
        "ending": {"how": how.how, "seats": how.seats, "text": f"{how.heading}. {how.detail}"} if how else None,
        "score_breakdown": store.engine_of(game).score_breakdown(game.state) if finished and game.state else None,
        "rematch": rematch.game_id if rematch else None,
        "rematch_of": came_from.original_id if came_from else None,
    }


def offers_for(user: AbstractBaseUser) -> list[Rematch]:
    """Return the rematches still waiting for ``user`` to accept, newest first (one query)."""
    return list(
        Rematch.objects.filter(invites__user=user, game__status=GameStatus.OPEN)
        .exclude(game__seats__user=user)
        .select_related("original", "proposed_by", "proposed_by__profile")
        .order_by("-created_at")
    )
