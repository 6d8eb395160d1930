"""REST API version 1 for games: thin adapters over the play services and selectors."""

from __future__ import annotations

import re

from django.urls import reverse
from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, PolymorphicProxySerializer, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from games import engines
from turnbased.aftergame.selectors import after_game_summary
from turnbased.api import examples
from turnbased.api.serializers import (
    MAX_SEQ,
    GameListSerializer,
    GameSerializer,
    GameTypeSerializer,
    HistorySerializer,
    JSONObjectField,
    LegalMovesSerializer,
    MoveConflictSerializer,
    MovePlayedMinimalSerializer,
    MovePlayedSerializer,
    OpenGameListSerializer,
    PositionSerializer,
    SeatBotsField,
)
from turnbased.clocks.shapes import TimeControlRequestSerializer
from turnbased.entry.api.serializers import RequirementsSerializer
from turnbased.kit.api.conditional import conditional_read
from turnbased.kit.api.deprecation import WHOLE_MOVE_ANSWER, deprecated
from turnbased.kit.api.input import BodySerializer, UnprocessableInput, game_slugs
from turnbased.kit.api.pagination import MAX_PAGE_SIZE, cursor_parameters, paginate
from turnbased.kit.api.schema import created_location, error
from turnbased.kit.errors import StaleSequence
from turnbased.idempotency.once import REPLAYED_HEADER, idempotent, key_of, keyed
from turnbased.play import positions, selectors, services
from turnbased.play.models import MoveSource, Visibility
from turnbased.play.presenters import game_summary, move_answer
from turnbased.kit.db.replica import reads_from_replica
from turnbased.web.assets import asset_urls

# The answer to a move: the whole game, or the lean one a client asks for (Prefer: return=minimal).
MOVE_PLAYED = PolymorphicProxySerializer(component_name="MovePlayedAnswer",
                                        serializers=[MovePlayedSerializer, MovePlayedMinimalSerializer],
                                        resource_type_field_name=None)


GAME_ID = OpenApiParameter("game_id", int, OpenApiParameter.PATH, description="The game's id.")
# A page of games holds as many as a page of the lobby: each row reads its seats, clocks and last move, so
# a client with many games walks pages instead of paying for all of them in one answer.
GAMES_PAGE_SIZE = selectors.LOBBY_PAGE_GAMES


NO_SUCH_GAME = error("No such game, or a private game you are not part of.")
NOT_YOUR_SEAT = error("You have no seat in this game.")
ONLY_THE_CREATOR = error("Only the player who created the table may do this.")


