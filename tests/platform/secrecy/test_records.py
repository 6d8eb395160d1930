"""The record's doors keep the secrets until the end: they are walked, and what they hide they do reveal once over."""

from __future__ import annotations

import pytest

from tests.platform.secrecy.doors import Door, walked_routes
from tests.platform.secrecy.test_what_each_viewer_reads import FACE_UP, everything, start
from tests.platform.secrecy.worlds import love_letter_deck
from turnbased.play import services

pytestmark = pytest.mark.django_db

RECORD = "GET /api/games/<int:game_id>/record/"


def test_the_record_and_its_check_are_walked_for_every_viewer():
    assert {"api-game-record", "api-game-verify", "game-verify"} <= {route.name for route in walked_routes()}


def test_the_seed_and_the_others_private_events_appear_only_at_the_end(alice, bob, carol):
    deck = love_letter_deck("classic", set_aside="princess", face_up=FACE_UP, hands=["priest", "guard"],
                            draws=["handmaid"])
    game = start(alice, bob, deck)
    services.submit_move(game_id=game.pk, user=alice, expected_seq=0, move={"card": "priest", "target": 1})
    game.refresh_from_db()
    assert "priest_saw" in everything(game, alice)[RECORD]  # the look is in its player's record...
    for viewer in (bob, carol, None):  # ...and in no door of anyone else's, nor the seed in anyone's
        for door, text in everything(game, viewer).items():
            assert "priest_saw" not in text and game.seed not in text, (viewer, door)
    services.resign_game(game_id=game.pk, user=bob)
    game.refresh_from_db()
    for viewer in (alice, bob, carol, None):
        doors = Door(game=game, user=viewer).read_all(seated=False)
        for door in (RECORD, "GET /api/games/<int:game_id>/", "GET /games/<int:game_id>/",
                     "GET /api/games/<int:game_id>/verify/", "GET /games/<int:game_id>/verify/"):
            assert game.seed in doors[door], (viewer, door)
        assert "priest_saw" in doors[RECORD] and '"deck"' in doors[RECORD]
