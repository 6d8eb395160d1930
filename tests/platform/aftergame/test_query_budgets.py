"""What the end of a game costs in SQL statements: the end screen, the game through the API, the rematch box
the end screen polls, and the lobby's rematch offers.

Counted through the real HTTP paths (``tests.platform.play.costs``), a session for the pages and a new
token for the API. Each cost is held by a budget, and the pages must not grow with the seats at a table
or the offers waiting: their reads are one query each, whatever the count.
"""

from __future__ import annotations

import pytest
from django.test import Client

from tests.platform.aftergame.conftest import finished
from tests.platform.play.costs import measured, token_client
from turnbased.aftergame import selectors, services

pytestmark = pytest.mark.django_db

# The game page's own 10, the rating changes the end screen shows 1 (``rating_moves``), the table talk's 4
# (its messages in the history and beside the board, the unread count, the muted list), and the player's private
# notes on the game 1 (issue 46), and the game told in short 1 (issue 47: the log's seats, sources and times, read
# once; the summary is kept in the cache after, so a second view reads one statement fewer: tested below).
END_SCREEN = 17
FINISHED_GAME_API = 6  # as a game in play: the ending and the rematch come with what it reads already
UNCHANGED_BOX_POLL = 4


def within(cost, budget: int, what: str) -> None:
    print(f"{what}: {cost.statements} statements (budget {budget})")
    assert cost.statements <= budget, f"{what}: {cost}, over {budget}:\n" + "\n".join(cost.sql)


def web_client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _finished_with_a_rematch(users: list):
    """A finished game of ``users`` whose rematch the first proposed and the others have not answered."""
    game = finished(users)
    services.rematch_propose(game_id=game.pk, user=users[0])
    return game


def test_the_end_screen_costs_the_same_for_two_seats_and_for_six_within_its_budget(make_user):
    people = [make_user() for _ in range(4)]
    costs = {}
    for count in (2, 4):
        game = _finished_with_a_rematch(people[:count])
        client = web_client(people[1])
        cost, response = measured(lambda: client.get(f"/games/{game.pk}/"))
        html = response.content.decode()
        assert response.status_code == 200 and "end-screen" in html and "Accept rematch" in html
        within(cost, END_SCREEN, f"end screen, {count} seats")
        costs[count] = cost
    assert costs[2].statements == costs[4].statements, "\n".join(costs[4].sql)
    again, _ = measured(lambda: client.get(f"/games/{game.pk}/"))
    assert again.statements == costs[4].statements - 1, "the summary is read again:\n" + "\n".join(again.sql)


def test_a_finished_game_through_the_api_costs_at_most_six_statements(make_user):
    people = [make_user() for _ in range(4)]
    for count in (2, 4):
        game = _finished_with_a_rematch(people[:count])
        api = token_client(people[1])
        cost, response = measured(lambda: api.get(f"/api/games/{game.pk}/"))
        body = response.json()
        assert response.status_code == 200 and body["ending"]["how"] == "resignation" and body["rematch"]
        within(cost, FINISHED_GAME_API, f"GET finished game, {count} seats")


def test_an_unchanged_rematch_box_poll_answers_204_reading_only(alice, bob):
    game = _finished_with_a_rematch([alice, bob])
    client = web_client(bob)
    page = client.get(f"/games/{game.pk}/").content.decode()
    version = page.split(f"/games/{game.pk}/rematch/box/?v=", 1)[1].split('"', 1)[0]
    cost, response = measured(lambda: client.get(f"/games/{game.pk}/rematch/box/?v={version}"))
    assert response.status_code == 204
    within(cost, UNCHANGED_BOX_POLL, "unchanged rematch box poll")
    assert all(sql.startswith("SELECT") for sql in cost.sql), cost.sql


def test_the_lobby_costs_the_same_with_one_rematch_offer_and_with_five(alice, make_user, settings):
    settings.MAX_OPEN_TABLES_PER_ACCOUNT = 100
    others = [make_user() for _ in range(5)]
    costs = {}
    for offers in (1, 5):
        for _ in range(offers):  # one offer a game, until there are ``offers``
            if len(selectors.offers_for(alice)) >= offers:
                break
            _finished_with_a_rematch([others[len(selectors.offers_for(alice))], alice])
        client = web_client(alice)
        cost, response = measured(lambda: client.get("/"))
        assert response.status_code == 200 and response.content.decode().count("Accept rematch") == offers
        costs[offers] = cost
    print(f"lobby: {costs[1].statements} statements with 1 offer, {costs[5].statements} with 5")
    assert costs[1].statements == costs[5].statements, "\n".join(costs[5].sql)
