"""Following a game tells its follower nothing but what any spectator may read (issue 46).

The twin worlds (``worlds.py``) are played to their middle, each by players of its own, and a follower of the game (who
asked to hear of every move) reads every door following opens: the lobby's followed games, the following page, the
API's watches and followed games, the stream's ``followed_move`` events (worded for them) and the emails of the game's
news. Once ids, names and times are set aside, both worlds read the same; and the game is in each, so the comparison
compares something.
"""

from __future__ import annotations

import hashlib
import json
import re

import pytest
from django.test import Client

from tests.platform.secrecy.doors import masked
from tests.platform.secrecy.worlds import SEED, Scenario, ask_for_forced_moves, play_step, scenarios
from turnbased.events.models import Event, EventKind
from turnbased.events.wording import worded_payload
from turnbased.following import services as following
from turnbased.mail.models import OutgoingEmail
from turnbased.play import services
from turnbased.play.models import Game, GameStatus

pytestmark = pytest.mark.django_db

SCENARIOS = scenarios()
LISTS = ("/", "/following/", "/api/watches/", "/api/watches/games/")


def _world(scenario: Scenario, world: int, make_user, capture) -> tuple[Game, dict[str, str]]:
    users = [make_user(f"world{world}-seat{seat}") for seat in range(scenario.players)]
    follower = make_user(f"world{world}-follower")
    ask_for_forced_moves(scenario, users)
    game = services.create_game(creator=users[0], engine_slug=scenario.slug, players=scenario.players,
                                options=scenario.options[world], seed=SEED)
    following.watch_make(user=follower, kind="game", target_id=game.pk, notify="moves")
    for user in users[1:]:
        services.join_game(game_id=game.pk, user=user)
    for step in scenario.steps[: len(scenario.steps) // 2]:  # mid-game: in play, in the feed
        with capture(execute=True):
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
        if path != "/api/watches/":
            assert f"/games/{game.pk}/" in text or re.search(rf'"id": ?{game.pk}\b', text), path
        text = re.sub(r"/following/\d+/", "/following/<watch>/", text)  # the watch's own id
        read[path] = re.sub(r'"(id|target)": ?\d+', r'"\1": <id>', text)
    events = Event.objects.filter(user=follower, kind=EventKind.FOLLOWED_MOVE).order_by("pk")
    assert events.exists(), "the follower heard of the moves"
    read["stream"] = json.dumps([{"seq": event.seq, **worded_payload(event)} for event in events], sort_keys=True)
    emails = OutgoingEmail.objects.filter(user=follower).order_by("pk")
    assert emails.exists(), "the follower was emailed of the game"
    read["emails"] = "\n".join(f"{email.subject}\n{email.text}\n{email.html}\n"
                               f"{hashlib.sha256(bytes(email.picture or b'')).hexdigest()}" for email in emails)
    return game, {door: masked(text, game).replace(f"world{world}-", "world-") for door, text in read.items()}


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[scenario.id for scenario in SCENARIOS])
def test_a_follower_reads_the_same_of_a_followed_game_in_both_worlds(scenario, make_user,
                                                                      django_capture_on_commit_callbacks):
    _, one = _world(scenario, 0, make_user, django_capture_on_commit_callbacks)
    _, two = _world(scenario, 1, make_user, django_capture_on_commit_callbacks)
    assert one.keys() == two.keys()
    for door in one:
        assert one[door] == two[door], f"{scenario.id}: {door} tells the worlds apart"
