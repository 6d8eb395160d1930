"""The board analysis travels in the state (issue 11): a worker that has never seen the board lists moves cheaply.

Each board entry carries its regions' zone and river-system labels (``features.labelled``). These tests
check that the analysis read back from the labels is the flood-filled one in every respect the engine
uses, that the labels depend on the placements alone, that listing the moves on a cold worker floods
no tile and adds up no feature totals, and that a view or a move adds up only the features it needs
(a view's held features are then kept with the board's analysis).
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from games.carcassonne_hg import ENGINE, features, player_view, tiles, totals

from . import NAMES


def positions(edition: str, players: int, seed: int):
    """Yield the positions of a seeded random game whose bonus stack puts the power tiles first."""
    rng = random.Random(f"stored-{edition}-{seed}")
    bonus = tiles.deck(edition, tiles.BONUS)
    rng.shuffle(bonus)
    powers = [t for t in bonus if tiles.tile(edition, t).special]
    options = {"edition": edition, "bonus_tiles": powers + [t for t in bonus if t not in powers],
               "menhir_needs_occupied_forest": False}
    state = ENGINE.setup(NAMES[:players], options, seed)
    while not ENGINE.is_over(state):
        yield state
        (seat,) = ENGINE.to_move(state)
        moves = ENGINE.legal_moves(state, seat)
        placed = [m for m in moves if "piece" in m]
        state, _ = ENGINE.apply(state, seat, rng.choice(placed if placed and rng.random() < 0.7 else moves))


def flood_filled(edition: str, board: list[list]) -> features.Analysis:
    """Return the analysis built tile by tile from the placements only (no labels, nothing memoised)."""
    features._CACHE.clear()
    return features.analyse(edition, [entry[:5] for entry in board])


def read_back(edition: str, board: list[list]) -> features.Analysis:
    features._CACHE.clear()
    return features.analyse(edition, board)


def values(an: features.Analysis) -> tuple:
    """Return an analysis as values that do not depend on its feature ids."""
    zones = {node: an.zones[root] for node, root in an.zone_of.items()}
    systems = {node: an.systems[root] for node, root in an.system_of.items()}
    return an.index, an.needs, zones, systems, Counter(an.zones.values()), Counter(an.systems.values())


CASES = [(edition, players, seed) for edition in tiles.EDITIONS for players, seed in ((2, 1), (4, 2))]


@pytest.mark.parametrize(("edition", "players", "seed"), CASES)
def test_the_analysis_read_from_the_labels_is_the_flood_filled_one(edition, players, seed):
    for number, state in enumerate(positions(edition, players, seed)):
        board = state["board"]
        assert all(len(entry) == features.LABELLED for entry in board)
        if number % 3:
            continue
        slow, fast = flood_filled(edition, board), read_back(edition, board)
        assert features.labelled(board, slow) == board, "the labels depend on the placements alone"
        assert values(fast) == values(slow)
        assert features.fitting(fast, state["tile"]) == features.fitting(slow, state["tile"])
        for square, rot in features.fitting(fast, state["tile"])[:8]:
            tile = tiles.oriented(edition, state["tile"], rot)
            mine, theirs = features.groups(fast, square, tile), features.groups(slow, square, tile)
            for ours, others, of_fast, of_slow in zip(mine, theirs, (fast.zones, fast.systems),
                                                      (slow.zones, slow.systems)):
                assert [(g.kind, g.regions, {of_fast[r] for r in g.roots}) for g in ours] == [
                    (g.kind, g.regions, {of_slow[r] for r in g.roots}) for g in others
                ]
        # A read-back analysis grows like any other: the next placement gives the flood-filled result.
        if features.fitting(fast, state["tile"]):
            square, rot = features.fitting(fast, state["tile"])[0]
            tile = tiles.oriented(edition, state["tile"], rot)
            assert values(features.with_tile(fast, square, tile)) == values(features.with_tile(slow, square, tile))


def test_listing_the_moves_on_a_cold_worker_floods_no_tile_and_adds_up_no_totals(monkeypatch):
    late = [state for state in positions(tiles.REVISED, 4, 7) if len(state["board"]) >= 60]
    stored = [json.dumps(state) for state in late[::5]]
    calls = Counter()
    for module, name in ((features, "add_tile"), (totals, "totals_of")):
        original = getattr(module, name)
        monkeypatch.setattr(module, name, lambda *args, _name=name, _original=original: (
            calls.update([_name]), _original(*args))[1])
    for text in stored:
        features._CACHE.clear()
        state = json.loads(text)
        moves = ENGINE.legal_moves(state, state["current"])
        assert moves
    assert calls == Counter(), "a cold listing must read the analysis from the labels, not rebuild it"


def counting_totals(monkeypatch) -> list:
    """Record the features each call of ``totals.totals_of`` adds up: None for every feature of the board."""
    asked = []
    original = totals.totals_of

    def counted(an, zone_roots=None, system_roots=None):
        asked.append(None if zone_roots is None and system_roots is None else len(zone_roots or ()) + len(
            system_roots or ()))
        return original(an, zone_roots, system_roots)

    monkeypatch.setattr(totals, "totals_of", counted)
    return asked


def test_a_view_or_a_move_on_a_cold_worker_adds_up_only_the_features_it_needs(monkeypatch):
    late = [json.dumps(state) for state in positions(tiles.REVISED, 2, 3) if len(state["board"]) >= 50][::6]
    assert late
    asked = counting_totals(monkeypatch)
    for text in late:
        state = json.loads(text)
        features._CACHE.clear()
        assert ENGINE.view(state, 0)["features"]
        assert asked and None not in asked and sum(asked) <= len(state["pieces"]), "a view adds up the held features"
        asked.clear()
        features._CACHE.clear()
        seat = state["current"]
        after, _ = ENGINE.apply(state, seat, ENGINE.legal_moves(state, seat)[0])
        if not ENGINE.is_over(after):
            assert None not in asked, "a move adds up the features its tile touches, not every one"
        asked.clear()


def test_a_positions_held_features_are_worked_out_once_and_each_view_gets_its_own(monkeypatch):
    state = next(state for state in positions(tiles.REVISED, 2, 3) if len(state["pieces"]) >= 4)
    worked_out = Counter()
    original = player_view._held_features
    monkeypatch.setattr(player_view, "_held_features", lambda *args: (worked_out.update(["held"]), original(*args))[1])
    features._CACHE.clear()
    first = ENGINE.view(state, 0)
    first["features"][0]["holders"].append({"seat": 9, "count": 9})
    first["features"][0]["value"] = -1
    second = ENGINE.view(state, 1)
    assert worked_out["held"] == 1, "the second view of the position reads the held features from the memo"
    features._CACHE.clear()
    assert second["features"] == ENGINE.view(state, None)["features"] != first["features"]
    assert worked_out["held"] == 2
