"""What the chat's and the lobby's polls cost: an unchanged poll answers 204 from one row, writing nothing."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.platform.play.costs import measured
from turnbased.chat import services
from turnbased.play import services as play_services

pytestmark = pytest.mark.django_db(transaction=True)

# The session, its user, and one row: the game with my seat and the latest message I see.
UNCHANGED_CHAT_POLL = 3
# The session, its user, and one statement over my games, their chats and my read marks.
UNCHANGED_LOBBY_WATCH = 3


def within(cost, budget: int, what: str) -> None:
    print(f"{what}: {cost.statements} statements (budget {budget})")
    assert cost.statements <= budget, f"{what}: {cost}, over {budget}:\n" + "\n".join(cost.sql)
    assert all(sql.startswith("SELECT") for sql in cost.sql), cost.sql


def test_an_unchanged_chat_poll_answers_204_in_three_statements(started_game, alice, bob):
    for number in range(30):
        services.message_post(game_id=started_game.pk, user=bob, text=f"message {number}")
    latest = services.message_post(game_id=started_game.pk, user=bob, text="latest")
    web = Client()
    web.force_login(alice)
    page = web.get(f"/games/{started_game.pk}/").content.decode()
    poll = f"/games/{started_game.pk}/chat/?after={latest.pk}&turn=1"
    assert poll.replace("&", "&amp;") in page  # the address the page polls
    cost, response = measured(lambda: web.get(poll))
    assert response.status_code == 204
    within(cost, UNCHANGED_CHAT_POLL, "unchanged chat poll")


def test_an_unchanged_lobby_watch_costs_the_same_for_few_and_many_games(alice, bob, settings):
    settings.MAX_OPEN_TABLES_PER_ACCOUNT = 100
    web = Client()
    web.force_login(alice)

    def watch():
        lobby = web.get("/").content.decode()
        version = lobby.split("/lobby/changes/?v=", 1)[1].split('"', 1)[0]
        cost, response = measured(lambda: web.get(f"/lobby/changes/?v={version}"))
        assert response.status_code == 204
        return cost

    def tables(count):
        for _ in range(count):
            game = play_services.create_game(creator=alice, engine_slug="love-letter", players=2)
            play_services.join_game(game_id=game.pk, user=bob)
            services.message_post(game_id=game.pk, user=bob, text="hello")

    tables(2)
    few = watch()
    tables(20)
    many = watch()
    within(few, UNCHANGED_LOBBY_WATCH, "unchanged lobby watch, 2 games")
    within(many, UNCHANGED_LOBBY_WATCH, "unchanged lobby watch, 22 games")
    assert few.statements == many.statements
