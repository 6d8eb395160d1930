"""A player's page says when they last moved, in days, from the moves the visitor may see (the page and the API)."""

from __future__ import annotations

from datetime import timedelta

from django.test import Client
from rest_framework.test import APIClient

from tests.platform.ratings.conftest import play_moves, start
from turnbased.play.models import Move
from turnbased.ratings import selectors


def _days(viewer_client, name: str = "alice") -> int | None:
    return viewer_client.get(f"/api/players/{name}/").json()["active_days_ago"]


def test_a_player_with_no_move_is_said_to_have_none(alice, bob):
    assert _days(APIClient()) is None
    assert "No move yet in a game you can see." in Client().get("/players/alice/").content.decode()


def test_the_latest_own_move_in_days_and_never_more_precisely(alice, bob, monkeypatch):
    game = start([alice, bob])
    play_moves(game, [alice, bob], 2)
    assert _days(APIClient()) == 0
    assert "Last move within the past day." in Client().get("/players/alice/").content.decode()
    moved = Move.objects.filter(game=game, user=alice).latest("created_at").created_at
    # The log is append-only: the clock moves on instead.
    monkeypatch.setattr(selectors.timezone, "now", lambda: moved + timedelta(days=3, hours=5))
    assert _days(APIClient()) == 3
    assert "Last move 3 days ago." in Client().get("/players/alice/").content.decode()
    monkeypatch.setattr(selectors.timezone, "now", lambda: moved + timedelta(days=90))
    assert "Last move more than two months ago." in Client().get("/players/alice/").content.decode()


def test_a_private_tables_moves_tell_only_those_who_may_see_it(alice, bob, carol, api_client_for):
    game = start([alice, bob], visibility="private")
    play_moves(game, [alice, bob], 2)
    assert _days(APIClient()) is None
    assert _days(api_client_for(carol)) is None
    assert _days(api_client_for(bob)) == 0
