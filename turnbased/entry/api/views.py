"""REST API of fair entry: a table's requirements, read before joining."""

from __future__ import annotations

from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.exceptions import NotFound
from rest_framework.response import Response
from rest_framework.views import APIView

from turnbased.entry import requirements as rules
from turnbased.entry.api.serializers import RequirementsReadSerializer
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
