"""Ratings after a game: updated in the transaction that finishes it, once."""

from __future__ import annotations

import copy

from datetime import timedelta

from allauth.account.models import EmailAddress
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.postgres.aggregates import ArrayAgg
from django.db import connection, transaction
from django.db.models import Count, Exists, OuterRef, Subquery
from django.utils import timezone

from games.base import ADJUDICATED, AGREED_DRAW, ALL_LOSE, RESIGN
from turnbased.accounts.models import is_bot_account
from turnbased.play.models import Game, GameStatus, Move, MoveSource, Seat, SeatChange, Visibility
from turnbased.ratings.models import Rating, RatingChange
from turnbased.ratings.selectors import final_places, resigned_last
from turnbased.ratings.rules import (
    MODEL,
    Player,
    account_reason,
    mailbox,
    most_games_of_a_pair,
    pair_reason,
    provisional,
    rate,
    rating_pool,
    relation_reason,
    unrated_reason,
)

# The first key of the transaction locks a game's ending takes per player (PostgreSQL's two-key advisory locks); the
# second is the user's id. "RATG" in ASCII, so the locks are recognisable in pg_locks.
LOCK_SPACE = 0x52415447


def rated_seats(game: Game) -> tuple[list[Seat], set[int]]:
    """Return the seats as ratings read them, in seat order, and the seats that changed hands. A seat that changed
    hands (``SeatChange``) is its first player's, who left it: they are rated, placed below everyone who stayed (as
    a timeout is); whoever played it after them is not, the game not theirs from its first move. Copies: the game's
    own seats are left as they are for the other features reacting to its end."""
    seats = sorted(game.seats.all(), key=lambda seat: seat.index)
    if not any(game.started_at and seat.joined_at > game.started_at for seat in seats):
        return seats, set()  # nobody took a seat after the start (``play.services.seats``): nothing to read
    first: dict[int, int | None] = {}
    for seat, left_by in SeatChange.objects.filter(game=game).order_by("pk").values_list("seat", "left_by_id"):
        first.setdefault(seat, left_by)
    if not first:
        return seats, set()
    people = get_user_model().objects.select_related("profile").in_bulk([pk for pk in first.values() if pk])
    rated = []
    for seat in seats:
        if seat.index in first:
            seat = copy.copy(seat)
            seat.user_id = first[seat.index]
            seat.user = people.get(seat.user_id)
        rated.append(seat)
    return rated, set(first)


def _table_reason(game: Game) -> str | None:
    """Why the finished game's table or its way of ending leaves it unrated, read from what the game has loaded."""
    seats = list(game.seats.all())
    if game.visibility == Visibility.PRIVATE or any(seat.user_id is None for seat in seats) or len(seats) < 2:
        return unrated_reason(private=game.visibility == Visibility.PRIVATE, bot_seats=True, fewest_own_moves=0,
                              ended_early=False)
    if game.terms.get("rated") is False:
        return "a table made unrated"
    if game.result.get("decided") in (ADJUDICATED, ALL_LOSE):  # stopped before its end: play did not decide it
        return "a game decided before its end"
    return None


def game_unrated_reason(game: Game, resigned_last: int | None, rated: tuple[list[Seat], set[int]] | None = None,
                        ) -> str | None:
    """Return why the finished ``game`` does not count for ratings, from its table and how it ended; None when
    it does (what its players did together is read under their locks: ``ratings_record_game``). ``rated``: the
    seats as ``rated_seats`` reads them (read here when not given)."""
    reason = _table_reason(game)
    if reason is not None:
        return reason
    seats, changed = rated if rated is not None else rated_seats(game)
    if any(seat.user_id is None for seat in seats):  # a seat that changed hands had no person at first
        return unrated_reason(private=False, bot_seats=True, fewest_own_moves=0, ended_early=False)
    # A draw its players agreed counts as a draw, once each of them has made the moves a game ended early needs.
    ended_early = (resigned_last is not None or bool(game.result.get("left_seats")) or any(seat.bot for seat in seats)
                   or game.result.get("decided") == AGREED_DRAW or bool(changed))
    fewest = 0
    if ended_early:
        # Resignations are no moves of one's own: the platform's, not the game's.
        # Nor are takebacks (the platform's entry returning to an earlier position).
        entries = Move.objects.filter(game=game).exclude(move=RESIGN).exclude(source=MoveSource.AGREED)
        made = dict(entries.exclude(seat__in=changed).values_list("seat").annotate(n=Count("id")))
        for seat in seats:  # a seat that changed hands: only its first player's own moves are theirs
            if seat.index in changed:
                made[seat.index] = entries.filter(seat=seat.index, user_id=seat.user_id).count()
        fewest = min(made.get(seat.index, 0) for seat in seats)
    return unrated_reason(private=False, bot_seats=False, fewest_own_moves=fewest, ended_early=ended_early)


def _players_of(game: Game, seats: list[Seat]) -> list[Player]:
    """Return what the rules read of the accounts at ``game`` (its ``seats`` as rated, in seat order), in one query.

    The seats come with their players and profiles (``store.locked``, ``rated_seats``); the query adds whether each
    primary address is confirmed and, when a minimum is set, whether they finished that many games before this one
    (the one past it found or not, so an account's long history costs no more to read).
    """
    confirmed = EmailAddress.objects.filter(user=OuterRef("pk"), primary=True, verified=True,
                                            email__iexact=OuterRef("email"))
    least = settings.RATINGS_MIN_FINISHED_GAMES
    finished = (Seat.objects.filter(user=OuterRef("pk"), game__status=GameStatus.FINISHED).exclude(game=game)
                .order_by().values("pk")[least - 1:least]) if least else None
    columns = {"confirmed": Exists(confirmed), **({"finished": Subquery(finished)} if finished is not None else {})}
    found = {row["pk"]: row for row in get_user_model().objects.filter(pk__in=[seat.user_id for seat in seats])
             .annotate(**columns).values("pk", *columns)}
    return [
        Player(user_id=seat.user_id, confirmed=found[seat.user_id]["confirmed"], joined=seat.user.date_joined,
               enough_finished_games=not least or found[seat.user_id]["finished"] is not None,
               signup_network=getattr(getattr(seat.user, "profile", None), "signup_network", ""),
               mailbox=mailbox(seat.user.email or ""))
        for seat in seats
    ]


