"""The example bot (examples/love_letter_bot.py) plays a whole game of Love Letter through the live test server.

Everything goes over real HTTP with API tokens, as a bot author's program would: alice (a person, played by a
script) makes a Love Letter table and invites the bot account; the bot takes the seat, and the two play legal moves
until the game is over. The bot also declines an invitation to another game.
"""

from __future__ import annotations

import random

import pytest

from examples import love_letter_bot as bot
from tests.platform.conftest import api_token
from turnbased.play.models import Game, GameStatus, Invitation, Move
from turnbased.ratings.models import RatingChange

pytestmark = pytest.mark.django_db(transaction=True)  # the live server reads what the test commits

# Rounds of polling (each: the bot's step, then alice's move if it is her turn) before the game must be over.
MAX_ROUNDS = 500


def alice_plays(api, game_id: int, rng: random.Random) -> None:
    """Play alice's turn, if it is hers: a legal move the API lists, as any client would."""
    legal = api.get(f"/api/games/{game_id}/legal-moves/").raise_for_status().json()
    if legal["moves"]:
        move = bot.choose_move(legal["moves"], rng)["move"]
        api.post(f"/api/games/{game_id}/moves/", json={"move": move, "expected_seq": legal["seq"]}).raise_for_status()


def test_the_example_bot_plays_a_whole_game_against_whoever_invites_it(live_server, make_user, make_bot_account,
                                                                      settings):
    settings.RATE_LIMITS_ON = False  # the test polls far faster than a bot would
    robo, alice = make_bot_account("robo"), make_user("alice")
    rng = random.Random(15)
    with bot.client(live_server.url, api_token(robo)) as robo_api, \
            bot.client(live_server.url, api_token(alice)) as alice_api:
        halali = alice_api.post("/api/games/", json={"game": "halali", "players": 2}).raise_for_status().json()
        table = alice_api.post("/api/games/", json={"game": "love-letter", "players": 2}).raise_for_status().json()
        for game in (halali, table):
            alice_api.post(f"/api/games/{game['id']}/invitations/", json={"username": "robo"}).raise_for_status()
        played = 0
        for _ in range(MAX_ROUNDS):
            played += bot.step(robo_api, rng)
            game = alice_api.get(f"/api/games/{table['id']}/").raise_for_status().json()
            if game["status"] == GameStatus.FINISHED:
                break
            alice_plays(alice_api, table["id"], rng)
        else:
            pytest.fail(f"the game was not over after {MAX_ROUNDS} rounds")

    assert game["result"]["winners"] and played == Move.objects.filter(game_id=table["id"], user=robo).count() > 0
    assert set(Move.objects.filter(game_id=table["id"], user=robo).values_list("source", flat=True)) == {"api"}
    assert [(seat["username"], seat["bot_account"]) for seat in game["seats"]] == [("alice", False), ("robo", True)]
    # A public game with a bot account at the table: rated, in the bot pool.
    assert {change.rating.pool for change in RatingChange.objects.filter(game_id=table["id"])} == {"bots"}
    # The other game's invitation was declined, and that table still waits.
    assert Invitation.objects.get(game_id=halali["id"], user=robo).declined_at is not None
    assert Game.objects.get(pk=halali["id"]).status == GameStatus.OPEN


def test_choose_move_never_discards_the_princess_when_it_has_a_choice():
    moves = [{"move": {"card": "princess"}, "text": "princess"}, {"move": {"card": "king", "target": 1}, "text": "k"}]
    rng = random.Random(0)
    assert {bot.choose_move(moves, rng)["text"] for _ in range(20)} == {"k"}
    assert bot.choose_move(moves[:1], rng)["text"] == "princess"  # the only legal move
