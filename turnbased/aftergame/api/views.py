"""REST API for rematches: thin adapters over ``turnbased.aftergame.services``."""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from turnbased.aftergame import selectors, services
from turnbased.aftergame.api.serializers import GameSummarySerializer, RematchSerializer
from turnbased.aftergame.summary import summary
from turnbased.kit.api.conditional import conditional_read
from turnbased.kit.api.schema import created_location, error
from turnbased.kit.errors import GameNotFound
from turnbased.idempotency.once import idempotent
from turnbased.play import selectors as play_selectors

GAME_ID = OpenApiParameter("game_id", int, OpenApiParameter.PATH, description="The finished game's id.")
NO_REMATCH = error("No such game, a private game you are not part of, or no rematch proposed for it.")
NOT_INVITED = error("You did not play the finished game.")
NO_SUMMARY = error("No such game, a private game you are not part of, or a game not over yet.")
NOT_WAITING = error("The rematch no longer waits: it started, or was declined or aborted (or you accepted already).")


def rematch_body(rematch, user) -> dict:
    state = selectors.rematch_state(rematch, user)
    return {
        "original": rematch.original_id,
        "game": rematch.game_id,
        "status": state.status,
        "proposed_by": rematch.proposed_by.get_username(),
        "seated": state.seated,
        "awaited": state.awaited,
        "declined_by": rematch.declined_by.get_username() if rematch.declined_by_id else None,
        "bot_accounts": sorted(state.bot_accounts),
        "created_at": rematch.created_at,
    }


class RematchApi(APIView):
    """A finished game's rematch: read it, or ask for it (propose it, or accept it if it waits for you)."""

    def get_permissions(self):
        """Let anyone read a rematch of a game they may see; asking for one needs an account."""
        return [AllowAny()] if self.request.method in ("GET", "HEAD") else super().get_permissions()

    @extend_schema(
        operation_id="rematch_retrieve", tags=["games"], summary="A finished game's rematch", parameters=[GAME_ID],
        responses={200: RematchSerializer, 404: NO_REMATCH},
    )
    @conditional_read
    def get(self, request, game_id: int):
        viewer = play_selectors.viewer_of(game_id, request.user)
        rematch = selectors.rematch_for(viewer.game)
        if rematch is None:
            raise GameNotFound(gettext("No rematch has been proposed for this game."))
        return Response(rematch_body(rematch, request.user))

    @extend_schema(
        operation_id="rematch_create", tags=["games"], summary="Ask for a rematch", request=None,
        parameters=[GAME_ID, created_location("the rematch (GET /api/games/{id}/rematch/)")],
        description="The first call by a player of the finished game creates the rematch's table (the caller seated, "
                    "bots seated, a seat kept for each other person, who is told by email) and answers 201. Later "
                    "calls answer 200 with the same rematch; from a player it still waits for, they accept it.",
        responses={
            201: RematchSerializer,
            200: OpenApiResponse(RematchSerializer, description="The rematch already proposed."),
            403: NOT_INVITED, 404: error("No such game, or a private game you are not part of."),
            409: error("The game is not finished, or you have too many tables waiting for players."),
        },
    )
    @idempotent
    def post(self, request, game_id: int):
        rematch, created = services.rematch_propose(game_id=game_id, user=request.user)
        if not created:
            return Response(rematch_body(rematch, request.user))
        return Response(rematch_body(rematch, request.user), status=status.HTTP_201_CREATED,
                        headers={"Location": reverse("api-game-rematch", args=[game_id])})


class RematchAcceptApi(APIView):
    """Take the seat the rematch keeps for me; the last player to accept starts it."""

    @extend_schema(
        operation_id="rematch_accept", tags=["games"], summary="Accept a rematch", parameters=[GAME_ID], request=None,
        responses={200: RematchSerializer, 403: NOT_INVITED, 404: NO_REMATCH, 409: NOT_WAITING},
    )
    @idempotent
    def post(self, request, game_id: int):
        rematch = services.rematch_accept(game_id=game_id, user=request.user)
        return Response(rematch_body(rematch, request.user))


class RematchDeclineApi(APIView):
    """Turn the rematch down for everyone (its table is aborted), while it waits."""

    @extend_schema(
        operation_id="rematch_decline", tags=["games"], summary="Decline a rematch", parameters=[GAME_ID],
        request=None, responses={200: RematchSerializer, 403: NOT_INVITED, 404: NO_REMATCH, 409: NOT_WAITING},
    )
    def post(self, request, game_id: int):
        rematch = services.rematch_decline(game_id=game_id, user=request.user)
        return Response(rematch_body(rematch, request.user))


class GameSummaryApi(APIView):
    """A finished game in short: each player's moves and time, and where the lead changed hands."""

    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="game_summary_retrieve", tags=["games"], summary="A finished game in short",
        description="What its end screen tells under How the game went: from the log's times and the count every "
                    "player could see after each move (the game's public scores). Only once the game is over.",
        parameters=[GAME_ID], responses={200: GameSummarySerializer, 404: NO_SUMMARY},
    )
    @conditional_read
    def get(self, request, game_id: int):
        viewer = play_selectors.viewer_of(game_id, request.user)
        found = summary(viewer.game)
        if found is None:
            raise GameNotFound(gettext("This game is not over yet: it has no summary."))
        decisive = found.decisive
        return Response({
            "game": viewer.game.pk, "moves": found.moves, "seconds": found.seconds,
            "seats": [{"seat": row.seat, "moves": row.moves, "bot_moves": row.bot_moves, "seconds": row.seconds,
                       "longest_seconds": row.longest_seconds} for row in found.seats],
            "turning_points": [{"seq": point.seq, "leader": point.leader, "scores": point.scores,
                                "decisive": point is decisive} for point in found.turning_points],
            "lead_changes": found.lead_changes,
        })
