"""What a group adds to the core's decisions (``play.facts``): a table made for a group (the term ``group``) is
recorded as the group's and made by a member allowed to; its members see it and take its seats, and nobody else
does, its invite link included; an invitation to it goes to members only."""

from __future__ import annotations

from django.utils.translation import gettext

from turnbased.groups.models import GroupTable, Membership
from turnbased.groups.selectors import group_of, may_make_tables
from turnbased.kit.errors import NotAllowed, Unprocessable
from turnbased.play import facts
from turnbased.play.models import Game, Visibility


def _group_id(game: Game) -> int | None:
    # Read once per game object: a page asks several of these of one table.
    if not hasattr(game, "_kept_for_group"):
        game._kept_for_group = GroupTable.objects.filter(game_id=game.pk).values_list("group_id", flat=True).first()
    return game._kept_for_group


def _member(group_id: int, user) -> bool:
    return user.is_authenticated and Membership.objects.filter(group_id=group_id, user_id=user.pk).exists()


@facts.table_term("group")
def a_table_for_a_group(game: Game, creator, value) -> None:
    group = group_of(value)
    if game.visibility != Visibility.PRIVATE:
        raise Unprocessable(gettext("A group's table is private: seen and joined by the group's members alone."))
    membership = Membership.objects.filter(group=group, user=creator).first()
    if not may_make_tables(group, membership):
        raise NotAllowed(gettext("Only the group's admins may make its tables.") if membership else
                         gettext("Only the group's members may make its tables."))
    GroupTable.objects.create(game=game, group=group)
    game._kept_for_group = group.pk


@facts.sees_private_table
def members_see_their_groups_tables(game: Game, user) -> bool:
    group_id = _group_id(game)
    return group_id is not None and _member(group_id, user)


@facts.link_closed
def a_groups_table_opens_to_members_alone(game: Game, user) -> bool:
    group_id = _group_id(game)
    return group_id is not None and not _member(group_id, user)


@facts.seat_kept
def a_groups_seats_are_for_members(game: Game, user) -> str | None:
    group_id = _group_id(game)
    if group_id is not None and not _member(group_id, user):
        return gettext("You cannot take a seat at this table.")
    return None


@facts.invitation_kept
def a_groups_table_invites_members(game: Game, inviter, invitee) -> str | None:
    group_id = _group_id(game)
    if group_id is not None and not _member(group_id, invitee):
        return gettext("%(name)s is not a member of the group this table is for.") % {"name": invitee.get_username()}
    return None
