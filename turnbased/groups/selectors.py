"""Reads of groups: a group and one's place in it, the directory, one's groups, the members, the group's tables,
and what waits on a person (invitations to answer, requests to decide). Every list is a query the caller pages."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.paginator import Page, Paginator
from django.db.models import Case, IntegerField, Q, QuerySet, Value, When
from django.utils.translation import gettext

from turnbased.groups.models import Group, GroupTable, Invitation, Membership, Request, Role, TablesBy
from turnbased.kit.errors import NotFound
from turnbased.play.models import Game, GameStatus

# Each list of groups, members, invitations and requests, this many a page.
PAGE_SIZE = 25
# The lobby shows this many of one's groups' open tables, of the invitations and of the requests.
LOBBY_LISTED = 10
# A group's page shows this many of its open tables, games in play and results (its lists show them all).
GROUP_PAGE_LISTED = 10
ADMINS = (Role.OWNER, Role.ADMIN)


def page_of(rows: QuerySet, number) -> Page:
    """Return page ``number`` of ``rows`` (past the last, the last; anything not a number, the first)."""
    return Paginator(rows, PAGE_SIZE).get_page(number)


def group_of(group_id) -> Group:
    """Return the group with this id; raise ``NotFound`` for any other value."""
    group = None
    if isinstance(group_id, int) and 0 < group_id < 2**63:
        group = Group.objects.filter(pk=group_id).first()
    if group is None:
        raise NotFound(gettext("No such group."))
    return group


def membership_of(group: Group, user: AbstractBaseUser | AnonymousUser) -> Membership | None:
    if not user.is_authenticated:
        return None
    return Membership.objects.filter(group=group, user=user).first()


def is_member(group_id: int, user: AbstractBaseUser | AnonymousUser) -> bool:
    return user.is_authenticated and Membership.objects.filter(group_id=group_id, user=user).exists()


def may_make_tables(group: Group, membership: Membership | None) -> bool:
    """Tell whether the member may make the group's tables (and, later, its events)."""
    if membership is None:
        return False
    return group.tables_by == TablesBy.MEMBERS or membership.role in ADMINS


def directory(query: str = "") -> QuerySet[Group]:
    """Return every group, by name; those whose name or description holds ``query`` (any case) when one is given."""
    groups = Group.objects.order_by("name", "pk")
    query = query.strip()[:60] if isinstance(query, str) else ""
    if query:
        groups = groups.filter(Q(name__icontains=query) | Q(description__icontains=query))
    return groups


def my_memberships(user: AbstractBaseUser) -> QuerySet[Membership]:
    """Return the user's memberships with their groups, by the group's name."""
    return Membership.objects.filter(user=user).select_related("group").order_by("group__name", "group_id")


def groups_for_tables(user: AbstractBaseUser) -> list[Group]:
    """Return the groups whose tables the user may make (the new-table form offers them), by name."""
    rows = my_memberships(user).filter(Q(group__tables_by=TablesBy.MEMBERS) | Q(role__in=ADMINS))
    return [row.group for row in rows]


_ROLE_RANK = Case(When(role=Role.OWNER, then=Value(0)), When(role=Role.ADMIN, then=Value(1)), default=Value(2),
                  output_field=IntegerField())


def members(group: Group) -> QuerySet[Membership]:
    """Return the group's members: the owner, the admins, then everyone else, each by name."""
    return (Membership.objects.filter(group=group).select_related("user__profile")
            .annotate(rank=_ROLE_RANK).order_by("rank", "user__username"))


def invitations_sent(group: Group) -> QuerySet[Invitation]:
    """Return the group's invitations waiting for an answer, the latest first."""
    return (Invitation.objects.filter(group=group).select_related("invitee__profile", "inviter")
            .order_by("-created_at", "-pk"))