class GameListApi(APIView):
    """My games and the public games still taking players; create a game."""

    throttle_scope = "table_create"  # creating; reading the list counts as any read

    class InputSerializer(BodySerializer):
        game = serializers.ChoiceField(choices=[], help_text="Engine slug, see GET /api/game-types/.")
        players = serializers.IntegerField(required=False, help_text="Number of seats (default: the game's usual).")
        options = serializers.DictField(required=False, default=dict,
                                        help_text="Table options by name, see GET /api/game-types/.")
        visibility = serializers.ChoiceField(choices=Visibility.choices, default=Visibility.PUBLIC,
                                             help_text="A private table is found only through its invite link.")
        bots = SeatBotsField(required=False, default=dict, help_text='Seat number to bot name, e.g. {"1": "basic"}.')
        play = serializers.BooleanField(default=True, help_text="False: create the table without a seat for me.")
        time_control = TimeControlRequestSerializer(required=False, help_text="No clock unless asked.")
        requirements = RequirementsSerializer(
            required=False, help_text="What the table asks of whoever takes a seat (GET /api/games/{id}/requirements/ "
                                      "reads it back); a join that does not meet it is refused with the requirement "
                                      "missed.")
        group = serializers.IntegerField(required=False, min_value=1, max_value=2**63 - 1,
                                         help_text="A group's id (GET /api/groups/): the table is kept for its "
                                                   "members, seen and joined by them alone (so private, whatever "
                                                   "visibility says). The group may let only its admins make "
                                                   "tables.")

        class Meta:
            ref_name = "GameCreateRequest"

        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.fields["game"].choices = game_slugs()

    @extend_schema(operation_id="games_list", tags=["games"], summary="My games",
                   description="Every game I sit at, the newest table first, a page at a time (without the private "
                               "views: GET /api/games/{id}/ has mine). The public tables I could join are "
                               "GET /api/games/open/; the games waiting for my move, GET /api/me/turns/.",
                   parameters=cursor_parameters(GAMES_PAGE_SIZE), responses={200: GameListSerializer})
    @conditional_read
    def get(self, request):
        # Newest first by id: a game keeps its place while a client walks the pages, however it is played.
        page = paginate(request, selectors.my_games(request.user), ordering=("-pk",), page_size=GAMES_PAGE_SIZE)
        games = selectors.with_seats(page.items, clocks=True)
        last_moves = selectors.last_move_lines(games, request.user)
        return Response(page.body([
            game_summary(game, request.user, with_view=False, last_move=last_moves.get(game.pk)) for game in games
        ]))

    @extend_schema(
        operation_id="games_create", tags=["games"], summary="Create a table",
        description="Create a table with me in seat 0 (unless play is false) and bots where asked; "
                    "a table whose seats are all filled starts at once.",
        parameters=[created_location("the new table (GET /api/games/{id}/)")],
        request=InputSerializer,
        responses={201: GameSerializer, 409: error("I have too many tables waiting for players, or too many tables "
                                                   "of bots only in play (MAX_OPEN_TABLES_PER_ACCOUNT, "
                                                   "MAX_BOT_TABLES_PER_ACCOUNT)."),
                   403: error("The group lets only its admins (or members) make its tables."),
                   404: error("No group has that id.")},
        examples=examples.CREATE_GAME,
    )
    @idempotent
    def post(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        slug = data.validated_data["game"]
        game = services.create_game(
            creator=request.user,
            engine_slug=slug,
            players=data.validated_data.get("players"),
            options=services.user_options(slug, data.validated_data["options"]),
            visibility=Visibility.PRIVATE if "group" in data.validated_data else data.validated_data["visibility"],
            bots=data.validated_data["bots"],
            creator_plays=data.validated_data["play"],
            time_control=data.validated_data.get("time_control", {}),
            terms={**({"group": data.validated_data["group"]} if "group" in data.validated_data else {}),
                   **({"requirements": dict(data.validated_data["requirements"])}
                      if data.validated_data.get("requirements") else {})},
        )
        return Response(game_summary(game, request.user), status=status.HTTP_201_CREATED,
                        headers={"Location": reverse("api-game", args=[game.pk])})


class OpenGameListApi(APIView):
    """The public tables taking players that I do not sit at: the tables I could join."""

    @extend_schema(operation_id="games_open_list", tags=["games"], summary="The public tables I could join",
                   description="Public tables still taking players, that I am not seated at, the newest first, a "
                               "page at a time. Take a seat with POST /api/games/{id}/join/.",
                   parameters=cursor_parameters(GAMES_PAGE_SIZE), responses={200: OpenGameListSerializer})
    @conditional_read
    def get(self, request):
        page = paginate(request, selectors.open_tables(request.user), ordering=("-pk",), page_size=GAMES_PAGE_SIZE)
        return Response(page.body([
            game_summary(game, request.user, with_view=False) for game in selectors.with_seats(page.items)
        ]))


def _game_detail(game_id: int, request, invite_code: str | None = None) -> dict:
    viewer = selectors.viewer_of(game_id, request.user, invite_code=invite_code)
    return _game_answer(viewer.game, request.user, viewer=viewer)


def _game_answer(game, user, viewer: selectors.Viewer | None = None) -> dict:
    """Return the API's whole game: its summary, and how it ended and its rematches."""
    return {**game_summary(game, user, viewer=viewer), **after_game_summary(game)}


class GameDetailApi(APIView):
    """One game as I may see it: seats, whose turn, my private view, the result."""

    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="games_retrieve", tags=["games"], summary="One game, as I may see it",
        parameters=[
            GAME_ID, OpenApiParameter("invite", str, description="Invite code, to see a private table before joining."),
        ],
        responses={200: GameSerializer, 404: NO_SUCH_GAME}, examples=examples.GAME,
    )
    @conditional_read
    def get(self, request, game_id: int):
        return Response(_game_detail(game_id, request, request.query_params.get("invite")))


