"""REST API of groups: thin adapters over ``turnbased.groups.services`` and ``selectors``."""

from __future__ import annotations

from django.conf import settings
from django.urls import reverse
from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.exceptions import NotFound as ApiNotFound
from rest_framework.response import Response
from rest_framework.views import APIView

from turnbased.groups import selectors, services
from turnbased.groups.api.serializers import (
    GroupChangeSerializer, GroupInputSerializer, GroupListSerializer, GroupSerializer, GroupTableListSerializer,
    InvitationListSerializer, InvitationSerializer, JoinedSerializer, MemberListSerializer, MemberSerializer,
    PersonSerializer, RequestListSerializer, RoleSerializer,
)
from turnbased.groups.models import Group, Membership
from turnbased.idempotency.once import idempotent
from turnbased.kit.api.conditional import conditional_read
from turnbased.kit.api.pagination import cursor_parameters, paginate
from turnbased.kit.api.schema import created_location, error
from turnbased.kit.errors import NotFound, Unprocessable
from turnbased.play import selectors as play_selectors
from turnbased.play.models import GameStatus

GROUP_ID = OpenApiParameter("group_id", int, OpenApiParameter.PATH, description="The group's id.")
USERNAME = OpenApiParameter("username", str, OpenApiParameter.PATH, description="The player's username (any case).")
NO_GROUP = error("No group has that id.")
ADMINS_ONLY = error("Only the group's admins (or its owner) may do this.")
NO_SUCH_PLAYER = error("No player by that name, or my own name.")
QUERY = OpenApiParameter("q", str, description="Only the groups whose name or description holds these words.")
TABLE_STATUS = OpenApiParameter("status", str, enum=["open", "active", "finished"],
                                description="open: taking players (the default); active: in play; finished.")


def _group(group_id: int) -> Group:
    try:
        return selectors.group_of(group_id)
    except NotFound:
        raise ApiNotFound(gettext("No such group.")) from None


def _shown(group: Group, role: str | None) -> dict:
    return {"id": group.pk, "name": group.name, "description": group.description, "entry": group.entry,
            "tables_by": group.tables_by, "member_count": group.member_count, "created_at": group.created_at,
            "my_role": role, "url": f"{settings.SITE_URL}{reverse('groups-detail', args=[group.pk])}"}


def _roles(user, groups) -> dict[int, str]:
    """The user's role in each of ``groups``, in one statement."""
    return dict(Membership.objects.filter(user=user, group__in=[group.pk for group in groups])
                .values_list("group_id", "role"))


def _named_in_path(action, **arguments):
    """Run an action on the player the path names; a name that names nobody is a 404, as any path."""
    try:
        return action(**arguments)
    except Unprocessable:
        raise ApiNotFound(gettext("No such player.")) from None


class GroupListApi(APIView):
    """Every group; make one."""

    throttle_scope = "groups"

    @extend_schema(operation_id="groups_list", tags=["groups"], summary="Groups",
                   parameters=[QUERY, *cursor_parameters()], responses={200: GroupListSerializer})
    @conditional_read
    def get(self, request):
        page = paginate(request, selectors.directory(request.query_params.get("q", "")), ordering=("-pk",))
        roles = _roles(request.user, page.items)
        return Response(page.body([_shown(group, roles.get(group.pk)) for group in page.items]))

    @extend_schema(operation_id="groups_create", tags=["groups"], summary="Make a group",
                   description="I become its owner and first member.",
                   request=GroupInputSerializer, parameters=[created_location("the group")],
                   responses={201: GroupSerializer,
                              409: error("A group by that name (or one that looks the same) exists, or I own or "
                                         "belong to as many groups as one account may."),
                              422: error("A name too short or long, with invisible characters, or mixing alphabets.")})
    @idempotent
    def post(self, request):
        data = GroupInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        group = services.group_create(user=request.user, **data.validated_data)
        return Response(_shown(group, "owner"), status=status.HTTP_201_CREATED,
                        headers={"Location": reverse("api-group", args=[group.pk])})


class MyGroupsApi(APIView):
    @extend_schema(operation_id="my_groups_list", tags=["groups"], summary="My groups",
                   parameters=cursor_parameters(), responses={200: GroupListSerializer})
    @conditional_read
    def get(self, request):
        page = paginate(request, selectors.my_memberships(request.user), ordering=("-pk",))
        return Response(page.body([_shown(row.group, row.role) for row in page.items]))


