"""Savernake Forest's readings of the original text reach a table through the form and the API, need nothing of the
platform but the engine's option specs, and a game pinned to engine version 1 keeps version 1's rules (issue 30)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games import get_engine
from tests.platform.play.test_pages import logged_in
from turnbased.play import services, store
from turnbased.play.models import Game

pytestmark = pytest.mark.django_db

CHOSEN = {"shared_path_resolution": "immediate", "tie_break": "stored_food", "two_exit_den": "path_per_exit"}


def test_the_api_lists_the_options_with_the_texts_readings_as_defaults():
    types = APIClient().get("/api/game-types/").json()
    forest = next(entry for entry in types if entry["game"] == "savernake-forest")
    defaults = {option["name"]: option["default"] for option in forest["options"]}
    assert defaults == {"shared_path_resolution": "end_of_game", "tie_break": "shared", "two_exit_den": "one_path",
                        "two_player_market": "discard"}


def test_a_table_created_through_the_api_keeps_the_chosen_readings(alice, api_client_for):
    created = api_client_for(alice).post("/api/games/", {"game": "savernake-forest", "players": 2, "options": CHOSEN},
                                         format="json")
    assert created.status_code == 201, created.content
    game = Game.objects.get(pk=created.json()["id"])
    assert game.engine_version == 2 and {key: game.options[key] for key in CHOSEN} == CHOSEN
    assert {key: created.json()["options"][key] for key in CHOSEN} == CHOSEN


def test_the_new_table_form_offers_and_keeps_the_readings(alice):
    client = logged_in(alice)
    page = client.get("/games/new/?game=savernake-forest").content.decode()
    for name in ("shared_path_resolution", "tie_break", "two_exit_den"):
        assert f'<select name="{name}">' in page
    client.post("/games/new/", {"game": "savernake-forest", "players": "2", "clock": "per_move", "days_per_move": "2",
                                **CHOSEN})
    game = Game.objects.get(engine="savernake-forest")
    assert {key: game.options[key] for key in CHOSEN} == CHOSEN


def test_a_game_pinned_to_version_1_starts_and_replays_with_version_1s_rules(alice, bob):
    game = services.create_game(creator=alice, engine_slug="savernake-forest", players=2, seed="v1")
    # A table opened before version 2: version 1's options, which the start checks with version 1.
    Game.objects.filter(pk=game.pk).update(engine_version=1, options={"shared_path_resolution": "immediate",
                                                                      "two_player_market": "discard"})
    services.join_game(game_id=game.pk, user=bob)
    game = Game.objects.get(pk=game.pk)
    assert game.options == {"shared_path_resolution": "immediate", "two_player_market": "discard"}
    assert "tie_break" not in game.state["options"]
    assert store.replay(game) == game.state
    view = get_engine("savernake-forest").view(game.state, None)
    assert view["options"]["tie_break"] == "stored_food" and view["options"]["two_exit_den"] == "one_path"
