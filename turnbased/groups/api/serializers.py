"""The API's shapes of groups."""

from __future__ import annotations

from rest_framework import serializers

from turnbased.groups.models import ROLES_GIVEN, Entry, Role, TablesBy
from turnbased.groups.services import DESCRIPTION_MAX, NAME_MAX, NAME_MIN
from turnbased.kit.api.input import BodySerializer
from turnbased.kit.api.pagination import page_of


class GroupInputSerializer(BodySerializer):
    # The lengths the schema states are the service's; what it cannot state (one alphabet, no control characters,
    # unique under look-alikes) the service refuses in words (422, 409).
    name = serializers.CharField(min_length=NAME_MIN, max_length=NAME_MAX, trim_whitespace=False,
                                 help_text="3 to 60 characters, of one alphabet; unique, look-alikes included.")
    description = serializers.CharField(required=False, allow_blank=True, max_length=DESCRIPTION_MAX,
                                        trim_whitespace=False, help_text="At most 2,000 characters.")
    entry = serializers.ChoiceField(choices=Entry.choices, required=False,
                                    help_text="open: anyone joins at once; request: an admin accepts each; "
                                              "invitation: only people an admin invites.")
    tables_by = serializers.ChoiceField(choices=TablesBy.choices, required=False,
                                        help_text="Who may make the group's tables: any member, or the admins.")

    class Meta:
        ref_name = "GroupRequest"


class GroupChangeSerializer(GroupInputSerializer):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["name"].required = False

    class Meta:
        ref_name = "GroupChangeRequest"


class GroupSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    description = serializers.CharField()
    entry = serializers.ChoiceField(choices=Entry.choices)
    tables_by = serializers.ChoiceField(choices=TablesBy.choices)
    member_count = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    my_role = serializers.CharField(allow_null=True, help_text="My place in the group: owner, admin or member; null "
                                                               "when I am not a member.")
    url = serializers.URLField(help_text="The group's page.")

    class Meta:
        ref_name = "Group"


class MemberSerializer(serializers.Serializer):
    username = serializers.CharField()
    role = serializers.ChoiceField(choices=Role.choices)
    joined_at = serializers.DateTimeField()

    class Meta:
        ref_name = "GroupMember"


class PersonSerializer(BodySerializer):
    username = serializers.CharField(max_length=150, trim_whitespace=True, help_text="The player's username (any case).")

    class Meta:
        ref_name = "GroupPersonRequest"


class RoleSerializer(BodySerializer):
    role = serializers.ChoiceField(choices=ROLES_GIVEN,
                                   help_text="admin, or member (no longer an admin).")

    class Meta:
        ref_name = "GroupRoleRequest"


class JoinedSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=["member", "requested"],
                                     help_text="member: I am in; requested: my request waits for an admin.")

    class Meta:
        ref_name = "GroupJoin"


class InvitationSerializer(serializers.Serializer):
    group = GroupSerializer()
    invitee = serializers.CharField(help_text="Who is invited.")
    inviter = serializers.CharField(help_text="The admin who invited them.")
    created_at = serializers.DateTimeField()

    class Meta:
        ref_name = "GroupInvitation"


class RequestSerializer(serializers.Serializer):
    username = serializers.CharField(help_text="Who asks to join.")
    created_at = serializers.DateTimeField()

    class Meta:
        ref_name = "GroupJoinRequest"


class GroupTableSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="The game's id (GET /api/games/{id}/).")
    name = serializers.CharField()
    engine = serializers.CharField()
    status = serializers.CharField(help_text="open, active or finished.")
    players = serializers.ListField(child=serializers.CharField(), help_text="Who sits at it, in seat order.")
    seat_count = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    last_move_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)

    class Meta:
        ref_name = "GroupTable"


GroupListSerializer = page_of("GroupList", GroupSerializer, description="Groups, the newest first.")
MemberListSerializer = page_of("GroupMemberList", MemberSerializer, description="Members, in the order they joined.")
InvitationListSerializer = page_of("GroupInvitationList", InvitationSerializer,
                                   description="Invitations waiting for an answer, the latest first.")
RequestListSerializer = page_of("GroupJoinRequestList", RequestSerializer,
                                description="Requests waiting for an admin, the oldest first.")
GroupTableListSerializer = page_of("GroupTableList", GroupTableSerializer, description="Tables, the newest first.")
