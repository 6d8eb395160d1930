"""Setup, the tile table and options (rules file §1, §3, §9, §10)."""

from __future__ import annotations

import json
from collections import Counter

import pytest

import games
from games.base import InvalidOptions
from games.halali import ENGINE, board, tiles

from . import LAYOUT, NAMES


def test_tile_table_matches_the_rules_file():
    assert tiles.COUNTS == {
        "bear": 2, "fox": 6, "lumberjack": 2, "hunter": 8, "pheasant": 8, "duck": 7, "tree": 15,
    }  # fmt: skip
    assert len(tiles.full_set()) == 48
    assert sum(tiles.POINTS[kind] for kind in tiles.full_set()) == 168
    assert {k for k in tiles.KINDS if tiles.owner(k) == "blue"} == {"bear", "fox"}
    assert {k for k in tiles.KINDS if tiles.owner(k) == "brown"} == {"hunter", "lumberjack"}
    assert {k for k in tiles.KINDS if tiles.owner(k) is None} == {"pheasant", "duck", "tree"}


def test_board_names_and_exits_follow_the_rules_coordinates():
    assert board.name(0) == "a7" and board.name(48) == "g1" and board.name(board.CENTRE) == "d4"
    # Rules §3: exits at (0,3) north, (6,3) south, (3,0) west, (3,6) east.
    assert {d: board.name(i) for d, i in board.EXITS.items()} == {"N": "d7", "E": "g4", "S": "d1", "W": "a4"}
    assert [board.name(i) for i in board.START_SQUARES][:8] == ["a7", "b7", "c7", "d7", "e7", "f7", "g7", "a6"]
    assert len(board.START_SQUARES) == 48 and board.CENTRE not in board.START_SQUARES


def test_given_a_seed_when_set_up_then_48_face_down_tiles_surround_an_empty_centre():
    state = ENGINE.setup(NAMES, {}, seed="abc")
    grid = state["board"]
    assert grid[board.CENTRE] is None
    laid = [grid[i] for i in board.START_SQUARES]
    assert all(cell is not None and not cell["up"] for cell in laid)
    assert Counter(cell["kind"] for cell in laid) == Counter(tiles.full_set())
    assert all(cell["dir"] in "NESW" for cell in laid if cell["kind"] == "hunter")
    assert all("dir" not in cell for cell in laid if cell["kind"] != "hunter")
    assert state["phase"] == "main" and state["leg"] == 1
    assert ENGINE.to_move(state) == [state["blue"]]  # Blue moves first
    json.dumps(state)


def test_same_seed_gives_same_layout_and_other_seeds_vary():
    assert ENGINE.setup(NAMES, {}, seed=5) == ENGINE.setup(NAMES, {}, seed=5)
    layouts = {json.dumps(ENGINE.setup(NAMES, {}, seed=seed)["board"]) for seed in range(10)}
    assert len(layouts) == 10
    assert {ENGINE.setup(NAMES, {}, seed=seed)["blue"] for seed in range(30)} == {0, 1}


def test_hunter_rifle_directions_are_drawn_at_setup_and_all_four_occur():
    seen = Counter()
    for seed in range(25):
        for cell in ENGINE.setup(NAMES, {}, seed=seed)["board"]:
            if cell and cell["kind"] == "hunter":
                seen[cell["dir"]] += 1
    assert set(seen) == {"N", "E", "S", "W"} and min(seen.values()) > 20


def test_given_a_hunter_flipped_then_it_keeps_the_direction_it_was_laid_with():
    state = ENGINE.setup(NAMES, {"layout": LAYOUT, "first_blue": 0}, seed=1)
    square = board.name(board.START_SQUARES[LAYOUT.index("hunter:W")])
    state, events = ENGINE.apply(state, 0, {"flip": square})
    assert events[0].data == {
        "seat": 0,
        "square": square,
        "kind": "hunter",
        "locked": False,
        "dir": "W",
        "face_down": 47,
    }
    assert state["board"][board.index(square)] == {"kind": "hunter", "up": True, "dir": "W"}


def test_given_layout_list_then_tiles_lie_in_reading_order_and_both_legs_use_it():
    state = ENGINE.setup(NAMES, {"layout": LAYOUT}, seed=1)
    assert [tiles.spec(state["board"][i]) for i in board.START_SQUARES] == LAYOUT
    assert ENGINE.validate_options(2, {"layout": LAYOUT})["layout"] == [LAYOUT]


def test_given_layout_mapping_and_short_codes_then_it_is_read_by_square():
    short = [
        {"hunter:N": "HN", "hunter:E": "he", "hunter:S": "Hs", "hunter:W": "hunter:w"}.get(s, s[0]) for s in LAYOUT
    ]
    mapping = {board.name(i).upper(): spec for i, spec in zip(board.START_SQUARES, reversed(short))}
    options = ENGINE.validate_options(2, {"layout": mapping})
    assert options["layout"] == [list(reversed(LAYOUT))]


