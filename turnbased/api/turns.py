"""``GET /api/me/turns/``: what is waiting for me, across all my games, in one request."""

from __future__ import annotations

from django.urls import reverse
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from turnbased.kit.api.conditional import conditional_read
from turnbased.kit.api.pagination import cursor_parameters, page_of, paginate
from turnbased.play import selectors


class TurnSerializer(serializers.Serializer):
    game = serializers.IntegerField(help_text="The game's id.")
    name = serializers.CharField(help_text='The table name, e.g. "Love Letter #12".')
    engine = serializers.CharField(help_text="The game's slug.")
    seq = serializers.IntegerField(help_text="The position to answer: send it as expected_seq with the move.")
    seat = serializers.IntegerField(help_text="My seat at the table.")
    waiting_since = serializers.DateTimeField(help_text="When the game began waiting for me.")
    deadline = serializers.DateTimeField(allow_null=True, help_text="When my time runs out; null without a clock.")
    last_move = serializers.CharField(allow_null=True, help_text="The latest move, as I may see it.")
    url = serializers.CharField(help_text="The game's page.")

    class Meta:
        ref_name = "Turn"


TurnsSerializer = page_of("Turns", TurnSerializer, description="The games where I am to move, the longest waiting first.")


class MyTurnsApi(APIView):
    """The games where I am to move."""

    @extend_schema(
        operation_id="me_turns", tags=["moves"], summary="The games waiting for my move",
        description="Every game in play where I may move now, the one that has waited longest first, with the "
                    "position to answer (seq), my deadline and the latest move as I may see it.",
        parameters=cursor_parameters(), responses={200: TurnsSerializer},
        examples=[OpenApiExample("One game waiting", value={"next": None, "previous": None, "results": [{
            "game": 12, "name": "Love Letter #12", "engine": "love-letter", "seq": 7, "seat": 0,
            "waiting_since": "2026-12-01T09:30:00Z", "deadline": "2026-12-03T09:30:00Z",
            "last_move": "bob plays the Priest on alice.", "url": "/games/12/"}]})],
    )
    @conditional_read
    def get(self, request):
        # The longest waiting first: what to answer first. A game changes place only when a move is played in it.
        page = paginate(request, selectors.games_waiting(request.user), ordering=("waiting_since", "pk"))
        turns = [
            {"game": row["game"].pk, "name": row["game"].title, "engine": row["game"].engine, "seq": row["game"].seq,
             "seat": row["seat"], "waiting_since": row["waiting_since"], "deadline": row["deadline"],
             "last_move": row["last_move"], "url": reverse("game-detail", args=[row["game"].pk])}
            for row in selectors.turn_rows(request.user, page.items)
        ]
        return Response(page.body(TurnSerializer(turns, many=True).data))
