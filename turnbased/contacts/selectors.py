"""Reads of friends and blocks: the lists a person keeps, their friends' tables and games, and who blocked whom."""

from __future__ import annotations

from collections.abc import Iterable

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.paginator import Page, Paginator
from django.db.models import Exists, OuterRef, Q, QuerySet

from turnbased.accounts.models import is_bot_account
from turnbased.contacts.models import Block, Follow
from turnbased.play import selectors as play_selectors
from turnbased.play.models import Game, GameStatus, Seat, Visibility

# The lists of one's friends and blocked players, and the lobby's friends' tables and games, this many a page.
PAGE_SIZE = 25
# The lobby shows this many of the friends' open tables, and of their games, above its own list.
LOBBY_LISTED = 10


def followed(user: AbstractBaseUser) -> QuerySet:
    """Return the accounts the user follows, by name (``Follow`` rows with the followed account)."""
    return (Follow.objects.filter(follower=user, followed__is_active=True).select_related("followed__profile")
            .order_by("followed__username"))


def blocked(user: AbstractBaseUser) -> QuerySet:
    """Return the accounts the user blocked, by name (``Block`` rows with the blocked account)."""
    return Block.objects.filter(blocker=user).select_related("blocked__profile").order_by("blocked__username")


def page_of(rows: QuerySet, number) -> Page:
    """Return page ``number`` of ``rows`` (a page past the last shows the last; anything not a number, the first)."""
    return Paginator(rows, PAGE_SIZE).get_page(number)


def is_followed(user: AbstractBaseUser | AnonymousUser, other: AbstractBaseUser) -> bool:
    return user.is_authenticated and Follow.objects.filter(follower=user, followed=other).exists()


def is_blocked(user: AbstractBaseUser | AnonymousUser, other: AbstractBaseUser) -> bool:
    """Tell whether ``user`` blocked ``other`` (what the user's own pages show them, never the other's)."""
    return user.is_authenticated and Block.objects.filter(blocker=user, blocked=other).exists()


def blocked_ids(user: AbstractBaseUser):
    """Return the ids of the people the user blocked, as a subquery."""
    return Block.objects.filter(blocker_id=user.pk).values("blocked_id")


def blocker_ids(user: AbstractBaseUser):
    """Return the ids of the people who blocked the user, as a subquery."""
    return Block.objects.filter(blocked_id=user.pk).values("blocker_id")


def blocked_by_any(person_id: int, others: Iterable[int]) -> bool:
    """Tell whether any of ``others`` blocked the person (one statement, on the block index)."""
    others = [other for other in others if other is not None and other != person_id]
    return bool(others) and Block.objects.filter(blocked_id=person_id, blocker_id__in=others).exists()


def blockers_between(one_id: int, other_id: int) -> set[int]:
    """Return which of the two blocked the other (none, one or both: one statement). Anything that pairs people
    keeps a pair with a block apart."""
    return set(Block.objects.filter(Q(blocker_id=one_id, blocked_id=other_id)
                                    | Q(blocker_id=other_id, blocked_id=one_id)).values_list("blocker_id", flat=True))


def blocking_the_viewer(user: AbstractBaseUser) -> Q:
    """Tables at which someone sits, or which someone made, who blocked ``user``: their lists leave them out."""
    blockers = Block.objects.filter(blocked=user).values("blocker_id")
    seated_blocker = Seat.objects.filter(game=OuterRef("pk"), user_id__in=blockers)
    return Q(Exists(seated_blocker)) | Q(created_by_id__in=blockers)


def _with_a_friend(user: AbstractBaseUser) -> Q:
    friends = Follow.objects.filter(follower=user).values("followed_id")
    return Q(Exists(Seat.objects.filter(game=OuterRef("pk"), user_id__in=friends)))


def friends_open_tables(user: AbstractBaseUser) -> QuerySet[Game]:
    """Return the public tables taking players at which someone the user follows sits, newest first; never one at
    which someone who blocked the user sits (a join would be refused)."""
    return play_selectors.open_tables(user).filter(_with_a_friend(user)).order_by("-created_at")


def friends_games(user: AbstractBaseUser) -> QuerySet[Game]:
    """Return the public games in play at which someone the user follows sits (the user's own aside), latest move
    first: each is what a visitor of it may see, its page."""
    return (Game.objects.filter(status=GameStatus.ACTIVE, visibility=Visibility.PUBLIC, held=False)
            .filter(_with_a_friend(user))
            .exclude(seats__user=user).exclude(blocking_the_viewer(user))
            .order_by("-last_move_at", "-pk").select_related("clock").defer("state"))


def lobby_friends(user: AbstractBaseUser) -> dict:
    """Return the lobby's two lists of friends' tables: ``open_tables`` and ``games`` (a few of each, with seats),
    and whether there are more of either (the friends' page lists them all). Nothing for one who follows nobody."""
    if not Follow.objects.filter(follower=user).exists():
        return {"open_tables": [], "games": [], "more": False, "follows": False}
    tables = list(friends_open_tables(user)[:LOBBY_LISTED + 1])
    games = list(friends_games(user)[:LOBBY_LISTED + 1])
    more = len(tables) > LOBBY_LISTED or len(games) > LOBBY_LISTED
    return {"open_tables": play_selectors.with_seats(tables[:LOBBY_LISTED]),
            "games": play_selectors.with_seats(games[:LOBBY_LISTED]), "more": more, "follows": True}


def people_to_invite(user: AbstractBaseUser, limit: int) -> list[dict]:
    """Return whom the invitation form offers (``username``, ``bot_account``): the people the user follows first (by
    name), then the ones they played with lately; never a blocked person, nor one who blocked the user. Three
    statements, whatever the numbers."""
    from turnbased.play.invitation_selectors import recent_opponents

    apart = {name for pair in Block.objects.filter(Q(blocker=user) | Q(blocked=user))
             .values_list("blocker__username", "blocked__username") for name in pair} - {user.get_username()}
    people = {row.followed.get_username(): {"username": row.followed.get_username(),
                                             "bot_account": is_bot_account(row.followed)}
              for row in followed(user).exclude(followed__username__in=apart)[:limit]}
    for row in recent_opponents(user):
        if row["username"] not in apart:
            people.setdefault(row["username"], {"username": row["username"], "bot_account": row["bot_account"]})
    return list(people.values())[:limit]
