"""The new-table form without script: seat pickers for the chosen count, tables of bots, choices kept."""

from __future__ import annotations

import re

import pytest

from tests.platform.play.test_pages import logged_in
from turnbased.play import services
from turnbased.play.models import Game, GameStatus

pytestmark = pytest.mark.django_db


def _enabled_seat_pickers(page: str) -> list[str]:
    return re.findall(r'<select name="(seat_\d)">', page)


def test_the_form_has_one_enabled_seat_picker_per_player(alice):
    client = logged_in(alice)
    page = client.get("/games/new/?game=love-letter").content.decode()
    assert _enabled_seat_pickers(page) == ["seat_0", "seat_1"]  # Love Letter's usual two
    page = client.get("/games/new/?game=love-letter&players=4&seat_2=basic&edition=2019").content.decode()
    assert _enabled_seat_pickers(page) == ["seat_0", "seat_1", "seat_2", "seat_3"]
    assert '<option value="basic" selected>' in page, "the bot chosen before the update is kept"
    assert 'value="2019" selected' in page, "the edition chosen before the update is kept"


def test_a_count_out_of_range_falls_back_to_the_usual_one(alice):
    page = logged_in(alice).get("/games/new/?game=love-letter&players=99").content.decode()
    assert _enabled_seat_pickers(page) == ["seat_0", "seat_1"]


def test_a_table_of_bots_from_the_form_starts_without_the_creator(alice):
    response = logged_in(alice).post("/games/new/", {
        "game": "love-letter", "players": "2", "edition": "classic", "seat_0": "basic", "seat_1": "basic",
    })
    game = Game.objects.get()
    assert response.status_code == 302 and game.status in (GameStatus.ACTIVE, GameStatus.FINISHED)
    assert [seat.bot for seat in game.seats.all()] == ["basic", "basic"] and game.created_by == alice


def test_seats_past_the_count_are_ignored(alice):
    logged_in(alice).post("/games/new/", {
        "game": "love-letter", "players": "2", "edition": "classic", "seat_1": "basic", "seat_4": "basic",
    })
    game = Game.objects.get()
    assert game.seat_count == 2 and [seat.bot for seat in game.seats.all()] == ["", "basic"]


def test_the_lobby_names_games_by_the_games_name(alice, bob):
    mine = services.create_game(creator=alice, engine_slug="carcassonne-hg", players=2)
    services.join_game(game_id=mine.pk, user=bob)
    open_table = services.create_game(creator=bob, engine_slug="savernake-forest", players=3)
    page = logged_in(alice).get("/").content.decode()
    assert f"Carcassonne: Hunters and Gatherers #{mine.pk}" in page
    assert f"Savernake Forest #{open_table.pk}" in page
    assert "carcassonne-hg #" not in page and "savernake-forest #" not in page