class GameJoinApi(APIView):
    """Take a free seat; the game starts when every seat is taken."""

    class InputSerializer(BodySerializer):
        invite_code = serializers.CharField(required=False, help_text="Needed for a private table.")

    @extend_schema(
        operation_id="games_join", tags=["games"], summary="Take a free seat",
        parameters=[GAME_ID], request=InputSerializer, examples=examples.JOIN,
        responses={
            200: GameSerializer,
            404: error("No such game, or a private table and no or the wrong invite code."),
            409: error("I already sit at this table, or it is full or no longer taking players."),
        },
    )
    @idempotent
    def post(self, request, game_id: int):
        data = self.InputSerializer(data=request.data or {})
        data.is_valid(raise_exception=True)
        services.join_game(game_id=game_id, user=request.user, invite_code=data.validated_data.get("invite_code"))
        return Response(_game_detail(game_id, request))


class GameStartApi(APIView):
    """Start an open table now with the players already seated (its creator only)."""

    @extend_schema(
        operation_id="games_start", tags=["games"], summary="Start a table early", parameters=[GAME_ID], request=None,
        responses={
            200: GameSerializer, 403: ONLY_THE_CREATOR, 404: NO_SUCH_GAME,
            409: error("The game has already started or ended, or too few players are seated."),
        },
    )
    def post(self, request, game_id: int):
        services.start_game(game_id=game_id, user=request.user)
        return Response(_game_detail(game_id, request))


