"""The web board's tile drawings (web_art.py): stored as art.py draws them, served as assets, not in views."""

from __future__ import annotations

import json
import random
from importlib import resources

from games.carcassonne_hg import ENGINE, player_view, tiles, web_art

from . import BOB, act, position

TRAP_FIELD = [(0, 1, "R-L62", 0), (1, 1, "R-L61", 0), (-1, 1, "R-L31", 0)]


def played(edition: str, turns: int) -> dict:
    rng = random.Random(turns)
    state = ENGINE.setup(["Ann", "Ben"], ENGINE.validate_options(2, {"edition": edition}), f"web-art-{edition}")
    for _ in range(turns):
        if ENGINE.is_over(state):
            break
        (seat,) = ENGINE.to_move(state)
        state, _ = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_moves(state, seat)))
    return state


def test_the_stored_drawings_are_what_art_py_draws():
    stored = resources.files("games.carcassonne_hg").joinpath(web_art.STORED).read_text(encoding="utf-8")
    assert stored == web_art.stored_text(), "hg-art.json is out of date: python -m games.carcassonne_hg.web_art"


def test_the_assets_hold_a_drawing_of_every_tile_of_each_edition():
    assets = ENGINE.assets()
    assert set(assets) == {"art-revised", "art-classic"}
    for edition in tiles.EDITIONS:
        drawings = assets[web_art.asset_name(edition)]
        assert set(drawings) == set(tiles.catalogue(edition))
        for tile_id, drawing in drawings.items():
            assert set(drawing) == {"shapes", "rivers", "icons", "anchors"}
            assert set(drawing["anchors"]) == {region.id for region in tiles.tile(edition, tile_id).regions}
    # The classic set draws gold nuggets where the revised one has menhirs.
    classic = json.dumps(assets["art-classic"])
    assert '"nugget"' in classic and '"menhir"' not in classic
    assert '"menhir"' in json.dumps(assets["art-revised"])


def test_a_view_names_the_drawings_of_its_edition_instead_of_carrying_them():
    for edition in tiles.EDITIONS:
        state = played(edition, 60)
        view = ENGINE.view(state, 0)
        assert "art" not in view and view["art_asset"] == f"art-{edition}"
        drawings = ENGINE.assets()[view["art_asset"]]
        assert all(tile_id in drawings for _, _, tile_id, *_ in view["board"])
        text = json.dumps(view)
        assert not any(shape["d"] in text for _, _, tile_id, *_ in view["board"] for shape in drawings[tile_id]["shapes"])


def test_the_views_board_is_each_tile_as_x_y_tile_rot_and_placer_in_placement_order():
    state = played(tiles.REVISED, 12)
    view = ENGINE.view(state, 1)
    assert view["board"] == [entry[:5] for entry in state["board"]]
    assert view["board"][0] == [0, 0, tiles.start_tile(tiles.REVISED), 0, None]
    assert all(isinstance(by, int) for *_, by in view["board"][1:])


def test_board_data_stands_each_piece_and_covered_meadow_on_its_regions_spot():
    state = position(TRAP_FIELD, "R-B94-hunting-trap", pieces=[(BOB, "hunter", 1, 1, "m0")], bonus_turn=True)
    state, _ = act(state, "place 0,2 r0")
    view = ENGINE.view(state, None)
    assert view["cancelled"] and view["pieces"]
    drawings = web_art.drawings(view["edition"])
    picture = ENGINE.board_data(view, [])["picture"]
    assert picture["tiles"] == view["board"]
    placed = {(x, y): tile_id for x, y, tile_id, *_ in view["board"]}
    assert sorted(picture["pieces"]) == sorted(
        [p["x"], p["y"], p["seat"], p["kind"], *drawings[placed[p["x"], p["y"]]]["anchors"][p["region"]]]
        for p in view["pieces"]
    )
    assert sorted(picture["covered"]) == sorted(
        [x, y, *drawings[placed[x, y]]["anchors"][region]] for x, y, region in view["cancelled"]
    )
    assert picture["last"] == [0, 2] and picture["names"] == [seat["name"] for seat in view["seats"]]


def test_board_data_names_the_latest_tile_and_its_placer_for_the_page_without_its_script():
    state = played(tiles.REVISED, 0)
    data = ENGINE.board_data(ENGINE.view(state, 0), [])
    start = player_view.tile_name(tiles.start_tile(tiles.REVISED), tiles.REVISED)
    assert start.startswith("the start tile")
    assert data["count"] == 1 and data["latest"] == {"x": 0, "y": 0, "name": start, "by": None}
    state = played(tiles.REVISED, 3)
    view = ENGINE.view(state, 0)
    x, y, tile_id, _, by = view["board"][-1]
    data = ENGINE.board_data(view, [])
    assert data["count"] == len(view["board"]) == 4
    assert data["latest"] == {"x": x, "y": y, "name": player_view.tile_name(tile_id, "revised"),
                              "by": view["seats"][by]["name"]}
    # The tile drawn for the turn to come, by name.
    assert view["tile"] and data["tile_name"] == player_view.tile_name(view["tile"], "revised")
