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


def _advanced(page: str) -> str:
    return page.split('<details class="advanced-options"', 1)[1].split("</details>", 1)[0]


def test_the_rule_variants_fold_under_advanced_with_the_engines_defaults(alice):
    from games import get_engine

    page = logged_in(alice).get("/games/new/?game=carcassonne-hg").content.decode()
    advanced = _advanced(page)
    assert advanced.startswith(">"), "folded while every variant is at its default"
    specs = get_engine("carcassonne-hg").option_specs
    assert re.findall(r'<select name="(\w+)"', advanced) == [spec.name for spec in specs if spec.advanced]
    before = page.split('<details class="advanced-options"', 1)[0]
    assert '<select name="edition">' in before and '<select name="unplaceable_tile">' not in before
    for spec in specs:
        chosen = re.search(rf'<select name="{spec.name}">.*?value="([^"]*)" selected', page, re.S).group(1)
        assert chosen == str(spec.default), spec.name
    changed = logged_in(alice).get("/games/new/?game=carcassonne-hg&players=3&hunting_trap_scorer=hunters")
    assert _advanced(changed.content.decode()).startswith(" open>"), "a variant chosen before stays in view"


def test_every_game_folds_only_its_variants(alice):
    client = logged_in(alice)
    for slug, up_front in [("love-letter", ["edition"]), ("halali", []), ("savernake-forest", []),
                           ("carcassonne-hg", ["edition"])]:
        page = client.get(f"/games/new/?game={slug}").content.decode()
        before = page.split('<details class="advanced-options"', 1)[0]
        assert re.findall(r'<p class="option-choice"><label>[^<]*\s*<select name="(\w+)"', before) == up_front, slug


def test_an_unticked_absence_box_is_read_as_no(alice):
    """An unticked checkbox sends nothing: the form's hidden "off" says so, where "on" was assumed before."""
    client = logged_in(alice)
    form = {"game": "love-letter", "players": "2", "clock": "per_move", "days_per_move": "2"}
    client.post("/games/new/", {**form, "allow_absence": ["off"]})
    client.post("/games/new/", {**form, "allow_absence": ["off", "on"]})
    assert [game.clock.allow_absence for game in Game.objects.order_by("pk")] == [False, True]
    page = client.get("/games/new/?game=love-letter&players=2&allow_absence=off").content.decode()
    assert '<input type="checkbox" name="allow_absence" >' in page, "kept unticked when the form comes back"


def test_the_clock_fields_name_their_time_controls(alice):
    page = logged_in(alice).get("/games/new/?game=love-letter").content.decode()
    assert '<select name="clock" data-clock-choice>' in page
    assert '<p data-clock="per_move"><label>Days per move' in page
    assert '<p data-clock="bank">Time bank:' in page
    assert page.count('data-clock="per_move bank"') == 3
    fieldset = page.split("data-clock-choice", 1)[1].split("</fieldset>", 1)[0]
    assert not re.search(r'<p data-clock="[^"]*"[^>]*\shidden', fieldset), "without script every field shows"
