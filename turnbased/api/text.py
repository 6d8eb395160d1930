"""``GET /api/games/{id}/text/``: the position as text, for terminals and chat bridges.

A client that shows a game in words (the terminal player in ``clients/python``, a chat bot)
gets what the turn email shows: the engine's drawing of the viewer's own view
(``Engine.view_text``) and the viewer's legal moves summed up in lines
(``Engine.moves_summary``). Both are made from the viewer's view and moves
alone, so they show nothing ``GET /api/games/{id}/`` and ``legal-moves`` do not.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from turnbased.api.views import GAME_ID
from turnbased.kit.api.conditional import conditional_read
from turnbased.kit.api.schema import error
from turnbased.play import selectors, store


class PositionTextSerializer(serializers.Serializer):
    seq = serializers.IntegerField(help_text="The position shown: send it as expected_seq with a move.")
    position = serializers.CharField(
        allow_blank=True,
        help_text="The game as you may see it, drawn in plain text lines (empty before the game starts).",
    )
    moves = serializers.ListField(
        child=serializers.CharField(),
        help_text="Your legal moves in the text notation, summed up in lines when there are many "
                  "(empty when it is not your turn). Send any one of them as text.",
    )
    move_count = serializers.IntegerField(help_text="How many legal moves you have now.")

    class Meta:
        ref_name = "PositionText"


def position_text(viewer: selectors.Viewer) -> dict:
    """Return the viewer's position and legal moves as text, as the turn email words them."""
    game = viewer.game
    view = selectors.private_view(viewer)
    moves = [entry["text"] for entry in selectors.legal_moves_for(viewer)]
    engine = store.engine_of(game)
    return {
        "seq": game.seq,
        "position": engine.view_text(view) if view is not None else "",
        "moves": engine.moves_summary(moves) if moves else [],
        "move_count": len(moves),
    }


class PositionTextApi(APIView):
    """The position and my legal moves as text."""

    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="games_text", tags=["games"], summary="The position as text, as I may see it",
        description="The game's own drawing of your view in plain text (a spectator's view of a public game) "
                    "and your legal moves in the text notation: what the turn email shows.",
        parameters=[GAME_ID],
        responses={200: PositionTextSerializer,
                   404: error("No such game, or a private game you are not part of.")},
        examples=[OpenApiExample("Love Letter, my turn", response_only=True, value={
            "seq": 4,
            "position": "Love Letter (classic edition), round 1, turn 2.\nYour hand: Guard (1), Handmaid (4)\n",
            "moves": ["guard bob priest", "guard bob baron", "handmaid"],
            "move_count": 3,
        })],
    )
    @conditional_read
    def get(self, request, game_id: int):
        return Response(position_text(selectors.viewer_of(game_id, request.user)))