def requests_waiting(group: Group) -> QuerySet[Request]:
    """Return the requests to join the group waiting for an admin, the oldest first."""
    return Request.objects.filter(group=group).select_related("user__profile").order_by("created_at", "pk")


def invitations_to(user: AbstractBaseUser) -> QuerySet[Invitation]:
    """Return the invitations to groups the user has not answered, the latest first."""
    return (Invitation.objects.filter(invitee=user).select_related("group", "inviter")
            .order_by("-created_at", "-pk"))


def requests_to_decide(user: AbstractBaseUser) -> QuerySet[Request]:
    """Return the requests waiting in the groups the user is an admin of, the oldest first."""
    mine = Membership.objects.filter(user=user, role__in=ADMINS).values("group_id")
    return (Request.objects.filter(group_id__in=mine).select_related("group", "user__profile")
            .order_by("created_at", "pk"))


def my_request(group: Group, user: AbstractBaseUser | AnonymousUser) -> Request | None:
    if not user.is_authenticated:
        return None
    return Request.objects.filter(group=group, user=user).first()


def my_invitation(group: Group, user: AbstractBaseUser | AnonymousUser) -> Invitation | None:
    if not user.is_authenticated:
        return None
    return Invitation.objects.filter(group=group, invitee=user).select_related("inviter").first()


def _games_of(group: Group) -> QuerySet[Game]:
    return Game.objects.filter(pk__in=GroupTable.objects.filter(group=group).values("game_id")).defer("state")


def open_tables(group: Group) -> QuerySet[Game]:
    """The group's tables taking players, the newest first."""
    return _games_of(group).filter(status=GameStatus.OPEN).order_by("-created_at", "-pk")


def games_in_play(group: Group) -> QuerySet[Game]:
    """The group's games under way, the latest move first (each row what any watcher of the game may see)."""
    return (_games_of(group).filter(status=GameStatus.ACTIVE).select_related("clock")
            .order_by("-last_move_at", "-pk"))


def results(group: Group) -> QuerySet[Game]:
    """The group's finished games, the latest first."""
    return _games_of(group).filter(status=GameStatus.FINISHED).order_by("-finished_at", "-pk")


def group_of_table(game_id: int) -> int | None:
    """Return the id of the group a table is kept for, or None."""
    return GroupTable.objects.filter(game_id=game_id).values_list("group_id", flat=True).first()


def lobby_groups(user: AbstractBaseUser) -> dict:
    """What the lobby shows of groups: the invitations to answer, the requests to decide and the open tables of
    one's groups (a few of each), and whether there are more. One statement for a person in no group and invited
    to none; at most four more, whatever the numbers."""
    from django.contrib.auth import get_user_model
    from django.db.models import Exists

    from turnbased.play import selectors as play_selectors

    mine = Membership.objects.filter(user_id=user.pk)
    flags = get_user_model().objects.filter(pk=user.pk).values(
        member=Exists(mine), admin=Exists(mine.filter(role__in=ADMINS)),
        invited=Exists(Invitation.objects.filter(invitee_id=user.pk))).first() or {}
    invitations = list(invitations_to(user)[:LOBBY_LISTED + 1]) if flags.get("invited") else []
    requests = list(requests_to_decide(user)[:LOBBY_LISTED + 1]) if flags.get("admin") else []
    tables = []
    if flags.get("member"):
        tables = list(Game.objects.filter(status=GameStatus.OPEN, pk__in=GroupTable.objects.filter(
            group_id__in=mine.values("group_id")).values("game_id")).exclude(seats__user=user)
                      .defer("state").order_by("-created_at", "-pk")[:LOBBY_LISTED + 1])
    return {
        "invitations": invitations[:LOBBY_LISTED], "requests": requests[:LOBBY_LISTED],
        "open_tables": play_selectors.with_seats(tables[:LOBBY_LISTED]),
        "more": max(len(invitations), len(requests), len(tables)) > LOBBY_LISTED,
        "any": bool(invitations or requests or tables),
    }
