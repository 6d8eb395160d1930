"""REST API for invitations by username: invite to an open table, list a table's invitations, see and decline mine.

Taking the seat is ``POST /api/games/{id}/join/``, which an invitation opens even at a private table.
"""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.response import Response
from rest_framework.views import APIView

from turnbased.accounts.models import is_bot_account
from turnbased.kit.api.conditional import conditional_read
from turnbased.kit.api.input import BodySerializer
from turnbased.kit.api.pagination import cursor_parameters, page_of, paginate
from turnbased.kit.api.schema import created_location, error
from turnbased.kit.errors import NotAllowed
from turnbased.idempotency.once import idempotent
from turnbased.play import invitation_selectors, selectors, services

GAME_ID = OpenApiParameter("game_id", int, OpenApiParameter.PATH, description="The game's id.")
STATUSES = [("pending", "not answered yet"), ("declined", "declined"), ("seated", "took a seat")]


class InvitationSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="The invitation's id (GET /api/games/{id}/invitations/{invitation_id}/).")
    username = serializers.CharField(help_text="Who is invited.")
    bot_account = serializers.BooleanField(help_text="Whether they are a bot account.")
    invited_by = serializers.CharField(help_text="Who invited them.")
    invited_by_bot_account = serializers.BooleanField(help_text="Whether who invited them is a bot account.")
    created_at = serializers.DateTimeField(help_text="When (ISO 8601, UTC).")
    status = serializers.ChoiceField(choices=STATUSES, help_text="Where the invitation stands.")

    class Meta:
        ref_name = "Invitation"


class MyInvitationSerializer(serializers.Serializer):
    game = serializers.IntegerField(help_text="The table's id.")
    name = serializers.CharField(help_text='The table\'s name, e.g. "Love Letter #42".')
    invited_by = serializers.CharField()
    invited_by_bot_account = serializers.BooleanField(help_text="Whether who invited me is a bot account.")
    created_at = serializers.DateTimeField(help_text="When (ISO 8601, UTC).")
    seated = serializers.IntegerField(help_text="Seats taken.")
    seat_count = serializers.IntegerField()

    class Meta:
        ref_name = "MyInvitation"


class PersonSerializer(serializers.Serializer):
    username = serializers.CharField(help_text="Their username: what POST /api/games/{id}/invitations/ takes.")
    bot_account = serializers.BooleanField(help_text="Whether they are a bot account.")
    last_played_at = serializers.DateTimeField(help_text="When the latest game we shared started (ISO 8601, UTC).")

    class Meta:
        ref_name = "RecentOpponent"


InvitationListSerializer = page_of("InvitationList", InvitationSerializer,
                                   description="Whom the table invited, the first invited first.")
MyInvitationListSerializer = page_of("MyInvitationList", MyInvitationSerializer,
                                     description="My pending invitations, the newest first.")
RecentOpponentListSerializer = page_of("RecentOpponentList", PersonSerializer,
                                       description="The people I played with, the most recent first.")


def _table_of_player(game_id: int, user):
    """Return the table for one of its players (or its creator); others may not see whom it invited."""
    viewer = selectors.viewer_of(game_id, user)
    if not viewer.is_player and viewer.game.created_by_id != user.pk:
        raise NotAllowed(gettext("Only the players at this table can see whom they invited."))
    return viewer.game


