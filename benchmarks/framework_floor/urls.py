"""The framework floor: one DRF view with the service's authentication doing only a move's SQL."""

from django.db import connection, transaction
from django.urls import include, path
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import APIView

from benchmarks.framework_floor import play_one_move
from turnbased.urls import handler400, handler403, handler404, handler429, handler500  # noqa: F401


class FloorMoveApi(APIView):
    """Lock the game row, insert a move, write a 1 KB snapshot; answer the new seq.

    Everything else is the service's: middleware, the API's authentication (token first), the
    permission and throttle classes (with ``RATE_LIMITS=off`` they count nothing) and the parser.
    """

    throttle_scope = "moves"

    def post(self, request, game_id: int):
        with transaction.atomic(), connection.cursor() as cursor:
            seq = play_one_move(cursor, game_id, request.data.get("move") or {})
        return Response({"seq": seq}, status=status.HTTP_201_CREATED)


urlpatterns = [
    path("bench/floor/<int:game_id>/", FloorMoveApi.as_view()),
    path("", include("turnbased.urls")),
]