class GameLeaveApi(APIView):
    """Give up my seat at a table that has not started."""

    @extend_schema(
        operation_id="games_leave", tags=["games"], summary="Leave a table before it starts", parameters=[GAME_ID],
        request=None,
        responses={
            204: OpenApiResponse(description="I no longer sit at the table."),
            403: error("I have no seat at this table, or I created it (abort it instead)."),
            404: NO_SUCH_GAME,
            409: error("The game has started: resign instead."),
        },
    )
    def post(self, request, game_id: int):
        services.leave_game(game_id=game_id, user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class GameAbortApi(APIView):
    """Cancel a table that has not started (its creator only)."""

    @extend_schema(
        operation_id="games_abort", tags=["games"], summary="Cancel a table before it starts", parameters=[GAME_ID],
        request=None,
        responses={
            200: GameSerializer, 403: ONLY_THE_CREATOR, 404: NO_SUCH_GAME,
            409: error("Only a table that has not started can be aborted."),
        },
    )
    def post(self, request, game_id: int):
        services.abort_game(game_id=game_id, user=request.user)
        return Response(_game_detail(game_id, request))


class GameResignApi(APIView):
    """Leave a game in play for good; the game decides what follows (usually the others play on or win)."""

    @extend_schema(
        operation_id="games_resign", tags=["games"], summary="Resign from a game in play", parameters=[GAME_ID],
        request=None,
        responses={200: GameSerializer, 403: NOT_YOUR_SEAT, 404: NO_SUCH_GAME,
                   409: error("The game is not in play (not started, or over).")},
    )
    def post(self, request, game_id: int):
        services.resign_game(game_id=game_id, user=request.user, source=MoveSource.API)
        return Response(_game_detail(game_id, request))


class LegalMovesApi(APIView):
    """My legal moves now, each as JSON and in the text notation."""

    @extend_schema(
        operation_id="legal_moves_list", tags=["moves"], summary="My legal moves now",
        parameters=[GAME_ID],
        responses={200: LegalMovesSerializer, 404: NO_SUCH_GAME}, examples=examples.LEGAL_MOVES,
    )
    @conditional_read
    def get(self, request, game_id: int):
        viewer = selectors.viewer_of(game_id, request.user)
        return Response({"seq": viewer.game.seq, "moves": selectors.legal_moves_for(viewer)})


def _move_key(request, in_body: str | None) -> str | None:
    """A move's key: its body's idempotency_key or the Idempotency-Key header, as the other creates take it."""
    in_header = key_of(request)
    if in_header is not None and in_body is not None and in_header != in_body:
        raise UnprocessableInput({"idempotency_key": [gettext(
            "The Idempotency-Key header and idempotency_key name different keys: send one, or the same in both.")]})
    return in_body if in_body is not None else in_header


def answers_the_whole_game(request) -> bool:
    """Tell whether a move's answer still carries the whole game: asked without ``Prefer: return=minimal``, before
    the deprecation's sunset (from then on every move gets the mover's answer, ``presenters.move_answer``)."""
    return not prefers_minimal(request) and not WHOLE_MOVE_ANSWER.is_past_sunset()


class MoveSubmitApi(APIView):
    """Play a move: ``move`` (JSON) or ``text`` (notation), for the position ``expected_seq``."""

    throttle_scope = "moves"

    class InputSerializer(BodySerializer):
        move = JSONObjectField(required=False, help_text="A move as legal-moves lists it (send this or text).")
        text = serializers.CharField(required=False, max_length=200,
                                     help_text="The move in the text notation (send this or move).")
        expected_seq = serializers.IntegerField(min_value=0, max_value=MAX_SEQ,
                                                help_text="The seq of the position you are answering.")
        idempotency_key = serializers.CharField(
            required=False, max_length=100,
            help_text="Your name for this submission: sending it again returns the first answer and plays nothing.",
        )
        exactly_one_of = ("move", "text")  # the schema's oneOf

        def validate(self, attrs):
            if ("move" in attrs) == ("text" in attrs):
                raise serializers.ValidationError(gettext("Send either a move or its text, not both or neither."))
            return attrs

    @extend_schema(
        operation_id="moves_create", tags=["moves"], summary="Play a move", parameters=[
            GAME_ID,
            OpenApiParameter("Prefer", str, OpenApiParameter.HEADER,
                             description="return=minimal (RFC 7240; other preferences are ignored): answer only what "
                                         "the mover needs (MovePlayedMinimal: the position, whose turn, my view, my "
                                         "legal moves when I act again), with Preference-Applied: return=minimal. "
                                         "Without it, until " + WHOLE_MOVE_ANSWER.sunset_on.isoformat() + ": the "
                                         "whole game besides (MovePlayed, deprecated); from then on, the mover's "
                                         "answer whatever is sent."),
            created_location("the position the move made (GET /api/games/{id}/positions/{seq}/)"),
        ],
        description="Send exactly one of move (the game's JSON, as legal-moves lists it) or text (the notation), "
                    "with expected_seq, the position you answer. A repeated idempotency_key answers 200 with the "
                    "first outcome (replayed: true) and plays nothing. The answer carries my legal moves when I "
                    "am to act again at once, so a client following the stream (?include=actions) never needs "
                    "legal-moves.",
        request=InputSerializer, examples=examples.SUBMIT_MOVE,
        responses={
            201: OpenApiResponse(MOVE_PLAYED, description="The move was played: the mover's answer (with Prefer: "
                                                          "return=minimal, and for every move from the sunset on), "
                                                          "or the whole game besides (deprecated)."),
            200: OpenApiResponse(MOVE_PLAYED, description="A repeated idempotency_key: the first answer."),
            400: error("Malformed: not as the schema says (neither or both of move and text, for one)."),
            422: error("The game refused the move, or its text names no move: detail is the game's reason."),
            403: error("I watch this game but have no seat in it."),
            404: NO_SUCH_GAME,
            409: error("Not my turn, the game is not in play, a bot plays my seat, or a stale expected_seq "
                       "(then seq and game carry the current position).", MoveConflictSerializer),
        },
    )
    @deprecated(WHOLE_MOVE_ANSWER, when=answers_the_whole_game)
    @keyed
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
                idempotency_key=_move_key(request, data.validated_data.get("idempotency_key")),
            )
        except StaleSequence as stale:
            # Hand back the fresh position so the client can decide again without another request.
            body = {"detail": stale.detail, "seq": stale.current_seq, "game": _game_detail(game_id, request)}
            return Response(body, status=stale.status)
        # The game as the move left it is in memory, seats and clocks included: nothing to read again.
        body = {"seq": outcome.move.seq, "text": outcome.move.text, "replayed": outcome.replayed}
        code = status.HTTP_200_OK if outcome.replayed else status.HTTP_201_CREATED
        headers = ({REPLAYED_HEADER: "true"} if outcome.replayed
                   else {"Location": reverse("api-position", args=[game_id, outcome.move.seq])})
        if not answers_the_whole_game(request):
            applied = {"Preference-Applied": "return=minimal"} if prefers_minimal(request) else {}
            return Response({**body, **move_answer(outcome.game, outcome.move.seat)}, status=code,
                            headers={**headers, **applied})
        # Deprecated (WHOLE_MOVE_ANSWER): the whole game besides, as the GET answers it, until the sunset.
        legal = selectors.legal_moves_for(selectors.Viewer(game=outcome.game, seat=outcome.move.seat))
        return Response({**body, "legal_moves": legal, "game": _game_answer(outcome.game, request.user)}, status=code,
                        headers=headers)