def test_given_one_layout_per_leg_then_each_leg_gets_its_own():
    second = list(reversed(LAYOUT))
    state = ENGINE.setup(NAMES, {"layout": [LAYOUT, second]}, seed=1)
    from games.halali.engine import layout_for

    assert [tiles.spec(layout_for(state, 2)[i]) for i in board.START_SQUARES] == second
    only_first = ENGINE.setup(NAMES, {"layout": [LAYOUT]}, seed=1)
    assert layout_for(only_first, 2) == layout_for(only_first, 1)


VERSION_1_DEFAULTS = {
    "no_return_neutral": False,
    "no_return_capture": True,
    "stall_limit": 0,
    "exits_anytime": False,
}


def test_given_no_options_then_defaults_are_filled_in():
    assert ENGINE.validate_options(2, {}) == {"lock_on_move": True, **VERSION_1_DEFAULTS}


def test_option_specs_expose_only_player_settable_options():
    assert [spec.name for spec in ENGINE.option_specs] == [
        "lock_on_move",
        "no_return_neutral",
        "no_return_capture",
        "stall_limit",
        "exits_anytime",
    ]
    json.dumps([spec.to_json() for spec in ENGINE.option_specs])
    view = ENGINE.view(ENGINE.setup(NAMES, {"layout": LAYOUT, "first_blue": 1}, seed=2), 0)
    assert set(view["options"]) == {spec.name for spec in ENGINE.option_specs}


@pytest.mark.parametrize(
    ("players", "options", "reason"),
    [
        (3, {}, "exactly 2 players"),
        (1, {}, "exactly 2 players"),
        (2, {"colour": "blue"}, "Unknown option"),
        (2, {"layout": LAYOUT[:-1]}, "layout must be"),
        (2, {"layout": ["duck", *LAYOUT[:-1]]}, r"missing \{'tree': 1\}, extra \{'duck': 1\}"),
        (2, {"layout": ["bear", *LAYOUT[1:-1], "bear"]}, "exactly the 48 tiles"),
        (2, {"layout": ["hunter" if s == "hunter:N" else s for s in LAYOUT]}, "rifle direction"),
        (2, {"layout": ["fox:N" if s == "fox" else s for s in LAYOUT]}, "only hunters"),
        (2, {"layout": ["wolf", *LAYOUT[1:]]}, "unknown tile"),
        (2, {"layout": [LAYOUT, LAYOUT[:10]]}, "leg 2 must hold exactly 48"),
        (2, {"layout": {"d4": "tree"}}, "every square but d4"),
        (2, {"layout": "tree"}, "layout must be"),
        (2, {"first_blue": 2}, "first_blue"),
        (2, {"first_blue": True}, "first_blue"),
        (2, {"stall_limit": -1}, "stall_limit"),
        (2, {"no_return_neutral": "yes"}, "no_return_neutral must be true or false"),
        (2, {"lock_on_move": 0}, "lock_on_move must be true or false"),
    ],
)
def test_given_bad_options_then_invalid_options_with_reason(players, options, reason):
    with pytest.raises(InvalidOptions, match=reason):
        ENGINE.validate_options(players, options)


def test_layout_multiset_error_names_what_is_missing_and_extra():
    bad = ["fox" if spec == "bear" else spec for spec in LAYOUT]
    with pytest.raises(InvalidOptions) as error:
        ENGINE.validate_options(2, {"layout": bad})
    assert "missing {'bear': 2}" in error.value.reason and "extra {'fox': 2}" in error.value.reason


# -- engine versions: version 2 added lock_on_move; version 1 keeps its own options ---------------


def test_version_1_has_its_own_options_so_its_records_stay_complete():
    old = games.engine_at("halali", 1)
    assert ENGINE.version == 2 and ENGINE.supported_versions == (1, 2)
    assert old.validate_options(2, {}) == VERSION_1_DEFAULTS
    assert [spec.name for spec in old.option_specs] == list(VERSION_1_DEFAULTS)
    with pytest.raises(InvalidOptions, match="Unknown option for Halali!: lock_on_move"):
        old.validate_options(2, {"lock_on_move": False})
    assert "lock_on_move" not in old.setup(NAMES, VERSION_1_DEFAULTS, seed=3)["options"]
    # The newest engine is unchanged by asking for an older one, and asking back gives every option again.
    assert [spec.name for spec in old.at_version(2).option_specs] == [spec.name for spec in ENGINE.option_specs]
    assert ENGINE.validate_options(2, {})["lock_on_move"] is True


def test_a_version_1_state_shows_the_lock_it_played():
    old = games.engine_at("halali", 1)
    state = old.setup(NAMES, {**VERSION_1_DEFAULTS, "layout": LAYOUT, "first_blue": 0}, seed=3)
    assert old.view(state, 0)["options"] == {"lock_on_move": True, **VERSION_1_DEFAULTS}
