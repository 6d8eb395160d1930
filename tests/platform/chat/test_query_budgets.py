"""What the chat costs: an unchanged poll answers 204 from one row, writing nothing; no read grows with the chat."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.platform.play.costs import measured, token_client
from turnbased.chat import services
from turnbased.play import services as play_services

pytestmark = pytest.mark.django_db(transaction=True)

# The session, its user, and one row: the game with my seat and the latest message I see.
UNCHANGED_CHAT_POLL = 3
# The session, its user, and one statement over my games, their chats and my read marks.
UNCHANGED_LOBBY_WATCH = 3


def within(cost, budget: int, what: str, *, reads_only: bool = True) -> None:
    print(f"{what}: {cost.statements} statements (budget {budget})")
    assert cost.statements <= budget, f"{what}: {cost}, over {budget}:\n" + "\n".join(cost.sql)
    if reads_only:
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


# The session, its user, the game with my seat and latest message, the viewer (the game, then its seats),
# and one page of messages with their authors.
CHANGED_CHAT_POLL = 6
# The token and its user, its last use (a new token), the game, its seats, one page of messages with authors.
MESSAGES_READ = 5
# The token and its user, its last use (a new token), the game, its seats, the insert (the rate is in the cache).
MESSAGE_POST = 5


def _say(game, author, count: int) -> None:
    for number in range(count):
        services.message_post(game_id=game.pk, user=author, text=f"message {number}")


def test_a_chat_poll_with_news_costs_the_same_for_one_new_message_and_forty(started_game, alice, bob, carol):
    web = Client()
    web.force_login(alice)
    costs = []
    for count in (1, 40):
        latest = services.message_post(game_id=started_game.pk, user=alice, text="mine").pk
        _say(started_game, bob, count)
        cost, response = measured(lambda: web.get(f"/games/{started_game.pk}/chat/?after={latest}&turn=1"))
        assert response.status_code == 200 and response.content.decode().count("chat-message-") == count
        within(cost, CHANGED_CHAT_POLL, f"chat poll with {count} new messages")
        costs.append(cost.statements)
    assert costs[0] == costs[1]


def test_reading_the_chat_through_the_api_costs_the_same_for_2_messages_and_200(started_game, alice, bob):
    costs = []
    for count in (2, 198):
        _say(started_game, bob, count)
        api = token_client(alice)
        cost, response = measured(lambda: api.get(f"/api/games/{started_game.pk}/messages/?page_size=200"))
        assert response.status_code == 200
        within(cost, MESSAGES_READ, f"GET messages, {len(response.json()['results'])} of them", reads_only=False)
        costs.append(cost.statements)
    assert costs[0] == costs[1]


def test_posting_a_message_through_the_api_costs_at_most_five_statements(started_game, alice):
    api = token_client(alice)
    cost, response = measured(lambda: api.post(f"/api/games/{started_game.pk}/messages/", {"text": "hello"},
                                               format="json"))
    assert response.status_code == 201, response.json()
    within(cost, MESSAGE_POST, "POST message", reads_only=False)


def test_the_game_page_costs_the_same_with_a_short_chat_and_a_long_one(started_game, alice, bob):
    web = Client()
    web.force_login(alice)
    costs = []
    for count in (2, 80):
        _say(started_game, bob, count)
        cost, response = measured(lambda: web.get(f"/games/{started_game.pk}/"))
        assert response.status_code == 200
        costs.append(cost)
    print(f"game page: {costs[0].statements} statements with 2 messages, {costs[1].statements} with 82")
    assert costs[0].statements == costs[1].statements, "\n".join(costs[1].sql)
