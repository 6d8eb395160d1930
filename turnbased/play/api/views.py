"""REST API version 1 for games: thin adapters over the play services and selectors."""

from __future__ import annotations

import re

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from games import engines
from turnbased.play import selectors, services
from turnbased.play.errors import StaleSequence
from turnbased.play.models import MoveSource, Visibility
from turnbased.play.presenters import game_summary

# Positions are numbered in a PostgreSQL integer column.
MAX_SEQ = 2**31 - 1


class GameOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    game = serializers.CharField(help_text="The engine slug, e.g. love-letter.")
    name = serializers.CharField()
    status = serializers.ChoiceField(choices=["open", "active", "finished", "aborted"])
    visibility = serializers.CharField()
    seq = serializers.IntegerField(help_text="The number of moves played; send it back as expected_seq.")
    seat_count = serializers.IntegerField()
    seats = serializers.ListField(child=serializers.DictField(), help_text="[{index, username}]")
    my_seat = serializers.IntegerField(allow_null=True)
    to_move = serializers.ListField(child=serializers.IntegerField(), help_text="Seat indexes that may act now.")
    options = serializers.DictField()
    view = serializers.DictField(allow_null=True, help_text="Your private view (spectators: the public view).")
    result = serializers.DictField(allow_null=True)
    invite_url = serializers.CharField(allow_null=True, help_text="Only for players at the table.")
    time_control = serializers.DictField(help_text="The table's clock and what happens when time runs out.")
    clocks = serializers.ListField(
        child=serializers.DictField(),
        help_text="Per seat: running, deadline, remaining_seconds, away_until, bot, timeouts_in_row.",
    )
    created_at = serializers.DateTimeField()
    last_move_at = serializers.DateTimeField(allow_null=True)
    last_move = serializers.CharField(
        allow_null=True, help_text="In GET /api/games/ only: the latest move as you may see it (never its notation)."
    )


class GameListApi(APIView):
    """My games and the public games still taking players; create a game."""

    throttle_scope = "table_create"  # creating; reading the list counts as any read

    class InputSerializer(serializers.Serializer):
        game = serializers.ChoiceField(choices=[], help_text="Engine slug, see GET /api/game-types/.")
        players = serializers.IntegerField(required=False, help_text="Number of seats.")
        options = serializers.DictField(required=False, default=dict)
        visibility = serializers.ChoiceField(choices=Visibility.values, default=Visibility.PUBLIC)
        bots = serializers.DictField(child=serializers.CharField(), required=False, default=dict,
                                     help_text='Seat number to bot name, e.g. {"1": "basic"}.')
        play = serializers.BooleanField(default=True, help_text="False: create the table without a seat for me.")
        time_control = serializers.DictField(
            required=False, default=dict,
            help_text='e.g. {"kind": "per_move", "days_per_move": 3, "weekends_off": true, "expiry": "bot_turn"} '
                      'or {"kind": "bank", "bank_days": 7, "increment_days": 1}; kind "none" (default) has no clock.',
        )

        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.fields["game"].choices = list(engines())

    class ListSerializer(serializers.Serializer):
        mine = GameOutputSerializer(many=True)
        open = GameOutputSerializer(many=True)

    @extend_schema(responses=ListSerializer)
    def get(self, request):
        games = list(selectors.games_of(request.user))
        last_moves = selectors.last_move_lines(games, request.user)
        mine = [game_summary(game, request.user, with_view=False, last_move=last_moves.get(game.pk)) for game in games]
        joinable = [game_summary(game, request.user, with_view=False) for game in selectors.open_games(request.user)]
        return Response({"mine": mine, "open": joinable})

    @extend_schema(request=InputSerializer, responses={201: GameOutputSerializer})
    def post(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        slug = data.validated_data["game"]
        game = services.create_game(
            creator=request.user,
            engine_slug=slug,
            players=data.validated_data.get("players"),
            options=services.user_options(slug, data.validated_data["options"]),
            visibility=data.validated_data["visibility"],
            bots=data.validated_data["bots"],
            creator_plays=data.validated_data["play"],
            time_control=data.validated_data["time_control"],
        )
        return Response(game_summary(game, request.user), status=status.HTTP_201_CREATED)


def _game_detail(game_id: int, request, invite_code: str | None = None) -> dict:
    viewer = selectors.viewer_of(game_id, request.user, invite_code=invite_code)
    return game_summary(viewer.game, request.user, viewer=viewer)


class GameDetailApi(APIView):
    """One game as I may see it: seats, whose turn, my private view, the result."""

    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[OpenApiParameter("invite", str, description="Invite code, to see a private table before joining.")],
        responses=GameOutputSerializer,
    )
    def get(self, request, game_id: int):
        return Response(_game_detail(game_id, request, request.query_params.get("invite")))


class GameJoinApi(APIView):
    """Take a free seat; the game starts when every seat is taken."""

    class InputSerializer(serializers.Serializer):
        invite_code = serializers.CharField(required=False, help_text="Needed for a private table.")

    @extend_schema(request=InputSerializer, responses=GameOutputSerializer)
    def post(self, request, game_id: int):
        data = self.InputSerializer(data=request.data or {})
        data.is_valid(raise_exception=True)
        services.join_game(game_id=game_id, user=request.user, invite_code=data.validated_data.get("invite_code"))
        return Response(_game_detail(game_id, request))


