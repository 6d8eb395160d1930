"""Halali!'s green-lock option (rules file §10.1) through the platform: the new-table form, the API, play and the
record, with no platform code of its own (the option is an ``OptionSpec`` like any other)."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games import get_engine
from games.halali import board
from tests.platform.play.test_pages import logged_in
from turnbased.play import services, store
from turnbased.play.models import Game

pytestmark = pytest.mark.django_db

BIRDS = ("duck", "pheasant")


def test_the_new_table_form_offers_the_flip_only_lock_under_advanced(alice):
    page = logged_in(alice).get("/games/new/?game=halali").content.decode()
    advanced = page.split('<details class="advanced-options"', 1)[1].split("</details>", 1)[0]
    select = re.search(r'<select name="lock_on_move">(.*?)</select>', advanced, re.S).group(1)
    assert 'value="True" selected' in select and "printed Kosmos rules" in select
    assert 'value="False"' in select and "Yucata rules text" in select
    logged_in(alice).post("/games/new/", {"game": "halali", "players": "2", "lock_on_move": "False"})
    game = Game.objects.get()
    assert game.options["lock_on_move"] is False and game.engine_version == get_engine("halali").version


def test_the_api_lists_the_option_and_creates_a_table_with_it(alice, api_client_for):
    api = api_client_for(alice)
    halali = next(game for game in api.get("/api/game-types/").json() if game["game"] == "halali")
    option = next(option for option in halali["options"] if option["name"] == "lock_on_move")
    assert option["default"] is True and [choice["value"] for choice in option["choices"]] == [True, False]
    created = api.post("/api/games/", {"game": "halali", "players": 2, "options": {"lock_on_move": False}},
                       format="json")
    assert created.status_code == 201, created.json()
    assert api.get(f"/api/games/{created.json()['id']}/").json()["options"]["lock_on_move"] is False


def test_a_game_played_with_the_flip_only_lock_replays_under_it(alice, bob, carol):
    game = services.create_game(creator=alice, engine_slug="halali", players=2, seed="flip-only-table",
                                options={"lock_on_move": False})
    services.join_game(game_id=game.pk, user=bob)
    game.refresh_from_db()
    users = {seat.index: (alice if seat.user_id == alice.pk else bob) for seat in game.seats.all()}
    engine = store.engine_of(game)
    answered = False
    for _turn in range(200):
        state, seat = game.state, game.to_move[0]
        moves = engine.legal_moves(state, seat)
        last = state["last"]
        birds = [move for move in moves if "to" in move and move["to"] != "out"
                 and (state["board"][board.index(move["from"])] or {}).get("kind") in BIRDS]
        # Move back at once the bird the opponent just moved (the flip-only lock allows it), else move a bird,
        # else turn the first tile over.
        again = [move for move in birds if last and last["kind"] == "moved" and move["from"] == last["to"]]
        move = (again or birds or moves)[0]
        answered = bool(again)
        services.submit_move(game_id=game.pk, user=users[seat], expected_seq=game.seq, move=move)
        game.refresh_from_db()
        if answered:
            break
    assert answered, "no bird was moved straight after the opponent moved it"
    services.resign_game(game_id=game.pk, user=alice)
    client = Client()
    client.force_login(carol)
    record = client.get(f"/api/games/{game.pk}/record/").json()
    assert record["game"]["options"]["lock_on_move"] is False and record["game"]["engine_version"] == 2
    moved = [event for entry in record["moves"] for event in entry["events"] if event["kind"] == "moved"]
    assert moved and all(event["data"]["locked"] is False for event in moved)
    answer = client.get(f"/api/games/{game.pk}/verify/").json()
    assert answer["ok"] is True, [check for check in answer["checks"] if not check["passed"]]
    page = logged_in(bob).get(f"/games/{game.pk}/").content.decode()
    assert "<dt>Green lock after a move</dt><dd>No: only a duck or pheasant just turned over is locked" in page
