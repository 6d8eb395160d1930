"""The game record (docs/record-format.md) and its server-side check, through the API."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.negotiation import BaseContentNegotiation
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from turnbased.api.serializers import CommitmentSerializer, JSONObjectField
from turnbased.api.views import GAME_ID, NO_SUCH_GAME
from turnbased.kit.api.conditional import conditional_read
from turnbased.kit.api.schema import error
from turnbased.kit.errors import Conflict
from turnbased.kit.db.json_codec import JSONRenderer
from turnbased.play import records, selectors, verification
from turnbased.play.models import GameStatus
from turnbased.kit.db.replica import reads_from_replica


class RecordGameSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="The game's id where it was played (its commitment binds it).")
    engine = serializers.CharField(help_text="The engine slug, e.g. love-letter.")
    engine_version = serializers.IntegerField(help_text="The engine version the game was played with.")
    name = serializers.CharField(help_text="The game's name.")
    options = serializers.DictField(help_text="The table options; every option the engine got once the record is "
                                              "complete, only those players chose before.")
    status = serializers.ChoiceField(choices=GameStatus.choices)
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)

    class Meta:
        ref_name = "RecordGame"


class RecordPlayerSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    name = serializers.CharField(help_text="The name the engine was given for this seat.")
    bot = serializers.CharField(allow_blank=True, help_text='The bot that played the seat; "" for a person.')

    class Meta:
        ref_name = "RecordPlayer"


class RecordMoveSerializer(serializers.Serializer):
    seq = serializers.IntegerField(help_text="The position this move made.")
    seat = serializers.IntegerField(help_text="The seat that moved.")
    at = serializers.DateTimeField(help_text="When it was logged.")
    source = serializers.CharField(help_text="How it came: web, api, email, bot, timeout, auto (the seat's only legal "
                                             "move, played for it; while the game is on, only in the seat's own "
                                             "record) or system.")
    notation = serializers.CharField(
        allow_null=True,
        help_text="The move in the game's notation; while the game is on, only for the record's own seat.",
    )
    move = JSONObjectField(required=False, help_text="The move as logged: only in a complete record.")
    events = serializers.ListField(child=serializers.DictField(), help_text=(
        "What the move did: every event in a complete record, else those the record's seat may see."))
    lines = serializers.ListField(child=serializers.CharField(), help_text="The events in words, for the reader.")

    class Meta:
        ref_name = "RecordMove"


class RecordSerializer(serializers.Serializer):
    format = serializers.CharField(help_text='Always "turnbased-record".')
    format_version = serializers.IntegerField(help_text="The record format's version (docs/record-format.md).")
    complete = serializers.BooleanField(help_text="True once the game is over: seed, raw moves and every event.")
    viewer_seat = serializers.IntegerField(
        allow_null=True, help_text="While the game is on: the seat the record was made for (null: a spectator's).")
    exported_at = serializers.DateTimeField()
    game = RecordGameSerializer()
    players = RecordPlayerSerializer(many=True)
    commitment = CommitmentSerializer(allow_null=True, help_text="The seed's commitment; null before the start.")
    seed = serializers.CharField(allow_null=True, help_text="The seed, once the game is over; null before.")
    moves = RecordMoveSerializer(many=True)
    result = serializers.DictField(allow_null=True, help_text="The game's result once it is over; null before.")

    class Meta:
        ref_name = "Record"


class CheckSerializer(serializers.Serializer):
    name = serializers.CharField(help_text="What was checked.")
    passed = serializers.BooleanField()
    detail = serializers.CharField(allow_blank=True, help_text="What was found.")

    class Meta:
        ref_name = "RecordCheck"


class VerificationSerializer(serializers.Serializer):
    game = serializers.IntegerField(help_text="The game checked.")
    ok = serializers.BooleanField(help_text="Every check passed.")
    checks = CheckSerializer(many=True)
    commitment = CommitmentSerializer(help_text="The commitment published when the game started.")
    seed = serializers.CharField(help_text="The seed revealed at the end.")

    class Meta:
        ref_name = "Verification"


class _AlwaysJson(BaseContentNegotiation):
    """Answer JSON whatever the request accepts: the record is a file, not a page."""

    def select_parser(self, request, parsers):
        return parsers[0] if parsers else None

    def select_renderer(self, request, renderers, format_suffix=None):
        return renderers[0], renderers[0].media_type


class GameRecordApi(APIView):
    """The game's record as I may read it, as a file to download."""

    permission_classes = [AllowAny]
    # The file is JSON whoever asks: a browser following the page's download link would get the browsable API.
    renderer_classes = [JSONRenderer]
    content_negotiation_class = _AlwaysJson

    @extend_schema(
        operation_id="games_record", tags=["games"], summary="The game's record, as I may read it",
        description="The record of docs/record-format.md, sent as an attachment (love-letter-12.json). Once the "
                    "game is over it is complete (seed, raw moves, every event) and `python -m games.verify` "
                    "checks it offline; while it is on, a player's holds only what their seat may see and a "
                    "spectator's only what is public.",
        parameters=[GAME_ID], responses={200: RecordSerializer, 404: NO_SUCH_GAME},
    )
    @reads_from_replica
    def get(self, request, game_id: int):
        viewer = selectors.viewer_of(game_id, request.user)
        response = Response(records.record_for(viewer))
        response["Content-Disposition"] = f'attachment; filename="{records.record_filename(viewer.game)}"'
        return response


class GameVerifyApi(APIView):
    """Check a finished game on the server: its seed against the commitment, and a replay of every move."""

    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="games_verify", tags=["games"], summary="Check a finished game's fairness",
        description="Runs the check of `python -m games.verify` on the game's complete record: the seed matches "
                    "the commitment published at the start, and replaying every move from it through the engine "
                    "version the game was played with gives every logged event and the result.",
        parameters=[GAME_ID],
        responses={200: VerificationSerializer, 404: NO_SUCH_GAME,
                   409: error("The game is not over: its seed is revealed when it ends.")},
    )
    @conditional_read
    @reads_from_replica
    def get(self, request, game_id: int):
        game = selectors.viewer_of(game_id, request.user).game
        if not records.is_over(game):
            raise Conflict(verification.NOT_YET)
        return Response(verification.verify_game(game))