class GameStartApi(APIView):
    """Start an open table now with the players already seated (its creator only)."""

    @extend_schema(request=None, responses=GameOutputSerializer)
    def post(self, request, game_id: int):
        services.start_game(game_id=game_id, user=request.user)
        return Response(_game_detail(game_id, request))


class GameLeaveApi(APIView):
    """Give up my seat at a table that has not started."""

    @extend_schema(request=None, responses={204: None})
    def post(self, request, game_id: int):
        services.leave_game(game_id=game_id, user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class GameAbortApi(APIView):
    """Cancel a table that has not started (its creator only)."""

    @extend_schema(request=None, responses=GameOutputSerializer)
    def post(self, request, game_id: int):
        services.abort_game(game_id=game_id, user=request.user)
        return Response(_game_detail(game_id, request))


class GameResignApi(APIView):
    """Leave a game in play for good; the game decides what follows (usually the others play on or win)."""

    @extend_schema(request=None, responses=GameOutputSerializer)
    def post(self, request, game_id: int):
        services.resign_game(game_id=game_id, user=request.user, source=MoveSource.API)
        return Response(_game_detail(game_id, request))


class LegalMovesApi(APIView):
    """My legal moves now, each as JSON and in the text notation."""

    class OutputSerializer(serializers.Serializer):
        seq = serializers.IntegerField()
        moves = serializers.ListField(child=serializers.DictField(), help_text="[{move, text}]")

    @extend_schema(responses=OutputSerializer)
    def get(self, request, game_id: int):
        viewer = selectors.viewer_of(game_id, request.user)
        return Response({"seq": viewer.game.seq, "moves": selectors.legal_moves_for(viewer)})


class MoveSubmitApi(APIView):
    """Play a move: ``move`` (JSON) or ``text`` (notation), for the position ``expected_seq``."""

    throttle_scope = "moves"

    class InputSerializer(serializers.Serializer):
        move = serializers.JSONField(required=False, help_text="A move as listed by legal-moves.")
        text = serializers.CharField(required=False, max_length=200, help_text="The move in text notation.")
        expected_seq = serializers.IntegerField(min_value=0, max_value=MAX_SEQ,
                                                help_text="The seq of the position you are answering.")
        idempotency_key = serializers.CharField(required=False, max_length=100)

    class OutputSerializer(serializers.Serializer):
        seq = serializers.IntegerField()
        text = serializers.CharField()
        replayed = serializers.BooleanField(help_text="True when this repeats an earlier submission.")
        game = GameOutputSerializer()

    @extend_schema(request=InputSerializer, responses={201: OutputSerializer, 200: OutputSerializer})
    def post(self, request, game_id: int):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            outcome = services.submit_move(
                game_id=game_id,
                user=request.user,
                expected_seq=data.validated_data["expected_seq"],
                move=data.validated_data.get("move"),
                text=data.validated_data.get("text"),
                source=MoveSource.API,
                idempotency_key=data.validated_data.get("idempotency_key"),
            )
        except StaleSequence as stale:
            # Hand back the fresh position so the client can decide again without another request.
            body = {"detail": stale.detail, "seq": stale.current_seq, "game": _game_detail(game_id, request)}
            return Response(body, status=stale.status)
        body = {
            "seq": outcome.move.seq,
            "text": outcome.move.text,
            "replayed": outcome.replayed,
            "game": _game_detail(game_id, request),
        }
        return Response(body, status=status.HTTP_200_OK if outcome.replayed else status.HTTP_201_CREATED)


class HistoryApi(APIView):
    """The events I may see after seq ``since``."""

    permission_classes = [AllowAny]

    class OutputSerializer(serializers.Serializer):
        seq = serializers.IntegerField()
        events = serializers.ListField(child=serializers.DictField(), help_text="[{seq, seat, kind, data, private, text}]")

    @extend_schema(
        parameters=[OpenApiParameter("since", int, description="Only events after this seq (default 0).")],
        responses=OutputSerializer,
    )
    def get(self, request, game_id: int):
        raw = request.query_params.get("since", "0")
        # ASCII digits only: str.isdigit() also takes '²', which int() then refuses.
        if not re.fullmatch(r"[0-9]{1,10}", raw) or int(raw) > MAX_SEQ:
            raise serializers.ValidationError({"since": [f"since must be a whole number from 0 to {MAX_SEQ}."]})
        viewer = selectors.viewer_of(game_id, request.user)
        return Response({"seq": viewer.game.seq, "events": selectors.visible_history(viewer, since=int(raw))})


class GameTypesApi(APIView):
    """The games this service offers, with their player counts and table options."""

    permission_classes = [AllowAny]

    def get(self, request):
        return Response([
            {
                "game": engine.slug,
                "name": engine.name,
                "min_players": engine.min_players,
                "max_players": engine.max_players,
                "default_players": engine.default_players,
                "options": [spec.to_json() for spec in engine.option_specs],
                "bots": list(engine.bots()),
                "notation": engine.notation_help(),
            }
            for engine in engines().values()
        ])