class GroupApi(APIView):
    """One group: read it, change it (its admins), delete it (its owner)."""

    @extend_schema(operation_id="groups_retrieve", tags=["groups"], summary="A group", parameters=[GROUP_ID],
                   responses={200: GroupSerializer, 404: NO_GROUP})
    @conditional_read
    def get(self, request, group_id: int):
        group = _group(group_id)
        membership = selectors.membership_of(group, request.user)
        return Response(_shown(group, membership.role if membership else None))

    @extend_schema(operation_id="groups_partial_update", tags=["groups"], summary="Change a group",
                   description="Its admins may change its name, description, entry and who makes its tables. "
                               "Opening a group taking requests lets in everyone who asked.",
                   parameters=[GROUP_ID], request=GroupChangeSerializer,
                   responses={200: GroupSerializer, 403: ADMINS_ONLY, 404: NO_GROUP,
                              409: error("Another group bears that name, or one that looks the same.")})
    def patch(self, request, group_id: int):
        _group(group_id)
        data = GroupChangeSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        group = services.group_update(user=request.user, group_id=group_id, **data.validated_data)
        return Response(_shown(group, selectors.membership_of(group, request.user).role))

    @extend_schema(operation_id="groups_destroy", tags=["groups"], summary="Delete a group",
                   description="Its owner only. Its members, invitations and requests go; its tables play on, "
                               "each with the people seated at it.",
                   parameters=[GROUP_ID], responses={204: None, 403: error("I am not the group's owner."),
                                                     404: NO_GROUP})
    def delete(self, request, group_id: int):
        _group(group_id)
        services.group_delete(user=request.user, group_id=group_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class MembersApi(APIView):
    """A group's members; join it (or ask to)."""

    throttle_scope = "groups"

    @extend_schema(operation_id="group_members_list", tags=["groups"], summary="A group's members",
                   parameters=[GROUP_ID, *cursor_parameters()], responses={200: MemberListSerializer, 404: NO_GROUP})
    @conditional_read
    def get(self, request, group_id: int):
        group = _group(group_id)
        rows = Membership.objects.filter(group=group).select_related("user")
        page = paginate(request, rows, ordering=("pk",))
        return Response(page.body([{"username": row.user.get_username(), "role": row.role,
                                    "joined_at": row.joined_at} for row in page.items]))

    @extend_schema(operation_id="group_members_create", tags=["groups"], summary="Join a group",
                   description="An open group lets me in at once (201, member); one taking requests records my "
                               "request for its admins (202, requested); one taking invitations lets me in if I "
                               "was invited. Joining again changes nothing (200).",
                   parameters=[GROUP_ID, created_location("my membership (under /api/groups/{id}/members/)")],
                   request=None,
                   responses={201: JoinedSerializer, 202: JoinedSerializer, 200: JoinedSerializer, 404: NO_GROUP,
                              403: error("The group takes members by invitation only, or I may not ask to join."),
                              409: error("I belong to as many groups as one account may.")})
    @idempotent
    def post(self, request, group_id: int):
        group = _group(group_id)
        already = selectors.membership_of(group, request.user) is not None
        membership, _request = services.join(user=request.user, group_id=group.pk)
        if membership is not None:
            where = reverse("api-group-member", args=[group.pk, request.user.get_username()])
            return Response({"status": "member"}, status=status.HTTP_200_OK if already else status.HTTP_201_CREATED,
                            headers={"Location": where})
        return Response({"status": "requested"}, status=status.HTTP_202_ACCEPTED)


class MemberApi(APIView):
    """One member: change their role (the owner), remove them (the admins), or leave (oneself)."""

    @extend_schema(operation_id="group_members_retrieve", tags=["groups"], summary="A member of a group",
                   parameters=[GROUP_ID, USERNAME],
                   responses={200: MemberSerializer, 404: error("No group has that id, or no member that name.")})
    @conditional_read
    def get(self, request, group_id: int, username: str):
        group = _group(group_id)
        row = Membership.objects.filter(group=group, user__username__iexact=username[:150]).select_related("user") \
            .first()
        if row is None:
            raise ApiNotFound(gettext("No such member."))
        return Response({"username": row.user.get_username(), "role": row.role, "joined_at": row.joined_at})

    @extend_schema(operation_id="group_members_partial_update", tags=["groups"], summary="Make a member an admin",
                   description="The owner only: admin, or member again.", parameters=[GROUP_ID, USERNAME],
                   request=RoleSerializer,
                   responses={200: MemberSerializer, 403: error("I am not the group's owner."), 404: NO_GROUP,
                              409: error("They are not a member, or they own the group.")})
    def patch(self, request, group_id: int, username: str):
        group = _group(group_id)
        data = RoleSerializer(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        if "role" not in data.validated_data:  # a change of nothing: the member as they are
            return self.get(request, group.pk, username)
        row = _named_in_path(services.role_set, user=request.user, group_id=group_id, username=username,
                             role=data.validated_data["role"])
        return Response({"username": row.user.get_username(), "role": row.role, "joined_at": row.joined_at})

    @extend_schema(operation_id="group_members_destroy", tags=["groups"], summary="Leave a group, or remove a member",
                   description="My own name: I leave (the owner hands the group over or deletes it instead). "
                               "Another's: the admins remove a member, the owner an admin too. Seats at the "
                               "group's tables stay.",
                   parameters=[GROUP_ID, USERNAME],
                   responses={204: None, 403: ADMINS_ONLY, 404: NO_GROUP,
                              409: error("Not a member, or I own the group.")})
    def delete(self, request, group_id: int, username: str):
        _group(group_id)
        if username.strip().casefold() == request.user.get_username().casefold():
            services.leave(user=request.user, group_id=group_id)
        else:
            _named_in_path(services.member_remove, user=request.user, group_id=group_id, username=username)
        return Response(status=status.HTTP_204_NO_CONTENT)


class OwnerApi(APIView):
    @extend_schema(operation_id="group_owner_create", tags=["groups"], summary="Hand a group over",
                   description="The owner only: the member named becomes the owner, and I one of its admins.",
                   parameters=[GROUP_ID], request=PersonSerializer,
                   responses={200: MemberSerializer, 403: error("I am not the group's owner."), 404: NO_GROUP,
                              409: error("They are not a member, or own as many groups as one account may."),
                              422: NO_SUCH_PLAYER})
    def post(self, request, group_id: int):
        _group(group_id)
        data = PersonSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        row = services.owner_hand_over(user=request.user, group_id=group_id, username=data.validated_data["username"])
        return Response({"username": row.user.get_username(), "role": row.role, "joined_at": row.joined_at})


class InvitationsApi(APIView):
    """A group's invitations waiting for an answer (its admins); invite one more person."""

    throttle_scope = "groups"

    @extend_schema(operation_id="group_invitations_list", tags=["groups"], summary="A group's invitations",
                   parameters=[GROUP_ID, *cursor_parameters()],
                   responses={200: InvitationListSerializer, 403: ADMINS_ONLY, 404: NO_GROUP})
    @conditional_read
    def get(self, request, group_id: int):
        group = _group(group_id)
        services.as_admin(group, request.user)
        page = paginate(request, selectors.invitations_sent(group), ordering=("-pk",))
        return Response(page.body([_invitation(row, None) for row in page.items]))

    @extend_schema(operation_id="group_invitations_create", tags=["groups"], summary="Invite a player to a group",
                   description="The admins only. They see it in their lobby and may accept or decline. A person "
                               "who asked to join is let in at once. Inviting again changes nothing (200).",
                   parameters=[GROUP_ID, created_location("the invitation")], request=PersonSerializer,
                   responses={201: InvitationSerializer, 200: InvitationSerializer, 403: ADMINS_ONLY, 404: NO_GROUP,
                              409: error("Already a member, a block either way, or too many invitations waiting."),
                              422: NO_SUCH_PLAYER})
    @idempotent
    def post(self, request, group_id: int):
        group = _group(group_id)
        data = PersonSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        row, created = services.invite(user=request.user, group_id=group.pk, username=data.validated_data["username"])
        return Response(_invitation(row, None), status=status.HTTP_201_CREATED if created else status.HTTP_200_OK,
                        headers={"Location": reverse("api-group-invitation", args=[group.pk, row.invitee.get_username()])})


class InvitationApi(APIView):
    @extend_schema(operation_id="group_invitations_retrieve", tags=["groups"], summary="An invitation to a group",
                   description="The admins only.", parameters=[GROUP_ID, USERNAME],
                   responses={200: InvitationSerializer, 403: ADMINS_ONLY,
                              404: error("No group has that id, or no invitation of that player waits.")})
    @conditional_read
    def get(self, request, group_id: int, username: str):
        group = _group(group_id)
        services.as_admin(group, request.user)
        row = selectors.invitations_sent(group).filter(invitee__username__iexact=username[:150]).first()
        if row is None:
            raise ApiNotFound(gettext("No such invitation."))
        return Response(_invitation(row, None))

    @extend_schema(operation_id="group_invitations_destroy", tags=["groups"], summary="Withdraw an invitation",
                   description="The admins only; nothing happens if there was none.", parameters=[GROUP_ID, USERNAME],
                   responses={204: None, 403: ADMINS_ONLY, 404: NO_GROUP})
    def delete(self, request, group_id: int, username: str):
        _group(group_id)
        _named_in_path(services.invitation_withdraw, user=request.user, group_id=group_id, username=username)
        return Response(status=status.HTTP_204_NO_CONTENT)


def _invitation(row, role: str | None) -> dict:
    return {"group": _shown(row.group, role), "invitee": row.invitee.get_username(),
            "inviter": row.inviter.get_username(), "created_at": row.created_at}


class RequestsApi(APIView):
    @extend_schema(operation_id="group_requests_list", tags=["groups"], summary="Requests to join a group",
                   description="The admins only.", parameters=[GROUP_ID, *cursor_parameters()],
                   responses={200: RequestListSerializer, 403: ADMINS_ONLY, 404: NO_GROUP})
    @conditional_read
    def get(self, request, group_id: int):
        group = _group(group_id)
        services.as_admin(group, request.user)
        page = paginate(request, selectors.requests_waiting(group), ordering=("pk",))
        return Response(page.body([{"username": row.user.get_username(), "created_at": row.created_at}
                                   for row in page.items]))


class RequestApi(APIView):
    """One request to join: accept it (the admins), decline it (the admins) or take it back (its author)."""

    @extend_schema(operation_id="group_requests_accept", tags=["groups"], summary="Accept a request to join",
                   parameters=[GROUP_ID, USERNAME], request=None,
                   responses={200: MemberSerializer, 403: ADMINS_ONLY, 404: NO_GROUP,
                              409: error("They have not asked, or belong to as many groups as one account may.")})
    def post(self, request, group_id: int, username: str):
        _group(group_id)
        other = _named_in_path(services.request_answer, user=request.user, group_id=group_id, username=username,
                               accept=True)
        row = Membership.objects.get(group_id=group_id, user=other)
        return Response({"username": other.get_username(), "role": row.role, "joined_at": row.joined_at})

    @extend_schema(operation_id="group_requests_destroy", tags=["groups"], summary="Decline a request to join",
                   description="The admins decline another's; my own name takes mine back.",
                   parameters=[GROUP_ID, USERNAME],
                   responses={204: None, 403: ADMINS_ONLY, 404: NO_GROUP, 409: error("They have not asked.")})
    def delete(self, request, group_id: int, username: str):
        _group(group_id)
        if username.strip().casefold() == request.user.get_username().casefold():
            services.request_withdraw(user=request.user, group_id=group_id)
        else:
            _named_in_path(services.request_answer, user=request.user, group_id=group_id, username=username,
                           accept=False)
        return Response(status=status.HTTP_204_NO_CONTENT)


class MyInvitationsApi(APIView):
    @extend_schema(operation_id="my_group_invitations_list", tags=["groups"], summary="My invitations to groups",
                   parameters=cursor_parameters(), responses={200: InvitationListSerializer})
    @conditional_read
    def get(self, request):
        page = paginate(request, selectors.invitations_to(request.user), ordering=("-pk",))
        return Response(page.body([_invitation(row, None) for row in page.items]))


class MyInvitationApi(APIView):
    """An invitation to me: accept it, or decline it."""

    @extend_schema(operation_id="my_group_invitations_accept", tags=["groups"], summary="Accept an invitation",
                   parameters=[GROUP_ID], request=None,
                   responses={200: MemberSerializer, 404: NO_GROUP,
                              409: error("No invitation, or I belong to as many groups as one account may.")})
    def post(self, request, group_id: int):
        _group(group_id)
        row = services.invitation_answer(user=request.user, group_id=group_id, accept=True)
        return Response({"username": request.user.get_username(), "role": row.role, "joined_at": row.joined_at})

    @extend_schema(operation_id="my_group_invitations_destroy", tags=["groups"], summary="Decline an invitation",
                   parameters=[GROUP_ID], responses={204: None, 404: NO_GROUP, 409: error("No invitation.")})
    def delete(self, request, group_id: int):
        _group(group_id)
        services.invitation_answer(user=request.user, group_id=group_id, accept=False)
        return Response(status=status.HTTP_204_NO_CONTENT)


_TABLES = {"open": selectors.open_tables, "active": selectors.games_in_play, "finished": selectors.results}


class GroupTablesApi(APIView):
    """A group's tables, for its members (to anyone else the group has none)."""

    @extend_schema(operation_id="group_tables_list", tags=["groups"], summary="A group's tables",
                   description="Each as any watcher of the game sees it; open a game with GET /api/games/{id}/.",
                   parameters=[GROUP_ID, TABLE_STATUS, *cursor_parameters()],
                   responses={200: GroupTableListSerializer, 404: error("No group has that id, or I am not one of "
                                                                         "its members.")})
    @conditional_read
    def get(self, request, group_id: int):
        group = _group(group_id)
        if not selectors.is_member(group.pk, request.user):
            raise ApiNotFound(gettext("No such group."))
        which = request.query_params.get("status", GameStatus.OPEN)
        if which not in _TABLES:
            raise ApiNotFound(gettext("No such list: status is open, active or finished."))
        page = paginate(request, _TABLES[which](group), ordering=("-pk",))
        games = play_selectors.with_seats(list(page.items))
        return Response(page.body([
            {"id": game.pk, "name": game.title, "engine": game.engine, "status": game.status,
             "players": [seat.display_name for seat in game.seats.all()], "seat_count": game.seat_count,
             "created_at": game.created_at, "last_move_at": game.last_move_at, "finished_at": game.finished_at}
            for game in games]))
