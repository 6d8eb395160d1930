"""The groups' operations of the API (clubs: members, invitations, requests, and the tables kept for members),
mixed into ``Client``."""

from __future__ import annotations

from typing import Literal

from turnbased_client.core import UNSET, ApiCore, Unset, operation
from turnbased_client.types import Group, GroupInvitation, GroupJoin, GroupJoinRequest, GroupMember, GroupTable

Entry = Literal["open", "request", "invitation"]
TablesBy = Literal["members", "admins"]


class GroupsApi(ApiCore):
    @operation("groups_list", "GET", "/api/groups/", query=("q", "page_size"), conditional=True, listed="")
    def groups(self, *, q: str | Unset = UNSET, page_size: int | Unset = UNSET) -> list[Group]:
        """Every group, the newest first; ``q`` keeps those whose name or description holds the words."""
        return self._call("groups_list", query={"q": q, "page_size": page_size})

    @operation("my_groups_list", "GET", "/api/me/groups/", query=("page_size",), conditional=True, listed="")
    def my_groups(self, *, page_size: int | Unset = UNSET) -> list[Group]:
        """The groups I am in, with my role in each."""
        return self._call("my_groups_list", query={"page_size": page_size})

    @operation("groups_create", "POST", "/api/groups/", body=("name", "description", "entry", "tables_by"),
               idempotent=True)
    def create_group(self, name: str, *, description: str | Unset = UNSET, entry: Entry | Unset = UNSET,
                     tables_by: TablesBy | Unset = UNSET) -> Group:
        """Make a group, me its owner."""
        return self._call("groups_create", body={"name": name, "description": description, "entry": entry,
                                                 "tables_by": tables_by})

    @operation("groups_retrieve", "GET", "/api/groups/{group_id}/", conditional=True)
    def group(self, group_id: int) -> Group:
        """One group, with my role in it (None when I am not a member)."""
        return self._call("groups_retrieve", {"group_id": group_id})

    @operation("groups_partial_update", "PATCH", "/api/groups/{group_id}/",
               body=("name", "description", "entry", "tables_by"))
    def update_group(self, group_id: int, *, name: str | Unset = UNSET, description: str | Unset = UNSET,
                     entry: Entry | Unset = UNSET, tables_by: TablesBy | Unset = UNSET) -> Group:
        """Change a group (its admins)."""
        return self._call("groups_partial_update", {"group_id": group_id}, body={
            "name": name, "description": description, "entry": entry, "tables_by": tables_by})

    @operation("groups_destroy", "DELETE", "/api/groups/{group_id}/")
    def delete_group(self, group_id: int) -> None:
        """Delete a group (its owner); its tables play on."""
        return self._call("groups_destroy", {"group_id": group_id})

    @operation("group_members_list", "GET", "/api/groups/{group_id}/members/", query=("page_size",),
               conditional=True, listed="")
    def group_members(self, group_id: int, *, page_size: int | Unset = UNSET) -> list[GroupMember]:
        """A group's members, in the order they joined."""
        return self._call("group_members_list", {"group_id": group_id}, query={"page_size": page_size})

    @operation("group_members_create", "POST", "/api/groups/{group_id}/members/", idempotent=True)
    def join_group(self, group_id: int) -> GroupJoin:
        """Join a group, or ask to (``status``: ``member`` or ``requested``)."""
        return self._call("group_members_create", {"group_id": group_id})

    @operation("group_members_retrieve", "GET", "/api/groups/{group_id}/members/{username}/", conditional=True)
    def group_member(self, group_id: int, username: str) -> GroupMember:
        """One member of a group."""
        return self._call("group_members_retrieve", {"group_id": group_id, "username": username})

    @operation("group_members_partial_update", "PATCH", "/api/groups/{group_id}/members/{username}/",
               body=("role",))
    def set_group_role(self, group_id: int, username: str, role: Literal["admin", "member"]) -> GroupMember:
        """Make a member an admin, or an admin a member again (the owner)."""
        return self._call("group_members_partial_update", {"group_id": group_id, "username": username},
                          body={"role": role})

    @operation("group_members_destroy", "DELETE", "/api/groups/{group_id}/members/{username}/")
    def remove_group_member(self, group_id: int, username: str) -> None:
        """Remove a member (the admins); my own name leaves the group."""
        return self._call("group_members_destroy", {"group_id": group_id, "username": username})

    @operation("group_owner_create", "POST", "/api/groups/{group_id}/owner/", body=("username",))
    def hand_over_group(self, group_id: int, username: str) -> GroupMember:
        """Hand a group over to a member (the owner), who becomes its owner."""
        return self._call("group_owner_create", {"group_id": group_id}, body={"username": username})

    @operation("group_invitations_list", "GET", "/api/groups/{group_id}/invitations/", query=("page_size",),
               conditional=True, listed="")
    def group_invitations(self, group_id: int, *, page_size: int | Unset = UNSET) -> list[GroupInvitation]:
        """A group's invitations waiting for an answer (its admins)."""
        return self._call("group_invitations_list", {"group_id": group_id}, query={"page_size": page_size})

    @operation("group_invitations_create", "POST", "/api/groups/{group_id}/invitations/", body=("username",),
               idempotent=True)
    def invite_to_group(self, group_id: int, username: str) -> GroupInvitation:
        """Invite a player to a group (its admins)."""
        return self._call("group_invitations_create", {"group_id": group_id}, body={"username": username})

    @operation("group_invitations_retrieve", "GET", "/api/groups/{group_id}/invitations/{username}/",
               conditional=True)
    def group_invitation(self, group_id: int, username: str) -> GroupInvitation:
        """One invitation a group sent (its admins)."""
        return self._call("group_invitations_retrieve", {"group_id": group_id, "username": username})

    @operation("group_invitations_destroy", "DELETE", "/api/groups/{group_id}/invitations/{username}/")
    def withdraw_group_invitation(self, group_id: int, username: str) -> None:
        """Withdraw an invitation a group sent (its admins)."""
        return self._call("group_invitations_destroy", {"group_id": group_id, "username": username})

    @operation("group_requests_list", "GET", "/api/groups/{group_id}/requests/", query=("page_size",),
               conditional=True, listed="")
    def group_requests(self, group_id: int, *, page_size: int | Unset = UNSET) -> list[GroupJoinRequest]:
        """The requests to join a group waiting for an admin (its admins)."""
        return self._call("group_requests_list", {"group_id": group_id}, query={"page_size": page_size})

    @operation("group_requests_accept", "POST", "/api/groups/{group_id}/requests/{username}/")
    def accept_group_request(self, group_id: int, username: str) -> GroupMember:
        """Accept a request to join (the admins)."""
        return self._call("group_requests_accept", {"group_id": group_id, "username": username})

    @operation("group_requests_destroy", "DELETE", "/api/groups/{group_id}/requests/{username}/")
    def decline_group_request(self, group_id: int, username: str) -> None:
        """Decline a request to join (the admins); my own name takes my request back."""
        return self._call("group_requests_destroy", {"group_id": group_id, "username": username})

    @operation("my_group_invitations_list", "GET", "/api/me/group-invitations/", query=("page_size",),
               conditional=True, listed="")
    def my_group_invitations(self, *, page_size: int | Unset = UNSET) -> list[GroupInvitation]:
        """My invitations to groups, the latest first."""
        return self._call("my_group_invitations_list", query={"page_size": page_size})

    @operation("my_group_invitations_accept", "POST", "/api/me/group-invitations/{group_id}/")
    def accept_group_invitation(self, group_id: int) -> GroupMember:
        """Accept an invitation to a group."""
        return self._call("my_group_invitations_accept", {"group_id": group_id})

    @operation("my_group_invitations_destroy", "DELETE", "/api/me/group-invitations/{group_id}/")
    def decline_group_invitation(self, group_id: int) -> None:
        """Decline an invitation to a group."""
        return self._call("my_group_invitations_destroy", {"group_id": group_id})

    @operation("group_tables_list", "GET", "/api/groups/{group_id}/tables/", query=("status", "page_size"),
               conditional=True, listed="")
    def group_tables(self, group_id: int, *, status: Literal["open", "active", "finished"] | Unset = UNSET,
                     page_size: int | Unset = UNSET) -> list[GroupTable]:
        """A group's tables (its members): taking players (the default), in play, or finished."""
        return self._call("group_tables_list", {"group_id": group_id},
                          query={"status": status, "page_size": page_size})
