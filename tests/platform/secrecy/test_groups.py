"""A group's pages and lists tell a member nothing of a group's game but what any watcher of it may read, and tell
a non-member nothing of it at all (issue 44).

The twin worlds (``worlds.py``) are played to their middle at a table kept for a group, each world with players
and a group of its own. A member who does not sit at the table reads every page and list of the group that names
its tables (the group's page, its tables' page, the lobby, ``/api/groups/{id}/tables/``); once ids, names and times
are set aside, both worlds read the same, and the game is listed in each, so the comparison compares something.
A stranger reads the same pages: the group's lists are closed to them (404) or say nothing of the table, and the
game itself is a 404, its invite link too.
"""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.platform.secrecy.doors import masked
from tests.platform.secrecy.worlds import SEED, Scenario, ask_for_forced_moves, play_step, scenarios
from turnbased.groups import services as groups_services
from turnbased.play import services
from turnbased.play.models import Game, GameStatus, Visibility

pytestmark = pytest.mark.django_db

SCENARIOS = scenarios()
# make test reads each game's first scenario; make test-long reads the rest (the pages are the same pages: what
# varies is the hidden information, which the first of each game already hides from a member's lists).
FIRST_OF_EACH_GAME = {next(scenario.id for scenario in SCENARIOS if scenario.slug == slug)
                      for slug in dict.fromkeys(scenario.slug for scenario in SCENARIOS)}


def _lists(group_id: int) -> tuple[str, ...]:
    return (f"/groups/{group_id}/", f"/groups/{group_id}/tables/", "/", f"/api/groups/{group_id}/tables/?status=active",
            f"/api/groups/{group_id}/tables/?status=open", f"/api/groups/{group_id}/", f"/groups/{group_id}/members/",
            f"/api/groups/{group_id}/members/")


def _world(scenario: Scenario, world: int, make_user) -> tuple[Game, int, dict[str, str], dict[str, str]]:
    users = [make_user(f"world{world}-seat{seat}") for seat in range(scenario.players)]
    member, stranger = make_user(f"world{world}-member"), make_user(f"world{world}-stranger")
    group = groups_services.group_create(user=users[0], name=f"Club world{world}")
    for user in (*users[1:], member):
        groups_services.join(user=user, group_id=group.pk)
    ask_for_forced_moves(scenario, users)
    game = services.create_game(creator=users[0], engine_slug=scenario.slug, players=scenario.players,
                                options=scenario.options[world], seed=SEED, visibility=Visibility.PRIVATE,
                                terms={"group": group.pk})
    for user in users[1:]:
        services.join_game(game_id=game.pk, user=user)
    for step in scenario.steps[: len(scenario.steps) // 2]:
        play_step(game, users, step, world)
    game.refresh_from_db()
    assert game.status == GameStatus.ACTIVE
    reads = []
    for reader in (member, stranger):
        client = Client()
        client.force_login(reader)
        read = {}
        for path in _lists(group.pk):
            answer = client.get(path)
            text = answer.content.decode()
            listed = f"/games/{game.pk}/" in text or ("/tables/" in path and re.search(rf'"id": ?{game.pk}\b', text))
            if reader is stranger:
                assert not listed and game.title not in text, f"{path} shows a stranger the group's game"
            elif path in (f"/groups/{group.pk}/", f"/groups/{group.pk}/tables/",
                          f"/api/groups/{group.pk}/tables/?status=active"):
                assert listed, path
            text = re.sub(r'"id": ?\d+', '"id": <id>', text)
            text = re.sub(rf"/groups/{group.pk}/|\?group={group.pk}\b|/api/groups/{group.pk}/", "<group>", text)
            read[path.replace(str(group.pk), "<id>")] = \
                f"{answer.status_code} " + masked(text, game).replace(f"world{world}", "world")
        reads.append(read)
        if reader is stranger:
            for path in (f"/games/{game.pk}/", f"/games/{game.pk}/invite/{game.invite_code}/", f"/api/games/{game.pk}/"):
                assert client.get(path).status_code == 404, path
    return game, group.pk, reads[0], reads[1]


@pytest.mark.parametrize("scenario", [
    pytest.param(scenario, id=scenario.id, marks=() if scenario.id in FIRST_OF_EACH_GAME else pytest.mark.long)
    for scenario in SCENARIOS])
def test_a_groups_pages_read_the_same_in_both_worlds_and_show_a_stranger_nothing(scenario, make_user):
    _, _, member_one, stranger_one = _world(scenario, 0, make_user)
    _, _, member_two, stranger_two = _world(scenario, 1, make_user)
    for path in member_one:
        assert member_one[path] == member_two[path], f"{scenario.id}: {path} tells the worlds apart"
        assert stranger_one[path] == stranger_two[path], f"{scenario.id}: {path} tells a stranger the worlds apart"
