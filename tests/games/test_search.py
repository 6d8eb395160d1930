"""The search behind every ``strong`` bot (``games/search.py``): what its settings change in the tree it grows."""

from __future__ import annotations

import dataclasses
import random

from games import search
from games.love_letter import ENGINE


def _position():
    """Return Love Letter's first position of a classic two-player game: the seat to move, its view and moves."""
    state = ENGINE.setup(["a", "b"], ENGINE.validate_options(2, {"edition": "classic"}), "search-tree")
    seat = ENGINE.to_move(state)[0]
    return seat, ENGINE.view(state, seat), ENGINE.legal_moves(state, seat)


def _others_moves_in_tree(others_in_tree: bool) -> tuple[set[str], set[str]]:
    """Search once; return the others' moves the tree holds right below the root's, and the moves ``playout`` chose
    for the others (the first legal one, so that a move chosen any other way shows)."""
    seat, view, moves = _position()
    chosen: set[str] = set()

    def first_move(engine, world, mover, legal, rng):
        if mover != seat:
            chosen.add(repr(legal[0]))
        return legal[0]

    settings = dataclasses.replace(
        search.SearchSettings(steps=600), playout=first_move, playout_moves=2, others_in_tree=others_in_tree
    )
    root = search.SearchBot(ENGINE, settings).search(view, moves, [], seat, random.Random(7))
    in_tree = {key for child in root.children.values() for key, node in child.children.items() if node.mover != seat}
    return in_tree, chosen


def test_the_others_move_by_the_playout_when_kept_out_of_the_tree():
    in_tree, chosen = _others_moves_in_tree(False)
    assert in_tree and in_tree <= chosen


def test_in_the_tree_the_others_try_every_move_they_have():
    in_tree, chosen = _others_moves_in_tree(True)
    assert in_tree - chosen  # grown at random among the untried, not as the playout would choose
