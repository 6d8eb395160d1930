"""REST API for table talk: ``GET/POST /api/games/{id}/messages/``, thin adapters over the chat services."""

from __future__ import annotations

import re

from django.urls import reverse
from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from turnbased.accounts.models import is_bot_account
from turnbased.kit.api.conditional import conditional_read
from turnbased.kit.api.deprecation import MESSAGES_LIMIT, deprecated, uses_query_parameter
from turnbased.kit.api.input import BodySerializer
from turnbased.kit.api.pagination import MAX_PAGE_SIZE, cursor_parameters, page_of, paginate
from turnbased.kit.api.schema import created_location, error
from turnbased.chat import selectors, services
from turnbased.chat.models import MAX_MESSAGE_CHARS, MessageSource
from turnbased.idempotency.once import idempotent

GAME_ID = OpenApiParameter("game_id", int, OpenApiParameter.PATH, description="The game's id.")
MAX_MESSAGE_ID = 2**63 - 1


class MessageSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="Increases with every message of the site: pass the last one as after.")
    seq = serializers.IntegerField(help_text="The move it follows: written when the game was at this seq.")
    author = serializers.CharField(source="author.username", help_text="The player who wrote it.")
    author_bot_account = serializers.SerializerMethodField(help_text="Whether the author is a bot account.")
    text = serializers.CharField(help_text="As written (plain text, line breaks kept): escape it to show it.")
    created_at = serializers.DateTimeField()

    class Meta:
        ref_name = "ChatMessage"

    def get_author_bot_account(self, message) -> bool:
        return is_bot_account(message.author)  # its profile comes with it (``selectors.visible_messages``)


MessageListSerializer = page_of("ChatMessageList", MessageSerializer,
                                description="Oldest first; muted players' messages are left out.")


def _whole_number(params, name: str, default: int, low: int, high: int) -> int:
    raw = params.get(name)
    if raw is None:
        return default
    # ASCII digits only: str.isdigit() also takes '²', which int() then refuses.
    if not re.fullmatch(r"[0-9]{1,19}", raw) or not low <= int(raw) <= high:
        raise serializers.ValidationError(
            {name: [gettext("%(name)s must be a whole number from %(low)s to %(high)s.")
                    % {"name": name, "low": low, "high": high}]})
    return int(raw)


class MessageListApi(APIView):
    """A game's table talk: read it (its players, and anyone who may watch a public game), write it (its players)."""

    throttle_scope = "chat"  # writing; reading counts as any read

    class InputSerializer(BodySerializer):
        text = serializers.CharField(max_length=MAX_MESSAGE_CHARS, trim_whitespace=False,
                                     help_text=f"What to say: plain text, 1 to {MAX_MESSAGE_CHARS} characters "
                                               "once control characters and surrounding blanks are dropped.")

        class Meta:
            ref_name = "ChatMessageCreateRequest"

    def get_permissions(self):
        return [AllowAny()] if self.request.method in ("GET", "HEAD") else [IsAuthenticated()]

    @extend_schema(
        operation_id="messages_list", tags=["chat"], summary="The table talk, as I may read it",
        description="Messages after the id `after` (0: from the first), oldest first, a page at a time; `next` "
                    "goes on while more follow. To poll, send `after` set to the id of the last message read (and "
                    "the last ETag in If-None-Match). A private game's chat is read by its players only; a public "
                    "game's by anyone.",
        parameters=[
            GAME_ID,
            OpenApiParameter("after", {"type": "integer", "minimum": 0, "maximum": MAX_MESSAGE_ID, "default": 0},
                             description="Only messages with a larger id."),
            *cursor_parameters(selectors.API_PAGE),
            OpenApiParameter("limit", {"type": "integer", "minimum": 1, "maximum": MAX_PAGE_SIZE},
                             description="What page_size says, by its old name."),
        ],
        responses={200: MessageListSerializer, 404: error("No such game, or a private game you are not part of.")},
    )
    @deprecated(MESSAGES_LIMIT, when=uses_query_parameter("limit"))
    @conditional_read
    def get(self, request, game_id: int):
        after = _whole_number(request.query_params, "after", 0, 0, MAX_MESSAGE_ID)
        page_size = _whole_number(request.query_params, "limit", selectors.API_PAGE, 1, MAX_PAGE_SIZE)
        viewer = selectors.chat_viewer(game_id, request.user)
        # By id, which only grows: a message keeps its place, and a new one comes last.
        page = paginate(request, selectors.visible_messages(viewer.game, request.user).filter(id__gt=after),
                        ordering=("id",), page_size=page_size)
        return Response(page.body(MessageSerializer(page.items, many=True).data))

    @extend_schema(
        operation_id="messages_create", tags=["chat"], summary="Say something at the table",
        description="Players only. The message follows the game's current move in its history.",
        parameters=[GAME_ID, created_location("the message (GET /api/games/{id}/messages/{message_id}/)")],
        request=InputSerializer,
        responses={
            201: MessageSerializer,
            400: error("An empty message, or one over the length limit."),
            403: error("I watch this game but have no seat in it."),
            404: error("No such game, or a private game you are not part of."),
        },
    )
    @idempotent
    def post(self, request, game_id: int):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        message = services.message_post(game_id=game_id, user=request.user, text=data.validated_data["text"],
                                        source=MessageSource.API)
        return Response(MessageSerializer(message).data, status=status.HTTP_201_CREATED,
                        headers={"Location": reverse("api-message", args=[game_id, message.pk])})


class MessageDetailApi(APIView):
    """One message of a game's table talk, read by whoever may read that talk (and has not muted its author)."""

    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="messages_retrieve", tags=["chat"], summary="One message of the table talk",
        parameters=[GAME_ID, OpenApiParameter("message_id", int, OpenApiParameter.PATH,
                                              description="The message's id.")],
        responses={200: MessageSerializer,
                   404: error("No such message in this game's talk as I may read it, no such game, or a private "
                              "game you are not part of.")},
    )
    @conditional_read
    def get(self, request, game_id: int, message_id: int):
        viewer = selectors.chat_viewer(game_id, request.user)
        message = selectors.visible_messages(viewer.game, request.user).filter(pk=message_id).first()
        if message is None:
            raise NotFound(gettext("No such message."))
        return Response(MessageSerializer(message).data)
