"""The per-game figure beside the move figure (issue 44, fair entry): of a player's latest ten finished games with a
clock, how many they left to a bot; "new" before any, never 0 % or 100 %; only the games the viewer may see."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from rest_framework.test import APIClient

from turnbased.clocks.models import SeatClock
from turnbased.play import services
from turnbased.play.models import GameStatus, Visibility
from turnbased.ratings import selectors

pytestmark = pytest.mark.django_db

CLOCK = {"kind": "per_move", "days_per_move": 1, "expiry": "remove"}


def _game(first, second, *, clock=CLOCK, visibility=Visibility.PUBLIC):
    game = services.create_game(creator=first, engine_slug="love-letter", players=2, time_control=clock,
                                visibility=visibility)
    services.join_game(game_id=game.pk, user=second, invite_code=game.invite_code)
    game.refresh_from_db()
    return game


def _abandoned_by_the_one_to_move(game):
    """The player to move runs out of time at a table that removes late players: a bot takes their seat; the other
    resigns, and the game is over."""
    seat = game.to_move[0]
    deadline = SeatClock.objects.get(game=game, seat=seat).deadline
    with time_machine.travel(deadline + timedelta(minutes=1), tick=False):
        assert services.play_timeout(game_id=game.pk, seat=seat) == "seat handed to the bot"
    game.refresh_from_db()
    leaver = game.seats.get(index=seat).user
    stayer = game.seats.exclude(index=seat).get().user
    services.resign_game(game_id=game.pk, user=stayer)
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    return leaver


def _resigned(first, second, **create):
    game = _game(first, second, **create)
    services.resign_game(game_id=game.pk, user=second)
    return game


def test_a_player_with_no_clocked_game_is_new_on_the_page_and_in_the_api(client, alice, bob):
    _resigned(alice, bob, clock={"kind": "none"})
    figure = selectors.abandonment(alice)
    assert figure.is_new and (figure.games, figure.abandoned) == (0, 0)
    assert "New: no finished game with a clock yet." in client.get("/players/alice/").content.decode()
    body = APIClient().get("/api/players/alice/").json()["reliability"]
    assert (body["new"], body["recent_clocked_games"], body["recent_abandoned"]) == (True, 0, 0)


def test_seats_left_to_a_bot_are_counted_of_the_last_ten_and_a_resignation_is_not(client, alice, bob):
    game = _game(alice, bob)
    leaver = _abandoned_by_the_one_to_move(game)
    other = bob if leaver == alice else alice
    assert (selectors.abandonment(leaver).games, selectors.abandonment(leaver).abandoned) == (1, 1)
    assert (selectors.abandonment(other).games, selectors.abandonment(other).abandoned) == (1, 0)  # resigned
    for _ in range(10):  # ten more, finished later: the abandoned one falls out of the last ten
        _resigned(leaver, other)
    figure = selectors.abandonment(leaver)
    assert (figure.games, figure.abandoned, figure.is_new) == (10, 0, False)
    page = client.get(f"/players/{leaver.username}/").content.decode()
    assert "<strong>0</strong> of the last 10 finished games with a clock" in page


def test_a_private_game_counts_only_for_those_who_may_see_it(alice, bob, carol):
    _abandoned_by_the_one_to_move(game := _game(alice, bob, visibility=Visibility.PRIVATE))
    leaver = game.seats.exclude(bot="").get().user
    assert selectors.abandonment(leaver, carol).is_new  # a stranger sees no private game
    assert selectors.abandonment(leaver, bob).abandoned == 1  # a player of it does
    body = APIClient().get(f"/api/players/{leaver.username}/").json()["reliability"]
    assert body["new"] is True and body["recent_abandoned"] == 0
