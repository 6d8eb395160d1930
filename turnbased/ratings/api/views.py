"""REST API for leaderboards and players: thin adapters over the ratings selectors. Anyone may read them."""

from __future__ import annotations

from django.core.paginator import InvalidPage, Page
from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.utils.urls import replace_query_param
from rest_framework.views import APIView

from games import get_engine
from turnbased.accounts.models import is_bot_account
from turnbased.kit.api.conditional import conditional_read
from turnbased.kit.api.deprecation import ARCHIVE_PAGE, RATINGS_PAGE, deprecated, uses_query_parameter
from turnbased.kit.api.input import UnprocessableInput
from turnbased.kit.api.pagination import CURSOR, cursor_parameters, paginate
from turnbased.kit.api.schema import error
from turnbased.ratings import selectors
from turnbased.ratings.api.serializers import (
    ArchiveQuerySerializer,
    ArchiveSerializer,
    LeaderboardSerializer,
    PlayerSerializer,
    RatingsQuerySerializer,
)
from turnbased.kit.db.replica import reads_from_replica

USERNAME = OpenApiParameter("username", str, OpenApiParameter.PATH, description="The player's username.")
NO_SUCH_PAGE = error("No such page: past the last one.")
NO_SUCH_PLAYER = error("No player has that username (bots have no page).")
NO_SUCH_PLAYER_OR_PAGE = error("No player has that username (bots have no page), or no such page: past the last one.")


def _query(serializer_class, request) -> dict:
    query = serializer_class(data=request.query_params)
    query.is_valid(raise_exception=True)
    return query.validated_data


def _page(request, make_page, number: int | None) -> Page:
    try:
        return make_page(number)
    except InvalidPage:
        raise NotFound(gettext("No such page: past the last one.")) from None


def _links(request, page: Page) -> dict:
    url = request.build_absolute_uri()
    return {
        "count": page.paginator.count,
        "next": replace_query_param(url, "page", page.next_page_number()) if page.has_next() else None,
        "previous": replace_query_param(url, "page", page.previous_page_number()) if page.has_previous() else None,
    }


def _numbered(request, query: dict) -> bool:
    """Tell whether the request asks for a numbered page (deprecated) rather than walking by cursor."""
    if "page" in query and CURSOR in request.query_params:
        raise UnprocessableInput(
            {"page": [gettext("Send page or cursor, not both: follow next and previous.")]})
    return "page" in query


def _player(username: str):
    try:
        return selectors.player_named(username)
    except selectors.NoSuchPlayer:
        raise NotFound(gettext("No such player.")) from None


class RatingListApi(APIView):
    """A leaderboard: the ratings at one game and player count, best first."""

    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="ratings_list", tags=["ratings"], summary="A leaderboard, best first",
        description="Ratings at one game, player count and pool, best first, 50 a page (follow next and previous). "
                    "Only public games between people are rated; a game with a bot account at the table counts in "
                    "the bot pool (pool=bots), never among people. A provisional rating (fewer rated games than "
                    "the site's minimum) is not listed: GET /api/players/{username}/ shows it "
                    "(docs/players.md, \"Ratings and players\").",
        parameters=[RatingsQuerySerializer, *cursor_parameters(selectors.LEADERBOARD_PAGE_SIZE)],
        responses={200: LeaderboardSerializer, 404: NO_SUCH_PAGE, 422: error(
            "The game does not take that many players, or both page and cursor were sent.")},
    )
    @deprecated(RATINGS_PAGE, when=uses_query_parameter("page"))
    @conditional_read
    @reads_from_replica
    def get(self, request):
        query = _query(RatingsQuerySerializer, request)
        slug = query["game"]
        engine = get_engine(slug)
        players = query.get("players", engine.default_players)
        if players not in selectors.player_counts(slug):
            raise UnprocessableInput(
                {"players": [gettext("%(game)s takes %(low)s to %(high)s players.") % {
                    "game": engine.display_name(), "low": engine.min_players, "high": engine.max_players}]}
            )
        pool = query["pool"]
        board = selectors.leaderboard(slug, players, pool)
        if _numbered(request, query):
            page = _page(request, lambda number: selectors.leaderboard_page(slug, players, number, pool), query["page"])
            return Response({**_links(request, page), "game": slug, "players": players, "pool": pool,
                             "results": _ratings(page.object_list)})
        # Best first; the rating's name breaks a tie, as the page shows it. A rating moves only when a game ends.
        page = paginate(request, board, ordering=("-ordinal", "-games", "user__username"),
                        page_size=selectors.LEADERBOARD_PAGE_SIZE)
        first = selectors.place_of(page.items[0]) if page.items else 1
        for place, rating in enumerate(page.items, start=first):
            rating.place = place
        return Response(page.body(_ratings(page.items), count=board.count(), game=slug, players=players, pool=pool))


