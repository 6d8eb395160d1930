"""Friends' lists tell a follower nothing of a game but what any visitor of it may read (issue 44).

The twin worlds (``worlds.py``) are played to their middle, each by players of its own, and a follower of the
table's creator reads every list that names a friend's game: the lobby's friends' section, the page of friends'
tables and games, and ``/api/friends/tables/`` and ``/api/friends/games/``. Once ids, names and times are set
aside, both worlds read the same; and the game is listed in each, so the comparison compares something.
"""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.platform.secrecy.doors import masked
from tests.platform.secrecy.worlds import SEED, Scenario, ask_for_forced_moves, play_step, scenarios
from turnbased.contacts import services as contacts_services
from turnbased.play import services
from turnbased.play.models import Game, GameStatus

pytestmark = pytest.mark.django_db

SCENARIOS = scenarios()
LISTS = ("/", "/friends/tables/", "/api/friends/tables/", "/api/friends/games/")


def _world(scenario: Scenario, world: int, make_user) -> tuple[Game, dict[str, str]]:
    users = [make_user(f"world{world}-seat{seat}") for seat in range(scenario.players)]
    follower = make_user(f"world{world}-friend")
    contacts_services.follow_add(user=follower, username=users[0].username)
    ask_for_forced_moves(scenario, users)
    game = services.create_game(creator=users[0], engine_slug=scenario.slug, players=scenario.players,
                                options=scenario.options[world], seed=SEED)
    for user in users[1:]:
        services.join_game(game_id=game.pk, user=user)
    for step in scenario.steps[: len(scenario.steps) // 2]:  # mid-game: listed among the friends' games
        play_step(game, users, step, world)
    game.refresh_from_db()
    assert game.status == GameStatus.ACTIVE
    client = Client()
    client.force_login(follower)
    read = {}
    for path in LISTS:
        answer = client.get(path)
        assert answer.status_code == 200, (path, answer.status_code)
        text = answer.content.decode()
        if path != "/api/friends/tables/":  # the open tables' list: a game in play is not among them
            assert f"/games/{game.pk}/" in text or re.search(rf'"id": ?{game.pk}\b', text), path
        text = re.sub(r'"id": ?\d+', '"id": <id>', text)
        read[path] = masked(text, game).replace(f"world{world}-", "world-")
    return game, read


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[scenario.id for scenario in SCENARIOS])
def test_a_follower_reads_the_same_of_a_friends_game_in_both_worlds(scenario, make_user):
    _, one = _world(scenario, 0, make_user)
    _, two = _world(scenario, 1, make_user)
    for path in LISTS:
        assert one[path] == two[path], f"{scenario.id}: {path} tells the worlds apart"
