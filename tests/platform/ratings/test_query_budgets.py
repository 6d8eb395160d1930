"""What rating a finished game costs the move that ends it: a flat number of statements, whatever the table's size or
the players' histories."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tests.platform.ratings.conftest import ready_to_end
from turnbased.play import services
from turnbased.ratings import reactions
from turnbased.ratings.models import RatingChange
from turnbased.ratings.services import ratings_record_game

pytestmark = pytest.mark.django_db

# A game ended by resignations, rated: the last log entry, each player's own moves, whether it was counted already,
# the accounts (confirmed, finished games), the players' locks, their rated games together today, their ratings
# (locked), the new ratings, the ratings moved on, the changes.
RATED_END = 10
# The same when every player has a rating at the game already: no new ratings to insert.
RATED_END_EXISTING_RATINGS = 9
# Unrated because an account is new: the first four of them.
UNRATED_NEW_ACCOUNT = 4


@pytest.fixture
def rating_statements(monkeypatch):
    """Return the SQL of each call of ``ratings_record_game`` that a game's end makes, in order."""
    calls: list[list[str]] = []

    def counted(*, game):
        with CaptureQueriesContext(connection) as queries:
            changes = ratings_record_game(game=game)
        calls.append([query["sql"] for query in queries.captured_queries])
        return changes

    monkeypatch.setattr(reactions, "ratings_record_game", counted)
    return calls


def end(users: list, slug: str = "love-letter"):
    """Play until each has made the moves a rated game needs, then all but the first resign; return the game."""
    game = ready_to_end(users, slug=slug)
    for loser in users[1:]:
        services.resign_game(game_id=game.pk, user=loser)
    return game


def test_a_rated_end_costs_as_many_statements_for_two_players_as_for_four(make_user, rating_statements):
    people = [make_user(f"p{number}") for number in range(6)]
    games = [end(people[:2]), end([people[1], people[0]]), end(people[2:6])]
    assert all(RatingChange.objects.filter(game=game).exists() for game in games)
    costs = [len(statements) for statements in rating_statements]
    print(f"statements: two players, new ratings {costs[0]}; again, their ratings made {costs[1]}; "
          f"four players, new ratings {costs[2]}")
    assert costs == [RATED_END, RATED_END_EXISTING_RATINGS, RATED_END], "\n".join(rating_statements[-1])


def test_an_end_that_a_new_account_leaves_unrated_stops_after_reading_the_accounts(make_user, rating_statements):
    game = end([make_user("veteran"), make_user("newcomer", joined=timezone.now())], slug="halali")
    assert not RatingChange.objects.filter(game=game).exists()
    assert [len(statements) for statements in rating_statements] == [UNRATED_NEW_ACCOUNT]