def _ratings(ratings) -> list[dict]:
    return [
        {"place": rating.place, "username": rating.user.get_username(), "bot_account": is_bot_account(rating.user),
         "rating": rating.display, "mu": rating.mu, "sigma": rating.sigma, "games": rating.games,
         "provisional": rating.provisional}
        for rating in ratings
    ]


class PlayerApi(APIView):
    """A player's page: ratings, finished games per game, reliability, member since."""

    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="players_retrieve", tags=["players"], summary="A player's profile",
        description="Counts only the games I may see: public ones, and private ones I sit at or created.",
        parameters=[USERNAME], responses={200: PlayerSerializer, 404: NO_SUCH_PLAYER},
    )
    @conditional_read
    @reads_from_replica
    def get(self, request, username: str):
        player = _player(username)
        reliability = selectors.reliability(player, request.user)
        abandonment = selectors.abandonment(player, request.user)
        return Response({
            "username": player.get_username(),
            "bot_account": is_bot_account(player),
            "member_since": player.date_joined,
            "ratings": [
                {"game": rating.game_slug, "name": rating.game_name, "players": rating.players, "pool": rating.pool,
                 "rating": rating.display, "mu": rating.mu, "sigma": rating.sigma, "games": rating.games,
                 "provisional": rating.provisional}
                for rating in selectors.ratings_of(player)
            ],
            "games": [
                {"game": record.game_slug, "name": record.name, "played": record.played, "won": record.won}
                for record in selectors.game_records(player, request.user)
            ],
            "reliability": {"moves_on_time": reliability.moves_on_time, "timeouts": reliability.timeouts,
                            "percent": reliability.percent, "recent_clocked_games": abandonment.games,
                            "recent_abandoned": abandonment.abandoned, "new": abandonment.is_new},
            "active_days_ago": selectors.days_since_active(player, request.user),
        })


class PlayerGamesApi(APIView):
    """A player's finished games that I may see, newest first."""

    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="players_games_list", tags=["players"], summary="A player's finished games",
        description="Newest first, 20 a page (follow next and previous); only games I may see (public ones, and "
                    "private ones I sit at or created). Filter by game and by an opponent's username.",
        parameters=[USERNAME, ArchiveQuerySerializer, *cursor_parameters(selectors.ARCHIVE_PAGE_SIZE)],
        responses={200: ArchiveSerializer, 404: NO_SUCH_PLAYER_OR_PAGE,
                   422: error("Both page and cursor were sent: follow next and previous.")},
    )
    @deprecated(ARCHIVE_PAGE, when=uses_query_parameter("page"))
    @conditional_read
    @reads_from_replica
    def get(self, request, username: str):
        player = _player(username)
        query = _query(ArchiveQuerySerializer, request)
        filters = {"game_slug": query.get("game") or None, "opponent": query.get("opponent") or None}
        if _numbered(request, query):
            page = _page(request, lambda number: selectors.archive_page(player, request.user, number, **filters),
                         query["page"])
            return Response({**_links(request, page), "results": _archived(page.object_list)})
        games = selectors.archive_by_end(player, request.user, **filters)
        # The newest end first: a finished game's end never moves.
        page = paginate(request, games, ordering=("-ended", "-pk"), page_size=selectors.ARCHIVE_PAGE_SIZE)
        rows = selectors.archived_games(player, page.items)
        return Response(page.body(_archived(rows), count=games.count()))


def _archived(rows) -> list[dict]:
    return [
        {
            "id": row.game.pk,
            "game": row.game.engine,
            "name": row.name,
            "finished_at": row.finished_at,
            "seats": [{"index": index, "name": seat.name, "username": seat.username,
                       "bot_account": seat.bot_account, "bot": seat.bot}
                      for index, seat in enumerate(row.seats)],
            "place": row.place,
            "won": row.won,
            "draw": row.draw,
            "summary": row.summary,
            "rating": (
                {"before": row.rating_change.before, "after": row.rating_change.after,
                 "delta": row.rating_change.delta}
                if row.rating_change else None
            ),
        }
        for row in rows
    ]