def prefers_minimal(request) -> bool:
    """Tell whether the request asks for the lean answer: ``Prefer: return=minimal`` (RFC 7240). Any other
    preference, a malformed one or none gets the whole answer, as a server may ignore what it does not know."""
    for preference in request.headers.get("Prefer", "").split(","):
        token, _, value = preference.split(";")[0].partition("=")
        if token.strip().lower() == "return" and value.strip().strip('"').lower() == "minimal":
            return True
    return False


# A page of history holds the events of this many moves: every move of most games at once.
API_HISTORY_PAGE_MOVES = MAX_PAGE_SIZE


class HistoryApi(APIView):
    """The events I may see after seq ``since``, a page of moves at a time."""

    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="history_list", tags=["moves"], summary="What happened, as I may see it",
        description="The events I may see of the moves after seq `since`, oldest first. A page holds the events "
                    "of `page_size` moves; `next` goes on while more moves follow. To poll, send `since` set to "
                    "the `seq` of the last answer (and its ETag in If-None-Match).",
        parameters=[
            GAME_ID,
            OpenApiParameter("since", {"type": "integer", "minimum": 0, "maximum": MAX_SEQ, "default": 0},
                             description="Only events of moves after this seq."),
            *cursor_parameters(API_HISTORY_PAGE_MOVES),
        ],
        responses={200: HistorySerializer, 404: NO_SUCH_GAME}, examples=examples.HISTORY,
    )
    @conditional_read
    @reads_from_replica
    def get(self, request, game_id: int):
        raw = request.query_params.get("since", "0")
        # ASCII digits only: str.isdigit() also takes '²', which int() then refuses.
        if not re.fullmatch(r"[0-9]{1,10}", raw) or int(raw) > MAX_SEQ:
            raise serializers.ValidationError(
                {"since": [gettext("since must be a whole number from 0 to %(max)s.") % {"max": MAX_SEQ}]})
        viewer = selectors.viewer_of(game_id, request.user)
        # By seq, a page of moves: what a page holds is the same for every viewer, whatever each may see of it.
        page = paginate(request, selectors.history_moves(viewer, since=int(raw)), ordering=("seq",),
                        page_size=API_HISTORY_PAGE_MOVES)
        return Response(page.body(selectors.history_of_moves(viewer, page.items), seq=viewer.game.seq))


class PositionApi(APIView):
    """The game at one position, as I may see it: the replay, a step at a time."""

    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="positions_retrieve", tags=["moves"], summary="One position of the game, as I may see it",
        description="Replayed from the log: while the game is in play, my own view of that moment (a spectator's "
                    "public view); once it is over, everything the game's rules allow showing, for everyone.",
        parameters=[GAME_ID, OpenApiParameter("seq", int, OpenApiParameter.PATH,
                                              description="The position: 0 is the start, the game's seq the latest.")],
        responses={200: PositionSerializer,
                   404: error("No such game, a private game you are not part of, or no such position in it.")},
    )
    @conditional_read
    @reads_from_replica
    def get(self, request, game_id: int, seq: int):
        viewer = selectors.viewer_of(game_id, request.user)
        return Response(positions.position(viewer, seq).to_json())


class GameTypesApi(APIView):
    """The games this service offers, with their player counts and table options."""

    permission_classes = [AllowAny]

    @extend_schema(operation_id="game_types_list", tags=["game-types"], summary="The games offered",
                   description="The whole catalogue at once (not paged: it is the service's own code, a few entries).",
                   responses={200: GameTypeSerializer(many=True)})
    @conditional_read
    def get(self, request):
        return Response([
            {
                "game": engine.slug,
                "name": engine.display_name(),
                "min_players": engine.min_players,
                "max_players": engine.max_players,
                "default_players": engine.default_players,
                "options": [spec.to_json() for spec in engine.worded_option_specs()],
                "bots": list(engine.bots()),
                "notation": engine.notation_help(),
                "assets": {name: request.build_absolute_uri(url) for name, url in asset_urls(engine.slug).items()},
            }
            for engine in engines().values()
        ])
