"""A private game never shows outside its players: not in archives, profile counts, reliability or ratings.

Every ratings and players door (pages and API, with their filters) is read by a signed-in stranger and an
anonymous visitor before and after alice and bob play a private game to its end (with a timeout in it):
the two readings must be the same, byte for byte once CSRF tokens are masked. Alice, who played it, reads
a difference, so the comparison can fail.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
import time_machine
from django.test import Client

from tests.platform.ratings.conftest import play_moves, start
from tests.platform.secrecy import doors
from turnbased.clocks import sweep
from turnbased.play import services
from turnbased.play.models import GameStatus

pytestmark = pytest.mark.django_db

FRIDAY_NOON = datetime(2026, 11, 27, 12, 0, tzinfo=timezone.utc)


def _paths(slug: str) -> list[str]:
    paths = ["/", "/ratings/", f"/ratings/{slug}/", f"/api/ratings/?game={slug}"]
    for name in ("alice", "bob"):
        paths += [f"/players/{name}/", f"/api/players/{name}/"]
        for query in ("", f"?game={slug}", "?opponent=alice", "?opponent=bob"):
            paths += [f"/players/{name}/games/{query}", f"/api/players/{name}/games/{query}"]
    return paths


def _read(user, slug: str, game) -> dict[str, str]:
    client = Client()
    if user is not None:
        client.force_login(user)
    answers = {}
    for path in _paths(slug):
        response = client.get(path)
        answers[path] = doors._mask(f"{response.status_code}\n{response.content.decode()}", game)
    return answers


def test_a_private_game_changes_nothing_a_stranger_or_visitor_reads_about_its_players(alice, bob, carol):
    with time_machine.travel(FRIDAY_NOON, tick=False) as clock:
        public = start([alice, bob])
        play_moves(public, [alice, bob], 3)
        services.resign_game(game_id=public.pk, user=bob)
        hidden = start([alice, bob], visibility="private", time_control={"kind": "per_move", "days_per_move": 1})
        # Read at the moment the "after" reads are made: a player's page says how long ago their last move was, and
        # the day that passes must not be taken for something the private game told.
        with time_machine.travel(FRIDAY_NOON + timedelta(days=1, minutes=1), tick=False):
            before = {name: _read(user, "halali", hidden) for name, user in
                      (("stranger", carol), ("anonymous", None), ("alice", alice))}

        play_moves(hidden, [alice, bob], 4)
        clock.shift(timedelta(days=1, minutes=1))
        assert sweep.run()["timeouts"]  # a timeout in the private game
        services.resign_game(game_id=hidden.pk, user=alice)
        hidden.refresh_from_db()
        assert hidden.status == GameStatus.FINISHED and hidden.seq > 3
        after = {name: _read(user, "halali", hidden) for name, user in
                 (("stranger", carol), ("anonymous", None), ("alice", alice))}

    for viewer in ("stranger", "anonymous"):
        for path in before[viewer]:
            assert before[viewer][path] == after[viewer][path], f"{viewer} can tell through {path}"
    assert f"/games/{hidden.pk}/" in after["alice"]["/players/bob/games/"]
    assert any(before["alice"][path] != after["alice"][path] for path in before["alice"])
