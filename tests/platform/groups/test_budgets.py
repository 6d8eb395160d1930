"""A group of 5,000 members and a person in 200 groups cost what a small group and a person in one group cost: the
group's page, its members' list, the lobby, the new-table form and the API's lists run as many statements whatever
the numbers (issue 44)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.test import Client

from tests.platform.play.costs import measured, token_client
from turnbased.groups import services
from turnbased.groups.models import Group, Membership, Role
from turnbased.play import services as play_services

pytestmark = pytest.mark.django_db

MEMBERS = 5000
GROUPS = 200


def _people(prefix: str, count: int) -> list:
    password = make_password(None)
    model = get_user_model()
    model.objects.bulk_create([model(username=f"{prefix}{number}", email=f"{prefix}{number}@example.com",
                                     password=password) for number in range(count)], batch_size=1000)
    return list(model.objects.filter(username__startswith=prefix))


def _club(owner, name: str, members: list) -> Group:
    group = services.group_create(user=owner, name=name, entry="request")
    Membership.objects.bulk_create([Membership(group=group, user=user, role=Role.MEMBER) for user in members],
                                   batch_size=1000)
    Group.objects.filter(pk=group.pk).update(member_count=len(members) + 1)
    play_services.create_game(creator=owner, engine_slug="love-letter", players=3, visibility="private",
                              terms={"group": group.pk})
    return group


def _costs(owner, group) -> dict[str, int]:
    web = Client()
    web.force_login(owner)
    api = token_client(owner)
    api.get("/api/groups/")  # the token's first use notes its last use: not the list's cost
    paths = {"page": f"/groups/{group.pk}/", "members": f"/groups/{group.pk}/members/?page=3",
             "lobby": "/", "new table": "/games/new/", "directory": "/groups/"}
    costs = {name: measured(lambda path=path: web.get(path))[0] for name, path in paths.items()}
    api_paths = {"api members": f"/api/groups/{group.pk}/members/", "api my groups": "/api/me/groups/",
                 "api groups": "/api/groups/", "api tables": f"/api/groups/{group.pk}/tables/"}
    costs |= {name: measured(lambda path=path: api.get(path))[0] for name, path in api_paths.items()}
    for name, cost in costs.items():
        assert cost.status == 200, (name, cost)
    return {name: cost.statements for name, cost in costs.items()}


def test_a_big_club_and_a_busy_member_cost_what_small_ones_do(make_user):
    small_owner, big_owner = make_user("small-owner"), make_user("big-owner")
    small = _club(small_owner, "Small club", _people("few", 30))
    big = _club(big_owner, "Big club", _people("many", MEMBERS))
    # The big club's owner is in GROUPS groups besides, invited to some and deciding requests in others.
    others = _people("host", GROUPS)
    for number, host in enumerate(others):
        other = services.group_create(user=host, name=f"Club number {number}", entry="request")
        Membership.objects.create(group=other, user=big_owner, role=Role.ADMIN if number % 2 else Role.MEMBER)
        services.join(user=others[(number + 1) % GROUPS], group_id=other.pk)  # a request to decide
    for number, host in enumerate(others[:20]):
        invited = services.group_create(user=host, name=f"Inviting club {number}", entry="invitation")
        services.invite(user=host, group_id=invited.pk, username=big_owner.username)
    Membership.objects.create(group=small, user=make_user("small-admin"), role=Role.ADMIN)
    assert Membership.objects.filter(user=big_owner).count() == GROUPS + 1
    small_costs, big_costs = _costs(small_owner, small), _costs(big_owner, big)
    # The small owner reads no invitation or request: the lobby's groups part skips those reads.
    assert {name: cost for name, cost in big_costs.items() if name != "lobby"} == \
        {name: cost for name, cost in small_costs.items() if name != "lobby"}
    assert big_costs["lobby"] <= small_costs["lobby"] + 2, (small_costs, big_costs)
