"""The cards and tiles each game offers its players to mark in their private notes (``Engine.mark_spots``, issue 46):
read from a seat's view alone (so they tell nothing hidden), each spot once and named, in every position of random
play, for every seat; and what each game offers, as its rules file would expect."""

from __future__ import annotations

import random

import pytest

from games import get_engine
from games.base import Engine

SLUGS = ("halali", "love-letter", "carcassonne-hg", "savernake-forest")


def _positions(slug: str, seed: int, moves: int = 40):
    engine = get_engine(slug)
    rng = random.Random(seed)
    state = engine.setup(["ann", "ben"], {}, f"marks-{seed}")
    for _ in range(moves):
        yield engine, state
        if engine.result(state) is not None:
            return
        seat = engine.to_move(state)[0]
        state, _events = engine.apply(state, seat, rng.choice(engine.legal_moves(state, seat)))


@pytest.mark.parametrize("slug", SLUGS)
def test_every_spot_is_read_from_the_view_once_and_named(slug):
    for seed in range(3):
        for engine, state in _positions(slug, seed):
            for seat in (0, 1):
                view = engine.view(state, seat)
                spots = engine.mark_spots(view)
                ids = [spot for spot, _ in spots]
                assert len(ids) == len(set(ids)), "each spot once"
                assert all(name and len(spot) <= 60 for spot, name in spots)
                assert engine.mark_spots(engine.view(state, seat)) == spots, "the view alone decides"


def test_what_each_game_offers():
    def first_spots(slug: str) -> list[str]:
        engine, state = next(_positions(slug, 0))
        return [spot for spot, _ in engine.mark_spots(engine.view(state, 0))]

    assert first_spots("love-letter") == ["hand:1"], "the other player's hand, never one's own"
    assert len(first_spots("halali")) == 48 and "square:d4" not in first_spots("halali"), "every tile; d4 is empty"
    assert first_spots("carcassonne-hg") == ["tile:0,0"], "the start tile"
    assert first_spots("savernake-forest") == ["card:0:0,0", "card:1:0,0"], "each forest's first card"
    assert Engine.mark_spots(get_engine("halali"), {}) == [], "a game that says nothing offers nothing"