def _lock_players(user_ids: list[int]) -> None:
    """Take each player's ratings lock until the transaction ends, in user order (two endings cannot deadlock).

    Every ending that may rate the same players waits here for the one before it to commit, so what they did
    together is read after it (read committed: each statement sees what committed before it began).
    """
    with connection.cursor() as cursor:
        # unnest keeps the array's order: the locks are taken in it.
        cursor.execute("SELECT count(*) FROM (SELECT pg_advisory_xact_lock(%s, u) FROM unnest(%s::integer[]) AS u) "
                       "AS locked", [LOCK_SPACE, sorted(user_ids)])


def _pair_reason(players: list[int]) -> str | None:
    """Return why the players' game is unrated from the rated games two of them had together in the last 24 hours;
    call with their locks held."""
    since = timezone.now() - timedelta(days=1)
    together = (RatingChange.objects.filter(created_at__gte=since, user_id__in=players).order_by()
                .values("game_id").annotate(rated=ArrayAgg("user_id"), count=Count("id")).filter(count__gte=2))
    busiest = most_games_of_a_pair((row["rated"] for row in together), players)
    return pair_reason(busiest_pair=busiest, per_day=settings.RATINGS_SAME_PLAYERS_PER_DAY)


def ratings_record_game(*, game: Game) -> list[RatingChange]:
    """Update the ratings of the people at ``game``, which has just finished; return the changes made.

    Call inside the transaction that finishes the game, with its row locked. An unrated game changes
    nothing, nor does a game already counted. What decides it, in order (docs/players.md, "Ratings and
    players"): the table and how it ended (``rules.unrated_reason``); every account confirmed and
    established (``rules.account_reason``); then, under the players' ratings locks (``_lock_players``, so
    games of the same players ending at once are decided one after the other), no two of them past the
    daily cap together (``rules.pair_reason``) and none related to another unless both ratings at the
    game are established (``rules.relation_reason``). The game counts in one pool (``rules.rating_pool``):
    the bot pool when a bot account sits at it, else people. Each player's rating for the game, the
    table's player count and that pool is created at openskill's prior when missing and moved on.
    """
    if game.status != GameStatus.FINISHED or not game.result:
        return []
    resigned = resigned_last(game)
    if _table_reason(game) is not None:
        return []
    rated = rated_seats(game)
    if game_unrated_reason(game, resigned, rated) is not None:
        return []
    if RatingChange.objects.filter(game=game).exists():
        return []
    seats, changed = rated
    players = _players_of(game, seats)
    now = timezone.now()
    if any(account_reason(player, now=now) is not None for player in players):
        return []
    # The seats of the locked game come with their players' profiles (``store.locked``): no query here (nor for a
    # seat's first player, read with theirs by ``rated_seats``).
    pool = rating_pool(bot_account_seated=any(is_bot_account(seat.user) for seat in seats))
    user_ids = [seat.user_id for seat in seats]
    kind = {"game_slug": game.engine, "players": len(seats), "pool": pool}
    # No savepoint: the game's own transaction holds this, and any failure undoes the whole move.
    with transaction.atomic(savepoint=False):
        _lock_players(user_ids)
        if _pair_reason(user_ids) is not None:
            return []
        ratings = _ratings_locked(kind, user_ids)
        established = [user_id for user_id, rating in ratings.items() if not provisional(rating.games)]
        if relation_reason(players, established=established) is not None:
            return []
        if len(ratings) < len(user_ids):
            # Nobody else creates these players' ratings while their locks are held, and nobody sees the new rows
            # before the commit: no conflict, nothing to lock.
            created = Rating.objects.bulk_create([Rating(user_id=user_id, mu=MODEL.mu, sigma=MODEL.sigma, **kind)
                                                  for user_id in user_ids if user_id not in ratings])
            ratings.update((rating.user_id, rating) for rating in created)
        placed = final_places(game, resigned=resigned, also_left=changed)
        before = [(ratings[seat.user_id].mu, ratings[seat.user_id].sigma) for seat in seats]
        after = rate(before, [placed[seat.index] for seat in seats])
        changes = []
        for seat, (mu_before, sigma_before), (mu, sigma) in zip(seats, before, after):
            rating = ratings[seat.user_id]
            rating.mu, rating.sigma, rating.games, rating.updated_at = mu, sigma, rating.games + 1, now
            changes.append(RatingChange(
                game=game, user_id=seat.user_id, rating=rating, seat=seat.index, place=placed[seat.index],
                mu_before=mu_before, sigma_before=sigma_before, mu_after=mu, sigma_after=sigma,
            ))
        Rating.objects.bulk_update(list(ratings.values()), ["mu", "sigma", "games", "updated_at"])
        return RatingChange.objects.bulk_create(changes)


def _ratings_locked(kind: dict, user_ids: list[int]) -> dict[int, Rating]:
    """Return the players' ratings of one kind (game, player count, pool) that exist, locked, by user id."""
    rows = Rating.objects.select_for_update().filter(user_id__in=user_ids, **kind).order_by("user_id")
    return {rating.user_id: rating for rating in rows}
