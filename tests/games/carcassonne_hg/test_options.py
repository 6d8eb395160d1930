"""Table options, the §11 defaults per edition, and the engine-internal scripted stacks."""

from __future__ import annotations

import pytest

from games.base import InvalidOptions
from games.carcassonne_hg import ENGINE, tiles

from . import NAMES


def test_revised_defaults_are_the_bga_column_of_section_11():
    assert ENGINE.validate_options(3, {}) == {
        "edition": "revised",
        "menhir_needs_occupied_forest": True,
        "unplaceable_tile": "end_turn",
        "hunting_trap_scorer": "placer",
        "fire_affects_hunting_trap": False,
        "wildfire_tile_tiger_counts": False,
        "shrine_requires_free_meadow": True,
        "river_fish_for_fishermen": "river_and_lakes",
        "forest_parts_count_separately": True,
    }


def test_classic_defaults_are_the_classic_column():
    options = ENGINE.validate_options(2, {"edition": "classic"})
    assert options["unplaceable_tile"] == "redraw" and options["forest_parts_count_separately"] is False


def test_every_option_spec_default_is_one_of_its_choices_and_validates():
    for spec in ENGINE.option_specs:
        assert spec.default in [value for value, _ in spec.choices]
        for value, _ in spec.choices:
            ENGINE.validate_options(2, {spec.name: value})


def test_validated_options_validate_again_unchanged():
    options = ENGINE.validate_options(2, {"edition": "classic", "tiles": ["R-L00"], "first_player": 1})
    assert ENGINE.validate_options(2, options) == options


@pytest.mark.parametrize(
    ("players", "options", "reason"),
    [
        (1, {}, "2 to 5 players"),
        (6, {}, "2 to 5 players"),
        (2, {"speed": "fast"}, "Unknown option"),
        (2, {"edition": "deluxe"}, "edition must be one of"),
        (2, {"menhir_needs_occupied_forest": "yes"}, "must be one of"),
        (2, {"unplaceable_tile": "shuffle_back"}, "must be one of"),
        (2, {"tiles": "R-L00"}, "list of tile ids"),
        (2, {"tiles": []}, "at least one land tile"),
        (2, {"tiles": ["R-L99"]}, "R-L99 is not a revised tile"),
        (2, {"tiles": ["R-S56"]}, "R-S56 is the start tile, not a land tile"),
        (2, {"tiles": ["R-B85-wildfire"]}, "is the bonus tile, not a land tile"),
        (2, {"tiles": ["R-L00", "R-L00"]}, "R-L00 ×2 (the set has 1)"),
        (2, {"tiles": ["R-L33"] * 4}, "R-L33 ×4 (the set has 3)"),
        (2, {"bonus_tiles": ["R-L00"]}, "not a bonus tile"),
        (2, {"edition": "classic", "bonus_tiles": ["R-B85-wildfire"]}, "not a classic tile"),
        (2, {"first_player": 2}, "first_player must be a seat from 0 to 1"),
    ],
)
def test_bad_options_are_refused_with_a_reason(players, options, reason):
    with pytest.raises(InvalidOptions) as error:
        ENGINE.validate_options(players, options)
    assert reason in error.value.reason


def test_a_scripted_stack_fixes_the_draw_order_and_the_game_uses_only_those_tiles():
    state = ENGINE.setup(NAMES[:2], {"tiles": ["R-L62", "R-L61"], "bonus_tiles": ["R-B85-wildfire"]}, seed=1)
    assert state["tile"] == "R-L62" and state["stack"] == ["R-L61"] and state["bonus_stack"] == ["R-B85-wildfire"]


def test_an_unscripted_game_shuffles_the_whole_set_from_the_seed():
    a = ENGINE.setup(NAMES[:4], {}, seed="x")
    b = ENGINE.setup(NAMES[:4], {}, seed="x")
    c = ENGINE.setup(NAMES[:4], {}, seed="y")
    assert a == b and a["stack"] != c["stack"]
    assert sorted([a["tile"], *a["stack"]]) == sorted(tiles.deck("revised", "land"))
    assert sorted(a["bonus_stack"]) == sorted(tiles.deck("revised", "bonus"))
    assert a["current"] in range(4)
