"""REST API of fair entry: a table's requirements, read before joining, and the games waiting on me."""

from __future__ import annotations

from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.exceptions import NotFound
from rest_framework.response import Response
from rest_framework.views import APIView

from turnbased.entry import requirements as rules
from turnbased.entry import waiting
from turnbased.entry.api.serializers import RequirementsReadSerializer, WaitingSerializer
from turnbased.entry.reactions import requirements_of
from turnbased.kit.api.conditional import conditional_read
from turnbased.kit.api.schema import error
from turnbased.kit.errors import GameNotFound
from turnbased.play import selectors as play_selectors
from turnbased.play.models import GameStatus

GAME_ID = OpenApiParameter("game_id", int, OpenApiParameter.PATH, description="The game's id.")


class TableRequirementsApi(APIView):
    @extend_schema(operation_id="games_requirements_retrieve", tags=["games"], summary="A table's requirements",
                   description="What the table asks of whoever takes a seat, and whether I meet it: a join I may not "
                               "make is refused (409) with the same words as unmet.",
                   parameters=[GAME_ID], responses={200: RequirementsReadSerializer, 404: error("No such game.")})
    @conditional_read
    def get(self, request, game_id: int):
        try:
            viewer = play_selectors.viewer_of(game_id, request.user)
        except GameNotFound:
            raise NotFound(gettext("No such game.")) from None
        game = viewer.game
        requirements = requirements_of(game)
        if requirements is None:
            return Response({"asked": None, "worded": [], "unmet": None})
        asked = {name: getattr(requirements, name) for name in rules.FIELDS}
        unmet = None
        if request.user.is_authenticated and viewer.seat is None and game.status == GameStatus.OPEN:
            unmet = rules.unmet(requirements, request.user, game)
        return Response({"asked": asked, "worded": rules.worded(requirements), "unmet": unmet})


class GamesWaitingApi(APIView):
    @extend_schema(operation_id="me_waiting_retrieve", tags=["me"], summary="The games waiting on me",
                   description="What waits on me (my turns, invitations to answer, my tables not yet started), the "
                               "site's limits, and how many more seats I may take and whether I may create a table "
                               "now. A create or a join past a limit is refused (409) with the words of `refusal`.",
                   responses={200: WaitingSerializer})
    @conditional_read
    def get(self, request):
        mine = waiting.standing(request.user)
        return Response({
            "waiting": {"turns": mine.turns, "invitations": mine.invitations, "tables": mine.tables,
                        "total": mine.waiting},
            "open_games": mine.open_games, "finished": mine.finished, "exempt": mine.exempt,
            "limits": {"to_create": mine.limits.to_create, "to_join": mine.limits.to_join,
                       "open_games": mine.open_games_cap},
            "may_join": mine.may_join, "may_create": mine.may_create, "refusal": mine.why_not_join(),
            "worded": mine.worded(),
        })
