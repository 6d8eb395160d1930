"""Showing who is a bot account costs no statement per name: each list reads the flag with its names.

Every list that names players is read with one bot account and with six (and a table talk with one message of a
bot account and with six): the statements must be the same.
"""

from __future__ import annotations

import pytest
from django.test import Client

from tests.platform.play.costs import measured, token_client
from turnbased.chat import services as chat_services
from turnbased.play import selectors, services

pytestmark = pytest.mark.django_db(transaction=True)


def _play_with_bot_accounts(alice, bots: list, table) -> None:
    """Give alice a finished public game (rated, bot pool), a message and an invitation from each bot account, and
    invite each to her ``table``."""
    for bot in bots:
        services.invitation_create(game_id=table.pk, user=alice, username=bot.username)
        game = services.create_game(creator=alice, engine_slug="halali", players=2)
        services.join_game(game_id=game.pk, user=bot)
        game.refresh_from_db()
        for _ in range(3):
            seat = game.to_move[0]
            move = selectors.legal_moves_for(selectors.Viewer(game=game, seat=seat))[0]["move"]
            services.submit_move(game_id=game.pk, user=[alice, bot][seat], expected_seq=game.seq, move=move,
                                 source="api")
            game.refresh_from_db()
        chat_services.message_post(game_id=game.pk, user=bot, text="gg")
        services.resign_game(game_id=game.pk, user=bot, source="api")
        bots_table = services.create_game(creator=bot, engine_slug="love-letter", players=3)
        services.invitation_create(game_id=bots_table.pk, user=bot, username="alice")


def _costs(alice, table, talk) -> dict:
    web = Client()
    web.force_login(alice)
    api = token_client(alice)
    api.get("/api/games/")  # the token's first use writes last_used_at: not part of what is measured
    paths = {
        "lobby": (web, "/"),
        "leaderboard": (web, "/ratings/halali/?players=2&pool=bots"),
        "archive": (web, "/players/alice/games/"),
        "table page": (web, f"/games/{table.pk}/"),
        "game page with its talk": (web, f"/games/{talk.pk}/"),
        "API messages": (api, f"/api/games/{talk.pk}/messages/"),
        "API games": (api, "/api/games/"),
        "API leaderboard": (api, "/api/ratings/?game=halali&players=2&pool=bots"),
        "API archive": (api, "/api/players/alice/games/"),
        "API invitations": (api, "/api/invitations/"),
        "API people": (api, "/api/invitations/people/"),
        "API table invitations": (api, f"/api/games/{table.pk}/invitations/"),
    }
    costs = {}
    for name, (client, path) in paths.items():
        cost, response = measured(lambda: client.get(path))
        assert response.status_code == 200, (name, response.status_code)
        costs[name] = cost
    return costs


def test_lists_cost_the_same_for_one_bot_account_and_for_six(alice, make_bot_account, settings):
    settings.MAX_OPEN_TABLES_PER_ACCOUNT = 100
    settings.RATINGS_PROVISIONAL_GAMES = 1  # each game's players on the leaderboards, which list no provisional rating
    table = services.create_game(creator=alice, engine_slug="love-letter", players=4)
    bots = [make_bot_account(f"robo{number}") for number in range(6)]
    # A game in play where the first bot account talks: one message, then six (each read with its author).
    talk = services.create_game(creator=alice, engine_slug="love-letter", players=2)
    services.join_game(game_id=talk.pk, user=bots[0])
    chat_services.message_post(game_id=talk.pk, user=bots[0], text="hello")
    _play_with_bot_accounts(alice, bots[:1], table)
    few = _costs(alice, table, talk)
    for number in range(5):
        chat_services.message_post(game_id=talk.pk, user=bots[0], text=f"still here {number}")
    _play_with_bot_accounts(alice, bots[1:], table)
    many = _costs(alice, table, talk)
    for name in few:
        print(f"{name}: {few[name].statements} statements with one bot account, {many[name].statements} with six")
        assert many[name].statements == few[name].statements, f"{name}: {few[name]} then {many[name]}:\n" + "\n".join(
            many[name].sql)
