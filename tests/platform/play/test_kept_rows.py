"""Rows handed to a relation (``store.keep_loaded``) answer reads without a query, and never more than the instance's own."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from turnbased.play import selectors, services, store
from turnbased.play.models import Game

pytestmark = pytest.mark.django_db


def test_kept_rows_are_read_without_a_query_and_narrowed_by_a_real_one(started_game, start_scripted_game, bob, carol):
    other = start_scripted_game(bob, carol)
    game = Game.objects.get(pk=started_game.pk)
    store.keep_loaded(game, "seats", list(other.seats.select_related("user")))  # deliberately the wrong rows: reads must show them
    with CaptureQueriesContext(connection) as queries:
        assert [seat.user.username for seat in game.seats.all()] == ["bob", "carol"]
        assert game.seats.count() == 2 and game.seats.exists() and game.seats.first().index == 0
    assert len(queries) == 0
    # anything built from them is a query on the game's own seats
    assert [seat.user.username for seat in game.seats.filter(index=1)] == ["bob"]
    assert game.seats.order_by("-index").first().user.username == "bob"
    assert [seat.user.username for seat in game.seats.all()] == ["bob", "carol"]  # still the kept rows


def test_a_list_of_games_comes_with_its_seats_and_clocks(alice, bob, start_scripted_game):
    clocked = start_scripted_game(alice, bob, time_control={"kind": "per_move", "days_per_move": 1})
    plain = start_scripted_game(bob, alice)
    with CaptureQueriesContext(connection) as queries:
        games = selectors.games_of(alice, clocks=True)
        shown = {game.pk: ([seat.user.username for seat in game.seats.all()], [clock.seat for clock in game.seat_clocks.all()],
                           game.seats.all()[0].game is game) for game in games}
    assert len(queries) == 3
    assert shown == {clocked.pk: (["alice", "bob"], [0, 1], True), plain.pk: (["bob", "alice"], [], True)}
