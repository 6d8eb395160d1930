"""The full reveal each game gives once it is over (``Engine.view_after_end``), as its rules file allows.

Love Letter (rules §7.6): every hand, the set-aside card, the deck order, every private event.
Halali! (rules §10): every tile still face down. Carcassonne H&G (rules §5.1): both stacks in
drawing order. Savernake Forest (rules §12): both decks in dealing order. Each is checked at a
position in play, where the spectator's view hides exactly these.
"""

from __future__ import annotations

import random

from games import get_engine
from games.love_letter.player_view import revealed_lines
from games.halali import board as halali_board


def played(slug: str, moves: int, players: int = 2, seed: str = "reveal"):
    engine = get_engine(slug)
    state = engine.setup([f"p{i}" for i in range(players)], engine.validate_options(players, {}), seed)
    rng = random.Random(3)
    for _ in range(moves):
        seat = engine.to_move(state)[0]
        state, _ = engine.apply(state, seat, rng.choice(engine.legal_moves(state, seat)))
    return engine, state


def test_love_letter_shows_every_hand_the_set_aside_card_the_deck_and_the_private_events():
    engine, state = played("love-letter", 3, players=3)
    spectator = engine.view(state, None)
    revealed = engine.view_after_end(state)["revealed"]
    assert "revealed" not in spectator and spectator["hand"] is None
    assert [entry["cards"] for entry in revealed["hands"]] == state["hands"]
    assert [entry["name"] for entry in revealed["hands"]] == ["p0", "p1", "p2"]
    assert revealed["set_aside"] == state["set_aside"] and revealed["set_aside"] is not None
    assert revealed["deck"] == state["deck"] and len(revealed["deck"]) == spectator["deck_count"]
    private = [entry for entry in state["private"] if entry["kind"] == "drew_card"]
    assert private and len(revealed["private_log"]) == len(state["private"])
    # The reveal holds the events' data (views hold no words); the board words them for its reader.
    lines = revealed_lines(engine.view_after_end(state))
    assert any(f"drew the {entry['data']['card'].capitalize()}" in line["text"] for entry in private for line in lines)


def test_halali_shows_every_face_down_tile_with_a_hunters_rifle():
    engine, state = played("halali", 4)
    spectator = engine.view(state, None)
    revealed = engine.view_after_end(state)["revealed"]["face_down"]
    assert sorted(revealed) == sorted(spectator["face_down"]) and len(revealed) > 40
    for square, tile in revealed.items():
        cell = state["board"][halali_board.index(square)]
        assert tile["kind"] == cell["kind"] and tile.get("dir") == cell.get("dir")
    assert any("dir" in tile for tile in revealed.values())


def test_carcassonne_shows_both_stacks_in_drawing_order():
    engine, state = played("carcassonne-hg", 3)
    spectator = engine.view(state, None)
    revealed = engine.view_after_end(state)["revealed"]
    assert [entry["tile"] for entry in revealed["stack"]] == state["stack"]
    assert len(revealed["stack"]) == spectator["stack_count"] > 0
    assert [entry["tile"] for entry in revealed["bonus_stack"]] == state["bonus_stack"]
    # The view names no tile in words (views hold no words): the board names them for its reader.
    assert all(entry.keys() == {"tile"} for entry in revealed["stack"])


def test_savernake_shows_both_decks_in_dealing_order_with_every_card_described():
    engine, state = played("savernake-forest", 2)
    spectator = engine.view(state, None)
    shown = engine.view_after_end(state)
    assert shown["revealed"] == {"paths": state["path_deck"], "animals": state["animal_deck"]}
    assert len(shown["revealed"]["paths"]) == spectator["decks"]["paths"] > 0
    hidden = set(state["path_deck"]) | set(state["animal_deck"])
    assert hidden <= set(shown["cards"]) and not hidden & set(spectator["cards"])
