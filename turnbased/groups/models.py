"""Groups (clubs): a name and a description, an owner and admins, members, the invitations and requests that let
people in, and the tables kept for the members (docs/players.md, "Groups")."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class Entry(models.TextChoices):
    """How a person becomes a member."""

    OPEN = "open", "anyone may join"
    REQUEST = "request", "by request, which an admin accepts"
    INVITATION = "invitation", "by an admin's invitation only"


class TablesBy(models.TextChoices):
    """Who may make the group's tables (and, once they exist, its events)."""

    MEMBERS = "members", "any member"
    ADMINS = "admins", "the admins only"


class Role(models.TextChoices):
    OWNER = "owner", "owner"
    ADMIN = "admin", "admin"
    MEMBER = "member", "member"


# The roles the owner gives and takes back (the owner's own changes only by handing the group over).
ROLES_GIVEN = [(Role.ADMIN.value, Role.ADMIN.label), (Role.MEMBER.value, Role.MEMBER.label)]


class Group(models.Model):
    name = models.CharField(max_length=60)
    description = models.TextField(blank=True, max_length=2000)
    entry = models.CharField(max_length=12, choices=Entry.choices, default=Entry.OPEN)
    tables_by = models.CharField(max_length=8, choices=TablesBy.choices, default=TablesBy.MEMBERS)
    created_at = models.DateTimeField(auto_now_add=True)
    # Kept on the row, as a join of its memberships would count 5,000 rows for every list of groups.
    member_count = models.PositiveIntegerField(default=0)

    class Meta:
        indexes = [models.Index(fields=["name", "id"], name="groups_group_name")]

    def __str__(self) -> str:
        return self.name


class GroupNameSkeleton(models.Model):
    """One look-alike key of a group's name; unique, so two groups cannot bear names that read as one."""

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="name_skeletons")
    skeleton = models.TextField(unique=True)

    def __str__(self) -> str:
        return f"{self.skeleton!r} of group {self.group_id}"


class Membership(models.Model):
    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    role = models.CharField(max_length=8, choices=Role.choices, default=Role.MEMBER)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            # Its index serves the group's reads (is this person a member, the members by group).
            models.UniqueConstraint(fields=["group", "user"], name="groups_membership_unique"),
            models.UniqueConstraint(fields=["group"], condition=Q(role="owner"), name="groups_one_owner"),
        ]
        # A person's groups (the lobby's, the new-table form's): by person, not by group.
        indexes = [models.Index(fields=["user", "group"], name="groups_membership_user")]

    def __str__(self) -> str:
        return f"{self.user_id} is {self.role} of group {self.group_id}"


class Invitation(models.Model):
    """An admin asked ``invitee`` to join; the invitee accepts (a membership) or declines (the row goes)."""

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="invitations")
    invitee = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    inviter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["group", "invitee"], name="groups_invitation_unique")]
        indexes = [models.Index(fields=["invitee", "created_at"], name="groups_invitation_invitee")]

    def __str__(self) -> str:
        return f"{self.invitee_id} invited to group {self.group_id}"


class Request(models.Model):
    """``user`` asked to join a group taking members by request; an admin accepts or declines it."""

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="requests")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["group", "user"], name="groups_request_unique")]
        indexes = [models.Index(fields=["user"], name="groups_request_user")]

    def __str__(self) -> str:
        return f"{self.user_id} asks to join group {self.group_id}"


class GroupTable(models.Model):
    """A table kept for a group's members: listed, seen and joined by them alone. A deleted group's tables play
    on (the row goes; the table stays private to the people at it)."""

    game = models.OneToOneField("play.Game", on_delete=models.CASCADE, primary_key=True, related_name="+")
    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="tables")

    class Meta:
        indexes = [models.Index(fields=["group", "game"], name="groups_table_group")]

    def __str__(self) -> str:
        return f"game {self.game_id} of group {self.group_id}"
