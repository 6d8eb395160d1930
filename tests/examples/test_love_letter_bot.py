"""The example bot (examples/love_letter_bot.py) plays a whole game of Love Letter through the live test server.

Everything goes over real HTTP with API tokens, as a bot author's program would, and the bot learns its turns
from the event stream, served by the stream process (uvicorn) against the live server's database. alice (a
person, played by a script) invites the bot account to a Halali! table before the bot starts (it declines at
start-up) and to a Love Letter table while it runs (it takes the seat when it next catches up); the two play
legal moves until the game is over.
"""

from __future__ import annotations

import random
import threading
import time

import pytest

from examples import love_letter_bot as bot
from tests.platform.conftest import api_token
from tests.platform.events.streams import stream_process
from turnbased.play.models import Game, GameStatus, Invitation, Move
from turnbased.ratings.models import RatingChange
from turnbased_client import Client

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]  # the servers read what the test commits

GAME_SECONDS = 180


def test_the_example_bot_plays_a_whole_game_against_whoever_invites_it(live_server, make_user, make_bot_account,
                                                                      settings, tmp_path, monkeypatch):
    settings.RATE_LIMITS_ON = False  # alice polls far faster than a person would
    told: list[int] = []  # the turns the bot was told of by the stream (the rest it found catching up)
    asked: list[int] = []  # legal-moves requests the bot made outside catching up: none (issue 26)
    original_play, catching_up = bot.play, threading.local()

    def play(api, game_id, seq, moves, rng):
        if not getattr(catching_up, "now", False) and moves:
            told.append(game_id)
        return original_play(api, game_id, seq, moves, rng)

    def catch_up(api, rng, original=bot.catch_up):
        catching_up.now = True
        try:
            return original(api, rng)
        finally:
            catching_up.now = False

    monkeypatch.setattr(bot, "play", play)
    monkeypatch.setattr(bot, "catch_up", catch_up)
    robo, alice = make_bot_account("robo"), make_user("alice")
    rng = random.Random(15)
    with stream_process(tmp_path, STREAM_HEARTBEAT_SECONDS="1") as stream, \
            Client(live_server.url, token=api_token(robo), stream_url=f"http://127.0.0.1:{stream.port}") as robo_api, \
            Client(live_server.url, token=api_token(alice)) as alice_api:
        original_legal_moves = robo_api.legal_moves

        def legal_moves(game_id):
            if not getattr(catching_up, "now", False):
                asked.append(game_id)
            return original_legal_moves(game_id)

        robo_api.legal_moves = legal_moves
        halali = alice_api.create_game("halali", players=2)["id"]
        alice_api.invite(halali, "robo")
        stop, failed = threading.Event(), []

        def run_bot() -> None:
            try:
                bot.run(robo_api, random.Random(7), every=1.0, stopped=stop.is_set)
            except Exception as error:  # noqa: BLE001 (reported by the test)
                failed.append(error)

        runner = threading.Thread(target=run_bot, daemon=True)
        runner.start()
        table = alice_api.create_game("love-letter", players=2)["id"]
        alice_api.invite(table, "robo")
        deadline = time.monotonic() + GAME_SECONDS
        while (game := alice_api.game(table))["status"] != GameStatus.FINISHED:
            assert time.monotonic() < deadline and not failed, (failed, game["status"], game["seq"])
            legal = alice_api.legal_moves(table)
            if legal["moves"]:
                move = bot.choose_move(legal["moves"], rng)["move"]
                alice_api.submit_move(table, expected_seq=legal["seq"], move=move)
            else:
                time.sleep(0.05)  # the bot's turn
        stop.set()
        runner.join(15)
        assert not runner.is_alive() and not failed, failed

    robo_moves = Move.objects.filter(game_id=table, user=robo)
    assert game["result"]["winners"] and robo_moves.count() > 0
    assert told and set(told) == {table}  # the stream told it of its turns, with its legal moves
    assert asked == []  # so it never asked for them: one request per move
    # Its moves came through the API, but perhaps for a forced one: a bot account's only legal move is played for
    # it (the account setting, on by default for bots) after a program's time, unless the program answers first.
    assert "api" in set(robo_moves.values_list("source", flat=True)) <= {"api", "auto"}
    assert [(seat["username"], seat["bot_account"]) for seat in game["seats"]] == [("alice", False), ("robo", True)]
    # A public game with a bot account at the table: rated, in the bot pool.
    assert {change.rating.pool for change in RatingChange.objects.filter(game_id=table)} == {"bots"}
    # The other game's invitation was declined, and that table still waits.
    assert Invitation.objects.get(game_id=halali, user=robo).declined_at is not None
    assert Game.objects.get(pk=halali).status == GameStatus.OPEN


def test_choose_move_never_discards_the_princess_when_it_has_a_choice():
    moves = [{"move": {"card": "princess"}, "text": "princess"}, {"move": {"card": "king", "target": 1}, "text": "k"}]
    rng = random.Random(0)
    assert {bot.choose_move(moves, rng)["text"] for _ in range(20)} == {"k"}
    assert bot.choose_move(moves[:1], rng)["text"] == "princess"  # the only legal move
