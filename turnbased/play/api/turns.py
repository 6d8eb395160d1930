"""``GET /api/me/turns/``: what is waiting for me, across all my games, in one request."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, extend_schema
from django.urls import reverse
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

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


class TurnsSerializer(serializers.Serializer):
    turns = TurnSerializer(many=True, help_text="The games where I am to move, the longest waiting first.")


class MyTurnsApi(APIView):
    """The games where I am to move."""

    @extend_schema(
        operation_id="me_turns", tags=["moves"], summary="The games waiting for my move",
        description="Every game in play where I may move now, the one that has waited longest first, with the "
                    "position to answer (seq), my deadline and the latest move as I may see it.",
        responses={200: TurnsSerializer},
        examples=[OpenApiExample("One game waiting", value={"turns": [{
            "game": 12, "name": "Love Letter #12", "engine": "love-letter", "seq": 7, "seat": 0,
            "waiting_since": "2026-12-01T09:30:00Z", "deadline": "2026-12-03T09:30:00Z",
            "last_move": "bob plays the Priest on alice.", "url": "/games/12/"}]})],
    )
    def get(self, request):
        turns = [
            {"game": row["game"].pk, "name": row["game"].title, "engine": row["game"].engine, "seq": row["game"].seq,
             "seat": row["seat"], "waiting_since": row["waiting_since"], "deadline": row["deadline"],
             "last_move": row["last_move"], "url": reverse("game-detail", args=[row["game"].pk])}
            for row in selectors.turns_waiting(request.user)
        ]
        return Response(TurnsSerializer({"turns": turns}).data)
