"""The e-mail picture (picture.py) and the tile artwork it shares with the web board (art.py)."""

from __future__ import annotations

import io
import json
import random

import pytest
from PIL import Image

from games.carcassonne_hg import ENGINE, art, picture, tiles

from . import NAMES


def played(seed: int, turns: int, stack: list[str] | None = None) -> dict:
    """Return a 3-player game after ``turns`` random moves (pieces now and then)."""
    rng = random.Random(seed)
    options = {"first_player": 0} if stack is None else {"tiles": stack, "first_player": 0}
    state = ENGINE.setup(NAMES[:3], options, seed=f"picture-{seed}")
    for _ in range(turns):
        if ENGINE.is_over(state):
            break
        (seat,) = ENGINE.to_move(state)
        state, _ = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_moves(state, seat)))
    return state


def test_the_picture_is_a_png_about_600_pixels_wide_and_deterministic():
    state = played(1, 30)
    view = ENGINE.view(state, 0)
    png = ENGINE.view_picture(view)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    image = Image.open(io.BytesIO(png))
    image.verify()
    image = Image.open(io.BytesIO(png))
    assert 600 <= image.width <= 700 and 300 <= image.height <= 900
    assert ENGINE.view_picture(json.loads(json.dumps(view))) == png  # same view, same bytes (also after JSON)


def test_the_window_is_at_most_seven_squares_and_holds_the_latest_tiles():
    state = played(2, 70)
    view = ENGINE.view(state, None)
    west, east, south, north = picture.window(view)
    assert east - west + 1 <= picture.WINDOW and north - south + 1 <= picture.WINDOW
    x, y, *_ = view["board"][-1]
    assert west <= x <= east and south <= y <= north


def test_the_picture_shows_nothing_hidden_two_stack_orders_give_the_same_bytes():
    deck = tiles.deck("revised", "land")
    random.Random(5).shuffle(deck)
    head, tail = deck[:10], deck[10:]
    one = played(3, 8, head + tail)
    two = played(3, 8, head + list(reversed(tail)))
    assert one["stack"] != two["stack"]
    for viewer in (None, 0, 1):
        assert ENGINE.view_picture(ENGINE.view(one, viewer)) == ENGINE.view_picture(ENGINE.view(two, viewer))


def test_every_seat_and_spectators_get_the_same_picture():
    state = played(4, 20)
    pictures = {ENGINE.view_picture(ENGINE.view(state, viewer)) for viewer in (None, 0, 1, 2)}
    assert len(pictures) == 1


def test_a_finished_game_and_the_classic_edition_have_pictures():
    state = ENGINE.setup(NAMES[:2], {"tiles": ["R-L62"], "first_player": 0, "edition": "classic"}, seed=1)
    (seat,) = ENGINE.to_move(state)
    state, _ = ENGINE.apply(state, seat, ENGINE.legal_moves(state, seat)[0])
    assert ENGINE.is_over(state)
    assert ENGINE.view_picture(ENGINE.view(state, 0))[:4] == b"\x89PNG"


def _parts(cells: set) -> int:
    left, count = set(cells), 0
    while left:
        count += 1
        stack = [left.pop()]
        while stack:
            i, j = stack.pop()
            for di, dj in art.NEIGHBOURS4:
                if (i + di, j + dj) in left:
                    left.remove((i + di, j + dj))
                    stack.append((i + di, j + dj))
    return count


ALL_TILES = [(edition, tile_id) for edition in tiles.EDITIONS for tile_id in tiles.catalogue(edition)]


@pytest.mark.parametrize(("edition", "tile_id"), ALL_TILES)
def test_every_tile_is_drawn_with_its_regions_whole_apart_and_on_their_edges(edition, tile_id):
    """Each region is one connected area touching its edge segments; two meadows (or forests) never touch."""
    tile = tiles.tile(edition, tile_id)
    cells = art.region_cells(edition, tile_id)
    kind = {r.id: r.kind for r in tile.regions}
    label = {cell: region for region, found in cells.items() for cell in found}
    for region in tile.regions:
        assert cells[region.id], f"{region.id} is not drawn"
        assert _parts(cells[region.id]) == 1, f"{region.id} is drawn in pieces"
        for direction, index in region.segments:
            assert any(label.get(c) == region.id for c in art._edge_cells(tile, direction, index)), (
                f"{region.id} does not reach {direction}{index}"
            )
    for (i, j), region in label.items():
        for other in (label.get((i + 1, j)), label.get((i, j + 1))):
            if other and other != region and kind[region] == kind[other] and kind[region] in ("meadow", "forest"):
                pytest.fail(f"{region} and {other} touch")
    drawing = art.tile_art(edition, tile_id)
    assert set(drawing["anchors"]) == set(kind)
    icons = [icon["icon"] for icon in drawing["icons"]]
    for animal in tiles.ANIMALS:
        assert icons.count(animal) == sum(r.count(animal) for r in tile.regions)
    assert icons.count("fish") == sum(r.fish for r in tile.regions)
    assert icons.count("menhir") + icons.count("nugget") == sum(r.menhir for r in tile.regions)


def test_rotating_a_point_turns_it_clockwise_about_the_centre():
    assert art.rotate_point((50, 0), 90) == (100, 50)  # north goes east
    assert art.rotate_point((50, 0), 180) == (50, 100)
    assert art.rotate_point((0, 50), 270) == (50, 100)  # west, three quarters on, is south
