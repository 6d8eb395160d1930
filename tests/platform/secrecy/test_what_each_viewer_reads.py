"""What a viewer reads through every door: never the seed or a scripted deck; a Priest's look only for its player."""

from __future__ import annotations

import pytest

from tests.platform.secrecy.doors import Door
from tests.platform.secrecy.worlds import love_letter_deck
from turnbased.play import services

pytestmark = pytest.mark.django_db

FACE_UP = ["king", "countess", "baron"]


def start(alice, bob, deck):
    game = services.create_game(creator=alice, engine_slug="love-letter", players=2,
                                options={"deck": deck, "first_player": 0}, seed="a-secret-seed-never-shown")
    services.join_game(game_id=game.pk, user=bob)
    game.refresh_from_db()
    return game


def everything(game, user) -> dict[str, str]:
    door = Door(game=game, user=user)
    return {**door.read_all(seated=user is not None and game.seats.filter(user=user).exists()),
            **(door.emails() if user is not None and game.seats.filter(user=user).exists() else {})}


def test_the_seed_and_the_scripted_deck_appear_nowhere(alice, bob, carol):
    deck = love_letter_deck("classic", set_aside="princess", face_up=FACE_UP, hands=["guard", "priest"],
                            draws=["handmaid"])
    game = start(alice, bob, deck)
    for viewer in (alice, bob, carol, None):
        for door, text in everything(game, viewer).items():
            assert game.seed not in text, (viewer, door)
            assert '"deck"' not in text, (viewer, door)


def test_a_priest_look_is_in_the_actors_history_only(alice, bob, carol):
    deck = love_letter_deck("classic", set_aside="princess", face_up=FACE_UP, hands=["priest", "guard"],
                            draws=["handmaid"])
    game = start(alice, bob, deck)
    services.submit_move(game_id=game.pk, user=alice, expected_seq=0, move={"card": "priest", "target": 1})
    game.refresh_from_db()
    mine = everything(game, alice)
    assert "saw bob's card: Guard" in mine["GET /api/games/<int:game_id>/history/"]
    assert "saw bob&#x27;s card: Guard" in mine["GET /games/<int:game_id>/"]
    for viewer in (bob, carol, None):
        for door, text in everything(game, viewer).items():
            assert "card: Guard" not in text and "priest_saw" not in text, (viewer, door)
