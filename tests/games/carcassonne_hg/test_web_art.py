"""The web board's tile drawings (web_art.py): stored as art.py draws them, served as assets, not in views."""

from __future__ import annotations

import json
import random
from importlib import resources

from games.carcassonne_hg import ENGINE, tiles, web_art

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
        assert all(entry["tile"] in drawings for entry in view["board"])
        text = json.dumps(view)
        assert not any(shape["d"] in text for entry in view["board"] for shape in drawings[entry["tile"]]["shapes"])


def test_board_data_stands_each_piece_and_covered_meadow_on_its_regions_spot():
    state = position(TRAP_FIELD, "R-B94-hunting-trap", pieces=[(BOB, "hunter", 1, 1, "m0")], bonus_turn=True)
    state, _ = act(state, "place 0,2 r0")
    view = ENGINE.view(state, None)
    assert view["cancelled"] and view["pieces"]
    drawings = web_art.drawings(view["edition"])
    squares = {(entry["x"], entry["y"]): entry for entry in ENGINE.board_data(view, [])["tiles"]}
    assert [{k: v for k, v in entry.items() if k not in ("pieces", "covered")} for entry in squares.values()] == view["board"]
    for piece in view["pieces"]:
        square = squares[piece["x"], piece["y"]]
        anchor = drawings[square["tile"]]["anchors"][piece["region"]]
        assert {**piece, "at": anchor} in square["pieces"]
    for x, y, region in view["cancelled"]:
        assert drawings[squares[x, y]["tile"]]["anchors"][region] in squares[x, y]["covered"]
    assert sum(len(entry["pieces"]) for entry in squares.values()) == len(view["pieces"])
    assert sum(len(entry["covered"]) for entry in squares.values()) == len(view["cancelled"])
