"""REST API for leaderboards and players: thin adapters over the ratings selectors. Anyone may read them."""

from __future__ import annotations

from django.core.paginator import InvalidPage, Page
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.utils.urls import replace_query_param
from rest_framework.views import APIView

from games import get_engine
from turnbased.accounts.models import is_bot_account
from turnbased.play.api.schema import error
from turnbased.ratings import selectors
from turnbased.ratings.api.serializers import (
    ArchiveQuerySerializer,
    ArchiveSerializer,
    LeaderboardSerializer,
    PlayerSerializer,
    RatingsQuerySerializer,
)

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
        raise NotFound("No such page: past the last one.") from None


def _links(request, page: Page) -> dict:
    url = request.build_absolute_uri()
    return {
        "count": page.paginator.count,
        "next": replace_query_param(url, "page", page.next_page_number()) if page.has_next() else None,
        "previous": replace_query_param(url, "page", page.previous_page_number()) if page.has_previous() else None,
    }


def _player(username: str):
    try:
        return selectors.player_named(username)
    except selectors.NoSuchPlayer:
        raise NotFound("No such player.") from None


class RatingListApi(APIView):
    """A leaderboard: the ratings at one game and player count, best first."""

    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="ratings_list", tags=["ratings"], summary="A leaderboard, best first",
        description="Ratings at one game, player count and pool, best first, 50 a page. Only public games between "
                    "people are rated; a game with a bot account at the table counts in the bot pool "
                    "(pool=bots), never among people (see the README's Ratings and players).",
        parameters=[RatingsQuerySerializer],
        responses={200: LeaderboardSerializer, 404: NO_SUCH_PAGE},
    )
    def get(self, request):
        query = _query(RatingsQuerySerializer, request)
        slug = query["game"]
        engine = get_engine(slug)
        players = query.get("players", engine.default_players)
        if players not in selectors.player_counts(slug):
            raise serializers.ValidationError(
                {"players": [f"{engine.name} takes {engine.min_players} to {engine.max_players} players."]}
            )
        pool = query["pool"]
        page = _page(request, lambda number: selectors.leaderboard_page(slug, players, number, pool), query.get("page"))
        results = [
            {"place": rating.place, "username": rating.user.get_username(),
             "bot_account": is_bot_account(rating.user), "rating": rating.display,
             "mu": rating.mu, "sigma": rating.sigma, "games": rating.games}
            for rating in page.object_list
        ]
        return Response({**_links(request, page), "game": slug, "players": players, "pool": pool, "results": results})


class PlayerApi(APIView):
    """A player's page: ratings, finished games per game, reliability, member since."""

    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="players_retrieve", tags=["players"], summary="A player's profile",
        description="Counts only the games I may see: public ones, and private ones I sit at or created.",
        parameters=[USERNAME], responses={200: PlayerSerializer, 404: NO_SUCH_PLAYER},
    )
    def get(self, request, username: str):
        player = _player(username)
        reliability = selectors.reliability(player, request.user)
        return Response({
            "username": player.get_username(),
            "bot_account": is_bot_account(player),
            "member_since": player.date_joined,
            "ratings": [
                {"game": rating.game_slug, "name": rating.game_name, "players": rating.players, "pool": rating.pool,
                 "rating": rating.display, "mu": rating.mu, "sigma": rating.sigma, "games": rating.games}
                for rating in selectors.ratings_of(player)
            ],
            "games": [
                {"game": record.game_slug, "name": record.name, "played": record.played, "won": record.won}
                for record in selectors.game_records(player, request.user)
            ],
            "reliability": {"moves_on_time": reliability.moves_on_time, "timeouts": reliability.timeouts,
                            "percent": reliability.percent},
        })


class PlayerGamesApi(APIView):
    """A player's finished games that I may see, newest first."""

    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="players_games_list", tags=["players"], summary="A player's finished games",
        description="Newest first, 20 a page; only games I may see (public ones, and private ones I sit at or "
                    "created). Filter by game and by an opponent's username.",
        parameters=[USERNAME, ArchiveQuerySerializer],
        responses={200: ArchiveSerializer, 404: NO_SUCH_PLAYER_OR_PAGE},
    )
    def get(self, request, username: str):
        player = _player(username)
        query = _query(ArchiveQuerySerializer, request)
        page = _page(
            request,
            lambda number: selectors.archive_page(player, request.user, number, game_slug=query.get("game"),
                                                  opponent=query.get("opponent")),
            query.get("page"),
        )
        results = [
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
            for row in page.object_list
        ]
        return Response({**_links(request, page), "results": results})
