"""REST API for friends and blocks: thin adapters over ``turnbased.contacts.services`` and ``selectors``."""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.exceptions import NotFound
from rest_framework.response import Response
from rest_framework.views import APIView

from turnbased.accounts.models import is_bot_account
from turnbased.contacts import selectors, services
from turnbased.contacts.api.serializers import (
    BlockedListSerializer, ContactSerializer, FollowedListSerializer, FriendsTableListSerializer, PersonInputSerializer,
)
from turnbased.kit.api.conditional import conditional_read
from turnbased.kit.api.pagination import cursor_parameters, paginate
from turnbased.idempotency.once import idempotent
from turnbased.kit.api.schema import created_location, error
from turnbased.kit.errors import Unprocessable
from turnbased.play import selectors as play_selectors

USERNAME = OpenApiParameter("username", str, OpenApiParameter.PATH, description="The player's username (any case).")
NO_SUCH_PLAYER = error("No player by that name, or my own name.")
NOT_IN_PATH = error("No player by that name, or my own name: the path names nobody to undo it for.")


def _named_in_path(remove, request, username: str) -> None:
    """Undo a follow or a block of the player the path names; a name that names nobody is a 404, as any path."""
    try:
        remove(user=request.user, username=username)
    except Unprocessable:
        raise NotFound(gettext("No such player.")) from None


def _contact(user, since) -> dict:
    return {"username": user.get_username(), "bot_account": is_bot_account(user), "since": since}


def _rows(games) -> list[dict]:
    return [{"id": game.pk, "name": game.title, "engine": game.engine, "status": game.status,
             "players": [seat.display_name for seat in game.seats.all()], "seat_count": game.seat_count,
             "created_at": game.created_at, "last_move_at": game.last_move_at} for game in games]


class _PeopleApi(APIView):
    throttle_scope = "contacts"
    rows = staticmethod(selectors.followed)
    person = "followed"
    add = staticmethod(services.follow_add)
    detail_url = "api-following-detail"

    def _list(self, request):
        page = paginate(request, self.rows(request.user), ordering=("-pk",))
        return Response(page.body([_contact(getattr(row, self.person), row.created_at) for row in page.items]))

    def _add(self, request):
        data = PersonInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        other, created = self.add(user=request.user, username=data.validated_data["username"])
        row = self.rows(request.user).get(**{self.person: other})
        return Response(ContactSerializer(_contact(other, row.created_at)).data,
                        status=status.HTTP_201_CREATED if created else status.HTTP_200_OK,
                        headers={"Location": reverse(self.detail_url, args=[other.get_username()])})


class FollowingApi(_PeopleApi):
    """The players I follow; follow one more."""

    @extend_schema(operation_id="following_list", tags=["friends"], summary="The players I follow",
                   parameters=cursor_parameters(), responses={200: FollowedListSerializer})
    @conditional_read
    def get(self, request):
        return self._list(request)

    @extend_schema(operation_id="following_create", tags=["friends"], summary="Follow a player",
                   description="Their open tables and games then show in my lobby and under /api/friends/. They are "
                               "not told. Following them again changes nothing (200).",
                   request=PersonInputSerializer, parameters=[created_location("the follow")],
                   responses={201: ContactSerializer, 200: ContactSerializer, 422: NO_SUCH_PLAYER,
                              409: error("A player I blocked, or already as many as one account may follow.")})
    @idempotent
    def post(self, request):
        return self._add(request)


class FollowingDetailApi(APIView):
    """One player I follow: stop following them."""

    throttle_scope = "contacts"

    @extend_schema(operation_id="following_destroy", tags=["friends"], summary="Stop following a player",
                   description="Nothing happens if I did not follow them.", parameters=[USERNAME],
                   responses={204: None, 404: NOT_IN_PATH})
    def delete(self, request, username: str):
        _named_in_path(services.follow_remove, request, username)
        return Response(status=status.HTTP_204_NO_CONTENT)


class BlockedApi(_PeopleApi):
    """The players I blocked; block one more."""

    rows = staticmethod(selectors.blocked)
    person = "blocked"
    add = staticmethod(services.block_add)
    detail_url = "api-blocked-detail"

    @extend_schema(operation_id="blocked_list", tags=["friends"], summary="The players I blocked",
                   parameters=cursor_parameters(), responses={200: BlockedListSerializer})
    @conditional_read
    def get(self, request):
        return self._list(request)

    @extend_schema(operation_id="blocked_create", tags=["friends"], summary="Block a player",
                   description="They can no longer join tables I made or sit at, invite me, or write to me at a "
                               "table; I stop following them. Nobody is told, and games already under way go on. "
                               "Blocking them again changes nothing (200).",
                   request=PersonInputSerializer, parameters=[created_location("the block")],
                   responses={201: ContactSerializer, 200: ContactSerializer, 422: NO_SUCH_PLAYER,
                              409: error("Already as many blocked players as one account may have.")})
    @idempotent
    def post(self, request):
        return self._add(request)


class BlockedDetailApi(APIView):
    """One player I blocked: unblock them."""

    throttle_scope = "contacts"

    @extend_schema(operation_id="blocked_destroy", tags=["friends"], summary="Unblock a player",
                   description="Nothing happens if I had not blocked them.", parameters=[USERNAME],
                   responses={204: None, 404: NOT_IN_PATH})
    def delete(self, request, username: str):
        _named_in_path(services.block_remove, request, username)
        return Response(status=status.HTTP_204_NO_CONTENT)


class FriendsOpenTablesApi(APIView):
    """The public tables taking players at which someone I follow sits."""

    @extend_schema(operation_id="friends_tables_list", tags=["friends"], summary="My friends' open tables",
                   parameters=cursor_parameters(), responses={200: FriendsTableListSerializer})
    @conditional_read
    def get(self, request):
        page = paginate(request, selectors.friends_open_tables(request.user), ordering=("-created_at", "-pk"))
        return Response(page.body(_rows(play_selectors.with_seats(list(page.items)))))


class FriendsGamesApi(APIView):
    """The public games in play at which someone I follow sits (as any visitor of them sees them)."""

    @extend_schema(operation_id="friends_games_list", tags=["friends"], summary="My friends' games",
                   parameters=cursor_parameters(), responses={200: FriendsTableListSerializer})
    @conditional_read
    def get(self, request):
        page = paginate(request, selectors.friends_games(request.user), ordering=("-started_at", "-pk"))
        return Response(page.body(_rows(play_selectors.with_seats(list(page.items)))))
