"""The tile catalogue: counts and icon totals of the revised set (§12.1), the classic-approx set, rotation."""

from __future__ import annotations

from collections import Counter

import pytest

from games.carcassonne_hg import board, tiles
from games.carcassonne_hg.tiles import BONUS, CLASSIC, LAND, REVISED


def totals(edition: str, ids: list[str]) -> Counter:
    """Return the icon totals of the tiles ``ids`` (one entry per physical tile)."""
    found: Counter = Counter()
    for tile_id in ids:
        for region in tiles.tile(edition, tile_id).regions:
            for animal, count in region.animals:
                found[animal] += count
            if region.kind == "lake":
                found["lakes"] += 1
                found["fish_in_lakes"] += region.fish
            if region.kind == "river":
                found["fish_in_rivers"] += region.fish
                found["river_sources"] += region.inner_end == "source"
            if region.kind == "forest":
                found["forests_with_menhir"] += region.menhir
                found["forests_with_mushrooms"] += region.mushrooms
    found["tiles"] = len(ids)
    return found


def test_revised_set_has_the_start_tile_78_land_tiles_and_16_bonus_tiles():
    assert tiles.start_tile(REVISED) == "R-S56"
    assert len(tiles.deck(REVISED, LAND)) == 78
    assert len(tiles.deck(REVISED, BONUS)) == 16
    assert "R-S56" not in tiles.deck(REVISED, LAND)
    assert len(tiles.catalogue(REVISED)) == 85  # 85 distinct tile types for 95 tiles


def test_duplicated_layouts_are_the_ones_the_rules_file_lists():
    counts = Counter(tiles.deck(REVISED, LAND))
    assert {t: n for t, n in counts.items() if n > 1} == {
        "R-L06": 2,
        "R-L25": 2,
        "R-L29": 2,
        "R-L30": 2,
        "R-L31": 2,
        "R-L38": 2,
        "R-L39": 2,
        "R-L50": 2,
        "R-L33": 3,
    }


def test_icon_totals_match_the_catalogue_and_the_rules_file():
    raw = tiles.raw_catalogue()["totals"]
    land = totals(REVISED, [tiles.start_tile(REVISED), *tiles.deck(REVISED, LAND)])
    bonus = totals(REVISED, tiles.deck(REVISED, BONUS))
    for key, value in raw["revised_land_including_start"].items():
        assert land[key] == value, key
    for key, value in raw["revised_bonus"].items():
        assert bonus[key] == value, key
    # §12.1, written out again.
    assert (land["deer"], land["aurochs"], land["mammoth"], land["tiger"]) == (30, 10, 4, 11)
    assert (bonus["deer"], bonus["aurochs"], bonus["mammoth"], bonus["tiger"]) == (3, 3, 4, 2)
    assert (land["lakes"], land["fish_in_lakes"], bonus["lakes"], bonus["fish_in_lakes"]) == (20, 27, 9, 15)


def test_revised_bonus_tiles_carry_the_six_powers_and_two_mushroom_forests():
    specials = Counter(tiles.tile(REVISED, t).special for t in tiles.deck(REVISED, BONUS))
    assert specials == {
        None: 10,
        "shaman": 1,
        "logboat": 1,
        "hunting_trap": 1,
        "pit_trap": 1,
        "wildfire": 1,
        "raft": 1,
    }
    mushrooms = [t for t in tiles.deck(REVISED, BONUS) if any(r.mushrooms for r in tiles.tile(REVISED, t).regions)]
    assert mushrooms == ["R-B79-mushrooms-1", "R-B87-mushrooms-2"]


def test_classic_approx_set_follows_the_reconstruction_recipe():
    assert tiles.start_tile(CLASSIC) == "C-S00-start"
    assert len(tiles.deck(CLASSIC, LAND)) == 78
    bonus = tiles.deck(CLASSIC, BONUS)
    assert len(bonus) == 12
    assert {"C-B-shrine", "C-B-fire", "C-B-mushrooms", "C-B-aurochs"} <= set(bonus)
    land = totals(CLASSIC, [tiles.start_tile(CLASSIC), *tiles.deck(CLASSIC, LAND)])
    assert land["fish_in_rivers"] == 0 and land["forests_with_menhir"] == 30  # nuggets where the menhirs were
    assert totals(CLASSIC, bonus)["fish_in_rivers"] == 0
    powers = {tiles.tile(CLASSIC, t).special for t in bonus}
    assert powers == {None, "shrine", "fire"}  # raft and logboat stripped


@pytest.mark.parametrize("tile_id", ["R-L00", "R-L17", "R-B83-plain-two-lakes", "R-S56"])
def test_rotation_returns_a_new_tile_and_four_quarter_turns_come_back(tile_id):
    tile = tiles.tile(REVISED, tile_id)
    turned = tile.rotated(1)
    assert turned is not tile and tile.rot == 0 and turned.rot == 90
    assert turned.edges == (tile.edges[3], tile.edges[0], tile.edges[1], tile.edges[2])
    assert turned.rotated(3).edges == tile.edges and turned.rotated(3).regions == tile.regions
    for region in turned.regions:
        original = tile.region(region.id)
        assert [({"N": "E", "E": "S", "S": "W", "W": "N"}[d], i) for d, i in original.segments] == list(region.segments)


def test_every_region_of_every_tile_and_rotation_has_a_distinct_name():
    for edition in tiles.EDITIONS:
        for tile_id in tiles.catalogue(edition):
            for rot in board.ROTATIONS:
                names = board.region_names(edition, tile_id, rot)
                assert len(set(names.values())) == len(names), (tile_id, rot, names)