class GameInvitationsApi(APIView):
    """Invite a person by username to an open table I play at; list whom the table invited."""

    throttle_scope = "invitations"  # inviting; reading the list counts as any read

    class InputSerializer(BodySerializer):
        username = serializers.CharField(max_length=150, help_text="The username of the person to invite (any case).")

        class Meta:
            ref_name = "InvitationCreateRequest"

    @extend_schema(
        operation_id="games_invitations_list", tags=["invitations"], summary="Whom the table invited",
        parameters=[GAME_ID, *cursor_parameters()],
        responses={200: InvitationListSerializer, 403: error("I do not play at this table."),
                   404: error("No such game, or a private game you are not part of.")},
    )
    @conditional_read
    def get(self, request, game_id: int):
        game = _table_of_player(game_id, request.user)
        page = paginate(request, invitation_selectors.invitations_to(game), ordering=("pk",))
        return Response(page.body(InvitationSerializer(invitation_selectors.invitation_rows(game, page.items), many=True).data))

    @extend_schema(
        operation_id="games_invitations_create", tags=["invitations"], summary="Invite a person to an open table",
        description="The invited person sees the invitation in their lobby (and GET /api/invitations/) and gets an "
                    "email; they take the seat with POST /api/games/{id}/join/ or decline. Inviting someone already "
                    "invited changes nothing (200); nothing changes on any error.",
        parameters=[GAME_ID, created_location("the invitation (GET /api/games/{id}/invitations/{invitation_id}/)")],
        request=InputSerializer,
        examples=[OpenApiExample("Invite ben", request_only=True, value={"username": "ben"})],
        responses={
            201: InvitationSerializer, 200: InvitationSerializer,
            400: error("No player has that username, or it is my own."),
            403: error("I do not play at this table."),
            404: error("No such game, or a private game you are not part of."),
            409: error("The table is full or no longer taking players, the person already sits at it, "
                       "or they declined an invitation to it."),
        },
    )
    @idempotent
    def post(self, request, game_id: int):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        invitation, created = services.invitation_create(game_id=game_id, user=request.user,
                                                username=data.validated_data["username"])
        # An invitation answered here is pending: the service refuses a declined one and a seated guest.
        row = invitation_selectors.invitation_row(invitation, "pending")
        if not created:
            return Response(InvitationSerializer(row).data)
        return Response(InvitationSerializer(row).data, status=status.HTTP_201_CREATED,
                        headers={"Location": reverse("api-game-invitation", args=[game_id, invitation.pk])})


class GameInvitationDetailApi(APIView):
    """One invitation to a table I play at: whom, by whom, when, and where it stands."""

    @extend_schema(
        operation_id="games_invitations_retrieve", tags=["invitations"], summary="One invitation to the table",
        parameters=[GAME_ID, OpenApiParameter("invitation_id", int, OpenApiParameter.PATH,
                                              description="The invitation's id.")],
        responses={200: InvitationSerializer, 403: error("I do not play at this table."),
                   404: error("No such invitation to this table, no such game, or a private game you are not "
                              "part of.")},
    )
    @conditional_read
    def get(self, request, game_id: int, invitation_id: int):
        game = _table_of_player(game_id, request.user)
        invitation = invitation_selectors.invitations_to(game).filter(pk=invitation_id).first()
        if invitation is None:
            raise NotFound(gettext("No such invitation."))
        return Response(InvitationSerializer(invitation_selectors.invitation_rows(game, [invitation])[0]).data)


class InvitationDeclineApi(APIView):
    """Decline my invitation to a table."""

    @extend_schema(
        operation_id="games_invitations_decline", tags=["invitations"], summary="Decline my invitation",
        parameters=[GAME_ID], request=None,
        responses={204: None, 403: error("I have no invitation to this table."),
                   404: error("No such game, or a private game you are not part of.")},
    )
    def post(self, request, game_id: int):
        services.invitation_decline(game_id=game_id, user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class MyInvitationsApi(APIView):
    """My pending invitations to open tables with a free seat, newest first."""

    @extend_schema(operation_id="invitations_list", tags=["invitations"], summary="My pending invitations",
                   parameters=cursor_parameters(), responses={200: MyInvitationListSerializer})
    @conditional_read
    def get(self, request):
        page = paginate(request, invitation_selectors.pending_invitations_query(request.user), ordering=("-pk",))
        rows = [
            {"game": invitation.game_id, "name": invitation.game.title, "invited_by": invitation.invited_by.get_username(),
             "invited_by_bot_account": is_bot_account(invitation.invited_by), "created_at": invitation.created_at,
             "seated": invitation.seated, "seat_count": invitation.game.seat_count}
            for invitation in page.items
        ]
        return Response(page.body(MyInvitationSerializer(rows, many=True).data))


class PeopleIPlayedWithApi(APIView):
    """The people I played with, to pick whom to invite (the table page suggests the same names)."""

    @extend_schema(
        operation_id="invitations_people", tags=["invitations"], summary="People I played with",
        description="The accounts I shared a game with (built-in bots and closed accounts aside; bot accounts "
                    "included, flagged bot_account), the one I played with most recently first, "
                    f"{invitation_selectors.RECENT_OPPONENTS} a page: the names to pick from when inviting.",
        parameters=cursor_parameters(invitation_selectors.RECENT_OPPONENTS), responses={200: RecentOpponentListSerializer},
    )
    @conditional_read
    def get(self, request):
        # Ties on the moment (people who sat at the same table) are told apart by name, as the table page does.
        page = paginate(request, invitation_selectors.played_with(request.user), ordering=("-last_played_at", "username"),
                        page_size=invitation_selectors.RECENT_OPPONENTS)
        return Response(page.body(PersonSerializer(page.items, many=True).data))
