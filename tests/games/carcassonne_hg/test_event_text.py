"""The history names tiles in words a player reads, never by their catalogue ids."""

from __future__ import annotations

import re

from games.base import Event
from games.carcassonne_hg import ENGINE, tiles

from . import ALICE, BOB, NAMES, act, game

CATALOGUE_ID = re.compile(r"\b[RC]-[A-Z]\d*")


def test_drawing_and_placing_a_tile_name_it_in_words():
    state = game(["R-L15", "R-L62"])
    state, events = act(state, "place -1,0 r0")
    lines = [ENGINE.describe_event(event, NAMES[:2], BOB) for event in events]
    assert "Alice places a river tile with a deer on -1,0 turned 0°." in lines
    assert "You draw a meadow tile with a deer (0 tiles left)." in lines
    assert not any(CATALOGUE_ID.search(line) for line in lines)


def test_every_tile_of_both_editions_has_a_name_without_its_id():
    for edition in tiles.EDITIONS:
        for tile_id in tiles.catalogue(edition):
            placed = Event("tile_placed", {"seat": ALICE, "tile": tile_id, "bonus": False, "x": 1, "y": 0, "rot": 90})
            text = ENGINE.describe_event(placed, NAMES[:2], BOB)
            assert not CATALOGUE_ID.search(text), text
            assert re.fullmatch(r"Alice places (a|the) [a-zA-Z ]*tile( with [a-z0-9 (),]+)? on 1,0 turned 90°\.", text), text
