"""Listing the legal moves walks the forest once and gives what trying every placement gave (issue 11).

``reference_legal_moves`` is ``legal_moves`` as it was before (git 7ff457e): it built every trial
forest and found its shared paths from scratch. The fast listing must return the same moves in the
same order on every position of seeded random games, in both shared-path modes, with the
persistent two-player market and with a path per exit of a den, and ``Paths.shared_after`` must agree
with ``shared`` on the forest with the card placed, in both readings of a two-exit den.
"""

from __future__ import annotations

import random
from itertools import product

import pytest

from games.savernake_forest import ENGINE, cards, legality, scoring
from games.savernake_forest.cards import SLOTS

from . import NAMES


def reference_legal_moves(state: dict, seat: int) -> list[dict]:
    if legality.current(state) != seat:
        return []
    forest = state["forests"][seat]
    moves = []
    for slot in SLOTS:
        card = state["market"][slot]
        if card is None:
            continue
        for x, y in scoring.open_cells(forest):
            for rot in cards.ROTATIONS:
                trial = [*forest, legality.new_entry(card, x, y, rot)]
                groups = legality.shared_groups(state, trial)
                for keep in _keeps(state, groups):
                    resolved = trial
                    if groups:
                        resolved = scoring.turn_down(trial, {a for group in groups for a in group} - set(keep))
                    for token in legality.token_options(state, slot, resolved):
                        move = {"slot": slot, "x": x, "y": y, "rot": rot}
                        if groups:
                            move["keep"] = sorted(keep)
                        if token is not None:
                            move["token"] = token
                        moves.append(move)
    return moves


def _keeps(state: dict, groups: list[list[str]]) -> list:
    """One survivor per path; with a path per exit, every set of animals that settles the paths, by brute force."""
    if state["options"]["two_exit_den"] != "path_per_exit" or not groups:
        return list(product(*groups))
    animals = sorted({card for group in groups for card in group})
    chosen = [[card for i, card in enumerate(animals) if mask >> i & 1] for mask in range(1 << len(animals))]
    return [keep for keep in chosen if scoring.settle(groups, keep) is not None]


IMMEDIATE = {"shared_path_resolution": "immediate"}
PLANS = [
    (2, IMMEDIATE),
    (3, IMMEDIATE),
    (4, IMMEDIATE),
    (2, {**IMMEDIATE, "two_player_market": "persistent"}),
    (3, {**IMMEDIATE, "two_exit_den": "path_per_exit"}),
    (3, {}),
]


@pytest.mark.parametrize(("players", "options"), PLANS)
@pytest.mark.parametrize("seed", [0, 1])
def test_the_listing_is_the_one_trying_every_placement_gave(players, options, seed):
    rng = random.Random(seed)
    state = ENGINE.setup(NAMES[:players], options, f"listing-{seed}")
    positions = 0
    while ENGINE.to_move(state):
        seat = ENGINE.to_move(state)[0]
        moves = ENGINE.legal_moves(state, seat)
        assert moves == reference_legal_moves(state, seat)
        # Prefer moves that share a path, so that forests with several animals on nearby paths come up.
        sharing = [move for move in moves if "keep" in move]
        state, _ = ENGINE.apply(state, seat, rng.choice(sharing if sharing and rng.random() < 0.5 else moves))
        positions += 1
    assert positions >= 30


def test_paths_tell_what_a_card_would_share_as_the_whole_forest_does():
    # Shared paths pile up when they are resolved only at the end: these games place cards that join
    # an already shared path, and (seed 14) one card that makes two shared paths at once.
    checked, most = 0, 0
    for seed, per_exit in ((3, False), (14, False), (3, True), (14, True)):
        rng = random.Random(seed)
        state = ENGINE.setup(NAMES[:2], {"shared_path_resolution": "end_of_game"}, f"paths{seed}")
        while ENGINE.to_move(state):
            seat = ENGINE.to_move(state)[0]
            forest = state["forests"][seat]
            paths = scoring.Paths(forest, per_exit)
            for card in [c for c in state["market"].values() if c is not None]:
                for x, y in scoring.open_cells(forest):
                    for rot in cards.ROTATIONS:
                        expected = scoring.shared([*forest, legality.new_entry(card, x, y, rot)], per_exit)
                        assert paths.shared_after(card, x, y, rot) == expected
                        checked, most = checked + 1, max(most, len(expected))
            state, _ = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_moves(state, seat)))
    assert checked > 1000 and most >= 2


def test_a_listing_walks_the_forest_once(monkeypatch):
    walks = []
    original = scoring.nodes
    monkeypatch.setattr(scoring, "nodes",
                        lambda forest, per_exit=False: walks.append(len(forest)) or original(forest, per_exit))
    rng = random.Random(5)
    state = ENGINE.setup(NAMES[:3], IMMEDIATE, "walks")
    while ENGINE.to_move(state):
        seat = ENGINE.to_move(state)[0]
        walks.clear()
        moves = ENGINE.legal_moves(state, seat)
        assert len(walks) <= 1, f"{len(walks)} walks of the forest for {len(moves)} moves"
        state, _ = ENGINE.apply(state, seat, rng.choice(moves))
